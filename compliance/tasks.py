"""Celery adapters for the compliance layer: ids in, a call, idempotent.

Tasks are acknowledged late (settings: CELERY_TASK_ACKS_LATE, REJECT_ON_WORKER_LOST): a build
whose worker dies is delivered again, and ``export_build`` lets the delivery that owns the
build (the same task id) take it over. Sending a build never fails its caller: a broker that
is down marks the export failed with the reason, for the user to retry.
"""

import logging
from typing import Any

from celery import shared_task
from django.utils import timezone
from kombu.exceptions import OperationalError
from redis.exceptions import RedisError

from .exports import export_build, export_mark_unqueued, export_requeue_stalled
from .models import VerificationRun
from .verifications import (
    verification_fail_stalled,
    verification_mark_unqueued,
    verification_run,
)

logger = logging.getLogger(__name__)

#: What sending a task raises when the broker is down.
BROKER_DOWN = (OperationalError, RedisError, OSError)


@shared_task(name="compliance.build_export", bind=True, ignore_result=True)
def build_export_task(self: Any, export_id: int) -> dict:
    """Build one export file (enqueued on commit by ``export_request``)."""
    export = export_build(export_id, task_id=self.request.id)
    return {"export": export.pk, "status": export.status, "rows": export.rows}


def export_enqueue(export_id: int) -> bool:
    """Send the build to a worker (on commit). If the broker cannot take it, the export is
    marked failed with the reason instead and False is answered: the request that asked for
    it answers as usual, and the user sees "failed — retry"."""
    try:
        build_export_task.delay(export_id)
    except BROKER_DOWN as error:
        logger.exception("Export %s could not be queued", export_id)
        export_mark_unqueued(export_id, f"{type(error).__name__}: {error}")
        return False
    return True


@shared_task(name="compliance.requeue_stalled_exports", ignore_result=True)
def requeue_stalled_exports_task() -> dict:
    """Periodic (beat): exports whose worker died are sent again, or marked failed."""
    return {"sent": [pk for pk in export_requeue_stalled() if export_enqueue(pk)]}


@shared_task(name="compliance.run_verification", bind=True, ignore_result=True)
def run_verification_task(self: Any, run_id: int) -> dict:
    """Verify the audit chain or the books (enqueued on commit by ``verification_request``)."""
    run = verification_run(run_id, task_id=self.request.id)
    return {"run": run.pk, "status": run.status, "ok": run.ok}


def verification_enqueue(run_id: int) -> bool:
    """Send a verification to a worker (on commit); a broker that is down marks it failed."""
    try:
        run_verification_task.delay(run_id)
    except BROKER_DOWN as error:
        logger.exception("Verification %s could not be queued", run_id)
        verification_mark_unqueued(run_id, f"{type(error).__name__}: {error}")
        return False
    return True


@shared_task(name="compliance.verify_books", ignore_result=True)
def verify_books_task() -> dict:
    """Periodic (beat): verify the books in this task, recorded as a run by no one."""
    now = timezone.now()
    run = VerificationRun.objects.create(
        kind=VerificationRun.Kind.BOOKS, requested_at=now, progress_at=now
    )
    run = verification_run(run.pk)
    if not run.ok:
        logger.error("The books do not agree: %s", run.result)
    return {"run": run.pk, "ok": run.ok, **({} if run.ok else {"row": run.result.get("row")})}


@shared_task(name="compliance.verify_state", ignore_result=True)
def verify_state_task() -> dict:
    """Periodic (beat): verify the compliance state against the audit log, as a run by no
    one."""
    now = timezone.now()
    run = VerificationRun.objects.create(
        kind=VerificationRun.Kind.STATE, requested_at=now, progress_at=now
    )
    run = verification_run(run.pk)
    if not run.ok:
        logger.error("The compliance state does not agree with the audit log: %s", run.result)
    return {"run": run.pk, "ok": run.ok, **({} if run.ok else {"row": run.result.get("row")})}


@shared_task(name="compliance.fail_stalled_verifications", ignore_result=True)
def fail_stalled_verifications_task() -> dict:
    """Periodic (beat): a verification whose worker died says so, instead of running forever."""
    return {"failed": verification_fail_stalled()}
