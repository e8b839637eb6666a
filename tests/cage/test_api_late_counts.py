"""The late closing count through the API: two floor supervisors sign in the request, the
answer is the count marked late; a refusal names its field."""

from __future__ import annotations

import pytest

from tables.models import TableSession
from tests.conftest import PASSWORD

from ..api.conftest import token_client
from .test_late_counts import closed_without_its_count

pytestmark = pytest.mark.django_db

V = "/api/v1"


def body(**given):
    return {
        "chips": {"100": 20, "25": 80, "5": 100, "1": 100},
        "counted_by": {"username": "supervisor2", "secret": PASSWORD},
        "signature": {"secret": PASSWORD},
        "note": "The table was closed with the old plain close",
        **given,
    }


def test_two_supervisors_record_a_late_closing_count(floor, clock, supervisor, second_supervisor):
    clock.at("09:00")
    old = closed_without_its_count(floor["house"], clock, supervisor)
    answer = token_client(supervisor).post(
        f"{V}/sessions/{old.pk}/late-closing-count/", body(), format="json"
    )
    assert answer.status_code == 201, answer.json()
    got = answer.json()
    assert (got["kind"], got["late"], got["total"], got["shift"]) == (
        "closing",
        True,
        "4600.00",
        "day",
    )
    assert (got["counted_by_name"], got["verified_by_name"]) == ("Gus Park", "Fran Ortiz")


def test_a_late_count_of_an_open_session_is_refused_naming_the_session(floor, supervisor):
    session = TableSession.objects.get(table=floor["house"], closed_at=None)
    answer = token_client(supervisor).post(
        f"{V}/sessions/{session.pk}/late-closing-count/", body(), format="json"
    )
    assert answer.status_code == 409
    assert answer.json()["error"]["field"] == "session"


def test_a_dealer_may_not_record_a_late_count(floor, clock, supervisor, dealer):
    clock.at("09:00")
    old = closed_without_its_count(floor["house"], clock, supervisor)
    answer = token_client(dealer).post(
        f"{V}/sessions/{old.pk}/late-closing-count/", body(), format="json"
    )
    assert answer.status_code == 403


def test_a_late_count_without_a_note_is_refused_naming_the_note(floor, clock, supervisor):
    clock.at("09:00")
    old = closed_without_its_count(floor["house"], clock, supervisor)
    answer = token_client(supervisor).post(
        f"{V}/sessions/{old.pk}/late-closing-count/", body(note=""), format="json"
    )
    assert answer.status_code in (400, 422)
    assert answer.json()["error"]["field"] == "note"
