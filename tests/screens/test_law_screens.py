"""Compliance's and the floor's law screens refuse a bad form with its field named, answer 422
and write nothing (the house rule that bad input always gets a clear error)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from patrons import cash, incidents, reviews
from patrons.identity import identity_record
from patrons.models import CurrencyTransactionReport, IncidentEntry, ReviewNote
from tests.api.conftest import IDENTITY
from tests.conftest import a_cashier

from .support import last_seq, parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def ctr(world, supervisor):
    player = world.seats[1].player
    identity_record(player=player, identity=IDENTITY, by=supervisor)
    cash.cage_cash(player=player, direction="in", amount=Decimal("10000.01"), by=a_cashier())
    return CurrencyTransactionReport.objects.get(player=player)


def _errors(response) -> str:
    lists = parse(response.content).find_all("ul", class_="errorlist")
    return " ".join(li.text for ul in lists for li in ul.find_all("li"))


def test_marking_a_ctr_filed_without_its_reference_is_refused_naming_it(client, auditor, ctr):
    client.force_login(auditor)
    before = last_seq()

    response = client.post(reverse("law-ctr-file", kwargs={"pk": ctr.pk}), {"reference": ""})

    assert response.status_code == 422
    assert "Reference" in _errors(response)
    ctr.refresh_from_db()
    assert ctr.status == CurrencyTransactionReport.Status.TO_FILE
    assert last_seq() == before


def test_a_review_note_without_text_is_refused_naming_it(client, auditor, ctr):
    review = reviews.review_open(player=ctr.player, note="Just under", by=auditor)
    client.force_login(auditor)
    notes = ReviewNote.objects.count()

    response = client.post(
        reverse("law-review-note", kwargs={"pk": review.pk}), {"status": "closed", "note": ""}
    )

    assert response.status_code == 422
    assert "Note" in _errors(response)
    assert ReviewNote.objects.count() == notes


def test_an_incident_follow_up_of_an_unknown_kind_is_refused_naming_it(client, supervisor, world):
    incident = incidents.incident_report(
        cardroom=world.cardroom, kind="dispute", summary="A payout", by=supervisor
    )
    client.force_login(supervisor)

    response = client.post(
        reverse("law-incident-follow-up", kwargs={"pk": incident.pk}),
        {"kind": "shrug", "text": "Looked"},
    )

    assert response.status_code == 422
    assert "Kind" in _errors(response)
    assert not IncidentEntry.objects.filter(incident=incident).exists()


def test_an_import_without_a_file_is_refused_naming_it(client, auditor, world):
    client.force_login(auditor)

    response = client.post(reverse("law-exclusion-import"), {})

    assert response.status_code == 422
    assert "File" in _errors(response)


# --- queries ---------------------------------------------------------------------------------


def _cardroom_queries(client, url, query, *, post: bool = False, status: int = 200) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        response = (client.post if post else client.get)(url, query)
    assert response.status_code == status
    return [q["sql"] for q in queries.captured_queries if 'FROM "tables_cardroom"' in q["sql"]]


@pytest.mark.parametrize("query", [{}, {"day": "2026-03-07"}])
def test_the_law_home_looks_up_the_cardroom_once(client, auditor, world, query):
    """The page's cardroom is read once (law_home hands it to law_page); the other query on
    the cardroom is the time zone every screen renders in (``role_required``)."""
    client.force_login(auditor)
    found = _cardroom_queries(client, reverse("law-home"), query)
    assert len(found) == 2, "\n".join(found)
    zone, page = found
    assert 'SELECT "tables_cardroom"."time_zone"' in zone
    assert 'SELECT "tables_cardroom"."id"' in page


def test_a_refused_import_looks_up_the_cardroom_once(client, auditor, world):
    client.force_login(auditor)
    found = _cardroom_queries(client, reverse("law-exclusion-import"), {}, post=True, status=422)
    assert len(found) == 2, "\n".join(found)  # the time zone, and the page's cardroom
