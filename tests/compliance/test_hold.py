"""Hold against theoretical (game-math.md): a scripted day whose handle, win, theoretical win
and bands are worked out by hand here; a table rigged to win far beyond its band is flagged,
an ordinary one is not; a correction counts with the settlement in force; a DP table's hold is
given per designated player, the proposition player apart."""

from __future__ import annotations

from datetime import date, time, timedelta
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from compliance.hold import (
    Period,
    day_period,
    day_shift_periods,
    hold_report,
    month_to_date_period,
    range_period,
    shift_period,
)
from core.errors import DomainError
from engine import ante_raise_edge
from engine.game_math import bonus_figures
from engine.hand_counts import HANDS, Bonus
from engine.table import BonusMode
from tables.services.cardrooms import cardroom_shifts_set
from tables.services.seating import seating_flag_proposition
from tests.wagers.support import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_DIAMONDS_AK92,
    FOUR_DIAMONDS_T764,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    THREE_HEARTS_QJ3,
    start,
    wager,
)
from wagers import services

pytestmark = pytest.mark.django_db

DAY = date(2024, 3, 1)  # the clock of tests/audit/conftest.py starts at 18:00 on this day
D = Decimal
CENT = D("0.01")

# The house edges, by hand: 1 - Σ hands × (odds + 1) / C(52, 7) (game-math.md's counts) for a
# new house-banked table's paytables; the ante and raise's is the one kept offline (R8, R9).
FLUSH_EDGE = 1 - Fraction(26_137_540 * 2 + 3_814_668 * 11 + 267_696 * 101 + 6_864 * 301, HANDS)
STRAIGHT_FLUSH_EDGE = 1 - Fraction(
    8_642_932 * 9 + 676_196 * 61 + 39_960 * 101 + 1_592 * 501 + 32 * 1001, HANDS
)
ANTE_EDGE = Fraction(ante_raise_edge.HOUSE_EDGE_NUMERATOR, ante_raise_edge.HOUSE_EDGE_DENOMINATOR)
ANTE_VARIANCE = Fraction(ante_raise_edge.VARIANCE_NUMERATOR, ante_raise_edge.VARIANCE_DENOMINATOR)


def cents(value: Fraction) -> Decimal:
    return (D(value.numerator) / D(value.denominator)).quantize(CENT, rounding=ROUND_HALF_EVEN)


def band(theoretical: Fraction, variance: Fraction, n: int, handle: Decimal) -> tuple:
    """theoretical ± 3·σ·√n·(average wager), to the cent."""
    average = Fraction(handle) / n
    square = variance * n * average**2  # (σ·√n·average)²
    half = 3 * Context(prec=34).sqrt(D(square.numerator) / D(square.denominator))
    return (cents(theoretical) - half).quantize(CENT), (cents(theoretical) + half).quantize(CENT)


def lines(report, bank=None) -> dict:
    bank = bank or report.total
    return {line.wager: line for line in bank.lines}


def play(table, dealer, dealer_cards, spots, *, dead=()) -> object:
    """One hand: ``spots`` is [(seat, ante, bonuses, cards, raise or None)]; seats in ``dead``
    were dealt a wrong count (R14)."""
    hand = start(table, dealer)
    for seat, ante, bonuses, _, _ in spots:
        wager(hand, table, seat, ante, by=dealer, **bonuses)
    for seat in dead:
        services.spot_declare_dead(hand=hand, seat=seat, by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=dealer_cards,
        spot_cards={seat: cards for seat, _, _, cards, _ in spots if seat not in dead},
        by=dealer,
    )
    for seat, _, _, _, raised in spots:
        if seat in dead:
            continue
        decision = {"decision": "raise", "raise_amount": raised} if raised else {"decision": "fold"}
        services.spot_decide(hand=hand, seat=seat, by=dealer, **decision)
    services.hand_settle(hand=hand, by=dealer)
    return hand


