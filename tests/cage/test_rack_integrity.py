"""Rack integrity (Nevada MICS table games; N.J.A.C. 13:69D-1.21): no hand and no chip sale at a
house-banked table before its rack is counted in the shift; no sale, payout or credit takes
the rack below zero by the books; a count resets the books; the table closes only with its
closing count. Every refusal names its field and writes nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cage import services
from cage.selectors import rack_by_the_books
from core.errors import Conflict
from tables.models import HouseBankEntry, Rack, Seating
from tables.rack_selectors import rack_pieces_by_the_books, rack_value_by_the_books
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_close
from tables.services.stacks import stack_add
from tests.cage_books import slip_delivered
from tests.conftest import signed
from tests.racks import rack_closing_count, rack_opening_count, rack_shift_change_count
from wagers import services as wagers

from .support import DEALER_QUALIFIES, LOSER, WINNER, play, seating

pytestmark = pytest.mark.django_db


@pytest.fixture
def sit(cardroom, dealer):
    """``sit(table, seat, buy_in, tender)``: the seat's player (made once, before any refusal
    is watched) sits down and buys in."""
    players = {
        number: player_create(cardroom=cardroom, name=f"Player {number}", by=dealer)
        for number in (1, 2)
    }

    def seat(table, number: int, buy_in: str = "0", tender: str = "cash"):
        return seat_player(
            table=table,
            seat=number,
            player=players[number],
            buy_in=buy_in,
            tender=tender,
            by=dealer,
        )

    return seat


def count(table, kind: str, chips: dict, supervisor, dealer, note: str = ""):
    return services.inventory_count_record(
        table=table,
        kind=kind,
        chips=chips,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        note=note,
        by=supervisor,
    )


def deliver(table, kind: str, chips: dict, supervisor, dealer):
    slip = services.slip_request(table=table, kind=kind, chips=chips, by=supervisor)
    return slip_delivered(slip, dealer, supervisor)


# --- no play before the count -----------------------------------------------------------------


def test_no_chip_sale_and_no_hand_before_the_opening_count(house, sit, dealer, refusal):
    with refusal(Conflict, field="tender", says="no opening count") as refused:
        sit(house, 1, buy_in="100")
    assert "House's rack" in refused.value.message
    seated = sit(house, 1, buy_in="100", tender="chips")  # chips from the cage: no sale
    with refusal(Conflict, field="tender", says="no opening count"):
        stack_add(seating=seated, amount="50", tender="cash", by=dealer)
    with refusal(Conflict, field="table", says="no opening count"):
        wagers.hand_start(table=house, by=dealer)


def test_the_opening_count_lets_play_begin(house, sit, dealer, supervisor):
    count(house, "opening", {"100": 10}, supervisor, dealer)
    sit(house, 1, buy_in="200")
    hand = wagers.hand_start(table=house, by=dealer)
    assert hand.number == 1
    assert rack_value_by_the_books(house) == Decimal("800.00")


def test_a_new_shift_needs_its_shift_change_count_before_play(
    floor, clock, sit, dealer, supervisor, refusal
):
    house = floor["house"]
    seated = sit(house, 1, buy_in="100")
    clock.at("14:05")  # the swing shift: the day shift's count no longer covers the rack
    with refusal(Conflict, field="table", says="no shift-change count in this shift"):
        wagers.hand_start(table=house, by=dealer)
    with refusal(Conflict, field="tender", says="no shift-change count"):
        stack_add(seating=seated, amount="25", tender="cash", by=dealer)
    rack_shift_change_count(house)
    stack_add(seating=seated, amount="25", tender="cash", by=dealer)
    assert wagers.hand_start(table=house, by=dealer).number == 1


def test_a_designated_player_table_plays_without_a_rack_count(floor, sit, clock):
    dp = floor["dp"]
    clock.at("14:05")
    assert sit(dp, 1, buy_in="300", tender="chips").stack == Decimal("300.00")
    assert not Rack.objects.filter(table=dp).exists()


# --- the books never go negative --------------------------------------------------------------


def test_a_chip_sale_beyond_the_rack_is_refused_with_what_it_holds(
    house, sit, dealer, supervisor, refusal
):
    """The issue's case: $2,000 of chips sold from a rack that holds $500."""
    count(house, "opening", {"100": 5}, supervisor, dealer)
    with refusal(Conflict, field="buy_in", says="The rack holds $500.00 by the books"):
        sit(house, 1, buy_in="2000")
    seated = sit(house, 1, buy_in="400")
    with refusal(Conflict, field="amount", says="The rack holds $100.00 by the books") as refused:
        stack_add(seating=seated, amount="200", tender="cash", by=dealer)
    assert "a chip sale of $200.00" in refused.value.message
    stack_add(seating=seated, amount="100", tender="cash", by=dealer)  # the last chips
    assert Rack.objects.get(table=house).cents == 0


