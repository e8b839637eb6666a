"""One check of everything a settled hand must have stored and moved, shared by the lifecycle,
dead-hand and conservation tests."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from rake.models import FeeEntry
from tables.models import Table
from tables.selectors import gaming_day
from wagers.models import Hand, Settlement
from wagers.selectors import round_of

from .support import engine, stacks, stakes

WAGERS = ("ante", "raise", "flush_bonus", "straight_flush_bonus")


def assert_booked(hand: Hand, table: Table, before: dict[int, Decimal]) -> Settlement:
    """The hand's one settlement is the engine's answer on the hand's round, stored spot by
    spot and wager by wager; every stack moved by exactly its net (a player's stack after =
    before − stakes + paid back; the DP's = before − bank + bank + dealer net); the fee ledger
    holds every fee on the gaming day of the settlement (R12). ``before`` is every stack,
    by seat, before the hand started."""
    hand = Hand.objects.select_related("dp_seating", "table__cardroom").get(pk=hand.pk)
    [settlement] = hand.settlements.all()
    assert (settlement.kind, settlement.entry) == ("original", 1)
    assert settlement.reverses is None
    assert settlement.round == round_of(hand)
    result = engine(settlement.round)
    assert settlement.result == result
    assert settlement.house_rake == Decimal(result["house_rake"])
    assert settlement.dealer_net == Decimal(result["dealer"]["net"])

    spots = {spot.seat: spot for spot in hand.spots.select_related("seating")}
    rows = {row.seat: row for row in settlement.spots.prefetch_related("wagers")}
    assert set(rows) == set(spots) == {line["seat"] for line in result["spots"]}
    staked: dict[int, Decimal] = defaultdict(Decimal)
    paid_back: dict[int, Decimal] = defaultdict(Decimal)
    for line in result["spots"]:
        spot, row = spots[line["seat"]], rows[line["seat"]]
        assert row.spot_id == spot.pk
        assert row.status == line["status"]
        assert (row.dead_reason or None) == line["dead_reason"]
        assert row.rake == Decimal(line["rake"])
        assert row.net == Decimal(line["net"])
        assert row.paid_back == stakes(spot) + row.net
        wagers = {w.wager: w for w in row.wagers.all()}
        placed = {name: line[name] for name in WAGERS if line[name] is not None}
        assert set(wagers) == set(placed)
        for name, stored in wagers.items():
            stake = spot.raise_amount if name == "raise" else getattr(spot, name)
            assert (stored.stake, stored.outcome, stored.net) == (
                stake,
                placed[name]["outcome"],
                Decimal(placed[name]["net"]),
            )
        staked[spot.seating.seat] += stakes(spot)
        paid_back[spot.seating.seat] += row.paid_back

    after = stacks(table)
    dp_seat = hand.dp_seating.seat if hand.dp_seating_id else None
    for seat, stack in before.items():
        if seat == dp_seat:
            expected = stack - hand.dp_bank + hand.dp_bank + settlement.dealer_net
        else:
            expected = stack - staked[seat] + paid_back[seat]
        assert after[seat] == expected, f"seat {seat}: {after[seat]} != {expected}"

    fees = list(FeeEntry.objects.filter(booking__hand=hand).order_by("seat", "payer"))
    day = gaming_day(hand.table.cardroom, settlement.created_at)
    expected_fees = sorted(
        [("spot", line["seat"], Decimal(line["rake"])) for line in result["spots"]]
        + ([("designated_player", dp_seat, Decimal(result["dealer"]["rake"]))] if dp_seat else []),
        key=lambda fee: (fee[1], fee[0]),
    )
    assert [(f.payer, f.seat, f.amount) for f in fees] == [fee for fee in expected_fees if fee[2]]
    for fee in fees:
        assert (fee.table_id, fee.gaming_day, fee.booking.settlement_id) == (
            table.pk,
            day,
            settlement.pk,
        )
        assert fee.rake_mode == hand.settings.rake_mode
    assert sum((f.amount for f in fees), Decimal("0")) == settlement.house_rake
    return settlement