def scripted_day(table, dealer, clock):
    """Two hands at a house-banked table (Flush Bonus 4:1, 5:10, 6:100, 7:300; Straight Flush
    Bonus 3:8, 4:60, 5:100, 6:500, 7:1000; paytable mode)."""
    clock.advance(minutes=5)
    first = play(
        table,
        dealer,
        DEALER_K94,  # spades K-9-4: qualifies (R4)
        [
            # 4 hearts beat 3 spades: ante and raise +10 each; 4-card flush 1:1 +5; no run -5.
            (1, "10", {"flush_bonus": "5", "straight_flush_bonus": "5"}, FOUR_HEARTS_AT62, "10"),
            # folds: ante -10; a 3-card flush is on no line: bonus -5 (in action after a fold).
            (2, "10", {"flush_bonus": "5"}, THREE_DIAMONDS_Q85, None),
            # 4 clubs beat 3 spades: +20 +20; clubs K-Q-J is a 3-card run, 8:1: +40.
            (3, "20", {"straight_flush_bonus": "5"}, FOUR_CLUBS_KQJ4, "20"),
        ],
    )
    clock.advance(minutes=5)
    second = play(
        table,
        dealer,
        FOUR_DIAMONDS_AK92,  # diamonds A-K-9-2
        [
            (1, "10", {"flush_bonus": "5"}, THREE_HEARTS_QJ3, "10"),  # loses: -10 -10, bonus -5
            (2, "10", {}, FOUR_DIAMONDS_T764, "10"),  # T-7-6-4 below A-K-9-2: -10 -10
            (3, "20", {"flush_bonus": "5"}, "", None),  # dead: every wager returned (R14)
        ],
        dead=(3,),
    )
    return first, second


def test_a_scripted_day_s_handle_win_and_theoretical_are_what_the_hand_reckoning_says(
    house_table, house_players, dealer, clock
):
    scripted_day(house_table, dealer, clock)
    report = hold_report(house_table, day_period(house_table.cardroom, DAY))
    got = lines(report)

    # Handle, wagers in action only (seat 3's dead spot is not): antes 10+10+20 and 10+10,
    # raises 10+20 and 10+10; Flush Bonus 5+5 and 5; Straight Flush Bonus 5+5.
    ante = got["ante_raise"]
    assert (ante.wagers, ante.handle_by_wager) == (5, {"ante": D("60.00"), "raise": D("50.00")})
    assert ante.handle == D("110.00")
    assert (got["flush_bonus"].wagers, got["flush_bonus"].handle) == (3, D("15.00"))
    assert (got["straight_flush_bonus"].wagers, got["straight_flush_bonus"].handle) == (2, 10)

    # The house's win: hand 1 ante -10 +10 -20, raise -10 -20; hand 2 ante and raise +40.
    assert ante.win == D("-10.00")
    assert got["flush_bonus"].win == D("5.00")  # -5 +5, then +5
    assert got["straight_flush_bonus"].win == D("-35.00")  # +5 -40

    # Theoretical: handle × house edge; the ante and raise on the antes alone (per ante).
    assert ante.theoretical_win == cents(60 * ANTE_EDGE) == D("1.60")
    assert got["flush_bonus"].theoretical_win == cents(15 * FLUSH_EDGE) == D("1.17")
    assert got["straight_flush_bonus"].theoretical_win == cents(10 * STRAIGHT_FLUSH_EDGE)
    assert ante.hold == Fraction(-10, 110)
    assert report.total.win == D("-40.00") and report.total.handle == D("135.00")
    assert report.total.hands == 2

    # Bands: theoretical ± 3·σ·√n·(average wager), σ² the wager's variance per unit staked.
    flush_variance = bonus_figures(
        Bonus.FLUSH, BonusMode.PAYTABLE, {4: 1, 5: 10, 6: 100, 7: 300}
    ).variance
    assert (ante.band_low, ante.band_high) == band(60 * ANTE_EDGE, ANTE_VARIANCE, 5, D(60))
    assert (got["flush_bonus"].band_low, got["flush_bonus"].band_high) == band(
        15 * FLUSH_EDGE, flush_variance, 3, D(15)
    )
    # An ordinary day: every win is inside its band; nothing is flagged.
    assert report.flags == []
    assert (report.total.bank, report.players) == ("house", [])


