"""Compliance reports: per table and gaming day in the cardroom's time zone, they
agree with the settlements they summarise — over random play on both kinds of table."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compliance.reports import player_report, table_day_report
from core.errors import Conflict
from patrons.models import Cardroom
from rake.models import FeeEntry
from rake.selectors import fees_by_mode, fees_total
from tables.models import Seating, StackEntry
from tables.selectors import gaming_day, gaming_day_bounds
from tables.services.seating import seating_flag_proposition, seating_leave, seating_waive_dp
from tables.services.setting_changes import (
    setting_change_approve,
    setting_change_propose,
    setting_change_reject,
)
from tables.services.stacks import stack_add
from tests.audit.support import (
    Plan,
    correct_hand,
    local,
    new_york_gaming_day,
    play_hand,
    random_plan,
)
from tests.conftest import examples, signed
from wagers import services
from wagers.models import Hand, Settlement, SpotSettlement

DAY_A, DAY_B = date(2024, 3, 1), date(2024, 3, 2)
# When the designated-player table's hands settle, in New York time: gaming day A runs from
# 06:00 on March 1 to 06:00 on March 2, so everything up to 05:59:59 on March 2 is day A.
SLOTS = [
    *(local(2024, 3, 1, hour, 5) for hour in range(19, 24)),
    local(2024, 3, 2, 0, 35),
    local(2024, 3, 2, 1, 35),
    local(2024, 3, 2, 2, 0),  # 02:00 belongs to the day before
    local(2024, 3, 2, 3, 5),
    local(2024, 3, 2, 4, 5),
    local(2024, 3, 2, 5, 5),
    local(2024, 3, 2, 5, 59, 59, microsecond=999_999),  # the last moment of day A
    local(2024, 3, 2, 6, 0),  # the first moment of day B
    *(local(2024, 3, 2, hour, 5) for hour in range(7, 12)),
]


# --- the test's own reckoning, from the rows -------------------------------------------------


def in_force(hand: Hand) -> Settlement:
    """The settlement entry that stands: the latest that is not a reversal."""
    return hand.settlements.exclude(kind="reversal").order_by("-entry").first()


def hands_of_day(table, day: date) -> list[Hand]:
    return [
        hand
        for hand in Hand.objects.filter(table=table, settled_at__isnull=False)
        .select_related("settings")
        .order_by("number")
        if new_york_gaming_day(hand.settled_at) == day
    ]


def expected_report(table, day: date) -> dict:
    hands = hands_of_day(table, day)
    fees: dict[str, Decimal] = defaultdict(lambda: Decimal("0.00"))
    dead: Counter[str] = Counter()
    for hand in hands:
        settlement = in_force(hand)
        fees[hand.settings.rake_mode] += settlement.house_rake
        for line in SpotSettlement.objects.filter(settlement=settlement, status="dead"):
            dead[line.dead_reason] += 1
    return {
        "fees_by_mode": {mode: total for mode, total in fees.items() if total},
        "fees_total": sum(fees.values(), Decimal("0.00")),
        "hands_played": sum(1 for hand in hands if hand.status == "settled"),
        "misdeals": dict(Counter(hand.misdeal for hand in hands if hand.misdeal)),
        "dead_spots_by_reason": dict(dead),
    }


def reported(table, day: date) -> dict:
    report = table_day_report(table, day)
    return {
        "fees_by_mode": {mode: total for mode, total in report.fees_by_mode.items() if total},
        "fees_total": report.fees_total,
        "hands_played": report.hands_played,
        "misdeals": report.misdeals,
        "dead_spots_by_reason": report.dead_spots_by_reason,
    }


# --- two gaming days of random play ----------------------------------------------------------


@pytest.fixture
def two_gaming_days(
    dp_table, house_table, dp_players, house_players, dealer, supervisor, approve, clock
):
    """Play both tables through gaming days A and B (see SLOTS), with misdeals, dead spots,
    corrections, and a fee change mid-day on the DP table (so fees come in two modes a day)."""

    def play(seed: int) -> dict:
        rng = random.Random(seed)
        corrected = 0
        for index, moment in enumerate(SLOTS):
            if index == 4:
                clock.set(moment - timedelta(minutes=3))
                approve(dp_table, rake_mode="players_not_dp", rake_amount="2")
            if index == 13:
                clock.set(moment - timedelta(minutes=3))
                approve(dp_table, rake_mode="dp_only", rake_amount="3")
            plan = random_plan(rng)
            if index in (2, 8):
                plan = Plan(misdeal="shuffler_fault" if index == 2 else "dealer_card_count")
            if index in (3, 9):
                plan = Plan(dead_before_deal=1, dead_after_deal=1, dp_bank="10")
            hand = play_hand(dp_table, rng=rng, by=dealer, clock=clock, settle_at=moment, plan=plan)
            if hand.status == "settled" and rng.random() < 0.3 and index not in (11, 12):
                clock.set(moment + timedelta(minutes=2))  # the same gaming day
                corrected += correct_hand(hand, rng=rng, by=supervisor) is not None
            house_at = moment + timedelta(minutes=20)
            if index + 1 < len(SLOTS) and house_at > SLOTS[index + 1] - timedelta(minutes=2):
                continue  # no room before the next hand: the clock only goes forward
            house_plan = random_plan(rng)
            house_plan.dp_bank = None
            play_hand(
                house_table, rng=rng, by=dealer, clock=clock, settle_at=house_at, plan=house_plan
            )
        return {"corrected": corrected}

    return play


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_table_day_report_agrees_with_the_settlements_it_summarises(
    two_gaming_days, dp_table, house_table, seed
):
    played = two_gaming_days(seed)
    # The random play covers what the report counts.
    assert played["corrected"] >= 1
    assert Hand.objects.filter(misdeal="shuffler_fault").exists()
    assert Hand.objects.filter(misdeal="dealer_card_count").exists()
    reasons = set(SpotSettlement.objects.values_list("dead_reason", flat=True))
    assert {"wrong_card_count", "misdeal", "dealer_funds"} <= reasons
    for table in (dp_table, house_table):
        for day in (DAY_A - timedelta(days=1), DAY_A, DAY_B, DAY_B + timedelta(days=1)):
            assert reported(table, day) == expected_report(table, day), (table.name, day)
    # 02:00 and 05:59:59.999999 on March 2 are day A in New York; 06:00 is day B.
    report_a, report_b = table_day_report(dp_table, DAY_A), table_day_report(dp_table, DAY_B)
    for moment, report in (
        (local(2024, 3, 2, 2, 0), report_a),
        (local(2024, 3, 2, 5, 59, 59, microsecond=999_999), report_a),
        (local(2024, 3, 2, 6, 0), report_b),
    ):
        assert Hand.objects.filter(table=dp_table, settled_at=moment).count() == 1
        assert report.start <= moment < report.end
    # Both days saw play, and the fee changed mode within the day.
    assert table_day_report(dp_table, DAY_A).hands_played >= 6
    assert table_day_report(dp_table, DAY_B).hands_played >= 4
    assert set(table_day_report(dp_table, DAY_A).fees_by_mode) == {
        "all_players",
        "players_not_dp",
    }
    assert set(table_day_report(dp_table, DAY_B).fees_by_mode) == {"players_not_dp", "dp_only"}
    # A house-banked table charges no fee (R12).
    assert table_day_report(house_table, DAY_A).fees_by_mode == {}
    assert table_day_report(house_table, DAY_A).fees_total == Decimal("0.00")
    # The fee ledger, the settlement entries made that day and the rake selectors agree.
    for day in (DAY_A, DAY_B):
        start, end = gaming_day_bounds(dp_table.cardroom, day)
        entries = Settlement.objects.filter(
            hand__table=dp_table, created_at__gte=start, created_at__lt=end
        )
        booked = sum((s.house_rake for s in entries), Decimal("0.00"))
        ledger = sum(
            (f.amount for f in FeeEntry.objects.filter(table=dp_table, gaming_day=day)),
            Decimal("0.00"),
        )
        report = table_day_report(dp_table, day)
        assert report.fees_total == booked == ledger == fees_total(dp_table, day, day)
        assert fees_by_mode(dp_table, day, day)[day] == report.fees_by_mode
    assert fees_total(dp_table, DAY_A, DAY_B) == sum(
        (table_day_report(dp_table, day).fees_total for day in (DAY_A, DAY_B)), Decimal("0")
    )


def short_bank_hand(table, dealer) -> Hand:
    """A hand whose designated player (seat 1) banks only $5.00 and does not qualify, so
    neither spot can be paid: both are dead for the dealer's funds (R13, R14), nobody pays a
    fee, and the DP's fee goes back (R12)."""
    hand = services.hand_start(
        table=table,
        by=dealer,
        dp_bank="5",
        draw_cards={1: "As", 2: "2c", 4: "3c", 5: "4c", 6: "5c"},
    )
    assert hand.dp_seating.seat == 1
    for seat in (2, 4):
        seating = Seating.objects.get(table=table, seat=seat, left_at=None)
        services.wager_place(hand=hand, seating=seating, ante="20", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards="8s 7s 2s 3c 4h 9c Td",  # 8-high: does not qualify (R4), antes win
        spot_cards={2: "Ah Th 6h 2h Jd 5c 9h", 4: "Kd Qd 8d 5d As 6c 4c"},
        by=dealer,
    )
    for seat in (2, 4):
        services.spot_decide(hand=hand, seat=seat, decision="raise", raise_amount="20", by=dealer)
    settlement = services.hand_settle(hand=hand, by=dealer)
    assert [line.dead_reason for line in settlement.spots.all()] == ["dealer_funds"] * 2
    assert settlement.house_rake == Decimal("0.00")
    return hand


