"""Player ratings: a session per seating with its hands, wagers, buy-ins and cash-outs by
tender and result; the theoretical win exact under the settings version each hand was played
under; each decision's cost, valued after the settlement commits (R8); a player's sums per
gaming day and per month."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

import pytest

from compliance.ratings import player_ratings, session_rating
from compliance.ratings.figures import to_cents
from engine import ante_raise_edge, round_from_json
from engine.decisions import round_decisions
from engine.hand_counts import HANDS
from tables.catalogue import paytable_change_approve, paytable_change_propose
from tables.services.seating import seat_player, seating_leave
from tables.services.stacks import stack_add
from tests.compliance.test_hold import play
from tests.conftest import signed
from tests.racks import rack_counted_for_play
from tests.wagers.support import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
)
from wagers.decision_costs import SessionClosed, seating_decisions_value
from wagers.models import DecisionCost, Settlement

pytestmark = pytest.mark.django_db

D = Decimal
DAY = date(2024, 3, 1)  # the test clock starts at 18:00 on this day, New York
ANTE_EDGE = Fraction(ante_raise_edge.HOUSE_EDGE_NUMERATOR, ante_raise_edge.HOUSE_EDGE_DENOMINATOR)
# By hand, from game-math.md's counts: 1 − Σ hands × (odds + 1) / C(52, 7).
FLUSH_EDGE_NEW_TABLE = 1 - Fraction(
    26_137_540 * 2 + 3_814_668 * 11 + 267_696 * 101 + 6_864 * 301, HANDS
)  # 4:1, 5:10, 6:100, 7:300
ALT_FLUSH = {"4": 2, "5": 10, "6": 20, "7": 100}  # posted in cardrooms: 94.6962%
FLUSH_EDGE_CHANGED = 1 - Fraction(
    26_137_540 * 3 + 3_814_668 * 11 + 267_696 * 21 + 6_864 * 101, HANDS
)
STRAIGHT_FLUSH_EDGE = 1 - Fraction(
    8_642_932 * 9 + 676_196 * 61 + 39_960 * 101 + 1_592 * 501 + 32 * 1001, HANDS
)


def first_hand(table, dealer):
    return play(
        table,
        dealer,
        DEALER_K94,
        [
            (1, "10", {"flush_bonus": "5", "straight_flush_bonus": "5"}, FOUR_HEARTS_AT62, "10"),
            (2, "10", {"flush_bonus": "5"}, THREE_DIAMONDS_Q85, None),
        ],
    )


def test_the_theoretical_win_is_each_wager_times_its_edge_under_the_version_it_was_placed_under(
    house_table, house_players, dealer, approve, clock, supervisor, second_supervisor
):
    clock.advance(minutes=5)
    first_hand(house_table, dealer)
    change = paytable_change_propose(
        cardroom=house_table.cardroom,
        kind="flush_paytable",
        lines=ALT_FLUSH,
        action="add",
        reason="The lounge's promotion",
        by=supervisor,
    )
    paytable_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    approve(house_table, flush_paytable=ALT_FLUSH)
    clock.advance(minutes=5)
    play(
        house_table,
        dealer,
        DEALER_K94,
        [(1, "20", {"flush_bonus": "10"}, FOUR_CLUBS_KQJ4, "20")],
    )
    rating = session_rating(house_players[1])
    expected = (
        10 * ANTE_EDGE
        + 5 * FLUSH_EDGE_NEW_TABLE
        + 5 * STRAIGHT_FLUSH_EDGE  # version 1
        + 20 * ANTE_EDGE
        + 10 * FLUSH_EDGE_CHANGED  # version 2: the raises add no term
    )
    assert rating.theoretical == expected
    assert rating.theoretical_win == to_cents(expected) == D("2.09")  # 2.0892…
    assert rating.wagered == {
        "ante": D("30.00"),
        "raise": D("30.00"),
        "flush_bonus": D("15.00"),
        "straight_flush_bonus": D("5.00"),
    }
    assert (rating.hands, rating.spots, rating.average_wager) == (2, 2, D("40.00"))
    # Seat 2 folded its one hand: ante and the bonus that stays in action (paytable mode).
    other = session_rating(house_players[2])
    assert other.theoretical == 10 * ANTE_EDGE + 5 * FLUSH_EDGE_NEW_TABLE


def test_a_session_has_its_minutes_buy_ins_by_tender_cash_outs_and_result(
    house_table, house_players, dealer, clock
):
    seating = house_players[1]
    clock.advance(minutes=5)
    first_hand(house_table, dealer)  # seat 1: +10 +10, flush 1:1 +5, no run −5: +20
    stack_add(seating=seating, amount="200", tender="chips", by=dealer)
    clock.advance(minutes=40)
    seating_leave(seating=seating, by=dealer)
    rating = session_rating(seating_at_left(seating))
    assert rating.open is False
    assert rating.minutes == 45
    assert rating.buy_ins == {"cash": D("1000.00"), "chips": D("200.00")}
    assert rating.cash_outs == {"cash": D("0.00"), "chips": D("1220.00")}
    assert rating.result == D("20.00")
    assert rating.sessions == 1


def seating_at_left(seating):
    seating.refresh_from_db()
    return seating


def test_each_decision_is_valued_after_the_settlement_commits_and_summed_in_the_rating(
    house_table, house_players, dealer, clock, django_capture_on_commit_callbacks
):
    clock.advance(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        hand = first_hand(house_table, dealer)
    settlement = Settlement.objects.get(hand=hand)
    rows = {row.seat: row for row in DecisionCost.objects.filter(settlement=settlement)}
    expected = {v.seat: v for v in round_decisions(round_from_json(settlement.round))}
    assert set(rows) == {1, 2}
    for seat, value in expected.items():
        assert Fraction(rows[seat].cost, rows[seat].dealer_hands) == value.cost
        assert rows[seat].best_play == value.best_play
    # Four hearts raised 1×: the best play (R8), no cost. Q-8-5 of diamonds folded: J-3-2 or
    # better raises, so folding it gave something up.
    assert rows[1].cost == 0 and rows[1].best_play == "raise 1×"
    assert rows[2].cost > 0 and rows[2].best_play == "raise 1×"
    rating = session_rating(house_players[2])
    assert (rating.decisions, rating.decisions_valued, rating.best_decisions) == (1, 1, 0)
    assert rating.decision_cost == expected[2].cost / 100
    assert rating.decision_cost_total == to_cents(expected[2].cost / 100) > 0


def test_a_decision_not_valued_yet_is_counted_as_pending(house_table, house_players, dealer, clock):
    clock.advance(minutes=5)
    first_hand(house_table, dealer)  # no commit in the test's transaction: no worker ran
    rating = session_rating(house_players[1])
    assert (rating.decisions, rating.decisions_valued, rating.decisions_pending) == (1, 0, 1)
    assert rating.decision_cost == 0


def sit_again(table, player, dealer):
    """Back at seat 1 with chips from the cage (a new shift's rack sells none before its
    count)."""
    return seat_player(table=table, seat=1, player=player, buy_in="500", tender="chips", by=dealer)


def test_a_player_s_sessions_are_summed_per_gaming_day_and_per_month(
    house_table, house_players, dealer, clock
):
    player = house_players[1].player
    clock.advance(minutes=5)
    first_hand(house_table, dealer)  # gaming day 1 March
    seating_leave(seating=house_players[1], by=dealer)
    clock.advance(hours=2)  # 20:05: still 1 March
    again = sit_again(house_table, player, dealer)
    play(house_table, dealer, DEALER_K94, [(1, "10", {}, FOUR_HEARTS_AT62, "10")])  # +20
    seating_leave(seating=again, by=dealer)
    clock.advance(days=30)  # 31 March
    late = sit_again(house_table, player, dealer)
    rack_counted_for_play(house_table)
    play(house_table, dealer, DEALER_K94, [(1, "10", {}, THREE_DIAMONDS_Q85, None)])  # −10
    seating_leave(seating=late, by=dealer)
    clock.advance(days=1)  # 1 April
    april = sit_again(house_table, player, dealer)
    rack_counted_for_play(house_table)
    play(house_table, dealer, DEALER_K94, [(1, "20", {}, FOUR_HEARTS_AT62, "20")])  # +40
    ratings = player_ratings(player, DAY, DAY + timedelta(days=31))
    assert [s.day for s in ratings.sessions] == [DAY, DAY, date(2024, 3, 31), date(2024, 4, 1)]
    assert [(d.label, d.sessions, d.hands, d.result) for d in ratings.days] == [
        ("2024-03-01", 2, 2, D("40.00")),
        ("2024-03-31", 1, 1, D("-10.00")),
        ("2024-04-01", 1, 1, D("40.00")),
    ]
    assert [(m.label, m.sessions, m.total_wagered, m.result) for m in ratings.months] == [
        ("2024-03", 3, D("60.00"), D("30.00")),
        ("2024-04", 1, D("40.00"), D("40.00")),
    ]
    march = ratings.months[0]
    assert march.theoretical == sum((d.theoretical for d in ratings.days[:2]), Fraction(0))
    assert march.theoretical == (10 + 10 + 10) * ANTE_EDGE + 5 * FLUSH_EDGE_NEW_TABLE + (
        5 * STRAIGHT_FLUSH_EDGE
    )
    assert ratings.total.sessions == 4 and april.left_at is None
    assert ratings.sessions[-1].open


def test_valuing_a_closed_sessions_decisions_is_refused_by_name_and_values_nothing(
    house_table, house_players, dealer, auditor, clock, refusal
):
    clock.advance(minutes=5)
    first_hand(house_table, dealer)  # its decisions wait for the worker
    seating_leave(seating=house_players[2], by=dealer)
    with refusal(SessionClosed, field="seating", says="has ended: its rating is final"):
        seating_decisions_value(seating=house_players[2], by=auditor)
    assert session_rating(house_players[2]).decisions_pending == 1
    assert seating_decisions_value(seating=house_players[1], by=auditor) == 2  # still open
