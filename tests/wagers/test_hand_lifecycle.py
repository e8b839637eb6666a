"""A hand from start to settlement on both kinds of table: wagers, cards entered by the dealer
or dealt by the system, decisions, and the settlement with everything it stores and moves;
the rotation of the button (R16) and the settings a hand keeps (R17)."""

from __future__ import annotations

import datetime
import operator
from decimal import Decimal
from functools import reduce

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError
from engine.cards import parse_hand
from rake.models import FeeEntry
from rake.selectors import fees_by_mode, fees_total
from tables.models import RotationRecord
from wagers import services
from wagers.models import Hand

from .books import assert_booked
from .conftest import BUY_IN
from .support import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_HEARTS_AT62,
    SEVEN_HANDS,
    SPEC_DEALER,
    SPEC_SEAT_1,
    SPEC_SEAT_2,
    SPEC_SEAT_5,
    THREE_DIAMONDS_Q85,
    ledger_sum,
    seating_at,
    stacks,
    start,
    wager,
)

pytestmark = pytest.mark.django_db

D = Decimal


def hand_actions(hand: Hand) -> list[tuple[str, str]]:
    """The audit log of a hand: (action, actor) in order (R17)."""
    return list(
        AuditEvent.objects.filter(object_type="wagers.hand", object_id=str(hand.pk))
        .order_by("seq")
        .values_list("action", "actor_name")
    )


# --- the worked examples, entered by the dealer ----------------------------------------------


def test_a_designated_player_hand_entered_by_the_dealer_books_the_worked_example(
    dp_table, dp_players, dealer, clock
):
    """settle-json.md's example, played at the table: DP at seat 4 with a $500 bank."""
    before = stacks(dp_table)
    hand = start(dp_table, dealer, dp=4, bank="500")
    assert (hand.status, hand.number, hand.dp_bank) == ("open", 1, D("500.00"))
    assert hand.rotation.method == RotationRecord.Method.DRAW
    assert seating_at(dp_table, 4).stack == D(BUY_IN) - 500  # R13: the bank is in action

    wager(hand, dp_table, 5, "10", flush_bonus="5", by=dealer)
    wager(hand, dp_table, 2, "25", straight_flush_bonus="5", by=dealer)
    wager(hand, dp_table, 1, "5", by=dealer)
    hand.refresh_from_db()
    assert hand.status == "wagering"
    # Only chips play (R5): the wagers are off the stacks already.
    assert [stacks(dp_table)[s] for s in (1, 2, 5)] == [D("995"), D("970"), D("985")]

    services.hand_cards_enter(
        hand=hand,
        dealer_cards=SPEC_DEALER.lower(),  # any letter case in, canonical out (R1)
        spot_cards={5: SPEC_SEAT_5, 2: SPEC_SEAT_2.replace("Kd", "KD"), 1: SPEC_SEAT_1},
        by=dealer,
    )
    hand.refresh_from_db()
    assert (hand.status, hand.card_source) == ("dealt", "entered")
    assert parse_hand(hand.dealer_cards, field="x") == parse_hand(SPEC_DEALER, field="x")

    services.spot_decide(hand=hand, seat=5, decision="raise", raise_amount="10", by=dealer)
    services.spot_decide(hand=hand, seat=2, decision="raise", raise_amount="50", by=dealer)
    services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)
    hand.refresh_from_db()
    assert hand.status == "decisions"
    settlement = services.hand_settle(hand=hand, by=dealer)

    hand.refresh_from_db()
    assert (hand.status, hand.settled_at) == ("settled", clock.now)
    assert settlement.result["settlement_order"] == [2, 1, 5]  # R13: from the DP's right
    assert settlement.dealer_net == D("-401.00")
    assert settlement.house_rake == D("4.00")
    assert {row.seat: row.net for row in settlement.spots.all()} == {
        1: D("-6.00"),
        2: D("374.00"),
        5: D("29.00"),
    }
    assert stacks(dp_table) == {
        1: D("994.00"),
        2: D("1374.00"),
        4: D("599.00"),  # 1000 − 500 bank + (500 − 401)
        5: D("1029.00"),
        6: D("1000.00"),  # seated, not playing
    }
    seat_2 = settlement.spots.get(seat=2)
    assert [(w.wager, w.stake, w.outcome, w.net) for w in seat_2.wagers.all()] == [
        ("ante", D("25.00"), "win", D("25.00")),
        ("raise", D("50.00"), "win", D("50.00")),
        ("straight_flush_bonus", D("5.00"), "win", D("300.00")),
    ]
    assert seat_2.paid_back == D("25") + D("5") + D("50") + D("374")
    # R12: one fee per live spot and one from the DP, on the gaming day (18:00 in New York).
    assert list(
        FeeEntry.objects.filter(booking__hand=hand).values_list(
            "payer", "seat", "amount", "gaming_day"
        )
    ) == [
        ("spot", 1, D("1.00"), datetime.date(2024, 3, 1)),
        ("spot", 2, D("1.00"), datetime.date(2024, 3, 1)),
        ("spot", 5, D("1.00"), datetime.date(2024, 3, 1)),
        ("designated_player", 4, D("1.00"), datetime.date(2024, 3, 1)),
    ]
    assert_booked(hand, dp_table, before)
    assert hand_actions(hand) == [
        ("hand.started", "dealer"),
        *[("hand.wager_placed", "dealer")] * 3,
        ("hand.dealt", "dealer"),
        *[("hand.decision", "dealer")] * 3,
        ("hand.settled", "dealer"),
    ]