# The dealer really held a seven-card flush: both spots lose, the bank covers it all.
SEVEN_CLUBS = "Kc Qc Jc Tc 8c 7c 2c"


def test_a_correction_on_a_later_day_falls_on_the_day_it_is_made(
    dp_table, dp_players, dealer, supervisor, clock
):
    """A correction's fees are booked on the day of the correction, as its settlement entries
    are: the first day keeps what it collected, the later day carries the difference, and
    together they equal the settlement in force."""
    clock.set(local(2024, 3, 1, 20, 0))
    hand = short_bank_hand(dp_table, dealer)
    clock.set(local(2024, 3, 2, 9, 0))
    correction = services.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        by=supervisor,
        reason="misread",
        dealer_cards=SEVEN_CLUBS,
    )
    assert correction.house_rake == Decimal("3.00")  # two spots and the DP, $1.00 each
    first, later = table_day_report(dp_table, DAY_A), table_day_report(dp_table, DAY_B)
    assert (first.fees_total, later.fees_total) == (Decimal("0.00"), Decimal("3.00"))
    assert later.fees_by_mode == {"all_players": Decimal("3.00")}
    assert first.fees_total + later.fees_total == in_force(hand).house_rake
    assert (first.hands_played, later.hands_played) == (1, 0)


def test_dead_spots_are_counted_from_the_settlement_in_force(
    dp_table, dp_players, dealer, supervisor, clock
):
    """A correction that changes which spots the designated player could cover changes the
    report's count of dealer-funds dead spots."""
    clock.set(local(2024, 3, 1, 20, 0))
    hand = short_bank_hand(dp_table, dealer)
    assert table_day_report(dp_table, DAY_A).dead_spots_by_reason == {"dealer_funds": 2}
    clock.set(local(2024, 3, 1, 20, 5))
    services.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        by=supervisor,
        reason="misread",
        dealer_cards=SEVEN_CLUBS,
    )
    report = table_day_report(dp_table, DAY_A)
    assert report.dead_spots_by_reason == {}
    assert report.fees_by_mode == {"all_players": Decimal("3.00")}
    assert reported(dp_table, DAY_A) == expected_report(dp_table, DAY_A)


