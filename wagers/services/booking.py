"""Booking a settlement entry: the settlement, its spot and wager lines, the fees (R12) and the
chips onto every stack, in a fixed number of queries whatever the number of spots; R15 on the
books before anything is saved.

The money comes from the engine's ``Settlement`` (integer cents), turned into ``Decimal`` here;
the settle-json of the round and of the result is only stored, as it is, so that anyone can
rerun ``manage.py settle_round`` on an entry and compare.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from functools import partial
from typing import Any, NamedTuple

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

import engine
from core.money import ZERO
from core.updates import add_by_pk
from engine import ConservationError
from engine.money import to_decimal
from engine.results import SpotResult, WagerResult
from rake.models import FeeEntry
from tables import selectors as table_selectors
from tables import shift_selectors
from tables.models import HouseBankEntry, Seating, StackEntry, Table
from tables.selectors import ShiftSpan
from tables.services.racks import rack_value_move
from tables.services.stacks import stack_bounds_check
from wagers.models import (
    BankBooking,
    FeeBooking,
    Hand,
    Settlement,
    Spot,
    SpotSettlement,
    WagerSettlement,
)
from wagers.tasks import value_decisions_enqueue

WAGERS = ("ante", "raise", "flush_bonus", "straight_flush_bonus")


class Booked(NamedTuple):
    """When an entry is booked: the gaming day and shift it falls in, and the day and shift
    it adjusts (a correction of a hand settled in another shift), or ``None``."""

    span: ShiftSpan
    adjusts: tuple[Any, str] | None

    @property
    def adjusts_day(self) -> Any:
        return self.adjusts[0] if self.adjusts else None

    @property
    def adjusts_shift(self) -> str:
        return self.adjusts[1] if self.adjusts else ""


def booked_now(
    table: Table, adjusts: Settlement | None = None, *, started: datetime | None = None
) -> Booked:
    """The gaming day and shift of now at ``table``; with ``adjusts`` (the hand's original
    entry), the day and shift it adjusts, when they are not the current ones. A hand settled
    after the shift it ``started`` in (perhaps closed since) is booked now too and names that
    shift as the one it adjusts: a closed day's figures never change."""
    if adjusts is None and started is not None:
        span, began = shift_selectors.shifts_of(table.cardroom, timezone.now(), started)
        same = (began.day, began.shift) == (span.day, span.shift)
        return Booked(span, None if same else (began.day, began.shift))
    span = table_selectors.shift_of(table.cardroom, timezone.now())
    if adjusts is None or adjusts.gaming_day is None:
        return Booked(span, None)
    if (adjusts.gaming_day, adjusts.shift) == (span.day, span.shift):
        return Booked(span, None)
    return Booked(span, (adjusts.gaming_day, adjusts.shift))


def book(
    hand: Hand,
    spots: list[Spot],
    settled: engine.Settlement,
    *,
    round_: dict[str, Any],
    result: dict[str, Any],
    kind: Settlement.Kind,
    by: User,
    reverses: Settlement | None = None,
    reason: str = "",
    when: Booked | None = None,
) -> tuple[Settlement, dict[int, Decimal]]:
    """Store one settlement entry of ``settled`` (the engine's answer) and its fees, and return
    the chips it moves onto each stack (by seating id). ``round_`` and ``result`` are the same
    round and settlement in the settle-json format, stored unchanged. R15 is checked on the
    money before anything is saved. A reversal moves exactly the opposite of what ``settled``
    moves: the caller gives it the engine's settlement of the entry it reverses."""
    sign = -1 if kind == Settlement.Kind.REVERSAL else 1
    by_seat = {spot.seat: spot for spot in spots}
    lines = [(by_seat[line.seat], line) for line in settled.spots]
    moves = _stack_moves(hand, lines, settled.dealer.net, sign)
    _check_books(hand, spots, settled, moves, sign)

    when = when or booked_now(hand.table)
    now = timezone.now()
    settlement = Settlement.objects.create(
        hand=hand,
        entry=_next_entry(hand, kind),
        kind=kind,
        reverses=reverses,
        round=round_,
        result=result,
        house_rake=sign * to_decimal(settled.house_rake),
        dealer_net=sign * to_decimal(settled.dealer.net),
        reason=reason,
        created_by=by,
        created_at=now,
        gaming_day=when.span.day,
        shift=when.span.shift,
        adjusts_day=when.adjusts_day,
        adjusts_shift=when.adjusts_shift,
    )
    _book_spots(settlement, lines, sign)
    _book_fees(hand, settlement, settled, sign, when)
    _book_house_bank(hand, settlement, settled, sign, when, by)
    if kind != Settlement.Kind.REVERSAL:
        # The entry's decisions are valued by a worker once it commits (R8): the settlement's
        # own transaction only hands over the id (a reversal has none of its own).
        transaction.on_commit(partial(value_decisions_enqueue, settlement.pk))
    return settlement, moves


