"""A CTR's life: filed only once its gaming day is over, due 15 calendar days after it, the
version filed frozen (figures and person), later cash for that day an amendment (the next
version, amending the one filed, saying what changed) that compliance files in turn."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import connection, transaction
from rest_framework.test import APIClient

from audit.models import AuditEvent
from compliance.cash_reports import ctr_csv
from compliance.entries import Offence
from compliance.state_law import check_ctrs
from core.errors import DomainError
from patrons.cash import cage_cash, cash_transaction_record, ctr_file
from patrons.identity import identity_record
from patrons.models import CurrencyTransactionReport
from patrons.person import Person
from tests.audit.support import raw

from .conftest import an_id, local

pytestmark = pytest.mark.django_db
D = Decimal
DAY = date(2026, 4, 2)  # the clock's gaming day (New York, from 06:00)
TIN = "123456789"


def identify(player, supervisor, last_name="Vale"):
    person = Person(last_name=last_name, first_name="Robin", tin=TIN, tin_type="ssn")
    identity = dataclasses.replace(an_id(), person=person)
    return identity_record(player=player, identity=identity, by=supervisor)


def late_cash(player, cashier, amount, at):
    """Cash of an earlier moment recorded now (a late entry from the cage's sheets)."""
    with transaction.atomic():
        return cash_transaction_record(
            cardroom=player.cardroom,
            player=player,
            direction="in",
            amount=D(amount),
            place="cage",
            by=cashier,
            at=at,
        )


@pytest.fixture
def ctr(player, supervisor, cashier):
    """Robin Vale's CTR of 2026-04-02: $10,000.01 in cash bought at the cage."""
    identify(player, supervisor)
    cage_cash(player=player, direction="in", amount="10000.01", by=cashier)
    return CurrencyTransactionReport.objects.get(player=player)


def the_next_morning(clock):
    clock.set(local(2026, 4, 3, 7, 0))  # the gaming day of 2026-04-02 ended at 06:00


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_ctr_is_due_15_calendar_days_after_its_gaming_day(ctr):
    assert (ctr.gaming_day, ctr.due_on, ctr.version, ctr.amends) == (
        DAY,
        date(2026, 4, 17),
        1,
        None,
    )


def test_filing_while_the_gaming_day_runs_is_refused_with_the_reason(ctr, auditor, clock):
    clock.set(local(2026, 4, 3, 5, 59))  # still the gaming day of 2026-04-02

    with pytest.raises(DomainError) as refused:
        ctr_file(report=ctr, reference="BSA-1", by=auditor)

    assert refused.value.field == "gaming_day"
    assert (
        "still running" in refused.value.message and "06:00 on 2026-04-03" in refused.value.message
    )
    ctr.refresh_from_db()
    assert (ctr.status, ctr.filed_at, ctr.filed_as) == ("to_file", None, None)
    assert not AuditEvent.objects.filter(action="cash.ctr_filed").exists()


def test_filing_once_the_day_is_over_freezes_the_figures_and_the_person(
    ctr, auditor, supervisor, player, clock
):
    the_next_morning(clock)

    filed = ctr_file(report=ctr, reference="BSA-1", by=auditor)

    filed.refresh_from_db()
    assert filed.status == "filed"
    frozen = json.loads(filed.filed_as)
    assert frozen["cash_in"] == "10000.01" and frozen["version"] == 1
    assert frozen["person"]["last_name"] == "Vale" and frozen["person"]["tin"] == TIN
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT filed_as FROM patrons_currencytransactionreport WHERE id = %s", [filed.pk]
        )
        assert TIN not in cursor.fetchone()[0]
    event = AuditEvent.objects.get(action="cash.ctr_filed")
    assert json.loads(event.payload)["cash_in"] == "10000.01"


