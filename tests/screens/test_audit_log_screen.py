"""The audit log fits the screen (payload and hash folded in <details>), names objects as
people read them, and finds an actor by name (issue 15)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent

from .support import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def compliance(client, auditor):
    client.force_login(auditor)
    return client


def _rows(client, **query):
    page = parse(client.get(reverse("compliance-audit"), query).content)
    return page, page.by_id("events").find_all("tr")[1:]


def test_payload_and_hash_are_folded_and_expandable(compliance, settled):
    page, rows = _rows(compliance)
    event = AuditEvent.objects.order_by("-seq").first()
    details = rows[0].find("td", class_="details")
    payload = details.find("details", class_="payload")
    assert "open" not in payload.attrs  # folded
    assert payload.find("pre").text == event.payload.strip()
    assert len(payload.find("summary").text) <= 48
    digest = details.find("details", class_="hash")
    assert digest.find("code").text == event.hash
    assert digest.find("summary").text == f"hash {event.hash[:8]}…"


def test_objects_are_named_as_people_read_them(compliance, settled):
    _, rows = _rows(compliance, action="hand.settled")
    assert rows[0].find("td", class_="object").text == "Table 1, hand 1"
    _, rows = _rows(compliance, action="hand.wager")
    assert {row.find("td", class_="object").text for row in rows} == {"Table 1, hand 1"}
    _, rows = _rows(compliance, action="table.created")
    assert {row.find("td", class_="object").text for row in rows} == {"Table 1", "Table 2"}


@pytest.mark.parametrize("typed", ["Dee Lee", "dee", "LEE", "dealer"])
def test_an_actor_is_found_by_name(compliance, settled, typed):
    _, rows = _rows(compliance, actor=typed, action="hand.wager")
    assert [row.find_all("td")[2].text for row in rows] == ["dealer", "dealer"]


def test_a_name_matches_no_one_else(compliance, settled):
    _, rows = _rows(compliance, actor="Dee Ortiz")
    assert rows[0].text == "No events match."