def _next_entry(hand: Hand, kind: Settlement.Kind) -> int:
    """The entry's number in the hand's settlements."""
    if kind == Settlement.Kind.ORIGINAL:
        return 1  # a hand's first settlement (settling a settled hand books nothing)
    last = hand.settlements.order_by("-entry").values_list("entry", flat=True).first()
    return (last or 0) + 1


def _book_spots(settlement: Settlement, lines: list[tuple[Spot, SpotResult]], sign: int) -> None:
    """Each spot's settlement row, and each of its wagers' rows."""
    spot_rows = SpotSettlement.objects.bulk_create(
        SpotSettlement(
            settlement=settlement,
            spot=spot,
            seat=spot.seat,
            status=str(line.status),
            dead_reason=str(line.dead_reason or ""),
            rake=sign * to_decimal(line.rake),
            net=sign * to_decimal(line.net),
            paid_back=sign * _paid_back(spot, line),
        )
        for spot, line in lines
    )
    WagerSettlement.objects.bulk_create(
        WagerSettlement(
            spot_settlement=row,
            wager=wager,
            stake=_stake(spot, wager),
            outcome=str(outcome.outcome),
            net=sign * to_decimal(outcome.net),
        )
        for row, (spot, line) in zip(spot_rows, lines, strict=True)
        for wager, outcome in _wagers(line)
    )


def _stack_moves(
    hand: Hand, lines: list[tuple[Spot, SpotResult]], dealer_net: int, sign: int
) -> dict[int, Decimal]:
    """The chips back onto each stack (by seating id): a spot's stakes and its net, the DP's
    bank and its net (R13); a player with two spots (R6) gets both in one movement."""
    moves: dict[int, Decimal] = {}
    for spot, line in lines:
        moves[spot.seating_id] = moves.get(spot.seating_id, ZERO) + sign * _paid_back(spot, line)
    if hand.dp_seating_id is not None:
        dp_paid_back = (hand.dp_bank or ZERO) + to_decimal(dealer_net)
        moves[hand.dp_seating_id] = moves.get(hand.dp_seating_id, ZERO) + sign * dp_paid_back
    return moves


def _check_books(
    hand: Hand,
    spots: list[Spot],
    settled: engine.Settlement,
    moves: dict[int, Decimal],
    sign: int,
) -> None:
    """R15 on the books: what comes back to stacks, to the house drop and the house's own
    result is exactly what was staked; books that do not balance are never saved."""
    house_rake = to_decimal(settled.house_rake)
    house_net = to_decimal(settled.dealer.net) if hand.dp_seating_id is None else ZERO
    staked_in = sum((_staked(spot) for spot in spots), ZERO) + (hand.dp_bank or ZERO)
    if sum(moves.values(), ZERO) + sign * (house_rake + house_net) != sign * staked_in:
        raise ConservationError(f"R15: hand {hand.pk} does not balance; nothing was saved")


def move_stacks(
    moves: dict[int, Decimal],
    reason: StackEntry.Reason,
    by: User,
    span: ShiftSpan,
    *,
    locked: Mapping[int, Seating] | None = None,
) -> None:
    """All stacks of a settlement in one locked read (ascending id, the project's lock order),
    one UPDATE and one INSERT, on the gaming day and shift ``span``; every stack stays within
    its bounds or nothing moves. ``locked``: the caller has these seatings locked already, as
    they are in the database (their stacks not yet moved): they are not read again."""
    moves = {pk: amount for pk, amount in moves.items() if amount}
    if not moves:
        return
    if locked is None or not moves.keys() <= locked.keys():
        locked = {
            s.pk: s for s in Seating.objects.select_for_update().filter(pk__in=moves).order_by("pk")
        }
    locked = {pk: locked[pk] for pk in sorted(moves) if pk in locked}
    stack_bounds_check(
        ((seating, moves[pk]) for pk, seating in locked.items()),
        field="stack",
        remedy="Settle the difference at the cage first.",
    )
    add_by_pk(Seating, "stack", moves)
    now = timezone.now()
    StackEntry.objects.bulk_create(
        StackEntry(
            seating_id=pk,
            amount=amount,
            reason=reason,
            actor=by,
            created_at=now,
            gaming_day=span.day,
            shift=span.shift,
        )
        for pk, amount in moves.items()
    )


