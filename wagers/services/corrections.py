"""Correcting a settled hand (a floor supervisor's, R17): the entry in force stays, a reversal
undoes its money and a correction books the engine's settlement of the corrected round.

A correction may change cards and decisions (a raise recorded as a fold, a raise's amount:
say, when corrected cards shrink the raise's cap). A changed raise changes what was staked:
the difference comes off (or back onto) the stack with the correction, so that every stack
ends where the corrected hand would have left it, and R15 holds on each entry.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

import engine
from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import ZERO, cents, money
from engine import Decision, RoundError, round_from_json, settle, settlement_to_json
from engine.money import format_amount
from tables.models import StackEntry
from wagers import selectors
from wagers.models import Hand, Settlement, Spot

from .booking import Booked, book, booked_now, move_stacks, rack_settle
from .lifecycle import S, locked_hand


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    by: User,
    reason: str,
    corrects: object,
    dealer_cards: str | None = None,
    spot_cards: Mapping[int, str] | None = None,
    decisions: Mapping[int, Mapping[str, Any]] | None = None,
) -> Settlement:
    """A floor supervisor corrects a settled hand (wrong cards entered, a wrong decision): the
    settlement in force stays, a reversal entry undoes its money and a correction entry books
    the new settlement, computed by the engine from the corrected round. ``decisions`` maps a
    seat to ``{"decision": "raise" | "fold" | "walked_away", "raise_amount": ...}``. Only a
    floor supervisor corrects (R17), through the same locked path as every hand service.
    ``corrects``: the entry the correction was made from (``_settlement_to_correct``)."""
    hand = locked_hand(hand, by, "correct a settled hand", settled_ok=True, supervisor_only=True)
    in_force = _settlement_to_correct(hand, reason, corrects)
    corrected_round = _corrected_round(in_force.round, dealer_cards, spot_cards or {})
    changed = _corrected_decisions(corrected_round, decisions or {})
    corrected = _settled_correction(corrected_round)
    result = settlement_to_json(corrected)
    if result == in_force.result:
        raise DomainError("The correction changes no result.", field="cards")
    spots = list(hand.spots.select_related("seating").order_by("seat"))
    corrected_spots, staked_more = _corrected_spots(spots, changed)
    reason = reason.strip()
    # Booked now, on the current gaming day and shift; naming the one the hand was settled
    # in when it is another (a closed day keeps its figures: the cage shows the adjustment).
    when = booked_now(hand.table, adjusts=hand.settlements.get(kind=Settlement.Kind.ORIGINAL))
    reversal, undone = book(
        hand,
        spots,
        _settled_again(hand, in_force),
        round_=in_force.round,
        result=in_force.result,
        kind=Settlement.Kind.REVERSAL,
        by=by,
        reverses=in_force,
        reason=reason,
        when=when,
    )
    correction, redone = book(
        hand,
        corrected_spots,
        corrected,
        round_=corrected_round,
        result=result,
        kind=Settlement.Kind.CORRECTION,
        by=by,
        reason=reason,
        when=when,
    )
    _move_differences(undone, redone, staked_more, by, when)
    rack_settle(hand, reversal, correction)
    changed_spots = [spot for spot in corrected_spots if spot.seat in changed]
    for spot in changed_spots:  # the play in force; the original is in entry 1's round
        spot.save(update_fields=["decision", "raise_amount"])
    _audit_correction(hand, by, reason, (reversal, correction), corrected, changed_spots, when)
    return correction


def _settlement_to_correct(hand: Hand, reason: str, corrects: object) -> Settlement:
    """The settlement in force, once the hand is locked, and the correction says why.

    ``corrects`` is the id of the settlement entry the correction was made from: the hand's
    latest. Once the hand is locked it must still be the one in force, so that of two
    corrections made from the same entry at once the second is refused (409, ``corrects``)
    instead of correcting a settlement its author never saw."""
    if not reason or not reason.strip():
        raise DomainError("Say why the hand is corrected.", field="reason")
    in_force = selectors.settlement_in_force(hand)
    if hand.status != S.SETTLED or in_force is None:
        raise Conflict(f"Hand {hand.number} is {hand.status}: only a settled hand is corrected.")
    _require_in_force(hand, in_force, corrects)
    return in_force


def _settled_correction(corrected_round: dict[str, Any]) -> engine.Settlement:
    """The engine's settlement of the corrected round; a refusal names the correction's own
    input, not the round's path."""
    try:
        return settle(round_from_json(corrected_round))
    except RoundError as error:
        field = _correction_field(corrected_round, error.field)
        raise DomainError(error.message, field=field) from None


def _move_differences(
    undone: dict[int, Decimal],
    redone: dict[int, Decimal],
    staked_more: dict[int, Decimal],
    by: User,
    when: Booked,
) -> None:
    """One movement per stack, the difference (a changed raise's stake included): a stack is
    judged on where it ends up."""
    seatings = undone.keys() | redone.keys() | staked_more.keys()
    move_stacks(
        {
            pk: undone.get(pk, ZERO) + redone.get(pk, ZERO) - staked_more.get(pk, ZERO)
            for pk in seatings
        },
        StackEntry.Reason.CORRECTION,
        by,
        when.span,
    )