# --- the gaming day --------------------------------------------------------------------------


def test_the_gaming_day_follows_the_cardrooms_time_zone_and_day_start_hour():
    new_york = Cardroom(time_zone="America/New_York", gaming_day_starts_at=time(6, 0))
    two_am = local(2024, 3, 2, 2, 0)
    assert gaming_day(new_york, two_am) == DAY_A  # 02:00 belongs to the day before
    assert gaming_day(new_york, two_am.astimezone(UTC)) == DAY_A
    assert gaming_day(new_york, local(2024, 3, 2, 5, 59, 59, microsecond=999_999)) == DAY_A
    assert gaming_day(new_york, local(2024, 3, 2, 6, 0)) == DAY_B
    # 2024-03-02 03:00 UTC is still the evening of March 1 in New York.
    assert gaming_day(new_york, datetime(2024, 3, 2, 3, 0, tzinfo=UTC)) == DAY_A
    start, end = gaming_day_bounds(new_york, DAY_A)
    assert (start, end) == (local(2024, 3, 1, 6, 0), local(2024, 3, 2, 6, 0))
    assert start.astimezone(UTC) == datetime(2024, 3, 1, 11, 0, tzinfo=UTC)
    # The same moment is a different gaming day in Tokyo, whose day starts at 04:00.
    tokyo = Cardroom(time_zone="Asia/Tokyo", gaming_day_starts_at=time(4, 0))
    assert gaming_day(tokyo, two_am) == DAY_B  # 16:00 in Tokyo
    # The gaming day over the change to daylight-saving time (02:00 on March 10) has 23 hours.
    spring = gaming_day_bounds(new_york, date(2024, 3, 9))
    assert spring[1].astimezone(UTC) - spring[0].astimezone(UTC) == timedelta(hours=23)


