"""A bad checkpoint row (the runtime role may insert checkpoints) is an alarm, not a block:
beat's verification skips it and takes its checkpoint; the problem is recorded once, shown on
the compliance screen and in the API, and ``verify_audit`` fails until compliance
acknowledges it — a recorded acknowledgement, audited; a gaming day closes only then."""

from __future__ import annotations

from datetime import timedelta

import pytest

from audit import alarms
from audit.models import (
    AuditEvent,
    Checkpoint,
    CheckpointProblem,
    CheckpointProblemAcknowledgement,
)
from audit.services import audit_checkpoint_record
from audit.tasks import verify_chain_task
from cage import services as cage_services
from core.errors import Conflict, DomainError, PermissionDenied
from tables import selectors as table_selectors
from tests.api.conftest import token_client
from tests.conftest import signed

from .support import T0, verify_audit

pytestmark = pytest.mark.django_db


@pytest.fixture
def four_registrations(make_player, clock):
    """Four players registered by the dealer, a minute apart: a few events to checkpoint."""
    for _ in range(4):
        clock.advance(minutes=1)
        make_player()


@pytest.fixture
def forged(four_registrations, clock, django_capture_on_commit_callbacks):
    """A genuine checkpoint, then a row inserted beside it with a signature of nobody's key."""
    clock.advance(minutes=1)
    with django_capture_on_commit_callbacks(execute=True):
        taken = audit_checkpoint_record()
    return Checkpoint.objects.create(
        seq=taken.seq,
        hash=taken.hash,
        verified_at=clock.advance(minutes=1),
        events=taken.events,
        heads=taken.heads,
        signature="0" * 64,
        key_id=taken.key_id,
    )


def problems() -> list[str]:
    return list(CheckpointProblem.objects.values_list("text", flat=True))


def test_beat_skips_a_forged_checkpoint_records_it_once_and_takes_its_checkpoint(
    forged, clock, make_player, django_capture_on_commit_callbacks
):
    for _ in range(2):
        make_player()
        clock.advance(minutes=1)
        with django_capture_on_commit_callbacks(execute=True):
            result = verify_chain_task.delay().get(timeout=10)
        assert result["ok"] is True, result
    [text] = problems()
    assert f"checkpoint #{forged.seq} of" in text and "its signature does not verify" in text
    found = AuditEvent.objects.filter(action="audit.checkpoint_problem_found")
    assert found.count() == 1  # found twice, recorded once
    assert Checkpoint.objects.exclude(pk=forged.pk).count() == 3
    status, out = verify_audit()
    assert status == 1 and f"Checkpoint problem: {text}" in out, out


def test_compliance_acknowledges_a_problem_once_and_verify_audit_passes_then(
    forged, auditor, supervisor
):
    audit_checkpoint_record()
    [problem] = alarms.checkpoint_problems_outstanding()
    with pytest.raises(PermissionDenied):
        alarms.checkpoint_problem_acknowledge(problem=problem, note="seen", by=supervisor)
    with pytest.raises(DomainError) as empty:
        alarms.checkpoint_problem_acknowledge(problem=problem, note="  ", by=auditor)
    assert empty.value.field == "note"
    assert not CheckpointProblemAcknowledgement.objects.exists()

    note = "Forged row reported to the DBA; the database audit log names the session"
    alarms.checkpoint_problem_acknowledge(problem=problem, note=note, by=auditor)

    with pytest.raises(Conflict):
        alarms.checkpoint_problem_acknowledge(problem=problem, note="again", by=auditor)
    assert alarms.checkpoint_problems_outstanding() == []
    event = AuditEvent.objects.get(action="audit.checkpoint_problem_acknowledged")
    assert event.actor_id == auditor.pk and note in event.payload
    status, out = verify_audit()
    assert status == 0, out
    assert "(acknowledged by auditor on " in out and note in out, out


def test_a_gaming_day_closes_once_compliance_acknowledged_the_checkpoint_problem(
    forged, clock, cardroom, auditor, supervisor
):
    day = table_selectors.gaming_day(cardroom, T0)
    clock.set(T0 + timedelta(days=1))
    for span in table_selectors.day_shifts(cardroom, day):
        cage_services.shift_close(
            cardroom=cardroom,
            gaming_day=day,
            shift=span.shift,
            signature=signed(supervisor),
            by=supervisor,
        )

    with pytest.raises(Conflict) as refused:
        cage_services.gaming_day_close(
            cardroom=cardroom, gaming_day=day, signature=signed(auditor), by=auditor
        )
    assert refused.value.field == "gaming_day"
    assert "not acknowledged" in refused.value.message
    [problem] = CheckpointProblem.objects.all()  # kept by the refused close, to acknowledge
    assert problem.text in refused.value.message

    alarms.checkpoint_problem_acknowledge(problem=problem, note="Reported", by=auditor)
    closed = cage_services.gaming_day_close(
        cardroom=cardroom, gaming_day=day, signature=signed(auditor), by=auditor
    )
    assert closed.checkpoint.pk != forged.pk


def test_the_screen_and_the_api_show_the_problem_and_take_the_acknowledgement(
    forged, client, auditor, password
):
    audit_checkpoint_record()
    [problem] = CheckpointProblem.objects.all()
    client.login(username="auditor", password=password)
    page = client.get("/compliance/audit/").content.decode()
    assert "Checkpoint problem" in page and problem.text in page

    api = token_client(auditor)
    listed = api.get("/api/v1/audit/alarms/").json()
    assert listed["sink"] is None
    assert [p["text"] for p in listed["checkpoint_problems"]] == [problem.text]
    refused = api.post(
        f"/api/v1/audit/checkpoint-problems/{problem.pk}/acknowledge/", {}, format="json"
    )
    assert refused.status_code == 400 and refused.json()["error"]["field"] == "note"

    answered = client.post(
        f"/compliance/audit/checkpoint-problems/{problem.pk}/acknowledge/",
        {"note": "Reported to the DBA"},
    )
    assert answered.status_code == 302
    assert api.get("/api/v1/audit/alarms/").json()["checkpoint_problems"] == []
    assert "Checkpoint problem" not in client.get("/compliance/audit/").content.decode()