def _audit_correction(
    hand: Hand,
    by: User,
    reason: str,
    entries: tuple[Settlement, Settlement],
    corrected: engine.Settlement,
    changed_spots: list[Spot],
    when: Booked,
) -> None:
    reversal, correction = entries
    audit_record(
        actor=by,
        action=AuditAction.HAND_CORRECTED,
        target=hand,
        payload={
            "reason": reason,
            "reversal": reversal.entry,
            "correction": correction.entry,
            "spots": {str(line.seat): format_amount(line.net) for line in corrected.spots},
            "decisions": {
                str(spot.seat): {"decision": spot.decision, "raise": spot.raise_amount}
                for spot in changed_spots
            },
            "adjusts_day": when.adjusts_day,
            "adjusts_shift": when.adjusts_shift,
        },
    )


def _require_in_force(hand: Hand, in_force: Settlement, corrects: object) -> None:
    if isinstance(corrects, bool) or not isinstance(corrects, int):
        raise DomainError(
            "Name the settlement entry corrected: its id, the hand's latest entry.",
            field="corrects",
        )
    if corrects == in_force.pk:
        return
    older = hand.settlements.filter(pk=corrects).values_list("entry", flat=True).first()
    if older is None:
        raise DomainError(
            f"Hand {hand.number} has no settlement entry {corrects}.", field="corrects"
        )
    raise Conflict(
        f"Entry {older} of hand {hand.number} is no longer the settlement in force: entry "
        f"{in_force.entry} (id {in_force.pk}) by {in_force.created_by.get_username()} is. "
        "Start again from it.",
        field="corrects",
    )


def _settled_again(hand: Hand, in_force: Settlement) -> engine.Settlement:
    """The engine's settlement of the entry in force, which its reversal undoes: the entry's
    stored round settled again. The engine answers a stored round with its stored result (what
    ``settle_round`` lets anyone check); should it not, reversing its answer would undo other
    money than was booked, so the correction is refused and nothing changes."""
    try:
        settled = settle(round_from_json(in_force.round))
    except RoundError:
        settled = None
    if settled is None or settlement_to_json(settled) != in_force.result:
        raise Conflict(
            f"Settlement entry {in_force.entry} of hand {hand.number} is not what the engine "
            "answers on its stored round, so it cannot be reversed exactly; nothing was "
            "corrected."
        )
    return settled


def _correction_field(round_: dict[str, Any], path: str) -> str:
    """``dealer.cards`` → ``dealer_cards``, ``spots[1].cards`` → ``cards.<its seat>``: the
    fields ``hand_cards_enter`` names, so that a refused correction points at what was given."""
    if path == "dealer.cards":
        return "dealer_cards"
    if path.startswith("spots[") and path.endswith("].cards"):
        return f"cards.{round_['spots'][int(path[6:-7])]['seat']}"
    for suffix in ("].raise", "].decision"):
        if path.startswith("spots[") and path.endswith(suffix):
            return f"decisions.{round_['spots'][int(path[6 : -len(suffix)])]['seat']}"
    return path


def _corrected_round(
    original: dict[str, Any], dealer_cards: str | None, spot_cards: Mapping[int, str]
) -> dict[str, Any]:
    """The stored round with the corrected cards; only a spot that had cards gets new ones."""
    round_ = {
        **original,
        "dealer": dict(original["dealer"]),
        "spots": [dict(s) for s in original["spots"]],
    }
    if dealer_cards is not None:
        round_["dealer"]["cards"] = dealer_cards
    seats = {spot["seat"]: spot for spot in round_["spots"]}
    for seat, cards in spot_cards.items():
        if seat not in seats or "cards" not in seats[seat]:
            raise DomainError(f"Seat {seat} had no cards in this hand.", field=f"cards.{seat}")
        seats[seat]["cards"] = cards
    return round_


def _corrected_decisions(
    round_: dict[str, Any], decisions: Mapping[int, Mapping[str, Any]]
) -> dict[int, tuple[str, Decimal]]:
    """Put the corrected decisions into ``round_`` (a spot that decided may be corrected;
    a dead spot took none) and return them by seat: ``(decision, raise amount)``."""
    seats = {spot["seat"]: spot for spot in round_["spots"]}
    changed: dict[int, tuple[str, Decimal]] = {}
    for seat, given in decisions.items():
        field = f"decisions.{seat}"
        spot = seats.get(seat)
        if spot is None or "decision" not in spot:
            raise DomainError(f"Seat {seat} took no decision in this hand.", field=field)
        decision = str(given.get("decision", ""))
        if decision not in {d.value for d in Decision}:
            raise DomainError("The decision is raise, fold or walked_away (R8).", field=field)
        amount = ZERO
        if decision == Decision.RAISE:
            amount = money(given.get("raise_amount"), field=field)
            spot["raise"] = format_amount(cents(amount))
        elif given.get("raise_amount"):
            raise DomainError("Only a raise has an amount (R8).", field=field)
        else:
            spot.pop("raise", None)
        spot["decision"] = decision
        changed[seat] = (decision, amount)
    return changed


def _corrected_spots(
    spots: list[Spot], changed: dict[int, tuple[str, Decimal]]
) -> tuple[list[Spot], dict[int, Decimal]]:
    """The spots as the corrected round plays them (copies, saved once booked), and by
    seating how much more each stakes (negative: less) than the play in force."""
    corrected: list[Spot] = []
    staked_more: dict[int, Decimal] = {}
    for spot in spots:
        if spot.seat not in changed:
            corrected.append(spot)
            continue
        twin = copy.copy(spot)
        twin.decision, twin.raise_amount = changed[spot.seat]
        more = twin.raise_amount - spot.raise_amount
        staked_more[spot.seating_id] = staked_more.get(spot.seating_id, ZERO) + more
        corrected.append(twin)
    return corrected, {pk: more for pk, more in staked_more.items() if more}
