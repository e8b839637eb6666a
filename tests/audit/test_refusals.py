"""Refused permissions in the log: at most one ``permission.refused`` event per account and
minute, carrying how many refusals it stands for — a client looping on a refused call (240 a
second were seen) no longer writes an event each time, and no refusal goes uncounted."""

from __future__ import annotations

import json

import pytest

from audit.models import AuditEvent
from audit.services import audit_refusal, audit_refusals_flush
from audit.tasks import flush_refusals_task
from cardroom import celery_app
from tests.api.conftest import token_client

pytestmark = pytest.mark.django_db


def refusals() -> list[tuple[int | None, dict]]:
    return [
        (event.actor_id, json.loads(event.payload))
        for event in AuditEvent.objects.filter(action="permission.refused").order_by("seq")
    ]


def refuse(who, n: int = 1) -> None:
    for _ in range(n):
        audit_refusal(actor=who, attempted="create a table", message="Only a supervisor")


def test_an_account_refused_again_and_again_gets_one_event_a_minute_counting_them_all(
    dealer, other_dealer, clock
):
    refuse(dealer, 240)
    refuse(other_dealer)
    assert [(actor, p["count"]) for actor, p in refusals()] == [
        (dealer.pk, 1),
        (other_dealer.pk, 1),
    ]
    clock.advance(seconds=59)
    refuse(dealer)
    assert len(refusals()) == 2  # still the same minute
    clock.advance(seconds=2)
    refuse(dealer)
    assert refusals()[-1] == (
        dealer.pk,
        {"attempted": "create a table", "message": "Only a supervisor", "count": 241},
    )


def test_the_tally_of_a_burst_that_stopped_is_written_by_beat_once_its_minute_is_over(
    dealer, clock
):
    refuse(dealer, 5)
    assert audit_refusals_flush() == 0  # its minute is not over
    clock.advance(minutes=1, seconds=1)
    assert flush_refusals_task.delay().get(timeout=10) == {"written": 1}
    assert [p["count"] for _, p in refusals()] == [1, 4]
    assert audit_refusals_flush() == 0  # nothing left to write
    assert "audit.flush_refusals" in {e["task"] for e in celery_app.conf.beat_schedule.values()}


def test_refusals_through_the_api_are_counted_not_written_one_by_one(dealer, cardroom):
    client = token_client(dealer)
    for _ in range(10):
        response = client.post("/api/v1/tables/", {"cardroom": cardroom.pk, "name": "T"})
        assert response.status_code == 403
    [(actor, payload)] = refusals()
    assert actor == dealer.pk and payload["count"] == 1
