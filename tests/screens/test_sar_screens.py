"""Compliance's suspicious activity case screens: the Law page's section with a button on each
structuring flag, the case page (transactions, the $5,000 test, the deadline in days, notes,
the decision, asked first), every look audited; 404 for every other role, and the audit log
screen keeps the cases' events from everyone but compliance."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from patrons import cash, sar_cases
from patrons.models import SarCase, SarDecision, StructuringFlag
from tests.conftest import a_cashier

from .support import parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def flag(world):
    """Three buy-ins at the cage just under the $3,000 log line: $8,399.99 in all."""
    player = world.seats[1].player
    cashier = a_cashier()
    for amount in ("2800.00", "2999.99", "2600.00"):
        cash.cage_cash(player=player, direction="in", amount=amount, by=cashier)
    return StructuringFlag.objects.get()


@pytest.fixture
def case(flag, auditor):
    opening = sar_cases.SarOpening(summary="Just under the line", structuring_flag=flag)
    return sar_cases.sar_case_open(cardroom=flag.cardroom, opening=opening, by=auditor)


def test_a_flag_opens_a_case_from_its_button_and_the_case_page_shows_the_test(
    client, auditor, flag
):
    client.force_login(auditor)
    law = parse(client.get(reverse("law-home")).content)
    assert "Suspicious activity (SAR) cases" in law.text
    [button] = [b for b in law.find_all("button") if b.text == "Open a SAR case"]
    assert button

    opened = client.post(
        reverse("law-sar-open"),
        {"structuring_flag": flag.pk, "summary": "Three buy-ins", "suspect_identified": "yes"},
    )
    case = SarCase.objects.get()
    assert opened.status_code == 302
    assert opened["Location"] == reverse("law-sar-case", kwargs={"pk": case.pk})
    page = parse(client.get(opened["Location"]).content)
    assert "$8,399.99" in page.find("p", id="sar-test").text
    assert "at or over the $5,000.00 reporting line" in page.find("p", id="sar-test").text
    assert "30 days left" in page.find("dl", id="sar-deadline").text
    assert len(page.find("table", id="sar-transactions").find_all("tr")) == 4
    law = parse(client.get(reverse("law-home")).content)
    assert f"SAR case #{case.pk}" in law.find("ul", id="flags").text
    assert "Just under" not in law.find("table", id="sar-cases").text  # the summary stays inside
    assert AuditEvent.objects.filter(action="sar.listed").count() == 2
    assert AuditEvent.objects.filter(action="sar.viewed").count() == 1


def test_a_case_below_the_line_says_so(client, auditor, world):
    client.force_login(auditor)
    player = world.seats[1].player
    client.post(
        reverse("law-sar-open"),
        {"player": player.pk, "summary": "Asked how to avoid a CTR", "suspect_identified": "no"},
    )
    case = SarCase.objects.get()
    page = parse(client.get(reverse("law-sar-case", kwargs={"pk": case.pk})).content)
    assert "below the $5,000.00 reporting line" in page.find("p", id="sar-test").text
    assert "60 days left" in page.find("dl", id="sar-deadline").text


def test_deciding_asks_first_then_freezes_the_case(client, auditor, case):
    client.force_login(auditor)
    url = reverse("law-sar-decision", kwargs={"pk": case.pk})
    body = {"outcome": "file", "reason": "Structuring", "filing_reference": "31000123456789"}
    asked = client.post(url, body)
    assert asked.status_code == 200
    sentence = parse(asked.content).find("p", id="confirm-sentence").text
    assert "BSA id 31000123456789" in sentence and "frozen" in sentence
    assert not SarDecision.objects.exists()

    done = client.post(url, {**body, "confirmed": "1"})
    assert done.status_code == 302
    page = parse(client.get(done["Location"]).content)
    assert "SAR filed, BSA id 31000123456789" in page.find("p", id="sar-decision").text
    assert not [b for b in page.find_all("button") if b.text == "Decide"]
    again = client.post(url, {"outcome": "no_file", "reason": "Changed", "confirmed": "1"})
    assert again.status_code == 422
    assert "frozen" in parse(again.content).text
    noted = client.post(reverse("law-sar-note", kwargs={"pk": case.pk}), {"note": "Copy kept"})
    assert noted.status_code == 302


def test_a_filing_without_its_bsa_id_is_refused_where_the_user_looks(client, auditor, case):
    client.force_login(auditor)
    url = reverse("law-sar-decision", kwargs={"pk": case.pk})
    refused = client.post(url, {"outcome": "file", "reason": "Structuring", "confirmed": "1"})
    assert refused.status_code == 422
    errors = parse(refused.content).find_all("ul", class_="errorlist")
    assert all("BSA id of the SAR filed" in e.text for e in errors) and errors
    assert not SarDecision.objects.exists()


@pytest.mark.parametrize("persona", ["supervisor", "dealer", "counter", "nobody"])
def test_every_other_role_is_told_the_case_is_not_there(client, request, case, persona):
    client.force_login(request.getfixturevalue(persona))
    before = AuditEvent.objects.count()
    for name, method in (
        ("law-sar-case", "get"),
        ("law-sar-note", "post"),
        ("law-sar-decision", "post"),
    ):
        url = reverse(name, kwargs={"pk": case.pk})
        answer = client.post(url, {"note": "x"}) if method == "post" else client.get(url)
        assert answer.status_code == 404, name
    assert client.post(reverse("law-sar-open"), {"player": 1, "summary": "x"}).status_code == 404
    assert AuditEvent.objects.count() == before  # not even a refusal, which others read


def test_an_anonymous_visitor_is_sent_to_log_in(client, case):
    url = reverse("law-sar-case", kwargs={"pk": case.pk})
    answer = client.get(url)
    assert answer.status_code == 302
    assert answer["Location"].startswith(reverse("login"))


def test_the_audit_log_screen_shows_sar_events_to_compliance_alone(
    client, auditor, supervisor, case
):
    client.force_login(supervisor)
    floor = parse(client.get(reverse("compliance-audit"), {"action": "sar."}).content)
    assert "SAR case" not in floor.text
    assert "sar.opened" not in floor.text
    client.force_login(auditor)
    compliance = parse(client.get(reverse("compliance-audit"), {"action": "sar."}).content)
    assert f"SAR case #{case.pk}" in compliance.text