def test_a_house_banked_hand_entered_by_the_dealer_settles_against_the_house(
    house_table, house_players, dealer
):
    before = stacks(house_table)
    hand = start(house_table, dealer)
    assert (hand.rotation, hand.dp_seating, hand.dp_bank) == (None, None, None)  # no rotation
    wager(hand, house_table, 1, "10", flush_bonus="5", by=dealer)
    wager(hand, house_table, 2, "10", straight_flush_bonus="5", by=dealer)
    wager(hand, house_table, 3, "20", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_K94,
        spot_cards={1: FOUR_HEARTS_AT62, 2: THREE_DIAMONDS_Q85, 3: FOUR_CLUBS_KQJ4},
        by=dealer,
    )
    services.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="10", by=dealer)
    services.spot_decide(hand=hand, seat=2, decision="walked_away", by=dealer)  # = a fold (R8)
    services.spot_decide(hand=hand, seat=3, decision="raise", raise_amount="20", by=dealer)
    settlement = services.hand_settle(hand=hand, by=dealer)

    # R9, R10 paytable mode: seat 1 wins ante, raise and a 4-card flush at 1 to 1 (a new
    # house-banked table's Flush Bonus, 4:1, 5:10, 6:100, 7:300); seat 2's bonus stays in
    # action after the fold and loses; seat 3 wins ante and raise.
    assert {row.seat: (row.status, row.net) for row in settlement.spots.all()} == {
        1: ("played", D("25.00")),
        2: ("folded", D("-15.00")),
        3: ("played", D("40.00")),
    }
    assert (settlement.dealer_net, settlement.house_rake) == (D("-50.00"), D("0.00"))
    assert stacks(house_table) == {
        1: D("1025.00"),
        2: D("985.00"),
        3: D("1040.00"),
        4: D("1000.00"),
    }
    assert not FeeEntry.objects.filter(booking__hand=hand).exists()  # R12: no fee at a house table
    assert_booked(hand, house_table, before)


# --- the same flow, in general, on both kinds of table and with both kinds of deal -----------


@pytest.mark.parametrize("source", ["entered", "system"])
def test_the_full_lifecycle_stores_the_settlement_and_moves_each_stack_by_its_net(
    table, source, dealer
):
    before = stacks(table)
    dp = 4 if table.banking == "designated_player" else None
    hand = start(table, dealer, dp=dp)
    players = [s for s in sorted(before) if s != dp][:3]
    for index, seat in enumerate(players):
        wager(hand, table, seat, 5 * (index + 1), flush_bonus="2", by=dealer)
    if source == "entered":
        services.hand_cards_enter(
            hand=hand,
            dealer_cards=SEVEN_HANDS[0],
            spot_cards={seat: SEVEN_HANDS[i + 1] for i, seat in enumerate(players)},
            by=dealer,
        )
    else:
        services.hand_deal(hand=hand, by=dealer)
    hand.refresh_from_db()
    assert (hand.status, hand.card_source) == ("dealt", source)
    dealt = [parse_hand(hand.dealer_cards, field="dealer")] + [
        parse_hand(spot.cards, field="spot") for spot in hand.spots.all()
    ]
    assert all(cards.bit_count() == 7 for cards in dealt)
    assert reduce(operator.or_, dealt).bit_count() == 7 * 4  # no card in two hands (R1)

    for index, spot in enumerate(hand.spots.order_by("seat")):
        if index == 1:
            services.spot_decide(hand=hand, seat=spot.seat, decision="fold", by=dealer)
        else:
            services.spot_decide(
                hand=hand, seat=spot.seat, decision="raise", raise_amount=spot.ante, by=dealer
            )
    services.hand_settle(hand=hand, by=dealer)
    hand.refresh_from_db()
    assert hand.status == "settled"
    assert_booked(hand, table, before)
    for seating in table.seatings.all():  # every stack is the sum of its ledger
        assert seating.stack == ledger_sum(seating)


def test_system_deals_are_shuffled_afresh_for_every_hand(house_table, house_players, dealer):
    """A CSPRNG shuffle at the moment of the deal: two deals are (overwhelmingly) different."""
    deals = []
    for _ in range(2):
        hand = start(house_table, dealer)
        wager(hand, house_table, 1, "5", by=dealer)
        services.hand_deal(hand=hand, by=dealer)
        hand.refresh_from_db()
        deals.append(hand.dealer_cards)
        services.hand_declare_misdeal(hand=hand, reason="shuffler_fault", by=dealer)
    assert deals[0] != deals[1]


