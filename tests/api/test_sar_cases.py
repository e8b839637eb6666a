"""Suspicious activity cases through the API: compliance's alone (everyone else is answered
404, as for a case that does not exist), every look audited, and the audit log as read by
anyone but compliance without a trace of them."""

from __future__ import annotations

import json

import pytest

from audit.models import AuditEvent
from patrons import cash
from patrons.models import SarCase, StructuringFlag

pytestmark = pytest.mark.django_db
V = "/api/v1"


@pytest.fixture
def flag(world):
    """Three cash buy-ins at the cage just under the $3,000 log line: $8,399.99, flagged."""
    for amount in ("2800.00", "2999.99", "2600.00"):
        cash.cage_cash(
            player=world.identified_player, direction="in", amount=amount, by=world.cashier
        )
    return StructuringFlag.objects.get()


def open_case(api, world, **body):
    body = {"summary": "Three buy-ins just under the log line", **body}
    return api(world.auditor).post(
        f"{V}/cardrooms/{world['cardroom']}/sar-cases/", body, format="json"
    )


def test_compliance_opens_a_case_from_a_flag_and_reads_the_5000_test_and_deadline(api, world, flag):
    answer = open_case(api, world, structuring_flag=flag.pk)
    assert answer.status_code == 201, answer.data
    case = answer.data
    assert (case["origin"], case["player_name"]) == ("flag", "Ida Known")
    assert case["test"] == {
        "cash_in": "8399.99",
        "cash_out": "0.00",
        "involved": "8399.99",
        "meets_threshold": True,
        "words": "at or over the $5,000.00 reporting line",
    }
    assert len(case["transactions"]) == 3
    assert case["deadline"]["days_left"] == 30
    assert case["deadline"]["status"] == "open"
    assert case["decision"] is None


def test_a_case_without_a_suspect_is_due_in_60_days(api, world):
    answer = open_case(api, world, player=world["identified_player"], suspect_identified=False)
    assert answer.status_code == 201, answer.data
    assert answer.data["deadline"]["days_left"] == 60
    assert answer.data["test"]["words"] == "below the $5,000.00 reporting line"


def test_notes_then_the_decision_then_the_case_is_frozen(api, world, flag):
    case = open_case(api, world, structuring_flag=flag.pk).data
    client = api(world.auditor)
    noted = client.post(f"{V}/sar-cases/{case['id']}/notes/", {"note": "Tape asked"})
    assert noted.status_code == 201
    decided = client.post(
        f"{V}/sar-cases/{case['id']}/decision/",
        {"outcome": "file", "reason": "Structuring", "filing_reference": "31000123456789"},
        format="json",
    )
    assert decided.status_code == 201, decided.data
    assert decided.data["decision"]["filing_reference"] == "31000123456789"
    assert decided.data["deadline"]["status"] == "filed"
    again = client.post(
        f"{V}/sar-cases/{case['id']}/decision/",
        {"outcome": "no_file", "reason": "Second thoughts"},
        format="json",
    )
    assert again.status_code == 409
    assert again.data["error"]["field"] == "outcome"
    later = client.post(f"{V}/sar-cases/{case['id']}/notes/", {"note": "Filed copy kept"})
    assert [n["note"] for n in later.data["notes"]] == ["Tape asked", "Filed copy kept"]


def test_the_overdue_filter_lists_undecided_cases_past_their_deadline(api, world, flag):
    late = open_case(api, world, structuring_flag=flag.pk, detected_on="2024-01-01").data
    open_case(api, world, player=world["identified_player"])
    url = f"{V}/cardrooms/{world['cardroom']}/sar-cases/"
    overdue = api(world.auditor).get(url, {"due": "overdue"})
    assert [c["id"] for c in overdue.data] == [late["id"]]
    assert overdue.data[0]["deadline"]["overdue"] is True
    assert len(api(world.auditor).get(url).data) == 2
    wrong = api(world.auditor).get(url, {"due": "soon"})
    assert (wrong.status_code, wrong.data["error"]["field"]) == (422, "due")


def test_every_look_by_compliance_is_audited(api, world):
    case = world.sar_case
    client = api(world.auditor)
    client.get(f"{V}/cardrooms/{world['cardroom']}/sar-cases/")
    client.get(f"{V}/sar-cases/{case.pk}/")
    listed = AuditEvent.objects.get(action="sar.listed")
    assert json.loads(listed.payload)["cases"] == [case.pk]
    viewed = AuditEvent.objects.get(action="sar.viewed")
    assert (viewed.object_id, viewed.actor_id) == (str(case.pk), world.auditor.pk)


@pytest.mark.parametrize(
    "role", ["supervisor", "dealer", "other_dealer", "administrator", "cashier", "counter"]
)
def test_every_other_role_meets_the_same_404_as_for_a_case_that_does_not_exist(api, world, role):
    case = world.sar_case
    client = api(getattr(world, role))
    there = client.get(f"{V}/sar-cases/{case.pk}/")
    nowhere = client.get(f"{V}/sar-cases/{case.pk + 1000}/")
    assert there.status_code == nowhere.status_code == 404
    assert there.data == nowhere.data
    assert client.get(f"{V}/cardrooms/{world['cardroom']}/sar-cases/").status_code == 404
    decided = client.post(
        f"{V}/sar-cases/{case.pk}/decision/", {"outcome": "no_file", "reason": "x"}
    )
    assert decided.status_code == 404
    assert not AuditEvent.objects.filter(action__in=["sar.viewed", "sar.decided"]).exists()


def test_the_audit_log_hides_sar_events_from_everyone_but_compliance(api, world):
    case = world.sar_case
    api(world.auditor).post(f"{V}/sar-cases/{case.pk}/notes/", {"note": "Looked again"})
    floor = api(world.supervisor).get(f"{V}/audit/events/", {"action": "sar."})
    assert floor.status_code == 200
    assert floor.data["results"] == []
    everything = api(world.supervisor).get(f"{V}/audit/events/").data["results"]
    assert not [e for e in everything if e["action"].startswith("sar.")]
    assert not [e for e in everything if e["object_type"] == "patrons.sarcase"]
    compliance = api(world.auditor).get(f"{V}/audit/events/", {"action": "sar."}).data
    assert {e["action"] for e in compliance["results"]} == {"sar.opened", "sar.noted"}


def test_a_case_leaks_into_no_player_answer_and_no_incident(api, world):
    assert world.sar_case.pk
    player = world["identified_player"]
    for who in ("supervisor", "dealer"):
        identity = api(getattr(world, who)).get(f"{V}/players/{player}/identity/")
        assert "sar" not in json.dumps(identity.data, default=str).lower()
    incidents = api(world.supervisor).get(f"{V}/incidents/").data
    assert "suspicious" not in json.dumps(incidents, default=str).lower()
    assert "sar" not in json.dumps(incidents, default=str).lower()


def test_a_case_names_only_the_cardrooms_own_transactions(api, world):
    answer = open_case(api, world, player=world["identified_player"], transactions=[987654])
    assert answer.status_code == 422
    assert answer.data["error"]["field"] == "transactions"
    assert not SarCase.objects.exists()