def test_a_correction_counts_with_the_settlement_in_force(
    house_table, house_players, dealer, supervisor, clock
):
    first, _ = scripted_day(house_table, dealer, clock)
    clock.advance(hours=2)
    # The dealer's 4s was the 4d: a two-card flush, which does not qualify (R4): raisers win
    # the ante at even money and push the raise (R9); the folded ante still loses.
    services.hand_correct(
        hand=first,
        corrects=first.settlements.latest("entry").pk,
        by=supervisor,
        reason="4d, not 4s",
        dealer_cards="Ks 9s 4d 2c 7h 8c 3c",
    )
    ante = lines(hold_report(house_table, day_period(house_table.cardroom, DAY)))["ante_raise"]
    # Hand 1 now: ante -10 +10 -20, raises push; hand 2 unchanged: +40.
    assert ante.win == D("20.00")
    assert ante.handle_by_wager == {"ante": D("60.00"), "raise": D("50.00")}  # pushes wagered


def test_a_table_rigged_to_win_far_beyond_its_band_is_flagged_with_the_figures(
    house_table, house_players, dealer, clock
):
    """Twelve hands in which the dealer's four diamonds beat both raising spots: the house
    wins every ante and raise, $480 against a theoretical $6.39 and a band up to $246.08."""
    for _ in range(12):
        clock.advance(minutes=2)
        play(
            house_table,
            dealer,
            FOUR_DIAMONDS_AK92,
            [
                (1, "10", {}, THREE_HEARTS_QJ3, "10"),
                (2, "10", {}, THREE_DIAMONDS_Q85, "10"),
            ],
        )
    report = hold_report(house_table, day_period(house_table.cardroom, DAY))
    ante = lines(report)["ante_raise"]
    low, high = band(240 * ANTE_EDGE, ANTE_VARIANCE, 24, D(240))
    assert (ante.win, ante.theoretical_win, ante.band_high) == (D("480.00"), D("6.39"), high)
    assert ante.flagged
    assert report.flags == [ante.flag]
    assert ante.flag == (
        f"House table, the house: Ante and raise won $480.00 on $480.00 handle (24 wagers), "
        f"hold 100.00% against 1.33% theoretical (theoretical win $6.39); the band at z = 3 "
        f"is -${-low} to ${high}, and the win is ${D('480.00') - high} above it."
    )
    assert not lines(report)["flush_bonus"].flagged  # no bonus wagered: nothing to flag


def test_the_band_s_z_is_a_setting(house_table, house_players, dealer, clock, settings):
    scripted_day(house_table, dealer, clock)
    settings.HOLD_BAND_Z = 0  # no room for chance at all: every win off theoretical is flagged
    report = hold_report(house_table, day_period(house_table.cardroom, DAY))
    assert report.z == 0
    assert len(report.flags) == 3


def test_a_dp_table_s_hold_is_given_per_designated_player_the_proposition_player_apart(
    dp_table, dp_players, dealer, supervisor, clock
):
    # Seat 5 will hold the position on the second hand (the rotation goes clockwise from 4).
    seating_flag_proposition(seating=dp_players[5], flagged=True, by=supervisor)
    for dp in (4, 5):
        clock.advance(minutes=3)
        hand = start(dp_table, dealer, dp=4) if dp == 4 else start(dp_table, dealer)
        assert hand.dp_seating.seat == dp
        wager(hand, dp_table, 1, "10", by=dealer)
        wager(hand, dp_table, 2, "10", flush_bonus="5", by=dealer)
        services.hand_cards_enter(
            hand=hand,
            dealer_cards=DEALER_K94,
            spot_cards={1: THREE_DIAMONDS_Q85, 2: FOUR_HEARTS_AT62},
            by=dealer,
        )
        services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)
        services.spot_decide(hand=hand, seat=2, decision="raise", raise_amount="10", by=dealer)
        services.hand_settle(hand=hand, by=dealer)

    report = hold_report(dp_table, day_period(dp_table.cardroom, DAY))
    # Each hand, the DP wins seat 1's ante (+10), pays seat 2's ante and raise (-20) and its
    # 4-card flush, which beats the DP's 3 (versus_dp, 4:2): -10. Fees apart.
    total = lines(report)
    assert (total["ante_raise"].handle, total["ante_raise"].win) == (D("60.00"), D("-20.00"))
    assert (total["flush_bonus"].handle, total["flush_bonus"].win) == (D("10.00"), D("-20.00"))
    assert report.total.bank == "designated_players"
    players = {(bank.bank, bank.player.pk): bank for bank in report.players}
    assert set(players) == {
        ("designated_player", dp_players[4].player_id),
        ("proposition_player", dp_players[5].player_id),
    }
    for bank in report.players:
        assert bank.hands == 1
        assert (bank.handle, bank.win) == (D("35.00"), D("-20.00"))
    prop = players[("proposition_player", dp_players[5].player_id)]
    assert prop.name.endswith("(proposition player)")
    # versus_dp: the DP's theoretical on the Flush Bonus is the versus_dp edge, 4:2 paytable.
    edge = bonus_figures(Bonus.FLUSH, BonusMode.VERSUS_DP, {4: 2, 5: 10, 6: 50, 7: 200}).house_edge
    assert total["flush_bonus"].theoretical_win == cents(10 * edge)