@pytest.mark.parametrize(
    "zone, starts, at, day",
    [
        # The day starts at 02:30, which does not exist on March 10 in New York: 03:15 EDT
        # (07:15 UTC) is before the day's start (02:30 EST = 07:30 UTC), so the day before.
        ("America/New_York", time(2, 30), datetime(2024, 3, 10, 7, 15, tzinfo=UTC), 9),
        ("America/New_York", time(2, 30), datetime(2024, 3, 10, 7, 30, tzinfo=UTC), 10),
        # The day starts at 01:30, which happens twice on November 3: the day starts at the
        # first, so 01:00 EST (06:00 UTC), after it, is the new day already.
        ("America/New_York", time(1, 30), datetime(2024, 11, 3, 5, 29, tzinfo=UTC), 2),
        ("America/New_York", time(1, 30), datetime(2024, 11, 3, 6, 0, tzinfo=UTC), 3),
        ("Europe/London", time(1, 30), datetime(2024, 3, 31, 1, 0, tzinfo=UTC), 30),
    ],
)
def test_a_day_starting_inside_a_daylight_saving_change_is_judged_by_its_bounds(
    zone, starts, at, day
):
    cardroom = Cardroom(time_zone=zone, gaming_day_starts_at=starts)
    found = gaming_day(cardroom, at)
    assert found.day == day
    start, end = gaming_day_bounds(cardroom, found)
    assert start <= at < end


ZONES = ["UTC", "America/New_York", "Europe/London", "Australia/Sydney", "Asia/Kolkata"]


@settings(max_examples=examples(400), deadline=None)
@given(
    zone=st.sampled_from(ZONES),
    starts=st.builds(time, st.integers(0, 23), st.sampled_from([0, 15, 30, 45])),
    at=st.datetimes(
        min_value=datetime(2024, 1, 1), max_value=datetime(2025, 12, 31), timezones=st.just(UTC)
    )
    | st.sampled_from(
        [  # around daylight-saving changes
            datetime(2024, 3, 10, 6, 0, tzinfo=UTC) + timedelta(minutes=15 * i) for i in range(16)
        ]
        + [datetime(2024, 11, 3, 4, 0, tzinfo=UTC) + timedelta(minutes=15 * i) for i in range(16)]
        + [datetime(2024, 3, 31, 0, 0, tzinfo=UTC) + timedelta(minutes=15 * i) for i in range(12)]
        + [datetime(2024, 4, 6, 14, 0, tzinfo=UTC) + timedelta(minutes=15 * i) for i in range(12)]
    ),
)
def test_every_moment_lies_within_the_bounds_of_its_gaming_day(zone, starts, at):
    """``gaming_day`` (which the fee ledger books by) and ``gaming_day_bounds`` (which the
    reports query by) agree, also when the day starts inside a daylight-saving change."""
    cardroom = Cardroom(time_zone=zone, gaming_day_starts_at=starts)
    day = gaming_day(cardroom, at)
    start, end = gaming_day_bounds(cardroom, day)
    assert start <= at < end
    assert gaming_day_bounds(cardroom, day + timedelta(days=1))[0] == end
    assert gaming_day(cardroom, at.astimezone(ZoneInfo(zone))) == day


