"""The floor's dealers screen: who is clocked in, where, minutes on, who is due; the one-tap
push that says who goes where and asks first, refused mid-hand with its reason at the top of
the page; hours and hands per day; the dashboard's list of dealers due."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from cardroom.screens.audit_names import OBJECT_NAMES
from core.roles import DEALER
from tables import selectors
from tables.services.dealer_shifts import dealer_assign, dealer_clock_in
from wagers import services as hand_services

from .conftest import DRAW_SEAT_3
from .support import parse

pytestmark = pytest.mark.django_db
URL = reverse("floor-dealers")
PUSH = reverse("floor-dealers-action", args=["push"])


@pytest.fixture
def ann(make_user):
    return make_user("ann", role=DEALER, first_name="Ann", last_name="Bell")


@pytest.fixture
def bo(make_user):
    return make_user("bo", role=DEALER, first_name="Bo", last_name="Diaz")


@pytest.fixture
def on_the_floor(world, ann, bo, supervisor, clock):
    """Ann deals Table 1 from the clock's start; Bo waits."""
    for dealer in (ann, bo):
        dealer_clock_in(cardroom=world.cardroom, dealer=dealer, by=supervisor)
    dealer_assign(table=world.dp_table, dealer=ann, by=supervisor)


def test_the_floor_sees_who_is_where_and_who_is_due(floor, world, ann, bo, on_the_floor, clock):
    clock.advance(minutes=21)
    page = parse(floor.get(URL).content)
    ann_row = page.find(id=f"dealer-{ann.pk}")
    assert ann_row.find(class_="where").text == "Table 1"
    assert ann_row.find(class_="minutes-here").text == "21"
    assert "push" in ann_row.find(class_="due").text
    assert page.find(id=f"dealer-{bo.pk}").find(class_="where").text == "waiting"
    assert "Bo Diaz takes Table 1; Ann Bell takes Table 2." in page.find(id="push-plan").text
    assert "Ann Bell" in page.find(id=f"due-{ann.pk}").text


def test_the_push_asks_first_then_moves_the_dealers(floor, world, ann, bo, on_the_floor, clock):
    clock.advance(minutes=20)
    body = {"table": str(world.dp_table.pk)}
    asked = floor.post(PUSH, body)
    assert asked.status_code == 200
    assert "Push Table 1: Bo Diaz takes Table 1; Ann Bell takes Table 2." in asked.content.decode()
    assert selectors.open_session(world.dp_table).dealer == ann  # nothing yet
    done = floor.post(PUSH, {**body, "confirmed": "1"})
    assert done.status_code == 302
    assert selectors.open_session(world.dp_table).dealer == bo
    assert selectors.open_session(world.house_table).dealer == ann
    assert AuditEvent.objects.filter(action="dealer.pushed").count() == 1


def test_a_push_mid_hand_shows_why_and_changes_nothing(
    floor, world, ann, on_the_floor, supervisor, clock, nothing_written
):
    started = hand_services.hand_start(table=world.dp_table, by=supervisor, draw_cards=DRAW_SEAT_3)
    clock.advance(minutes=20)
    with nothing_written():
        answer = floor.post(PUSH, {"table": str(world.dp_table.pk), "confirmed": "1"})
    assert answer.status_code == 422
    alert = parse(answer.content).find(role="alert")
    assert f"Table 1 has hand {started.number} in progress" in alert.text


def test_a_dealer_clocked_in_twice_is_refused_with_the_reason(floor, world, ann, on_the_floor):
    answer = floor.post(reverse("floor-dealers-action", args=["clock-in"]), {"dealer": ann.pk})
    assert answer.status_code == 422
    assert "Ann Bell is clocked in already" in parse(answer.content).find(role="alert").text


def test_hours_and_hands_per_day_are_shown(floor, world, ann, on_the_floor, clock):
    clock.advance(minutes=90)
    page = parse(floor.get(URL + "?day=2024-03-01").content)
    row = page.find(id=f"dealer-day-{ann.pk}")
    assert "Ann Bell" in row.text
    assert (row.find(class_="hours").text, row.find(class_="hands").text) == ("1:30", "0")


def test_the_dashboard_lists_the_dealers_due(floor, world, ann, on_the_floor, clock):
    assert "dealers-due" in floor.get(reverse("floor-dashboard")).content.decode()
    assert f"due-{ann.pk}" not in floor.get(reverse("floor-dashboard")).content.decode()
    clock.advance(minutes=20)
    page = parse(floor.get(reverse("floor-dashboard")).content)
    assert "20 min at the table" in page.find(id=f"due-{ann.pk}").text


def test_a_dealer_does_not_see_the_dealers_screen(client, dealer, world):
    client.force_login(dealer)
    assert client.get(URL).status_code == 403


def test_the_audit_log_names_a_dealer_s_shift_in_words(world, ann, supervisor):
    shift = dealer_clock_in(cardroom=world.cardroom, dealer=ann, by=supervisor)
    assert OBJECT_NAMES["tables.dealershift"](shift).startswith("Ann Bell's shift from ")
