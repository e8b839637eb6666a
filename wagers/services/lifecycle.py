"""A hand's life: the one state machine every status change goes through, the locked path every
hand service enters by, starting a hand (R16's rotation, R13's bank) and cancelling one.

Every hand service is one transaction that locks, in this order, the table (only to start a
hand), the hand, the seatings whose stacks move (ascending id), and last the audit chain. A hand
moves ``open → wagering → dealt → decisions → settled`` or becomes ``dead``, through
``hand_transition`` only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from decimal import Decimal
from enum import StrEnum

from django.contrib.auth.models import User
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError, NotFound
from core.money import money, money_text
from core.permissions import require_supervisor, require_table_staff
from core.prepared import PreparedRead
from core.transactions import change_atomic
from engine import RoundError
from engine.fees import RakeMode, dealer_fee
from tables import selectors as table_selectors
from tables.models import (
    GameStop,
    RotationRecord,
    Seating,
    StackEntry,
    Table,
    TableSession,
    TableSettings,
)
from tables.rotation import (
    designated_player_rotate,
    game_stopped,
    no_designated_player,
    rotation_window_check,
)
from tables.services.locks import table_lock_open
from tables.services.racks import rack_require_counted
from tables.services.stacks import stack_entry_add
from wagers.models import Hand, Spot

from .booking import booked_now, move_stacks

S = Hand.Status


TRANSITIONS: dict[str, set[str]] = {
    S.OPEN: {S.WAGERING, S.DEAD},
    S.WAGERING: {S.WAGERING, S.DEALT, S.DEAD},
    S.DEALT: {S.DECISIONS, S.SETTLED, S.DEAD},  # straight to settled when no live spot is left
    S.DECISIONS: {S.DECISIONS, S.SETTLED, S.DEAD},
}


def hand_transition(hand: Hand, to: str) -> None:
    """The one place a hand's state changes; any move not in TRANSITIONS is refused."""
    if to not in TRANSITIONS.get(hand.status, set()):
        raise Conflict(
            f"Hand {hand.number} is {hand.status}: it cannot become {to}.", field="status"
        )
    hand.status = to


class Step(StrEnum):
    """What may be done next with a hand, and the services that do it."""

    BANK = "bank"  # hand_dp_bank_set
    WAGER = "wager"  # wager_place, wagers_place_many
    DEAL = "deal"  # hand_deal, hand_cards_enter
    DECIDE = "decide"  # spot_decide, decisions_record_many
    SETTLE = "settle"  # hand_settle (and hand_decide_and_settle, DECIDE then SETTLE)
    DEAD_SPOT = "dead_spot"  # spot_declare_dead
    MISDEAL = "misdeal"  # hand_declare_misdeal
    CANCEL = "cancel"  # hand_cancel


#: The status each step moves a hand to: a step is open only where TRANSITIONS allows that
#: move. None: the step keeps the status (any hand in progress, its guard permitting).
STEP_MOVES: dict[Step, str | None] = {
    Step.BANK: None,
    Step.WAGER: S.WAGERING,
    Step.DEAL: S.DEALT,
    Step.DECIDE: S.DECISIONS,
    Step.SETTLE: S.SETTLED,
    Step.DEAD_SPOT: None,
    Step.MISDEAL: S.DEAD,
    Step.CANCEL: S.DEAD,
}


def hand_next_steps(hand: Hand, spots: Iterable[Spot] | None = None) -> frozenset[Step]:
    """The steps the hand services would take now (a pure reading: ``spots`` are the hand's,
    read here when not given). A step is open where TRANSITIONS allows its move and the
    service's guard on the spots holds; a settled or dead hand has none. Who may take them
    (the dealer on duty, the floor) is the services' own check, not this one."""
    if hand.status not in Hand.IN_PROGRESS:
        return frozenset()
    spots = list(hand.spots.all() if spots is None else spots)
    undecided = any(not spot.dead_reason and not spot.decision for spot in spots)
    guards = {
        # R13: the DP's bank is set before the first wager.
        Step.BANK: hand.status == S.OPEN and not spots and hand.dp_seating_id is not None,
        Step.DECIDE: undecided,
        Step.SETTLE: not undecided,
        Step.DEAD_SPOT: undecided,  # R14: declared before the spot acts
        Step.MISDEAL: bool(spots),  # a round nobody wagered on is cancelled, not misdealt
        Step.CANCEL: not spots,
    }
    allowed = TRANSITIONS[hand.status]
    return frozenset(
        step
        for step, to in STEP_MOVES.items()
        if (to is None or to in allowed) and guards.get(step, True)
    )


