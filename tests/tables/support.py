"""Helpers the tables tests share (fixtures are in conftest.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from audit.models import AuditEvent

# A fixed moment far enough in the past that "now" is always after anything a test plays.
T0 = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)


def last_seq() -> int:
    """The sequence number of the newest audit event (0 when there is none)."""
    event = AuditEvent.objects.order_by("-seq").first()
    return event.seq if event else 0


def audit_actions(since: int = 0) -> list[str]:
    """The actions of the audit events after sequence number ``since``, in order."""
    return list(AuditEvent.objects.filter(seq__gt=since).values_list("action", flat=True))
