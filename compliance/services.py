"""Writes of the compliance layer: export requests."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from cardroom.kernel.errors import DomainError
from cardroom.kernel.permissions import require_role
from cardroom.kernel.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR

from .models import Export
from .tasks import build_export_task


@transaction.atomic
def export_request(*, kind: str, start: datetime, end: datetime, by: User) -> Export:
    """Record an export request; the file is built by a Celery task once this commits."""
    require_role(by, COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR, action="export records")
    if kind not in Export.Kind.values:
        raise DomainError(f"An export is one of: {', '.join(Export.Kind.values)}.", field="kind")
    if start >= end:
        raise DomainError("The period must end after it starts.", field="end")
    export = Export.objects.create(
        kind=kind, start=start, end=end, requested_by=by, requested_at=timezone.now()
    )
    audit_record(
        actor=by,
        action=AuditAction.EXPORT_REQUESTED,
        target=export,
        payload={"kind": kind, "start": start, "end": end},
    )
    transaction.on_commit(lambda: build_export_task.delay(export.pk))
    return export
