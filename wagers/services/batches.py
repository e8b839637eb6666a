"""A whole hand's wagers (R5–R7) and decisions (R8) in one call each: a hand in five requests.

Each batch applies the rules of the one-spot service (``play.wager_place``,
``play.spot_decide``) spot after spot, each placed spot counting for the next, in one
transaction and a fixed number of queries whatever the number of spots: every spot or none.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Q

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError
from core.money import ZERO
from core.transactions import change_atomic
from core.updates import set_by_pk
from engine.table import MAX_SPOTS
from tables.models import Seating, StackEntry
from wagers import selectors
from wagers.models import Hand, Spot

from .booking import booked_now, move_stacks
from .lifecycle import S, hand_transition, locked_hand
from .play import Wagering, decide, wager_payload


@contextmanager
def _spot_errors(index: int) -> Iterator[None]:
    """A refusal of the ``index``-th spot of a batch names ``spots[index].<field>``."""
    try:
        yield
    except DomainError as error:
        field = f"spots[{index}].{error.field}" if error.field else f"spots[{index}]"
        raise type(error)(error.message, field=field, code=error.code) from None


def _batch(items: Sequence[Mapping[str, Any]], what: str) -> None:
    if not items:
        raise DomainError(f"Name at least one spot's {what}.", field="spots")
    if len(items) > MAX_SPOTS:
        raise DomainError(f"A round has at most {MAX_SPOTS} spots (R1).", field="spots")


WAGER_KEYS = frozenset({"seating", "seat", "ante", "flush_bonus", "straight_flush_bonus"})
DECISION_KEYS = frozenset({"seat", "decision", "raise_amount"})


def _keys(item: Mapping[str, Any], known: frozenset[str]) -> None:
    for key in item:
        if key not in known:
            raise DomainError(f"Unknown field '{key}'.", field=str(key))


def _pk(ref: object) -> object:
    return ref.pk if isinstance(ref, Seating) else ref


@change_atomic()
def wagers_place_many(*, hand: Hand, wagers: Sequence[Mapping[str, Any]], by: User) -> list[Spot]:
    """Every spot's ante and bonuses of a hand at once, by the rules of ``wager_place`` (R5–R7)
    applied spot after spot (each placed spot counts for the next), in one transaction: if any
    spot is refused none is placed, and the refusal names ``spots[i].<field>``. Each wager:
    ``seating`` (a Seating or its id; or none, and ``seat``: whoever sits there), optionally
    ``seat``, ``ante``, ``flush_bonus``, ``straight_flush_bonus``. A fixed number of queries
    whatever the number of spots: the stacks move in one UPDATE and one INSERT, and one audit
    event lists every spot."""
    hand = locked_hand(hand, by, "take wagers")
    _batch(wagers, "wager")
    seatings, sitting = _locked_seatings(hand, wagers)
    hand_transition(hand, S.WAGERING)
    play = Wagering.of(hand, sitting, by=by)
    spots: list[Spot] = []
    moves: dict[int, Decimal] = {}
    for index, wager in enumerate(wagers):
        with _spot_errors(index):
            _keys(wager, WAGER_KEYS)
            if wager.get("seating") is None:  # the player sitting at ``seat`` (R5)
                seating = sitting.get(wager.get("seat"))  # type: ignore[arg-type]
                if seating is None:
                    raise DomainError("Nobody sits at that seat.", field="seat")
            else:
                seating = seatings.get(_pk(wager["seating"]))
                if seating is None:
                    raise DomainError("No such seating.", field="seating")
            spot, stakes = play.spot(
                seating,
                wager.get("seat"),
                wager.get("ante"),
                wager.get("flush_bonus", ZERO),
                wager.get("straight_flush_bonus", ZERO),
            )
            spots.append(spot)
            moves[seating.pk] = moves.get(seating.pk, ZERO) - stakes
    Spot.objects.bulk_create(spots)
    selectors.spots_kept(hand, play.spots)  # the hand's spots before and the new ones
    hand.save(update_fields=["status"])
    span = booked_now(hand.table).span
    move_stacks(moves, StackEntry.Reason.WAGER, by, span, locked=_by_pk(seatings))
    audit_record(
        actor=by,
        action=AuditAction.HAND_WAGER_PLACED,
        target=hand,
        payload={"spots": [wager_payload(spot) for spot in spots]},
    )
    return spots


def _by_pk(seatings: Mapping[object, Seating]) -> dict[int, Seating]:
    return {seating.pk: seating for seating in seatings.values()}


def _locked_seatings(
    hand: Hand, wagers: Sequence[Mapping[str, Any]]
) -> tuple[dict[object, Seating], dict[int, Seating]]:
    """The seatings a batch of wagers names by id, and everybody seated at the hand's table (by
    seat: a wager may name only its seat, and R6 looks at who sits where); locked in one
    query, in id order (the project's lock order)."""
    ids = []
    for wager in wagers:
        ref = _pk(wager.get("seating"))
        if isinstance(ref, int) and not isinstance(ref, bool):
            ids.append(ref)
    named = Q(pk__in=ids) | Q(table_id=hand.table_id, left_at=None)
    locked = Seating.objects.select_for_update().select_related("player").filter(named)
    seatings: dict[object, Seating] = {s.pk: s for s in locked.order_by("pk")}
    sitting = {
        s.seat: s for s in seatings.values() if s.table_id == hand.table_id and s.left_at is None
    }
    return seatings, sitting


@change_atomic()
def decisions_record_many(
    *, hand: Hand, decisions: Sequence[Mapping[str, Any]], by: User
) -> list[Spot]:
    """Every spot's decision of a hand at once, by the rules of ``spot_decide`` (R8), in one
    transaction: if any is refused none is recorded, and the refusal names
    ``spots[i].<field>``. Each decision: ``seat``, ``decision``, optionally ``raise_amount``.
    A fixed number of queries whatever the number of spots."""
    hand = locked_hand(hand, by, "record a decision")
    _batch(decisions, "decision")
    spots = {spot.seat: spot for spot in selectors.spots_of(hand)}
    ids = {spot.seating_id for spot in spots.values()}
    seatings = {
        s.pk: s for s in Seating.objects.select_for_update().filter(pk__in=ids).order_by("pk")
    }
    hand_transition(hand, S.DECISIONS)
    decided: list[Spot] = []
    moves: dict[int, Decimal] = {}
    for index, item in enumerate(decisions):
        with _spot_errors(index):
            _keys(item, DECISION_KEYS)
            seat = item.get("seat")
            spot = spots.get(seat)  # type: ignore[arg-type]
            if spot is None:
                raise DomainError(f"Seat {seat} has no spot in hand {hand.number}.", field="seat")
            seating = seatings[spot.seating_id]
            live = sum(
                1 for s in spots.values() if s.seating_id == seating.pk and not s.dead_reason
            )
            stack = seating.stack + moves.get(seating.pk, ZERO)
            amount = decide(
                hand,
                spot,
                seating,
                item.get("decision", ""),
                item.get("raise_amount"),
                live=live,
                stack=stack,
            )
            decided.append(spot)
            moves[seating.pk] = moves.get(seating.pk, ZERO) - amount
    set_by_pk(
        Spot,
        ["decision", "raise_amount"],
        {spot.pk: [spot.decision, spot.raise_amount] for spot in decided},
    )
    selectors.spots_kept(hand, spots.values())
    hand.save(update_fields=["status"])
    move_stacks(moves, StackEntry.Reason.WAGER, by, booked_now(hand.table).span, locked=seatings)
    audit_record(
        actor=by,
        action=AuditAction.HAND_DECISION,
        target=hand,
        payload={
            "spots": [
                {"seat": s.seat, "decision": s.decision, "raise": s.raise_amount} for s in decided
            ]
        },
    )
    return decided