def test_fees_go_to_the_gaming_day_of_the_cardroom_which_starts_at_six(
    dp_table, dp_players, dealer, clock
):
    """R12: the fee ledger is per table and gaming day; 02:00 belongs to the day before."""
    days = []
    for utc_hour in (7, 11):  # 02:00 and 06:00 in New York (EST)
        clock.now = clock.now.replace(day=2, hour=utc_hour)
        hand = start(dp_table, dealer, dp=None if days else 4)  # then the DP is seat 5
        wager(hand, dp_table, 1, "5", by=dealer)
        wager(hand, dp_table, 2, "5", by=dealer)
        services.hand_deal(hand=hand, by=dealer)
        for seat in (1, 2):
            services.spot_decide(hand=hand, seat=seat, decision="fold", by=dealer)
        services.hand_settle(hand=hand, by=dealer)
        days.append(
            FeeEntry.objects.filter(booking__hand=hand).values_list("gaming_day", flat=True)
        )
    assert set(days[0]) == {datetime.date(2024, 3, 1)}
    assert set(days[1]) == {datetime.date(2024, 3, 2)}
    # The fee report reads the ledger by gaming day and fee mode.
    first, second = datetime.date(2024, 3, 1), datetime.date(2024, 3, 2)
    assert fees_by_mode(dp_table, first, second) == {
        first: {"all_players": D("3.00")},
        second: {"all_players": D("3.00")},
    }
    assert fees_total(dp_table, second, second) == D("3.00")


# --- R16: the button moves -------------------------------------------------------------------


def play_folds(hand, table, dealer, seats) -> None:
    for seat in seats:
        wager(hand, table, seat, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    for seat in seats:
        services.spot_decide(hand=hand, seat=seat, decision="fold", by=dealer)
    services.hand_settle(hand=hand, by=dealer)


def test_r16_the_next_hand_offers_the_button_clockwise_from_the_dps_left(
    dp_table, dp_players, dealer
):
    first = start(dp_table, dealer, dp=4)
    play_folds(first, dp_table, dealer, (1, 5))
    second = services.hand_start(table=dp_table, by=dealer)
    assert second.rotation.method == RotationRecord.Method.ROTATION
    assert second.dp_seating.seat == 5
    assert [o["seat"] for o in second.rotation.offers] == [5]
    assert second.number == 2
    play_folds(second, dp_table, dealer, (1, 2))
    # Seat 6 refuses for this hand; the offer goes on clockwise and wraps past the empty 7.
    before = stacks(dp_table)
    third = services.hand_start(table=dp_table, by=dealer, refusals=(6,))
    assert [(o["seat"], o["outcome"]) for o in third.rotation.offers] == [
        (6, "refused"),
        (1, "accepted"),
    ]
    assert third.dp_seating.seat == 1
    assert third.dp_bank == before[1]  # by default the whole stack is in action (R13)
    assert seating_at(dp_table, 1).stack == 0


def test_a_hand_cannot_start_while_another_is_in_progress(dp_table, dp_players, dealer, refusal):
    hand = start(dp_table, dealer, dp=4)
    with refusal(Conflict, field=None, says="has a hand in progress: settle it first"):
        services.hand_start(table=dp_table, by=dealer)
    play_folds(hand, dp_table, dealer, (1,))
    assert services.hand_start(table=dp_table, by=dealer).number == 2


# --- R17: the settings a hand started under --------------------------------------------------


def test_r17_a_setting_change_approved_mid_hand_applies_from_the_next_hand(
    dp_table, dp_players, dealer, approve, refusal
):
    hand = start(dp_table, dealer, dp=4)
    assert hand.settings.version == 1
    wager(hand, dp_table, 1, "5", by=dealer)
    version = approve(dp_table, ante_min="10.00", rake_amount="2.00")
    assert version.version == 2
    # The hand in progress keeps version 1: a $5 ante is still within its limits (R5).
    wager(hand, dp_table, 2, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    for seat in (1, 2):
        services.spot_decide(hand=hand, seat=seat, decision="fold", by=dealer)
    settlement = services.hand_settle(hand=hand, by=dealer)
    hand.refresh_from_db()
    assert hand.settings.version == 1
    assert settlement.round["table"]["ante_min"] == "5.00"
    assert settlement.round["table"]["rake_amount"] == "1.00"
    assert set(FeeEntry.objects.filter(booking__hand=hand).values_list("amount", flat=True)) == {
        D("1.00")
    }

    following = services.hand_start(table=dp_table, by=dealer)
    assert following.settings.version == 2
    with refusal(DomainError, field="ante", says="between $10.00 and $100.00 (R5)"):
        wager(following, dp_table, 1, "5", by=dealer)
    wager(following, dp_table, 1, "10", by=dealer)
    services.hand_deal(hand=following, by=dealer)
    services.spot_decide(hand=following, seat=1, decision="fold", by=dealer)
    services.hand_settle(hand=following, by=dealer)
    assert set(
        FeeEntry.objects.filter(booking__hand=following).values_list("amount", flat=True)
    ) == {D("2.00")}