def hand_start(
    *,
    table: Table,
    by: User,
    dp_bank: object = None,
    refusals: tuple[int, ...] = (),
    draw_cards: Mapping[int, str] | None = None,
) -> Hand:
    """Start the next hand: the rotation names the DP (R16), who puts ``dp_bank`` in action —
    by default the whole stack, never more (R13). The hand keeps the settings version it
    starts under (R17). When nobody accepts the position the offers are still recorded.

    R16 (2026): a stopped game starts no hand until a floor supervisor restarts it; and as
    each hand starts, the rotation window of the settings it starts under, ending now, is
    judged: fewer than two holders stop the game (the stop is recorded, the hand refused)."""
    stop: GameStop | None = None
    with change_atomic():
        table, session = table_lock_open(table, by=by, action="start a hand")
        rack_require_counted(table, session, field="table", action="start a hand")
        if (stopped := table_selectors.game_stop_open(table)) is not None:
            raise game_stopped(stopped)
        # A hand starts only when none is in progress, and numbers grow: a hand in progress is
        # the table's latest (one read gives both the check and the next number).
        latest = _LATEST_HAND.first(table.pk)
        if latest is not None and latest.status in Hand.IN_PROGRESS:
            raise Conflict(f"{table} has a hand in progress: settle it first.")
        number = (latest.number if latest is not None else 0) + 1
        record = None
        settings = table_selectors.current_settings(table)
        if table.banking == "designated_player":
            stop = rotation_window_check(table, session, settings, by)
            if stop is None:
                record = designated_player_rotate(
                    table=table,
                    by=by,
                    refusals=refusals,
                    draw_cards=draw_cards,
                    locked=(table, session, settings),
                )
        elif refusals or draw_cards:
            raise DomainError("A house-banked table has no designated player.", field="refusals")
        if stop is None and (record is None or record.designated_player is not None):
            return _create_hand(table, session, settings, record, dp_bank, by, number=number)
    # The stop, or the offers nobody accepted, were committed above; no hand starts (R16).
    if stop is not None:
        raise game_stopped(stop)
    assert record is not None
    raise no_designated_player(record)


def _create_hand(
    table: Table,
    session: TableSession,
    settings: TableSettings,
    record: RotationRecord | None,
    dp_bank: object,
    by: User,
    *,
    number: int,
) -> Hand:
    hand = Hand(
        table=table,
        session=session,
        number=number,
        settings=settings,
        rotation=record,
        started_by=by,
        started_at=timezone.now(),
    )
    if record is not None and record.designated_player_id is not None:
        dp = record.designated_player  # locked and read by the rotation, in this transaction
        assert dp is not None
        dp.table = table  # the locked table, with its cardroom: the bank's entry books by it
        bank = dp.stack if dp_bank is None else money(dp_bank, field="dp_bank")
        least = max(settings.dp_min_bank, _dp_fee(settings))
        if not least <= bank <= dp.stack:
            raise DomainError(
                f"The designated player's bank must be between ${money_text(least)} and the "
                f"stack ${money_text(dp.stack)} (R12, R13).",
                field="dp_bank",
            )
        hand.dp_seating, hand.dp_bank = dp, bank
    hand.save()
    if hand.dp_seating is not None and hand.dp_bank:
        stack_entry_add(
            seating=hand.dp_seating, amount=-hand.dp_bank, reason=StackEntry.Reason.DP_BANK, by=by
        )
    audit_record(
        actor=by,
        action=AuditAction.HAND_STARTED,
        target=hand,
        payload={
            "table": table.pk,
            "number": hand.number,
            "settings_version": settings.version,
            "dp_seat": hand.dp_seating.seat if hand.dp_seating else None,
            "dp_bank": hand.dp_bank,
        },
    )
    return hand


