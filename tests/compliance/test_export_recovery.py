"""Exports that lose their worker or their broker, without processes:
the sweep of stalled builds, the claim that keeps one build at a time, the retry of a failed
export, and "failed — retry" on the screen. tests/faults/ does the same with real ones."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from compliance import exports
from compliance.exports import MAX_ATTEMPTS, STALLED_AFTER, export_build, export_requeue_stalled
from compliance.models import Export
from compliance.services import export_request, export_retry
from core.errors import Conflict, PermissionDenied

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media")]


@pytest.fixture
def export(auditor) -> Export:
    """Requested (its build not sent: tests do not run on-commit callbacks)."""
    now = timezone.now()
    return export_request(
        kind=Export.Kind.AUDIT_LOG, start=now - timedelta(days=1), end=now, by=auditor
    )


def _set(export: Export, **values) -> Export:
    Export.objects.filter(pk=export.pk).update(**values)
    export.refresh_from_db()
    return export


LONG_AGO = timedelta(minutes=6)


def test_a_running_build_with_no_progress_for_five_minutes_is_sent_again(export):
    _set(export, status="running", progress=40, attempts=1,
         progress_at=timezone.now() - LONG_AGO)  # fmt: skip

    assert export_requeue_stalled() == [export.pk]

    export.refresh_from_db()
    assert (export.status, export.progress) == ("pending", 0)


def test_a_build_that_still_makes_progress_is_left_alone(export):
    _set(export, status="running", progress=40, attempts=1, progress_at=timezone.now())

    assert export_requeue_stalled() == []
    assert export_requeue_stalled(now=timezone.now() + STALLED_AFTER / 2) == []
    export.refresh_from_db()
    assert export.status == "running"


def test_a_pending_export_whose_message_was_lost_is_sent_again(export):
    _set(export, requested_at=timezone.now() - LONG_AGO, progress_at=None)

    assert export_requeue_stalled() == [export.pk]


def test_after_the_last_attempt_a_stalled_build_is_failed_for_the_user_to_retry(export):
    _set(export, status="running", attempts=MAX_ATTEMPTS, progress_at=timezone.now() - LONG_AGO)

    assert export_requeue_stalled() == []

    export.refresh_from_db()
    assert export.status == "failed"
    assert "Retry it" in export.error


def test_a_duplicate_task_does_not_build_an_export_another_worker_is_building(export):
    _set(export, status="running", progress=40, task_id="first", progress_at=timezone.now())

    export_build(export.pk, task_id="second")

    export.refresh_from_db()
    assert (export.status, export.progress, export.task_id) == ("running", 40, "first")


def test_the_task_delivered_again_after_its_worker_died_takes_its_build_over(export):
    _set(export, status="running", progress=40, task_id="first", progress_at=timezone.now())

    export_build(export.pk, task_id="first")

    export.refresh_from_db()
    assert (export.status, export.attempts) == ("done", 1)


def test_a_build_leaves_no_temporary_file_behind_even_after_a_killed_one(export, media):
    folder = media / "exports"
    folder.mkdir()
    (folder / f".building-{export.pk}-left-by-a-killed-worker.csv").write_text("half")

    export_build(export.pk, task_id="t")

    export.refresh_from_db()
    assert [p.name for p in folder.iterdir()] == [export.file.name.split("/")[-1]]


def test_a_failed_export_is_retried_from_the_start_and_the_retry_is_audited(export, auditor):
    exports.export_mark_unqueued(export.pk, "OperationalError: connection refused")
    _set(export, attempts=2)

    export_retry(export=export, by=auditor)

    export.refresh_from_db()
    assert (export.status, export.attempts, export.error) == ("pending", 0, "")
    event = AuditEvent.objects.filter(action="export.retried").get()
    assert event.actor == auditor and event.object_id == str(export.pk)


def test_only_a_failed_export_is_retried(export, auditor):
    before = AuditEvent.objects.count()
    with pytest.raises(Conflict) as refused:
        export_retry(export=export, by=auditor)
    assert refused.value.field == "status"
    assert AuditEvent.objects.count() == before


def test_a_dealer_cannot_retry_an_export(export, dealer):
    exports.export_mark_unqueued(export.pk, "down")
    with pytest.raises(PermissionDenied):
        export_retry(export=export, by=dealer)
    export.refresh_from_db()
    assert export.status == "failed"


def test_the_screen_says_failed_retry_and_its_button_sends_it_again(client, auditor, export):
    exports.export_mark_unqueued(export.pk, "OperationalError: connection refused")
    client.force_login(auditor)

    page = client.get(reverse("compliance-exports")).content.decode()
    assert "failed — retry" in page
    assert "connection refused" in page
    assert reverse("compliance-export-retry", args=[export.pk]) in page

    response = client.post(
        reverse("compliance-export-retry", args=[export.pk]), HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    export.refresh_from_db()
    assert export.status == "pending"
    assert "failed — retry" not in response.content.decode()
