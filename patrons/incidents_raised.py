"""Incidents a control raises by itself: a count whose variance is over the cardroom's
threshold logs an incident without anyone deciding to (N.J.A.C. 13:69D-1.21; Nevada MICS).
The person whose record found it is its reporter; the service that found it checked their
role already, for the record it writes (a count team member reports no incident by hand)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record

from .incidents import AtTable
from .models import Cardroom, Incident


@transaction.atomic
def incident_raise(
    *, cardroom: Cardroom, kind: str, summary: str, by: User, table: AtTable | None = None
) -> Incident:
    """Log an incident raised by a control (the caller links its table, as for
    ``incident_report``); the audit event says what raised it."""
    assert kind in Incident.Kind.values, kind
    assert table is None or table.cardroom_id == cardroom.pk
    now = timezone.now()
    incident = Incident.objects.create(
        cardroom=cardroom,
        kind=kind,
        occurred_at=now,
        summary=summary.strip(),
        reported_by=by,
        created_at=now,
    )
    audit_record(
        actor=by,
        action=AuditAction.INCIDENT_REPORTED,
        target=incident,
        payload={
            "kind": kind,
            "table": table.pk if table else None,
            "hand": None,
            "players": [],
            "occurred_at": incident.occurred_at,
            "raised_by": "control",
        },
    )
    return incident