# --- the rotation, setting changes and players -----------------------------------------------


def hand_with_dp(table, dealer, **kwargs) -> Hand:
    """Start a hand and end it at once (nobody wagers): the rotation is what counts here."""
    hand = services.hand_start(table=table, by=dealer, **kwargs)
    services.hand_cancel(hand=hand, by=dealer)
    return hand


def test_a_table_where_one_player_held_the_button_for_40_minutes_is_flagged(
    make_table, seat, dealer, approve, clock
):
    clock.set(local(2024, 3, 1, 19, 0))
    table = make_table("Lonely DP")
    approve(table, dp_max_consecutive=100)
    holder, other = seat(table, 1), seat(table, 3)
    seating_waive_dp(seating=other, waived=True, by=dealer)
    for minute in range(0, 40, 5):
        clock.set(local(2024, 3, 1, 19, 1 + minute))
        hand = hand_with_dp(table, dealer, draw_cards={1: "As"} if minute == 0 else None)
        assert hand.dp_seating_id == holder.pk
    # R16 (2026): the hand after 40 minutes of one holder is refused, the game stopped.
    clock.set(local(2024, 3, 1, 19, 41))
    with pytest.raises(Conflict, match="stopped"):
        hand_with_dp(table, dealer)
    clock.set(local(2024, 3, 1, 20, 0))
    report = table_day_report(table, DAY_A)
    assert report.rotation_flags
    assert {flag.holders for flag in report.rotation_flags} == {(holder.player.name,)}
    assert all(flag.end - flag.start == timedelta(minutes=40) for flag in report.rotation_flags)
    assert [r.designated_player_id for r in report.rotation] == [holder.pk] * 8
    # Every offer is in the log, the waiver included.
    assert all(any(o["outcome"] == "waived" for o in record.offers) for record in report.rotation)


def test_a_table_where_the_button_went_round_is_not_flagged(
    make_table, seat, dealer, clock, house_table
):
    clock.set(local(2024, 3, 1, 19, 0))
    table = make_table("Rotating")
    seatings = [seat(table, number) for number in (1, 3, 5)]
    for minute in range(0, 50, 5):
        clock.set(local(2024, 3, 1, 19, 1 + minute))
        hand_with_dp(table, dealer, draw_cards={1: "As", 3: "2c", 5: "3c"} if not minute else None)
    clock.set(local(2024, 3, 1, 20, 0))
    report = table_day_report(table, DAY_A)
    assert report.rotation_flags == []
    assert {r.designated_player_id for r in report.rotation} == {s.pk for s in seatings}
    assert table_day_report(house_table, DAY_A).rotation_flags == []


def test_a_proposition_player_does_not_count_as_a_second_holder(
    make_table, seat, dealer, supervisor, clock
):
    clock.set(local(2024, 3, 1, 19, 0))
    table = make_table("Prop")
    player, prop = seat(table, 1), seat(table, 4)
    seating_flag_proposition(seating=prop, flagged=True, by=supervisor)
    for minute in range(0, 40, 5):
        clock.set(local(2024, 3, 1, 19, 1 + minute))
        hand_with_dp(table, dealer, draw_cards={1: "As", 4: "2c"} if not minute else None)
    clock.set(local(2024, 3, 1, 19, 41))
    with pytest.raises(Conflict, match="stopped"):  # R16 (2026): the game ends
        hand_with_dp(table, dealer)
    clock.set(local(2024, 3, 1, 20, 0))
    flags = table_day_report(table, DAY_A).rotation_flags
    assert flags
    assert {flag.holders for flag in flags} == {
        tuple(sorted((player.player.name, prop.player.name)))
    }


