"""The audit log's alarms, as monitoring (``/health/deps/``), the compliance screen and a day
close read them, and compliance's acknowledgement of one.

- **The sink is not being written**: the latest checkpoint's line did not reach the sink
  (``SinkWrite``; a full disk, a read-only volume). Checkpoints go on in the database and the
  alarm stands until a line is written again; ``verify_audit`` counts the events at risk from
  the last checkpoint on the sink.
- **A checkpoint problem**: a checkpoint forged, changed or missing in the database, or the
  sink unreadable (``CheckpointProblem``, recorded when a verification first finds it). The
  verification skips the bad checkpoint and carries on; it stays an alarm until compliance
  acknowledges it, saying what was done, and a gaming day closes only then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.db import lock_until_commit
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR

from . import signing
from .actions import AuditAction
from .models import CheckpointProblem, CheckpointProblemAcknowledgement, SinkWrite
from .services import audit_record


@dataclass(frozen=True)
class SinkAlarm:
    """The sink has not taken a checkpoint since ``since``: ``checkpoints`` of them are only
    in the database; ``error`` is the latest failure's."""

    error: str
    since: datetime
    checkpoints: int


def sink_alarm() -> SinkAlarm | None:
    """None while the latest checkpoint's line was written (or no sink is configured)."""
    if signing.sink_path() is None:
        return None
    latest = SinkWrite.objects.order_by("-id").first()
    if latest is None or latest.written:
        return None
    last_written = (
        SinkWrite.objects.filter(written=True).order_by("-id").values_list("id", flat=True).first()
    )
    failures = SinkWrite.objects.filter(id__gt=last_written or 0)
    first = failures.order_by("id").values_list("at", flat=True).first()
    return SinkAlarm(error=latest.error, since=first or latest.at, checkpoints=failures.count())


def acknowledgements_of(problems: list[str]) -> dict[str, CheckpointProblemAcknowledgement]:
    """Of these problems (as a verification words them), those acknowledged, by their text."""
    by_fingerprint = {CheckpointProblem.fingerprint_of(text): text for text in problems}
    return {
        by_fingerprint[found.problem.fingerprint]: found
        for found in CheckpointProblemAcknowledgement.objects.filter(
            problem__fingerprint__in=by_fingerprint
        ).select_related("problem", "by")
    }


def checkpoint_problems_outstanding() -> list[CheckpointProblem]:
    """The checkpoint problems compliance has not acknowledged yet, oldest first."""
    return list(CheckpointProblem.objects.filter(acknowledgement__isnull=True).order_by("id"))


@transaction.atomic
def checkpoint_problem_acknowledge(
    *, problem: CheckpointProblem, note: str, by: User
) -> CheckpointProblemAcknowledgement:
    """Compliance has looked into the problem and says what was done (the bad row reported,
    the sink restored, the key found): recorded, audited, and no longer an alarm."""
    require_role(by, COMPLIANCE_AUDITOR, action="acknowledge a checkpoint problem")
    if not note or not note.strip():
        raise DomainError("Say what was found and done about the problem.", field="note")
    # Append-only: two acknowledgements at once queue on a lock of their own.
    lock_until_commit("audit.checkpointproblem", problem.pk)
    if CheckpointProblemAcknowledgement.objects.filter(problem_id=problem.pk).exists():
        raise Conflict("This checkpoint problem is acknowledged already.", field="problem")
    acknowledged = CheckpointProblemAcknowledgement.objects.create(
        problem=problem, note=note.strip(), by=by, at=timezone.now()
    )
    audit_record(
        actor=by,
        action=AuditAction.CHECKPOINT_PROBLEM_ACKNOWLEDGED,
        target=problem,
        payload={"problem": problem.text, "note": acknowledged.note},
    )
    return acknowledged