def test_payouts_beyond_the_rack_are_refused_until_a_fill(house, sit, dealer, supervisor, refusal):
    count(house, "opening", {"100": 2}, supervisor, dealer)
    sit(house, 1, buy_in="200")  # the rack is empty by the books now
    hand = wagers.hand_start(table=house, by=dealer)
    wagers.wager_place(hand=hand, seating=seating(house, 1), ante="50", by=dealer)
    wagers.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_QUALIFIES, spot_cards={1: WINNER}, by=dealer
    )
    wagers.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="50", by=dealer)
    with refusal(Conflict, field="table", says="The rack holds $0.00 by the books"):
        wagers.hand_settle(hand=hand, by=dealer)
    deliver(house, "fill", {"100": 5}, supervisor, dealer)
    wagers.hand_settle(hand=hand, by=dealer)
    held = rack_value_by_the_books(house)
    assert held is not None and Decimal(0) <= held < Decimal("500.00")
    assert held == rack_by_the_books(house)[0]  # the running books agree with the ledger


def test_a_house_win_raises_the_books(house, sit, dealer, supervisor):
    count(house, "opening", {"100": 2}, supervisor, dealer)
    sit(house, 1, buy_in="200")
    play(house, dealer, {1: ("50", LOSER, "raise")})
    assert rack_value_by_the_books(house) == Decimal("100.00")  # the ante and the raise
    assert rack_by_the_books(house)[0] == Decimal("100.00")


def test_a_credit_takes_no_denomination_and_no_value_the_rack_does_not_hold(
    house, sit, dealer, supervisor, refusal
):
    count(house, "opening", {"100": 5, "25": 20}, supervisor, dealer)  # $1,000
    sit(house, 1, buy_in="600")  # $400 left by the books
    with refusal(Conflict, field="chips.25.00", says="holds 20 × $25.00 by the books"):
        services.slip_request(table=house, kind="credit", chips={"25": 21}, by=supervisor)
    with refusal(Conflict, field="chips", says="The rack holds $400.00 by the books"):
        services.slip_request(table=house, kind="credit", chips={"100": 5}, by=supervisor)
    deliver(house, "credit", {"100": 4}, supervisor, dealer)
    assert rack_pieces_by_the_books(house) == {
        "1.00": 0,
        "5.00": 0,
        "25.00": 20,
        "100.00": 1,
        "500.00": 0,
    }
    assert rack_value_by_the_books(house) == Decimal("0.00")


def test_a_credit_checked_at_request_is_checked_again_at_delivery(
    house, sit, dealer, supervisor, refusal
):
    count(house, "opening", {"100": 5}, supervisor, dealer)
    slip = services.slip_request(table=house, kind="credit", chips={"100": 3}, by=supervisor)
    sit(house, 1, buy_in="300")  # sold since: $200 left
    with refusal(Conflict, field="chips", says="The rack holds $200.00 by the books"):
        slip_delivered(slip, dealer, supervisor)


def test_a_fill_raises_the_books_by_denomination(floor, dealer, supervisor):
    house = floor["house"]
    deliver(house, "fill", {"500": 2}, supervisor, dealer)
    pieces = rack_pieces_by_the_books(house)
    assert pieces is not None and pieces["500.00"] == 2 and pieces["100.00"] == 20
    assert rack_value_by_the_books(house) == Decimal("5600.00")


def test_a_count_resets_the_books_to_what_was_counted(floor, clock, sit, dealer, supervisor):
    house = floor["house"]
    sit(house, 1, buy_in="300")  # 4,600 − 300 = 4,300 by the books
    clock.at("14:05")
    counted = count(house, "shift_change", {"100": 42, "5": 19}, supervisor, dealer, "$5 short")
    assert (counted.book_total, counted.total) == (Decimal("4300.00"), Decimal("4295.00"))
    assert rack_value_by_the_books(house) == Decimal("4295.00")
    assert rack_pieces_by_the_books(house) == {
        "1.00": 0,
        "5.00": 19,
        "25.00": 0,
        "100.00": 42,
        "500.00": 0,
    }


def test_every_move_of_the_rack_is_booked_once(floor, sit, dealer, supervisor):
    """The running books equal the last count plus every house bank entry since."""
    house = floor["house"]
    sit(house, 1, buy_in="300")
    sit(house, 2, buy_in="100")
    deliver(house, "fill", {"25": 8}, supervisor, dealer)
    deliver(house, "credit", {"1": 50}, supervisor, dealer)
    play(house, dealer, {1: ("25", LOSER, "raise"), 2: ("10", WINNER, "raise")})
    entries = sum(HouseBankEntry.objects.filter(table=house).values_list("amount", flat=True))
    assert rack_value_by_the_books(house) == Decimal("4600.00") + entries
    assert rack_by_the_books(house)[0] == rack_value_by_the_books(house)


# --- the close takes the closing count --------------------------------------------------------


def test_a_house_banked_table_closes_only_with_its_closing_count(
    floor, sit, dealer, supervisor, refusal
):
    house = floor["house"]
    sit(house, 1, buy_in="100")
    with refusal(Conflict, field="table", says="take the closing count: it closes the table"):
        table_close(table=house, by=supervisor)
    closing = rack_closing_count(house)
    closing.session.refresh_from_db()
    assert closing.session.closed_at is not None
    assert closing.session.rack_count_kind == "closing"
    assert not Seating.objects.filter(table=house, left_at=None).exists()  # cashed out


def test_an_uncounted_house_table_is_told_to_count_at_opening_first(house, supervisor, refusal):
    with refusal(Conflict, field="table", says="count the rack at opening, then take the closing"):
        table_close(table=house, by=supervisor)
    rack_opening_count(house, {"100": 1})
    rack_closing_count(house)
    assert house.sessions.get().closed_at is not None
