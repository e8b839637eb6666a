"""Verifications as tasks: ``POST audit/verify/`` and
``POST books/verify/`` answer 202 with a run enqueued on commit, not verified inside the
request; ``GET …/verify/{id}/`` shows its progress, then the report."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from audit.models import AuditEvent
from compliance.models import VerificationRun
from compliance.tasks import fail_stalled_verifications_task, run_verification_task
from tables.models import Seating
from tests.audit.support import raw

pytestmark = pytest.mark.django_db

V = "/api/v1"


def test_chain_verification_is_queued_on_commit_not_run_in_the_request(
    api, world, django_capture_on_commit_callbacks
):
    world["hand_settled"]
    client = api(world.auditor)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = client.post(f"{V}/audit/verify/")

    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["kind"], body["status"], body["progress"], body["ok"]) == (
        "audit_chain",
        "pending",
        0,
        None,
    )
    assert body["result"] == {}
    assert len(queued) == 1  # the task, sent once the request commits

    queued[0]()  # what the worker does (eagerly, as on the embedded default)
    run = client.get(f"{V}/audit/verify/{body['id']}/").json()
    assert (run["status"], run["progress"], run["ok"]) == ("done", 100, True)
    # The report keeps the fields verification answered before it was a task.
    assert {"ok", "events", "head_seq", "head_hash", "broken_seq", "problem"} <= set(run["result"])
    # Event numbers are unique, not gapless (a PostgreSQL sequence): every event was read.
    assert run["result"]["events"] == AuditEvent.objects.count() > 0
    assert run["result"]["head_seq"] == AuditEvent.objects.order_by("-seq")[0].seq
    assert run["requested_by"] == world.auditor.pk and run["finished_at"]
    assert run["requested_by_name"] == "Ari Kim"


def test_books_verification_names_the_first_offending_row(
    api, world, django_capture_on_commit_callbacks
):
    world["hand_settled"]
    client = api(world.supervisor)
    with django_capture_on_commit_callbacks(execute=True):
        clean = client.post(f"{V}/books/verify/")
    assert clean.status_code == 202
    done = client.get(f"{V}/books/verify/{clean.json()['id']}/").json()
    assert (done["status"], done["ok"], done["result"]["row"]) == ("done", True, "")
    assert done["result"]["settlements"] >= 1

    seating = Seating.objects.order_by("pk").last()
    raw("UPDATE tables_seating SET stack = stack + 1000 WHERE id = %s", [seating.pk])
    with django_capture_on_commit_callbacks(execute=True):
        tampered = client.post(f"{V}/books/verify/")
    run = client.get(f"{V}/books/verify/{tampered.json()['id']}/").json()

    assert (run["status"], run["ok"]) == ("done", False)
    assert run["result"]["row"] == f"tables_seating #{seating.pk}"
    assert "the stack is" in run["result"]["problem"]


def test_a_run_is_read_under_its_own_kind_only(api, world):
    client = api(world.auditor)
    assert client.get(f"{V}/books/verify/{world['chain_run']}/").status_code == 404
    assert client.get(f"{V}/audit/verify/{world['books_run']}/").status_code == 404


def test_a_broker_that_is_down_fails_the_run_with_the_reason(
    api, world, django_capture_on_commit_callbacks, monkeypatch
):
    def down(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(run_verification_task, "delay", down)
    with django_capture_on_commit_callbacks(execute=True):
        response = api(world.auditor).post(f"{V}/books/verify/")
    assert response.status_code == 202
    run = VerificationRun.objects.get(pk=response.json()["id"])
    assert run.status == "failed" and "could not be queued" in run.error


def test_a_run_whose_worker_died_is_marked_failed_by_the_sweep(api, world):
    client = api(world.auditor)
    stalled = VerificationRun.objects.create(
        kind="books", requested_by=world.auditor, requested_at=timezone.now(),
        status="running", progress=40, progress_at=timezone.now() - timedelta(minutes=31),
    )  # fmt: skip
    busy = VerificationRun.objects.create(
        kind="books", requested_by=world.auditor, requested_at=timezone.now(),
        status="running", progress=40, progress_at=timezone.now() - timedelta(minutes=5),
    )  # fmt: skip

    assert fail_stalled_verifications_task.run() == {"failed": [stalled.pk]}

    run = client.get(f"{V}/books/verify/{stalled.pk}/").json()
    assert run["status"] == "failed" and "worker was lost" in run["error"]
    assert client.get(f"{V}/books/verify/{busy.pk}/").json()["status"] == "running"


def test_state_verification_names_the_first_offending_row(
    api, world, django_capture_on_commit_callbacks
):
    """The API world's personas are made by fixtures, outside the staff services: the first
    thing the state verification finds is an account in a role group with no audited role."""
    client = api(world.auditor)
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(f"{V}/state/verify/")
    assert asked.status_code == 202 and asked.json()["kind"] == "state"
    run = client.get(f"{V}/state/verify/{asked.json()['id']}/").json()
    assert (run["status"], run["ok"]) == ("done", False)
    assert run["result"]["row"].startswith("auth_user #")
    assert "no audit event gave the account a role" in run["result"]["problem"]
    assert client.get(f"{V}/books/verify/{asked.json()['id']}/").status_code == 404
