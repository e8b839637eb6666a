"""Running a verification: the audit chain, the books or the
compliance state, in a Celery task with its progress on a ``VerificationRun`` row, never
inside a request.

``verification_run`` is idempotent: a finished run is left as it is; a run delivered again
after its worker died runs again from the start (verifying writes nothing but the run's row).
"""

from __future__ import annotations

import logging
from dataclasses import asdict
from datetime import timedelta
from typing import Any

from django.utils import timezone

from audit.models import Checkpoint
from audit.verification import verify_chain
from core.replica import ReadSource, reporting

from .books import verify_books
from .models import VerificationRun
from .snapshots import read_snapshot, side_progress
from .state import verify_state

logger = logging.getLogger(__name__)
Status = VerificationRun.Status
#: A run that reported nothing for this long has lost its worker (a chain of 300k events
#: verifies in seconds; the books report progress at every percent).
STALLED_AFTER = timedelta(minutes=30)


def verification_run(run_id: int, *, task_id: str | None = None) -> VerificationRun:
    run = VerificationRun.objects.get(pk=run_id)
    if run.status in (Status.DONE, Status.FAILED):
        return run
    now = timezone.now()
    VerificationRun.objects.filter(pk=run.pk).update(
        status=Status.RUNNING, progress=0, progress_at=now, task_id=task_id or ""
    )
    try:
        ok, result = _verify(run)
    except Exception as error:
        VerificationRun.objects.filter(pk=run.pk).update(
            status=Status.FAILED, error=f"{type(error).__name__}: {error}", finished_at=now
        )
        raise
    if not ok:
        logger.error("%s verification %s: broken: %s", run.kind, run.pk, result)
    VerificationRun.objects.filter(pk=run.pk).update(
        status=Status.DONE, progress=100, progress_at=timezone.now(), ok=ok, result=result,
        finished_at=timezone.now(),
    )  # fmt: skip
    run.refresh_from_db()
    return run


def _verify(run: VerificationRun) -> tuple[bool, dict[str, Any]]:
    """The verification, read from the replica when one is configured (its progress is
    written to the primary); the result says where it was read from."""
    with reporting() as source:
        ok, result = _verify_kind(run, source)
    return ok, {**result, "read_from": source.as_dict()}


def _verify_kind(run: VerificationRun, source: ReadSource) -> tuple[bool, dict[str, Any]]:
    if run.kind == VerificationRun.Kind.BOOKS:
        with read_snapshot() as snapshot:
            if snapshot:
                with side_progress(run.pk) as progress:
                    books = verify_books(progress=progress)
            else:
                books = verify_books(progress=lambda percent: _progress(run.pk, percent))
        return books.ok, books.as_dict()
    if run.kind == VerificationRun.Kind.STATE:
        state = verify_state(progress=lambda percent: _progress(run.pk, percent))
        return state.ok, state.as_dict()
    # The chain is verified in one walk: its progress goes from 0 to 100 when it is done.
    chain = verify_chain(
        checkpoints=Checkpoint.objects.values_list("seq", "hash"), as_of=source.as_of
    )
    return chain.ok, asdict(chain)


def _progress(run_id: int, percent: int) -> None:
    VerificationRun.objects.filter(pk=run_id).update(progress=percent, progress_at=timezone.now())


def verification_mark_unqueued(run_id: int, reason: str) -> None:
    """The broker could not take the run: failed, with the reason, to be asked for again."""
    VerificationRun.objects.filter(pk=run_id, status=Status.PENDING).update(
        status=Status.FAILED,
        error=f"The verification could not be queued ({reason}). Ask for it again.",
        finished_at=timezone.now(),
    )


def verification_fail_stalled() -> list[int]:
    """Runs whose worker died (no progress for STALLED_AFTER) are marked failed, to be asked
    for again; verifying is cheap to repeat, so none is sent again behind the user's back."""
    stalled = VerificationRun.objects.filter(
        status__in=(Status.PENDING, Status.RUNNING),
        progress_at__lt=timezone.now() - STALLED_AFTER,
    )
    ids = list(stalled.values_list("pk", flat=True))
    stalled.filter(pk__in=ids).update(
        status=Status.FAILED,
        error="The verification stopped: its worker was lost. Ask for it again.",
        finished_at=timezone.now(),
    )
    return ids
