"""Running a state list's import (``ExclusionListImport``) in a Celery task, its progress on
the row, never inside a request (inline on the embedded default, once the request commits).

``state_list_import_run`` is idempotent: a finished import is left as it is; one delivered
again after its worker died runs again from the start, and adds only what is not on file yet
(the rows are added in one transaction: all of a run's or none).
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from core.errors import DomainError

from .exclusion_imports import exclusion_list_import
from .models import ExclusionListImport

Status = ExclusionListImport.Status
#: An import that reported nothing for this long has lost its worker (100,000 rows import in
#: well under a minute, reporting every few thousand).
STALLED_AFTER = timedelta(minutes=30)


def state_list_import_run(import_id: int, *, task_id: str | None = None) -> ExclusionListImport:
    job = ExclusionListImport.objects.select_related("requested_by").get(pk=import_id)
    if job.status in (Status.DONE, Status.FAILED):
        return job
    total = max(job.rows, 1)  # counted when the list was queued
    _update(job.pk, status=Status.RUNNING, progress=0, task_id=task_id or "")
    try:
        made = exclusion_list_import(
            text=job.content or "",
            source_name=job.source_name,
            by=job.requested_by,
            progress=lambda read: _update(job.pk, progress=min(95, read * 95 // total)),
        )
    except DomainError as refusal:  # the file's fault: said on the row, nothing imported
        _finish(job.pk, Status.FAILED, error=refusal.message, error_field=refusal.field or "")
    except Exception as error:
        _finish(job.pk, Status.FAILED, error=f"{type(error).__name__}: {error}")
        raise
    else:
        added = len(made)
        _finish(job.pk, Status.DONE, progress=100, added=added, on_file=job.rows - added)
    job.refresh_from_db()
    return job


def _update(pk: int, **fields: object) -> None:
    ExclusionListImport.objects.filter(pk=pk).update(progress_at=timezone.now(), **fields)


def _finish(pk: int, status: str, **fields: object) -> None:
    """The outcome; the file (ID numbers in it) is not kept once read."""
    now = timezone.now()
    ExclusionListImport.objects.filter(pk=pk).update(
        status=status, progress_at=now, finished_at=now, content=None, **fields
    )


def state_list_import_mark_unqueued(import_id: int, reason: str) -> None:
    """The broker could not take the import: failed, with the reason, to be sent again."""
    ExclusionListImport.objects.filter(pk=import_id, status=Status.PENDING).update(
        status=Status.FAILED,
        error=f"The import could not be queued ({reason}). Upload the list again.",
        finished_at=timezone.now(),
        content=None,
    )


def state_list_imports_fail_stalled() -> list[int]:
    """Imports whose worker died (no progress for STALLED_AFTER) are marked failed, to be
    uploaded again."""
    stalled = ExclusionListImport.objects.filter(
        status__in=(Status.PENDING, Status.RUNNING),
        progress_at__lt=timezone.now() - STALLED_AFTER,
    )
    ids = list(stalled.values_list("pk", flat=True))
    stalled.filter(pk__in=ids).update(
        status=Status.FAILED,
        error="The import stopped: its worker was lost. Upload the list again.",
        finished_at=timezone.now(),
        content=None,
    )
    return ids