def test_100_more_after_filing_makes_an_amendment_and_the_filed_version_stays_as_filed(
    ctr, auditor, player, cashier, clock
):
    the_next_morning(clock)
    ctr_file(report=ctr, reference="BSA-1", by=auditor)
    filed_tx = set(ctr.transactions.values_list("pk", flat=True))

    late = late_cash(player, cashier, "100.00", at=local(2026, 4, 2, 23, 30))

    v1, v2 = CurrencyTransactionReport.objects.filter(player=player).order_by("version")
    assert (v1.version, v1.status, v1.cash_in, v1.filing_reference) == (
        1,
        "filed",
        D("10000.01"),
        "BSA-1",
    )
    assert set(v1.transactions.values_list("pk", flat=True)) == filed_tx
    assert json.loads(v1.filed_as)["cash_in"] == "10000.01"
    assert (v2.version, v2.amends_id, v2.status, v2.cash_in) == (2, v1.pk, "to_file", D("10100.01"))
    assert v2.due_on == v1.due_on and v2.gaming_day == DAY
    assert "cash in $10000.01 → $10100.01" in v2.changes
    assert f"1 transaction added (#{late.pk} $100.00 in)" in v2.changes
    amended = AuditEvent.objects.get(action="cash.ctr_amended")
    assert json.loads(amended.payload)["amends"] == v1.pk
    assert check_ctrs() == 1


def test_the_amendment_grows_until_compliance_files_it_then_a_third_version(
    ctr, auditor, player, cashier, clock
):
    the_next_morning(clock)
    ctr_file(report=ctr, reference="BSA-1", by=auditor)
    late_cash(player, cashier, "100.00", at=local(2026, 4, 2, 23, 30))
    late_cash(player, cashier, "50.00", at=local(2026, 4, 2, 23, 45))
    v2 = CurrencyTransactionReport.objects.get(player=player, version=2)
    assert v2.cash_in == D("10150.01") and "2 transactions added" in v2.changes

    ctr_file(report=v2, reference="BSA-2", by=auditor)
    late_cash(player, cashier, "25.00", at=local(2026, 4, 2, 23, 50))

    versions = CurrencyTransactionReport.objects.filter(player=player).order_by("version")
    assert [(r.version, r.status, r.cash_in) for r in versions] == [
        (1, "filed", D("10000.01")),
        (2, "filed", D("10150.01")),
        (3, "to_file", D("10175.01")),
    ]
    assert versions[2].amends_id == versions[1].pk
    assert check_ctrs() == 1


def test_a_filed_versions_figures_edited_in_the_database_are_found(
    ctr, auditor, player, cashier, clock
):
    the_next_morning(clock)
    ctr_file(report=ctr, reference="BSA-1", by=auditor)
    late_cash(player, cashier, "100.00", at=local(2026, 4, 2, 23, 30))
    raw("UPDATE patrons_currencytransactionreport SET cash_in = 10100.01 WHERE id = %s", [ctr.pk])

    with pytest.raises(Offence) as found:
        check_ctrs()

    assert "version 1's figures are not those it filed" in str(found.value.problem)


def test_the_due_and_overdue_lists(ctr, player, auditor, cardroom, clock):
    url = f"/api/v1/cardrooms/{cardroom.pk}/ctrs/"
    clock.set(local(2026, 4, 17, 12, 0))  # the due date: still due, not yet overdue
    due = client_for(auditor).get(url, {"due": "due"}).json()["results"]
    assert [(r["id"], r["due_on"], r["overdue"]) for r in due] == [(ctr.pk, "2026-04-17", False)]
    assert client_for(auditor).get(url, {"due": "overdue"}).json()["results"] == []

    clock.set(local(2026, 4, 18, 12, 0))
    overdue = client_for(auditor).get(url, {"due": "overdue"}).json()["results"]
    assert [(r["id"], r["overdue"]) for r in overdue] == [(ctr.pk, True)]
    assert client_for(auditor).get(url, {"due": "due"}).json()["results"] == []

    ctr_file(report=ctr, reference="BSA-late", by=auditor)
    assert client_for(auditor).get(url, {"due": "overdue"}).json()["results"] == []


