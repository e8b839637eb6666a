"""The cardroom's exclusion actions for the state, as CSV: entries recorded on its own list,
matches (refused, or a name-only registration's alert), entries ended (and by what: a
two-person change, the state's removal imported), and what the cardroom did after a match
(the incident's outcome). One row an action, oldest first, within days ``start`` to ``end``
of the cardroom's zone. ID numbers are not in it."""

from __future__ import annotations

import io
import json
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q

from audit.actions import AuditAction
from audit.models import AuditEvent
from audit.services import audit_record
from core.csv_cells import csv_writer
from core.errors import DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR
from patrons.models import Cardroom, Exclusion, Incident, IncidentEntry

COLUMNS = (
    "at",
    "action",
    "exclusion",
    "kind",
    "list",
    "term",
    "starts_on",
    "ends_on",
    "name",
    "incident",
    "outcome",
    "reference",
    "by",
    "detail",
)
RECORDED, MATCHED, NAME_ALERT, ENDED, REMOVED, OUTCOME = (
    "recorded",
    "matched_refused",
    "name_alert",
    "ended",
    "removal_imported",
    "outcome",
)


@transaction.atomic
def exclusion_actions_csv(*, cardroom: Cardroom, start: date, end: date, by: User) -> str:
    require_role(by, COMPLIANCE_AUDITOR, action="export the exclusion actions")
    if end < start:
        raise DomainError("The last day is on or after the first.", field="end")
    zone = ZoneInfo(cardroom.time_zone)
    since = datetime.combine(start, time(0), zone)
    until = datetime.combine(end + timedelta(days=1), time(0), zone)
    rows = [
        *_recorded(cardroom, since, until),
        *_ended(cardroom, since, until),
        *_matches(cardroom, since, until),
    ]
    rows.sort(key=lambda row: (row[0], row[1]))
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow([row[0].astimezone(zone).isoformat(), *row[1:]])
    audit_record(
        actor=by,
        action=AuditAction.EXCLUSION_ACTIONS_EXPORTED,
        target=cardroom,
        payload={"start": start, "end": end, "rows": len(rows)},
    )
    return out.getvalue()


def _entry(row: Exclusion) -> list[Any]:
    return [
        row.pk,
        row.kind,
        row.source,
        row.term,
        row.starts_on,
        row.ends_on or "",
        row.name,
    ]


def _recorded(cardroom: Cardroom, since: datetime, until: datetime) -> list[list[Any]]:
    rows = Exclusion.objects.filter(
        cardroom=cardroom, created_at__gte=since, created_at__lt=until
    ).select_related("created_by")
    return [
        [row.created_at, RECORDED, *_entry(row), "", "", row.reference, _who(row.created_by),
         row.reason]
        for row in rows
    ]  # fmt: skip


def _ended(cardroom: Cardroom, since: datetime, until: datetime) -> list[list[Any]]:
    rows = Exclusion.objects.filter(
        Q(cardroom=cardroom) | Q(cardroom__isnull=True),
        ended_at__gte=since,
        ended_at__lt=until,
    ).select_related("ended_by")
    return [
        [row.ended_at, REMOVED if row.cardroom_id is None else ENDED, *_entry(row), "", "",
         row.end_reference, _who(row.ended_by), row.end_reason]
        for row in rows
    ]  # fmt: skip


def _matches(cardroom: Cardroom, since: datetime, until: datetime) -> list[list[Any]]:
    incidents = Incident.objects.filter(
        cardroom=cardroom, kind=Incident.Kind.EXCLUSION_MATCH, exclusion__isnull=False
    ).select_related("exclusion", "reported_by")
    alerts = _name_alerts()
    found: list[list[Any]] = []
    for incident in incidents.filter(created_at__gte=since, created_at__lt=until):
        action = NAME_ALERT if incident.pk in alerts else MATCHED
        found.append(_incident_row(incident, incident.created_at, action, "", incident.summary))
    outcomes = IncidentEntry.objects.filter(
        incident__in=incidents, kind=IncidentEntry.Kind.OUTCOME, at__gte=since, at__lt=until
    ).select_related("incident__exclusion", "by")
    for entry in outcomes:
        row = _incident_row(entry.incident, entry.at, OUTCOME, entry.outcome, entry.text)
        row[-2] = _who(entry.by)
        found.append(row)
    return found


def _incident_row(
    incident: Incident, at: datetime, action: str, outcome: str, detail: str
) -> list[Any]:
    assert incident.exclusion is not None
    return [at, action, *_entry(incident.exclusion), incident.pk, outcome, "",
            _who(incident.reported_by), detail]  # fmt: skip


def _name_alerts() -> set[int]:
    events = AuditEvent.objects.filter(action=AuditAction.EXCLUSION_NAME_ALERT)
    return {int(json.loads(text)["incident"]) for text in events.values_list("payload", flat=True)}


def _who(user: User | None) -> str:
    return user.get_username() if user is not None else ""