def test_hands_are_counted_in_the_period_they_were_settled_in(
    house_table, house_players, dealer, clock
):
    scripted_day(house_table, dealer, clock)
    cardroom = house_table.cardroom
    next_day = hold_report(house_table, day_period(cardroom, DAY + timedelta(days=1)))
    assert next_day.total.handle == 0 and next_day.total.hands == 0
    month = hold_report(house_table, month_to_date_period(cardroom, DAY + timedelta(days=3)))
    assert month.period.start == day_period(cardroom, date(2024, 3, 1)).start
    assert month.total.handle == D("135.00")
    hour = range_period(clock.now - timedelta(minutes=3), clock.now + timedelta(minutes=1))
    assert hold_report(house_table, hour).total.hands == 1  # the second hand only


def test_a_cardroom_without_shifts_has_one_the_whole_gaming_day(cardroom):
    whole = shift_period(cardroom, DAY, "day")
    assert isinstance(whole, Period) and whole.kind == "shift"
    assert (whole.start, whole.end) == (
        day_period(cardroom, DAY).start,
        day_period(cardroom, DAY).end,
    )
    with pytest.raises(DomainError) as refused:
        shift_period(cardroom, DAY, "night")
    assert refused.value.field == "shift"


@pytest.fixture
def three_shifts(cardroom, supervisor, clock):
    """Day 06:00–14:00, swing 14:00–22:00, grave 22:00–06:00, New York time, defined before any
    table opens (so in force from today)."""
    cardroom_shifts_set(
        cardroom=cardroom,
        shifts=[("day", time(6)), ("swing", time(14)), ("grave", time(22))],
        by=supervisor,
    )


def test_a_shift_s_hold_counts_the_hands_settled_in_it(
    three_shifts, house_table, house_players, dealer, clock
):
    # The scripted day's hands settle a few minutes after 18:00, in the swing shift.
    cardroom = house_table.cardroom
    scripted_day(house_table, dealer, clock)
    swing = hold_report(house_table, shift_period(cardroom, DAY, "swing"))
    day = hold_report(house_table, day_period(cardroom, DAY))
    assert swing.total.hands == day.total.hands == 2
    assert swing.total.handle == day.total.handle == D("135.00")
    assert swing.total.win == day.total.win
    for quiet in ("day", "grave"):
        assert hold_report(house_table, shift_period(cardroom, DAY, quiet)).total.hands == 0
    assert [p.label for p in day_shift_periods(cardroom, DAY)] == [
        "day shift of gaming day 2024-03-01",
        "swing shift of gaming day 2024-03-01",
        "grave shift of gaming day 2024-03-01",
    ]


# --- the API ---------------------------------------------------------------------------------


@pytest.fixture
def api_as():
    def client(user):
        api = APIClient()
        api.force_authenticate(user=user)
        return api

    return client