def test_an_unknown_due_list_is_refused_naming_it(ctr, auditor, cardroom):
    response = client_for(auditor).get(f"/api/v1/cardrooms/{cardroom.pk}/ctrs/", {"due": "soon"})

    assert response.status_code == 422, response.content
    assert response.json()["error"]["field"] == "due"


def test_the_api_refuses_filing_during_the_day_naming_the_gaming_day(ctr, auditor):
    response = client_for(auditor).post(
        f"/api/v1/ctrs/{ctr.pk}/file/",
        {"reference": "BSA-1"},
        format="json",
        headers={"Idempotency-Key": "file-during-the-day"},
    )

    assert response.status_code == 422, response.content
    assert response.json()["error"]["field"] == "gaming_day"
    assert "still running" in response.json()["error"]["message"]


def test_the_api_shows_each_version_with_what_it_amends(ctr, auditor, player, cashier, clock):
    the_next_morning(clock)
    ctr_file(report=ctr, reference="BSA-1", by=auditor)
    late_cash(player, cashier, "100.00", at=local(2026, 4, 2, 23, 30))

    rows = client_for(auditor).get(f"/api/v1/cardrooms/{player.cardroom_id}/ctrs/").json()
    by_version = {r["version"]: r for r in rows["results"]}
    assert by_version[1]["cash_in"] == "10000.01" and by_version[1]["status"] == "filed"
    assert by_version[2]["amends"] == ctr.pk and "$10100.01" in by_version[2]["changes"]


def test_the_csv_shows_each_version_the_person_as_filed_and_the_tin_masked(
    ctr, auditor, supervisor, player, cashier, cardroom, clock
):
    the_next_morning(clock)
    ctr_file(report=ctr, reference="BSA-1", by=auditor)
    identify(player, supervisor, last_name="Vale-Moreno")  # a new name after filing
    late_cash(player, cashier, "100.00", at=local(2026, 4, 2, 23, 30))

    text = ctr_csv(cardroom=cardroom, start=DAY, end=DAY, by=auditor)

    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["version"], r["cash_in"], r["last_name"]) for r in rows] == [
        ("1", "10000.01", "Vale"),
        ("2", "10100.01", "Vale-Moreno"),
    ]
    assert rows[1]["amends"] == str(ctr.pk) and "transaction added" in rows[1]["changes"]
    assert rows[0]["due_on"] == "2026-04-17"
    assert TIN not in text and rows[0]["tin"] == "•••••6789"


def test_the_law_page_shows_due_dates_overdue_in_words_and_amendments(
    client, ctr, auditor, player, cashier, clock
):
    the_next_morning(clock)
    ctr_file(report=ctr, reference="BSA-1", by=auditor)
    late_cash(player, cashier, "100.00", at=local(2026, 4, 2, 23, 30))
    clock.set(local(2026, 4, 20, 12, 0))
    client.force_login(auditor)

    page = client.get("/compliance/law/", {"day": "2026-04-02"}).content.decode()

    assert "2026-04-17" in page and "overdue" in page
    assert f"v2, amends #{ctr.pk}: cash in $10000.01 → $10100.01" in page


def test_the_law_pages_file_button_refuses_during_the_day_with_its_reason(client, ctr, auditor):
    client.force_login(auditor)

    response = client.post(f"/compliance/law/ctrs/{ctr.pk}/file/", {"reference": "BSA-1"})

    assert response.status_code == 422
    assert "is still running" in response.content.decode()
    ctr.refresh_from_db()
    assert ctr.status == "to_file"


def test_a_days_cash_before_any_ctr_is_summed_into_the_first_version(player, supervisor, cashier):
    identify(player, supervisor)
    cage_cash(player=player, direction="in", amount="6000.00", by=cashier)
    cage_cash(player=player, direction="in", amount="4000.01", by=cashier)

    report = CurrencyTransactionReport.objects.get(player=player)
    assert (report.version, report.cash_in, report.transactions.count()) == (1, D("10000.01"), 2)
    assert report.due_on == DAY + timedelta(days=15)
