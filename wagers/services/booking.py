"""Booking a settlement entry: the settlement, its spot and wager lines, the fees (R12) and the
chips onto every stack, in a fixed number of queries whatever the number of spots; R15 on the
books before anything is saved.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db.models import Case, F, Value, When
from django.utils import timezone

from cardroom.kernel.money import ZERO
from rake.models import FeeEntry
from tables import selectors as table_selectors
from tables.models import Seating, StackEntry
from tables.services import stack_bounds_check
from wagers.models import Hand, Settlement, Spot, SpotSettlement, WagerSettlement

WAGERS = ("ante", "raise", "flush_bonus", "straight_flush_bonus")


def _book(
    hand: Hand,
    spots: list[Spot],
    round_: dict,
    result: dict,
    kind: str,
    by: Any,
    *,
    reverses: Settlement | None = None,
    reason: str = "",
) -> tuple[Settlement, dict[int, Decimal]]:
    """Store one settlement entry and its fees, in a fixed number of queries whatever the
    number of spots, and return the chips it moves onto each stack (by seating id). R15 is
    checked on that money before anything is saved. A reversal (sign -1) moves exactly the
    opposite of the entry it reverses."""
    sign = -1 if kind == Settlement.Kind.REVERSAL else 1
    by_seat = {spot.seat: spot for spot in spots}
    dealer = result["dealer"]
    now = timezone.now()
    moves: dict[int, Decimal] = {}  # seating id -> chips onto its stack
    lines = []
    for line in result["spots"]:
        spot = by_seat[line["seat"]]
        staked = spot.ante + spot.flush_bonus + spot.straight_flush_bonus + spot.raise_amount
        paid_back = staked + Decimal(line["net"])
        moves[spot.seating_id] = moves.get(spot.seating_id, ZERO) + sign * paid_back
        lines.append((spot, line, paid_back))
    dp_paid_back = ZERO
    if hand.dp_seating_id is not None:
        dp_paid_back = hand.dp_bank + Decimal(dealer["net"])
        moves[hand.dp_seating_id] = moves.get(hand.dp_seating_id, ZERO) + sign * dp_paid_back
    house_rake = Decimal(result["house_rake"])
    house_net = Decimal(dealer["net"]) if hand.dp_seating_id is None else ZERO
    staked_in = sum(s.ante + s.flush_bonus + s.straight_flush_bonus + s.raise_amount for s in spots)
    staked_in += hand.dp_bank or ZERO
    # R15 on the books: what comes back to stacks, to the house drop and the house's own
    # result is exactly what was staked; books that do not balance are never saved.
    if sum(moves.values()) + sign * (house_rake + house_net) != sign * staked_in:
        raise AssertionError(f"R15: hand {hand.pk} does not balance; nothing was saved")

    entry = (hand.settlements.order_by("-entry").values_list("entry", flat=True).first() or 0) + 1
    settlement = Settlement.objects.create(
        hand=hand,
        entry=entry,
        kind=kind,
        reverses=reverses,
        round=round_,
        result=result,
        house_rake=sign * house_rake,
        dealer_net=sign * Decimal(dealer["net"]),
        reason=reason,
        created_by=by,
        created_at=now,
    )
    spot_rows = SpotSettlement.objects.bulk_create(
        SpotSettlement(
            settlement=settlement,
            spot=spot,
            seat=spot.seat,
            status=line["status"],
            dead_reason=line["dead_reason"] or "",
            rake=sign * Decimal(line["rake"]),
            net=sign * Decimal(line["net"]),
            paid_back=sign * paid_back,
        )
        for spot, line, paid_back in lines
    )
    WagerSettlement.objects.bulk_create(
        WagerSettlement(
            spot_settlement=row,
            wager=wager,
            stake=_stake(spot, wager),
            outcome=line[wager]["outcome"],
            net=sign * Decimal(line[wager]["net"]),
        )
        for row, (spot, line, _) in zip(spot_rows, lines, strict=True)
        for wager in WAGERS
        if line[wager] is not None
    )
    _book_fees(hand, settlement, result, sign, now)
    return settlement, moves


def _move_stacks(moves: dict[int, Decimal], reason: str, by: Any) -> None:
    """All stacks of a settlement in one locked read, one UPDATE and one INSERT."""
    moves = {pk: amount for pk, amount in moves.items() if amount}
    if not moves:
        return
    locked = {
        s.pk: s for s in Seating.objects.select_for_update().filter(pk__in=moves).order_by("pk")
    }
    stack_bounds_check(
        ((seating, moves[pk]) for pk, seating in locked.items()),
        field="stack",
        remedy="Settle the difference at the cage first.",
    )
    Seating.objects.filter(pk__in=moves).update(
        stack=Case(*(When(pk=pk, then=F("stack") + Value(a)) for pk, a in moves.items()))
    )
    now = timezone.now()
    StackEntry.objects.bulk_create(
        StackEntry(seating_id=pk, amount=amount, reason=reason, actor=by, created_at=now)
        for pk, amount in moves.items()
    )


def _book_fees(hand: Hand, settlement: Settlement, result: dict, sign: int, now: Any) -> None:
    """R12: every fee to the table's fee ledger, on the gaming day the money moved (a
    correction's fees fall on the day of the correction, as its settlement entry does)."""
    day = table_selectors.gaming_day(hand.table.cardroom, now)
    mode = hand.settings.rake_mode
    fees = [
        FeeEntry(
            table_id=hand.table_id,
            gaming_day=day,
            hand=hand,
            settlement=settlement,
            rake_mode=mode,
            payer=FeeEntry.Payer.SPOT,
            seat=line["seat"],
            amount=sign * Decimal(line["rake"]),
            created_at=now,
        )
        for line in result["spots"]
        if Decimal(line["rake"])
    ]
    if Decimal(result["dealer"]["rake"]):
        fees.append(
            FeeEntry(
                table_id=hand.table_id,
                gaming_day=day,
                hand=hand,
                settlement=settlement,
                rake_mode=mode,
                payer=FeeEntry.Payer.DESIGNATED_PLAYER,
                seat=hand.dp_seating.seat,
                amount=sign * Decimal(result["dealer"]["rake"]),
                created_at=now,
            )
        )
    FeeEntry.objects.bulk_create(fees)


def _stake(spot: Spot, wager: str) -> Decimal:
    return spot.raise_amount if wager == "raise" else getattr(spot, wager)