def test_the_api_gives_a_day_s_hold_with_its_figures(
    house_table, house_players, dealer, auditor, clock, api_as
):
    scripted_day(house_table, dealer, clock)
    url = f"/api/v1/reports/hold/tables/{house_table.pk}/"
    body = api_as(auditor).get(url, {"period": "day", "day": DAY.isoformat()}).json()
    assert body["period"]["kind"] == "day" and body["z"] == "3.00"
    assert (body["total"]["bank"], body["total"]["hands"], body["players"]) == ("house", 2, [])
    ante = body["total"]["lines"][0]
    assert ante == {
        "wager": "ante_raise",
        "wagers": 5,
        "handle": "110.00",
        "handle_by_wager": {"ante": "60.00", "raise": "50.00"},
        "win": "-10.00",
        "hold": "-0.090909",
        "theoretical_win": "1.60",
        "theoretical_hold": ante["theoretical_hold"],
        "band_low": ante["band_low"],
        "band_high": ante["band_high"],
        "flagged": False,
        "flag": "",
    }
    assert body["flags"] == []
    month = api_as(auditor).get(url, {"period": "month", "day": "2024-03-31"}).json()
    assert month["total"]["handle"] == "135.00"
    # A cardroom with no shifts of its own has one, the whole gaming day.
    shift = api_as(auditor).get(url, {"period": "shift", "day": DAY.isoformat(), "shift": "day"})
    assert shift.json()["period"]["kind"] == "shift"
    assert shift.json()["total"]["handle"] == "135.00"


def test_the_api_flags_a_win_outside_its_band(
    house_table, house_players, dealer, auditor, clock, api_as, settings
):
    scripted_day(house_table, dealer, clock)
    settings.HOLD_BAND_Z = 0
    body = api_as(auditor).get(f"/api/v1/reports/hold/tables/{house_table.pk}/").json()
    assert len(body["flags"]) == 3
    assert [line["flagged"] for line in body["total"]["lines"]] == [True, True, True]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"period": "week"}, "period"),
        ({"period": "shift", "day": "2024-03-01", "shift": "night"}, "shift"),
        ({"period": "day", "day": "yesterday"}, "day"),
        ({"period": "day", "day": "9999-12-31"}, "day"),
        ({"period": "range", "from": "2024-03-02T00:00Z", "to": "2024-03-01T00:00Z"}, "to"),
    ],
)
def test_a_bad_period_is_refused_naming_the_parameter(house_table, auditor, api_as, query, field):
    response = api_as(auditor).get(f"/api/v1/reports/hold/tables/{house_table.pk}/", query)
    assert response.status_code == 422
    assert response.json()["error"]["field"] == field


def test_dealers_do_not_read_hold_reports(house_table, dealer, api_as):
    response = api_as(dealer).get(f"/api/v1/reports/hold/tables/{house_table.pk}/")
    assert response.status_code == 403


def test_a_report_runs_the_same_queries_for_two_hands_and_many(dp_table, dp_players, dealer, clock):
    """The sums are the database's: four queries (the sums, the settings versions, the hands
    per DP, the DP players' names) whatever the number of hands and of DPs."""

    def play_some(count: int) -> None:
        for _ in range(count):
            clock.advance(minutes=2)
            first = not dp_table.hands.exists()
            hand = start(dp_table, dealer, dp=4) if first else start(dp_table, dealer)
            seat = 1 if hand.dp_seating.seat != 1 else 2
            wager(hand, dp_table, seat, "10", by=dealer)
            services.hand_cards_enter(
                hand=hand, dealer_cards=DEALER_K94, spot_cards={seat: THREE_DIAMONDS_Q85}, by=dealer
            )
            services.spot_decide(hand=hand, seat=seat, decision="fold", by=dealer)
            services.hand_settle(hand=hand, by=dealer)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            hold_report(dp_table, day_period(dp_table.cardroom, DAY))
        return len(captured)

    play_some(2)
    few = queries()
    play_some(8)
    report = hold_report(dp_table, day_period(dp_table.cardroom, DAY))
    assert report.total.hands == 10 and len(report.players) >= 3
    assert queries() == few == 4
