"""R16 compliance: a table is flagged when, within any 40 minutes of play, fewer than two
players other than a proposition player held the designated-player position.

Hands are placed at chosen minutes after T0 with the ``clock`` fixture; the table opens at T0.
"""

from datetime import timedelta

import pytest

from patrons.models import Player
from tables import selectors
from tables.rotation import designated_player_rotate
from tables.services.seating import seat_player, seating_flag_proposition
from tables.services.sessions import table_close, table_open

from .support import T0

pytestmark = pytest.mark.django_db


def minutes(n: float):
    return T0 + timedelta(minutes=n)


@pytest.fixture
def table(clock, dp_table, approve, dealer, supervisor, make_player):
    """The DP table opened at T0 with Avery (seat 1), Blake (seat 3) and Casey (seat 5); a DP
    may hold the position any number of hands in a row, so that the tests choose who does."""
    approve(dp_table, dp_max_consecutive=100, reason="Let the tests choose the DP")
    clock.at(0)
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    for number, name in ((1, "Avery"), (3, "Blake"), (5, "Casey")):
        seat_player(table=dp_table, seat=number, player=make_player(name), buy_in="500", by=dealer)
    return dp_table


@pytest.fixture
def hand(table, clock, dealer):
    """``hand(at=12, dp=3)``: at minute 12 the position goes to seat 3, every seat offered
    before it refusing (the first hand of the session is the draw, won by seat ``dp``)."""
    seats = (1, 3, 5)

    def play(*, at: float, dp: int):
        clock.at(at)
        first = not selectors.rotation_log(table, T0, minutes(at) + timedelta(seconds=1)).exists()
        if first:
            cards = {seat: ("As" if seat == dp else f"{seat}c") for seat in seats}
            record = designated_player_rotate(table=table, by=dealer, draw_cards=cards)
        else:
            others = [seat for seat in seats if seat != dp]
            record = designated_player_rotate(table=table, by=dealer, refusals=others)
        assert record.designated_player.seat == dp
        return record

    return play


def flag_prop(table, seat: int, supervisor):
    seating = selectors.seated(table).get(seat=seat)
    seating_flag_proposition(seating=seating, flagged=True, by=supervisor)


def test_r16_one_player_holding_the_position_for_40_minutes_of_play_is_flagged(table, hand):
    for at in range(1, 50, 5):  # minutes 1, 6, … 46: Avery every hand
        hand(at=at, dp=1)
    flags = selectors.rotation_compliance_flags(table, T0, minutes(50))
    assert flags
    assert all(flag.holders == ("Avery",) for flag in flags)
    assert flags[0].start == T0
    assert flags[0].end == minutes(40)
    assert flags[0].hands == 8  # minutes 1 to 36


def test_r16_alternating_between_two_players_is_not_flagged(table, hand):
    for i, at in enumerate(range(1, 90, 5)):
        hand(at=at, dp=1 if i % 2 == 0 else 3)
    assert selectors.rotation_compliance_flags(table, T0, minutes(90)) == []


def test_r16_a_window_where_one_player_held_it_is_flagged_even_after_others_have(table, hand):
    hand(at=1, dp=1)
    hand(at=5, dp=3)
    for at in range(10, 60, 5):  # Casey from minute 10 to 55
        hand(at=at, dp=5)
    flags = selectors.rotation_compliance_flags(table, T0, minutes(60))
    assert flags
    assert {flag.holders for flag in flags} == {("Casey",)}
    assert flags[0].start == minutes(5) + timedelta(microseconds=1)


def test_r16_a_proposition_player_holding_it_does_not_count_as_one_of_the_two(
    table, hand, supervisor
):
    flag_prop(table, 3, supervisor)
    for i, at in enumerate(range(1, 60, 5)):
        hand(at=at, dp=1 if i % 2 == 0 else 3)
    flags = selectors.rotation_compliance_flags(table, T0, minutes(60))
    assert flags
    assert flags[0].holders == ("Avery", "Blake")  # both held it; only Avery counts


def test_r16_a_proposition_player_with_two_other_players_is_not_flagged(table, hand, supervisor):
    flag_prop(table, 5, supervisor)
    for i, at in enumerate(range(1, 60, 5)):
        hand(at=at, dp=(1, 3, 5)[i % 3])
    assert selectors.rotation_compliance_flags(table, T0, minutes(60)) == []


def test_r16_the_proposition_flag_is_read_as_it_was_when_the_player_held_the_position(
    table, hand, supervisor
):
    for i, at in enumerate(range(1, 60, 5)):
        hand(at=at, dp=1 if i % 2 == 0 else 3)
    flag_prop(table, 3, supervisor)  # flagged only after the hands were played
    assert selectors.rotation_compliance_flags(table, T0, minutes(60)) == []


def test_r16_less_than_40_minutes_of_play_flags_nothing(table, hand):
    for at in range(1, 36, 5):
        hand(at=at, dp=1)
    assert selectors.rotation_compliance_flags(table, T0, minutes(39)) == []


def test_r16_a_session_closed_before_40_minutes_flags_nothing(table, hand, clock, supervisor):
    for at in range(1, 30, 5):
        hand(at=at, dp=1)
    clock.at(35)
    table_close(table=table, by=supervisor)
    assert selectors.rotation_compliance_flags(table, T0, minutes(120)) == []


def test_r16_windows_do_not_span_two_sessions(table, hand, clock, dealer, supervisor):
    for at in range(1, 30, 5):  # Avery, minutes 1–26; the table closes at 30
        hand(at=at, dp=1)
    clock.at(30)
    table_close(table=table, by=supervisor)
    clock.at(31)
    table_open(table=table, dealer=dealer, by=supervisor)
    for number, name in ((1, "Avery"), (3, "Blake")):
        player = Player.objects.get(name=name)
        seat_player(table=table, seat=number, player=player, buy_in="100", by=dealer)
    clock.at(32)
    designated_player_rotate(table=table, by=dealer, draw_cards={1: "As", 3: "2c"})
    for i, at in enumerate(range(35, 70, 5)):
        clock.at(at)
        designated_player_rotate(table=table, by=dealer, refusals=[] if i % 2 == 0 else [3])
    assert selectors.rotation_compliance_flags(table, T0, minutes(70)) == []


def test_r16_each_window_is_judged_by_the_settings_in_force_not_todays(table, hand, approve, clock):
    for at in range(1, 90, 5):  # a change of holder every 20 minutes
        hand(at=at, dp=1 if (at // 20) % 2 == 0 else 3)
    assert selectors.rotation_compliance_flags(table, T0, minutes(90)) == []
    clock.at(90)
    approve(table, dp_rotation_window=15)
    # The hands before the change keep their 40-minute window.
    assert selectors.rotation_compliance_flags(table, T0, minutes(90)) == []
    for at in range(91, 180, 5):  # the same play under the new 15-minute window
        hand(at=at, dp=1 if (at // 20) % 2 == 0 else 3)
    flags = selectors.rotation_compliance_flags(table, T0, minutes(180))
    assert flags
    assert all(flag.end - flag.start == timedelta(minutes=15) for flag in flags)
    assert all(flag.start >= minutes(90) for flag in flags)


def test_r16_only_the_period_asked_for_is_checked(table, hand):
    for at in range(1, 50, 5):
        hand(at=at, dp=1)
    for i, at in enumerate(range(51, 120, 5)):
        hand(at=at, dp=3 if i % 2 == 0 else 1)
    assert selectors.rotation_compliance_flags(table, minutes(50), minutes(120)) == []
    assert selectors.rotation_compliance_flags(table, T0, minutes(120))
