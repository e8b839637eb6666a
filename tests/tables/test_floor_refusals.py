"""The floor's bad input that the waitlist and dealers' tests leave out: the dealer on duty
changed by hand (not through the dealers' board) waits for the hand in progress and is on no
other table, as on the board; a seat change waits for the player's hand and takes only an
empty seat. Each refusal names its
field, says why in words, and writes nothing (``refusal``, tests/conftest.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.errors import Conflict
from tables import selectors
from tables.models import Seating
from tables.services.seat_changes import seating_move
from tables.services.sessions import table_dealer_change, table_open
from wagers import services as hand_services

pytestmark = pytest.mark.django_db

DRAW = {1: "2c", 3: "Ah", 5: "Kd"}  # the ace wins the button (R16)


@pytest.fixture
def second_table(make_table, dealer, supervisor):
    table = make_table("Table 3")
    table_open(table=table, dealer=dealer, by=supervisor)
    return table


def test_the_dealer_on_duty_changed_by_hand_waits_for_the_hand_in_progress(
    dp_table, seated, dealer, other_dealer, supervisor, refusal
):
    hand = hand_services.hand_start(table=dp_table, by=dealer, draw_cards=DRAW)
    with refusal(Conflict, field="table", says=f"has hand {hand.number} in progress"):
        table_dealer_change(table=dp_table, dealer=other_dealer, by=supervisor)
    assert selectors.open_session(dp_table).dealer == dealer
    hand_services.hand_cancel(hand=hand, by=dealer)
    table_dealer_change(table=dp_table, dealer=other_dealer, by=supervisor)
    assert selectors.open_session(dp_table).dealer == other_dealer


def test_the_dealer_on_duty_changed_by_hand_is_never_on_two_tables(
    dp_table, session, second_table, dealer, other_dealer, supervisor, refusal
):
    table_dealer_change(table=second_table, dealer=other_dealer, by=supervisor)
    with refusal(Conflict, field="dealer", says="is the dealer on duty at Table 3"):
        table_dealer_change(table=dp_table, dealer=other_dealer, by=supervisor)
    assert selectors.open_session(dp_table).dealer == dealer


def test_a_seat_change_waits_for_the_players_hand_to_settle(
    dp_table, seated, second_table, dealer, supervisor, refusal
):
    hand = hand_services.hand_start(table=dp_table, by=dealer, draw_cards=DRAW)
    hand_services.wager_place(hand=hand, seating=seated[1], ante="10", by=dealer)
    with refusal(Conflict, field="seating", says=f"is in hand {hand.number} at Table 1"):
        seating_move(seating=seated[1], table=second_table, seat=2, by=supervisor)
    with refusal(Conflict, field="seating", says=f"is in hand {hand.number}"):
        seating_move(seating=seated[1], table=dp_table, seat=2, by=supervisor)


def test_a_seat_change_to_a_taken_seat_or_the_same_seat_is_refused(
    dp_table, seated, second_table, seat, supervisor, refusal
):
    seat(4, table=second_table)
    with refusal(Conflict, field="seat", says="is taken"):
        seating_move(seating=seated[1], table=second_table, seat=4, by=supervisor)
    with refusal(Conflict, field="seat", says="is taken"):
        seating_move(seating=seated[1], table=dp_table, seat=3, by=supervisor)
    with refusal(Conflict, field="seat", says="in seat 1 at Table 1 already"):
        seating_move(seating=seated[1], table=dp_table, seat=1, by=supervisor)


def test_a_seat_change_at_the_same_table_keeps_the_stack_to_the_cent(dp_table, seated, supervisor):
    moved = seating_move(seating=seated[3], table=dp_table, seat=6, by=supervisor)
    assert (moved.seat, moved.stack) == (6, Decimal("300.00"))
    assert Seating.objects.get(pk=seated[3].pk).stack == Decimal("0")