def rack_settle(hand: Hand, *entries: Settlement) -> None:
    """The house's net in ``entries`` into (or out of) a house-banked table's rack by the
    books, refused (field ``table``) when the payouts would take more than the rack holds.
    Called once the stacks have moved: the rack's row is locked after the seatings (lock
    order, tables/services/locks.py)."""
    if hand.dp_seating_id is not None:
        return
    net = sum((entry.dealer_net for entry in entries), ZERO)
    if net:
        rack_value_move(
            table_id=hand.table_id, amount=net, field="table", what="the house's payouts, net,"
        )


def _book_house_bank(
    hand: Hand,
    settlement: Settlement,
    settled: engine.Settlement,
    sign: int,
    when: Booked,
    by: User,
) -> None:
    """The house's side of a settlement entry on a house-banked table, booked like a stack
    (R15 covers the house too): its net into (or out of) the table's rack. Its fees go to
    the fee ledger (the drop box), not to the rack."""
    net = sign * to_decimal(settled.dealer.net)
    if hand.dp_seating_id is not None or not net:
        return
    bank = HouseBankEntry.objects.create(
        table_id=hand.table_id,
        amount=net,
        reason=HouseBankEntry.Reason.SETTLEMENT,
        gaming_day=when.span.day,
        shift=when.span.shift,
        adjusts_day=when.adjusts_day,
        adjusts_shift=when.adjusts_shift,
        actor=by,
        created_at=settlement.created_at,
    )
    BankBooking.objects.create(bank_entry=bank, settlement=settlement)


def _book_fees(
    hand: Hand, settlement: Settlement, settled: engine.Settlement, sign: int, when: Booked
) -> None:
    """R12: every fee to the table's fee ledger, on the gaming day and shift the money moved
    (a correction's fees fall on the day of the correction, as its settlement entry does,
    naming the day they adjust)."""
    now = settlement.created_at
    owed = [(FeeEntry.Payer.SPOT, line.seat, line.rake) for line in settled.spots]
    dealer = settled.dealer
    if dealer.seat is not None:
        owed.append((FeeEntry.Payer.DESIGNATED_PLAYER, dealer.seat, dealer.rake))
    fees = FeeEntry.objects.bulk_create(
        FeeEntry(
            table_id=hand.table_id,
            gaming_day=when.span.day,
            shift=when.span.shift,
            adjusts_day=when.adjusts_day,
            adjusts_shift=when.adjusts_shift,
            rake_mode=hand.settings.rake_mode,
            payer=payer,
            seat=seat,
            amount=sign * to_decimal(rake),
            created_at=now,
        )
        for payer, seat, rake in owed
        if rake
    )
    FeeBooking.objects.bulk_create(
        FeeBooking(fee=fee, hand=hand, settlement=settlement) for fee in fees
    )


def _wagers(line: SpotResult) -> list[tuple[str, WagerResult]]:
    """A spot's wager results by name, only the wagers it placed (R5, R8)."""
    results = (line.ante, line.raise_, line.flush_bonus, line.straight_flush_bonus)
    return [
        (name, result) for name, result in zip(WAGERS, results, strict=True) if result is not None
    ]


def _staked(spot: Spot) -> Decimal:
    return spot.ante + spot.flush_bonus + spot.straight_flush_bonus + spot.raise_amount


def _paid_back(spot: Spot, line: SpotResult) -> Decimal:
    """What comes back onto the stack: the stakes and the spot's net (after its fee)."""
    return _staked(spot) + to_decimal(line.net)


def _stake(spot: Spot, wager: str) -> Decimal:
    return spot.raise_amount if wager == "raise" else getattr(spot, wager)
