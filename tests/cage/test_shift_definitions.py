"""Shift definitions are versioned from a gaming day on: redefining the shifts after money was
booked leaves that day's figures as they were (its records keep their shift) and the new
shifts apply from the day they are in force (Nevada MICS, 25 CFR 543.10: each table
reconciles by shift)."""

from __future__ import annotations

from datetime import date, time
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from cage import selectors, shift_figures
from core.errors import DomainError
from tables import shift_selectors
from tables.models import ShiftDefinition, StackEntry
from tables.services.cardrooms import cardroom_shifts_set
from tables.services.seating import player_seat_new
from tables.services.stacks import stack_add
from tests.racks import rack_shift_change_count

from ..api.conftest import token_client
from ..audit.support import raw
from ..runtime_role import assert_append_only
from .support import LOSER, WINNER, play, seating

pytestmark = pytest.mark.django_db

DAY = date(2024, 3, 1)
TOMORROW = date(2024, 3, 2)
EARLY_LATE = [("early", time(6)), ("late", time(18))]
D = Decimal


def names(cardroom, day: date) -> list[str]:
    return [span.shift for span in shift_selectors.day_shifts(cardroom, day)]


@pytest.fixture
def booked(floor, clock, dealer):
    """07:05 of the day shift: Pat buys in $500 cash at the house table and plays a hand."""
    house = floor["house"]
    clock.at("07:05")
    player_seat_new(table=house, seat=1, name="Pat", buy_in="500", by=dealer)
    player_seat_new(table=house, seat=2, name="Quinn", buy_in="300", tender="chips", by=dealer)
    clock.at("08:00")
    play(house, dealer, {1: ("10", WINNER, "raise"), 2: ("10", LOSER, "fold")})
    return house


def test_shifts_redefined_after_money_was_booked_apply_from_tomorrow(
    booked, clock, supervisor, dealer
):
    cardroom = booked.cardroom
    before = selectors.day_statistics(cardroom, DAY).as_json()
    assert before["shifts"][0]["totals"]["expected_drop"] == "500.00"

    made = cardroom_shifts_set(cardroom=cardroom, shifts=EARLY_LATE, by=supervisor)

    assert made.effective_from == TOMORROW  # something is booked today: from tomorrow
    assert names(cardroom, DAY) == ["day", "swing", "grave"]
    assert selectors.day_statistics(cardroom, DAY).as_json() == before
    figures = shift_figures.table_shift_figures(booked, DAY, "day")
    assert (figures.expected_drop, figures.cash_in) == (D("500.00"), D("500.00"))
    assert names(cardroom, TOMORROW) == ["early", "late"]
    clock.at("07:00", days=1)
    rack_shift_change_count(booked, by=supervisor)  # a new shift's count before any sale
    stack_add(seating=seating(booked, 1), amount="100", by=dealer)
    entry = StackEntry.objects.latest("id")
    assert (entry.gaming_day, entry.shift) == (TOMORROW, "early")
    tomorrow = shift_figures.table_shift_figures(booked, TOMORROW, "early")
    assert tomorrow.expected_drop == D("100.00")
    # The day keeps its shifts and its drop (tomorrow's count closes its rack's figures).
    after = selectors.day_statistics(cardroom, DAY).as_json()
    assert [s["shift"] for s in after["shifts"]] == ["day", "swing", "grave"]
    assert after["shifts"][0]["totals"]["expected_drop"] == "500.00"


def test_shifts_redefined_before_anything_is_booked_apply_today(cardroom, supervisor):
    made = cardroom_shifts_set(cardroom=cardroom, shifts=EARLY_LATE, by=supervisor)

    assert made.effective_from == DAY
    assert names(cardroom, DAY) == ["early", "late"]


def test_the_newest_definition_of_a_day_wins_and_each_day_reads_its_own(cardroom, supervisor):
    cardroom_shifts_set(
        cardroom=cardroom, shifts=EARLY_LATE, effective_from=date(2024, 3, 5), by=supervisor
    )
    cardroom_shifts_set(
        cardroom=cardroom,
        shifts=[("am", time(6)), ("pm", time(12))],
        effective_from=date(2024, 3, 5),
        by=supervisor,
    )
    cardroom_shifts_set(
        cardroom=cardroom, shifts=EARLY_LATE, effective_from=date(2024, 3, 9), by=supervisor
    )

    assert names(cardroom, date(2024, 3, 4)) == ["day", "swing", "grave"]
    assert names(cardroom, date(2024, 3, 5)) == ["am", "pm"]
    assert names(cardroom, date(2024, 3, 8)) == ["am", "pm"]
    assert names(cardroom, date(2024, 3, 9)) == ["early", "late"]
    schedule = shift_selectors.shift_schedule(cardroom, DAY)
    assert schedule.current is not None and schedule.current.shifts[0] == ["day", "06:00"]
    assert [(d.effective_from, d.shifts[0][0]) for d in schedule.scheduled] == [
        (date(2024, 3, 5), "am"),
        (date(2024, 3, 9), "early"),
    ]


def _rows() -> tuple[int, int]:
    return ShiftDefinition.objects.count(), AuditEvent.objects.count()


@pytest.mark.parametrize(
    ("effective_from", "says"),
    [(date(2024, 2, 29), "is past"), (DAY, "Records are booked under the shifts of 2024-03-01")],
)
def test_a_past_day_or_a_day_with_records_is_refused(booked, supervisor, effective_from, says):
    before = _rows()
    with pytest.raises(DomainError) as refused:
        cardroom_shifts_set(
            cardroom=booked.cardroom,
            shifts=EARLY_LATE,
            effective_from=effective_from,
            by=supervisor,
        )
    assert refused.value.field == "effective_from"
    assert says in refused.value.message
    assert _rows() == before
    assert names(booked.cardroom, DAY) == ["day", "swing", "grave"]


def test_a_shift_definition_is_append_only_in_the_database(cardroom):
    assert raw('SELECT COUNT(*) FROM "tables_shiftdefinition"')[0][0] == 1
    for sql in (
        'UPDATE "tables_shiftdefinition" SET effective_from = effective_from',
        'DELETE FROM "tables_shiftdefinition"',
    ):
        assert_append_only(lambda sql=sql: raw(sql))


def test_the_api_shows_the_shifts_in_force_and_those_scheduled(booked, supervisor):
    api = token_client(supervisor)
    url = f"/api/v1/cardrooms/{booked.cardroom.pk}/shifts/"
    shifts = [{"name": "early", "starts_at": "06:00"}, {"name": "late", "starts_at": "18:00"}]
    shown_as = [
        {"name": "early", "starts_at": "06:00:00"},
        {"name": "late", "starts_at": "18:00:00"},
    ]

    made = api.post(url, {"shifts": shifts}, format="json")
    assert made.status_code == 200, made.json()
    assert made.json() == {"effective_from": "2024-03-02", "shifts": shown_as}
    refused = api.post(url, {"shifts": shifts, "effective_from": "2024-03-01"}, format="json")
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "effective_from"

    shown = api.get(url).json()
    assert shown["current"]["effective_from"] == "2024-03-01"
    assert [s["name"] for s in shown["current"]["shifts"]] == ["day", "swing", "grave"]
    assert shown["scheduled"] == [{"effective_from": "2024-03-02", "shifts": shown_as}]