@change_atomic()
def hand_cancel(*, hand: Hand, by: User) -> Hand:
    """A hand nobody wagered on ends without a deal: the DP's bank goes back."""
    hand = locked_hand(hand, by, "cancel a hand")
    if hand.spots.exists():
        raise Conflict(
            f"Hand {hand.number} has wagers: settle it, or declare a misdeal (R14).",
            field="status",
        )
    hand_transition(hand, S.DEAD)
    hand.settled_at = timezone.now()
    hand.save(update_fields=["status", "settled_at"])
    if hand.dp_seating_id and hand.dp_bank:
        span = booked_now(hand.table).span
        move_stacks({hand.dp_seating_id: hand.dp_bank}, StackEntry.Reason.DP_BANK, by, span)
    audit_record(
        actor=by, action=AuditAction.HAND_CANCELLED, target=hand, payload={"number": hand.number}
    )
    return hand


@change_atomic()
def hand_dp_bank_set(*, hand: Hand, dp_bank: object, by: User) -> Hand:
    """The DP's bank, asked for once the rotation has named the DP (R13): while the hand is
    open and nobody has wagered, the bank taken at the start (the whole stack by default)
    becomes ``dp_bank``; the difference goes back to (or comes off) the DP's stack."""
    hand = locked_hand(hand, by, "set the DP's bank")
    if hand.dp_seating_id is None or hand.dp_bank is None:
        raise Conflict("This hand has no designated player: the house banks it.", field="dp_bank")
    if hand.status != S.OPEN or hand.spots.exists():
        raise Conflict(
            f"Hand {hand.number} has wagers: the DP's bank is set before the first wager.",
            field="dp_bank",
        )
    dp = Seating.objects.select_for_update().get(pk=hand.dp_seating_id)
    chips = dp.stack + hand.dp_bank  # the stack as it was before the bank came off it
    bank = money(dp_bank, field="dp_bank")
    least = max(hand.settings.dp_min_bank, _dp_fee(hand.settings))
    if not least <= bank <= chips:
        raise DomainError(
            f"The designated player's bank must be between ${money_text(least)} and the "
            f"stack ${money_text(chips)} (R12, R13).",
            field="dp_bank",
        )
    was = hand.dp_bank
    if bank != was:
        stack_entry_add(seating=dp, amount=was - bank, reason=StackEntry.Reason.DP_BANK, by=by)
        hand.dp_bank = bank
        hand.save(update_fields=["dp_bank"])
    audit_record(
        actor=by,
        action=AuditAction.HAND_DP_BANK_SET,
        target=hand,
        payload={"number": hand.number, "dp_seat": dp.seat, "dp_bank": bank, "was": was},
    )
    return hand


#: The table's latest hand: its number, and whether it is still in progress.
_LATEST_HAND = PreparedRead(
    lambda key: Hand.objects.filter(table_id=key).only("number", "status").order_by("-number")
)
#: Every hand service's first read (compiled once: core.prepared).
_LOCKED_HAND = PreparedRead(
    lambda key: (
        Hand.objects.select_for_update(of=("self",))
        .select_related("table__cardroom", "settings", "session", "dp_seating")
        .filter(pk=key)
    )
)


def locked_hand(
    hand: Hand,
    by: User,
    action: str,
    *,
    settled_ok: bool = False,
    supervisor_only: bool = False,
) -> Hand:
    """The way into every hand service: the hand's row lock, first in the lock order (then the
    seatings by id, then the audit chain), and the actor's role for ``action`` — a floor
    supervisor or the dealer on duty at the table, or with ``supervisor_only`` a floor
    supervisor alone (R17). Unless ``settled_ok``, the hand must be in progress."""
    locked = _LOCKED_HAND.first(hand.pk)
    if locked is None:
        raise NotFound(f"There is no hand {hand.pk}.")
    hand = locked
    if supervisor_only:
        require_supervisor(by, action=action)
    else:
        require_table_staff(by, _open_session(hand), action=action)
    if not settled_ok and hand.status not in Hand.IN_PROGRESS:
        raise Conflict(f"Hand {hand.number} is {hand.status}.", field="status")
    return hand


def _open_session(hand: Hand) -> TableSession | None:
    """The table's open session: the hand's own while it is open (a table has one open session
    at most), without another query; else whichever is open now."""
    if hand.session.closed_at is None:
        return hand.session
    return table_selectors.open_session(hand.table)


def _dp_fee(settings: TableSettings) -> Decimal:
    return dealer_fee(RakeMode(settings.rake_mode), settings.rake_amount)


@contextmanager
def engine_errors(field: str | None = None) -> Iterator[None]:
    """The engine's RoundError as a DomainError naming the service's own field."""
    try:
        yield
    except RoundError as error:
        raise DomainError(error.message, field=field or error.field) from None
