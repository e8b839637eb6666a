"""The waitlist's minutes are the floor's to set: the next call and the next phone hold are
timed by them; a bad value is refused by name and changes nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from audit.models import AuditEvent
from core.errors import DomainError, PermissionDenied
from patrons.models import Cardroom
from tables.services.seat_calls import waitlist_call
from tables.services.sessions import table_open
from tables.services.waitlist import waitlist_join, waitlist_open
from tables.services.waitlist_timing import cardroom_waitlist_timing_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_table, dealer, supervisor):
    table = make_table("Table 1")
    table_open(table=table, dealer=dealer, by=supervisor)
    return table


@pytest.fixture
def dp_list(cardroom, table, supervisor):
    return waitlist_open(
        cardroom=cardroom, banking="designated_player", ante_min="5", ante_max="100", by=supervisor
    )


def test_the_next_call_and_the_next_phone_hold_are_timed_by_the_new_minutes(
    cardroom, table, dp_list, supervisor, clock
):
    cardroom_waitlist_timing_set(
        cardroom=cardroom, values={"seat_call_minutes": 5, "phone_hold_minutes": 45}, by=supervisor
    )
    waitlist_join(waitlist=dp_list, name="Avery Lane", by=supervisor)
    phoned = waitlist_join(waitlist=dp_list, name="Blake Moss", phone=True, by=supervisor)
    assert phoned.hold_until == clock.now + timedelta(minutes=45)
    called = waitlist_call(table=table, seat=2, by=supervisor)
    assert called.call_expires_at == clock.now + timedelta(minutes=5)
    [event] = AuditEvent.objects.filter(action="cardroom.waitlist_timing_set")
    assert json.loads(event.payload) == {
        "before": {"seat_call_minutes": 3, "phone_hold_minutes": 30},
        "after": {"seat_call_minutes": 5, "phone_hold_minutes": 45},
    }


def test_a_setting_not_named_keeps_its_value(cardroom, supervisor):
    cardroom_waitlist_timing_set(cardroom=cardroom, values={"seat_call_minutes": 4}, by=supervisor)
    cardroom.refresh_from_db()
    assert (cardroom.seat_call_minutes, cardroom.phone_hold_minutes) == (4, 30)


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"seat_call_minutes": 0}, "seat_call_minutes"),
        ({"phone_hold_minutes": 121}, "phone_hold_minutes"),
        ({"seat_call_minutes": 5, "phone_hold_minutes": "ten"}, "phone_hold_minutes"),
        ({"seat_call_minutes": True}, "seat_call_minutes"),
        ({"push_minutes": 20}, "push_minutes"),
    ],
)
def test_a_bad_value_is_refused_by_name_and_nothing_is_kept(
    cardroom, supervisor, refusal, values, field
):
    with refusal(DomainError, field=field, says=field.split("_")[0]):
        cardroom_waitlist_timing_set(cardroom=cardroom, values=values, by=supervisor)
    kept = Cardroom.objects.get(pk=cardroom.pk)
    assert (kept.seat_call_minutes, kept.phone_hold_minutes) == (3, 30)


def test_a_dealer_does_not_set_them(cardroom, dealer, refusal):
    with refusal(PermissionDenied, field=None, says="waitlist"):
        cardroom_waitlist_timing_set(cardroom=cardroom, values={"seat_call_minutes": 5}, by=dealer)
