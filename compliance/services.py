"""Writes of the compliance layer: export requests, retries, and the sweep of stalled exports.

An export is built by a Celery task sent once the request commits. Sending never fails the
request: if the broker cannot take the task (Redis down), the export is marked failed with the
reason, and the user retries it (``export_retry``) once the broker is back. A build whose
worker died is delivered again (late acknowledgement) or, if the whole worker is gone, found by
beat's sweep (``compliance.tasks.requeue_stalled_exports_task``) and sent again, up to
``exports.MAX_ATTEMPTS`` builds; after that it is marked failed for the user to retry.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core import scoping
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons.models import Cardroom

from .models import Export, VerificationRun
from .tasks import export_enqueue, verification_enqueue


def _exported_cardroom(cardroom: Cardroom | None) -> Cardroom | None:
    """The cardroom an export holds: the one named, else the request's only one; outside a
    request (the system), none names every cardroom."""
    scope = scoping.current()
    if cardroom is not None or scope is None:
        return cardroom
    if len(scope) != 1:
        raise DomainError("Name the cardroom whose records to export.", field="cardroom")
    return Cardroom.objects.get(pk=next(iter(scope)))


@transaction.atomic
def export_request(
    *, kind: str, start: datetime, end: datetime, by: User, cardroom: Cardroom | None = None
) -> Export:
    """Record an export request of one cardroom's records (``_exported_cardroom``); the file
    is built by a Celery task once this commits."""
    require_role(by, COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR, action="export records")
    if kind not in Export.Kind.values:
        raise DomainError(f"An export is one of: {', '.join(Export.Kind.values)}.", field="kind")
    if start >= end:
        raise DomainError("The period must end after it starts.", field="end")
    cardroom = _exported_cardroom(cardroom)
    export = Export.objects.create(
        kind=kind,
        start=start,
        end=end,
        requested_by=by,
        requested_at=timezone.now(),
        cardroom=cardroom,
    )
    payload: dict[str, object] = {"kind": kind, "start": start, "end": end}
    if cardroom is not None:
        payload["cardroom"] = cardroom.pk
    audit_record(actor=by, action=AuditAction.EXPORT_REQUESTED, target=export, payload=payload)
    transaction.on_commit(lambda: export_enqueue(export.pk))
    return export


@transaction.atomic
def export_retry(*, export: Export, by: User) -> Export:
    """A failed export is built again from the start (its own record, the same request)."""
    require_role(by, COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR, action="retry an export")
    export = Export.objects.select_for_update().get(pk=export.pk)
    if export.status != Export.Status.FAILED:
        raise Conflict(
            f"Only a failed export is retried; this one is {export.status}.", field="status"
        )
    export.status, export.progress, export.attempts, export.error = Export.Status.PENDING, 0, 0, ""
    export.progress_at = timezone.now()
    export.save(update_fields=["status", "progress", "attempts", "error", "progress_at"])
    audit_record(
        actor=by,
        action=AuditAction.EXPORT_RETRIED,
        target=export,
        payload={"kind": export.kind, "start": export.start, "end": export.end},
    )
    transaction.on_commit(lambda: export_enqueue(export.pk))
    return export


@transaction.atomic
def verification_request(*, kind: str, by: User) -> VerificationRun:
    """Ask for a verification of the audit chain or of the books: run by a
    Celery task once this commits (inline on the embedded default), its progress on the row."""
    require_role(by, COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR, action="verify the records")
    if kind not in VerificationRun.Kind.values:
        raise DomainError(
            f"A verification is one of: {', '.join(VerificationRun.Kind.values)}.", field="kind"
        )
    now = timezone.now()
    run = VerificationRun.objects.create(
        kind=kind, requested_by=by, requested_at=now, progress_at=now
    )
    transaction.on_commit(lambda: verification_enqueue(run.pk))
    return run