def test_the_setting_change_history_shows_who_proposed_and_who_approved(
    dp_table, supervisor, second_supervisor, clock
):
    clock.set(local(2024, 3, 1, 20, 0))
    first = setting_change_propose(
        table=dp_table, values={"ante_min": "10"}, reason="Busy night", by=supervisor
    )
    clock.set(local(2024, 3, 1, 20, 5))
    version = setting_change_approve(
        change=first, signature=signed(second_supervisor), by=second_supervisor
    )
    clock.set(local(2024, 3, 1, 21, 0))
    rejected = setting_change_propose(
        table=dp_table, values={"rake_amount": "5"}, reason="More fee", by=supervisor
    )
    setting_change_reject(change=rejected, by=second_supervisor, reason="No")
    clock.set(local(2024, 3, 2, 5, 50))  # proposed on day A ...
    late = setting_change_propose(
        table=dp_table, values={"ante_max": "50"}, reason="Late", by=supervisor
    )
    clock.set(local(2024, 3, 2, 6, 10))  # ... approved on day B
    setting_change_approve(change=late, signature=signed(second_supervisor), by=second_supervisor)

    day_a = table_day_report(dp_table, DAY_A).setting_changes
    assert [c.pk for c in day_a] == [first.pk, rejected.pk, late.pk]
    shown = day_a[0]
    assert (shown.proposed_by, shown.decided_by, shown.status) == (
        supervisor,
        second_supervisor,
        "approved",
    )
    assert (shown.old_values, shown.new_values) == ({"ante_min": "5.00"}, {"ante_min": "10.00"})
    assert shown.result == version and shown.decided_at == local(2024, 3, 1, 20, 5)
    assert shown.self_approved is False
    assert day_a[1].status == "rejected" and day_a[1].result is None
    assert [c.pk for c in table_day_report(dp_table, DAY_B).setting_changes] == [late.pk]
    assert table_day_report(dp_table, DAY_A - timedelta(days=1)).setting_changes == []


def test_a_players_report_lists_the_seatings_and_every_stack_movement(
    dp_table, house_table, dp_players, house_players, make_player, seat, dealer, clock
):
    """The movements of a period add up to how the player's chips on the tables changed."""
    rng = random.Random(11)
    player = make_player("Quinn")

    def chips() -> Decimal:
        return sum(
            Seating.objects.filter(player=player).values_list("stack", flat=True), Decimal("0")
        )

    clock.set(local(2024, 3, 1, 19, 0))
    first = seat(dp_table, 7, buy_in="400", player=player)
    snapshots = {clock.now + timedelta(seconds=1): chips()}
    for minute in (10, 20, 30):
        play_hand(
            dp_table, rng=rng, by=dealer, clock=clock, settle_at=local(2024, 3, 1, 19, minute)
        )
        snapshots[clock.now + timedelta(seconds=1)] = chips()
    clock.set(local(2024, 3, 1, 19, 35))
    stack_add(seating=first, amount="100", by=dealer)
    seating_leave(seating=first, by=dealer)
    snapshots[clock.now + timedelta(seconds=1)] = chips()
    clock.set(local(2024, 3, 1, 19, 40))
    second = seat(house_table, 5, buy_in="250", player=player)
    for minute in (50, 55):
        play_hand(
            house_table, rng=rng, by=dealer, clock=clock, settle_at=local(2024, 3, 1, 20, minute)
        )
        snapshots[clock.now + timedelta(seconds=1)] = chips()
    end = clock.now + timedelta(seconds=1)

    whole = player_report(player, local(2024, 3, 1, 18, 0), end)
    assert [s.pk for s in whole.seatings] == [first.pk, second.pk]
    assert list(whole.movements) == list(
        StackEntry.objects.filter(seating__player=player).order_by("created_at", "id")
    )
    assert {m.reason for m in whole.movements} >= {"buy_in", "wager", "add_on", "cash_out"}
    assert sum(m.amount for m in whole.movements) == chips()
    moments = sorted(snapshots)
    for earlier, later in zip(moments, moments[1:], strict=False):
        period = player_report(player, earlier, later)
        assert sum(m.amount for m in period.movements) == snapshots[later] - snapshots[earlier]
    # A period before the second seating shows only the first.
    assert [s.pk for s in player_report(player, moments[0], moments[2]).seatings] == [first.pk]
    assert player_report(player, end, end + timedelta(hours=1)).seatings == [second]
