"""Helpers the persisted-hand tests share (fixtures are in conftest.py): hands that never share
a card, starting a hand with a chosen designated player, and reading stacks and books."""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.core.management import call_command
from django.db.models import QuerySet

from engine import settle_json
from rake.models import FeeEntry
from tables.models import RotationRecord, Seating, StackEntry, Table
from wagers import services
from wagers.models import Hand, Settlement, SpotSettlement, WagerSettlement

# Seven hands that never share a card (49 cards, R1), so any of them can sit in one round.
DEALER_K94 = "Ks 9s 4s 2c 7h 8c 3c"  # spades K-9-4: 3 cards, qualifies (R4)
FOUR_HEARTS_AT62 = "Ah Th 6h 2h Jd 5c 9c"  # hearts A-T-6-2: 4 cards, beats DEALER_K94
THREE_DIAMONDS_Q85 = "Qd 8d 5d As 6c 4h 3s"  # diamonds Q-8-5: 3 cards, loses to DEALER_K94
FOUR_CLUBS_KQJ4 = "Kc Qc Jc 4c 5h 8h Ts"  # clubs K-Q-J-4: 4 cards, beats DEALER_K94
FOUR_DIAMONDS_AK92 = "Ad Kd 9d 2d 9h Js 6s"  # diamonds A-K-9-2: 4 cards, beats DEALER_K94
FOUR_DIAMONDS_T764 = "Td 7d 6d 4d Ac Kh Qs"  # diamonds T-7-6-4: 4 cards, beats DEALER_K94
THREE_HEARTS_QJ3 = "Qh Jh 3h 8s 7s 5s Tc"  # hearts Q-J-3: 3 cards, loses to DEALER_K94
SEVEN_HANDS = (
    DEALER_K94,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    FOUR_CLUBS_KQJ4,
    FOUR_DIAMONDS_AK92,
    FOUR_DIAMONDS_T764,
    THREE_HEARTS_QJ3,
)

# The worked example of settle-json.md, seat for seat (its output is worked out there).
SPEC_DEALER = "Ks 9s 4s 2c 7h 8c 3c"
SPEC_SEAT_5 = "Ah Th 6h 2h Jd 5c 9c"  # ante 10, flush bonus 5, raise 10: +29.00 after the fee
SPEC_SEAT_2 = "4d 5d 6d 7d Kd Qc 2s"  # ante 25, straight flush bonus 5, raise 50: +374.00
SPEC_SEAT_1 = "Qh 8h 3d 4c Td 6s Js"  # ante 5, folds: -6.00


def seating_at(table: Table, seat: int) -> Seating:
    """The player sitting at ``seat`` now, with its stack as stored."""
    return Seating.objects.select_related("player").get(table=table, seat=seat, left_at=None)


def stacks(table: Table) -> dict[int, Decimal]:
    """Every seated player's stack, by seat, as stored."""
    return dict(Seating.objects.filter(table=table, left_at=None).values_list("seat", "stack"))


def draw_won_by(table: Table, seat: int) -> dict[int, str] | None:
    """The high-card draw of a session's first hand, won by ``seat`` (an ace of spades against
    lower clubs); None when the session has had its draw (the rotation goes on from there)."""
    if RotationRecord.objects.filter(
        table=table, session__closed_at=None, designated_player__isnull=False
    ).exists():
        return None
    seats = sorted(
        Seating.objects.filter(
            table=table, left_at=None, dp_waiver=False, sitting_out=False
        ).values_list("seat", flat=True)
    )
    cards = {number: f"{'23456789TJQK'[i]}c" for i, number in enumerate(seats)}
    cards[seat] = "As"
    return cards


def start(table: Table, by: Any, *, dp: int | None = None, bank: Any = None, **kwargs) -> Hand:
    """Start a hand; on a DP table the first hand of the session is won by seat ``dp``."""
    if dp is not None:
        kwargs.setdefault("draw_cards", draw_won_by(table, dp))
    hand = services.hand_start(table=table, by=by, dp_bank=bank, **kwargs)
    if dp is not None:
        assert hand.dp_seating.seat == dp
    return hand


def wager(
    hand: Hand, table: Table, seat: int, ante: Any, *, by: Any, at: int | None = None, **bonuses
):
    """The player at ``seat`` antes (and bets bonuses); ``at`` places a second spot (R6)."""
    return services.wager_place(
        hand=hand, seating=seating_at(table, seat), ante=ante, seat=at, by=by, **bonuses
    )


@dataclass(frozen=True)
class Books:
    """Every row that records money, counted: nothing moves when these stay the same."""

    stack_entries: int
    stack_total: Decimal
    fee_entries: int
    fee_total: Decimal
    settlements: int
    spot_settlements: int
    wager_settlements: int

    @classmethod
    def now(cls) -> Books:
        return cls(
            stack_entries=StackEntry.objects.count(),
            stack_total=total(Seating.objects.all(), "stack"),
            fee_entries=FeeEntry.objects.count(),
            fee_total=total(FeeEntry.objects.all(), "amount"),
            settlements=Settlement.objects.count(),
            spot_settlements=SpotSettlement.objects.count(),
            wager_settlements=WagerSettlement.objects.count(),
        )


def settle_round_command(round_: dict) -> dict:
    """What ``manage.py settle_round`` answers for a stored round."""
    out = io.StringIO()
    call_command("settle_round", stdin=io.StringIO(json.dumps(round_)), stdout=out)
    return json.loads(out.getvalue())


def engine(round_: dict) -> dict:
    return settle_json(round_)


def stakes(spot) -> Decimal:
    return spot.ante + spot.flush_bonus + spot.straight_flush_bonus + spot.raise_amount


def total(rows: QuerySet, name: str) -> Decimal:
    """The exact sum of a money column. Summed here, not with ``Sum()``: SQLite adds decimals
    as floating point, which can leave a sum like 9.98999999999999."""
    return sum(rows.values_list(name, flat=True), Decimal("0.00"))


def ledger_sum(seating: Seating) -> Decimal:
    return total(StackEntry.objects.filter(seating=seating), "amount")
