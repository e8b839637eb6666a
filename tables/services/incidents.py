"""The incident log's tables: the log is a layer down (``patrons.incidents``), so the table an
incident happened at is linked from here, in the transaction that logs it."""

from __future__ import annotations

from contextlib import AbstractContextManager

from django.contrib.auth.models import User

from patrons import exclusions
from patrons.age import UnderAge
from patrons.models import Incident

from ..models import IncidentTable, Table


def incident_at_table(incident: Incident, table: Table | None) -> IncidentTable | None:
    """Link a logged incident to its table (none: nothing to link)."""
    if table is None:
        return None
    return IncidentTable.objects.create(incident=incident, table=table)


def alerting(by: User) -> AbstractContextManager[None]:
    """``patrons.exclusions.alerting`` for the tables' services: an alert of a match at a
    table is linked to that table."""
    return exclusions.alerting(by, linked=_alert_at_table)


def _alert_at_table(incident: Incident, refusal: exclusions.Excluded | UnderAge) -> None:
    if refusal.table is not None:
        IncidentTable.objects.create(incident=incident, table_id=refusal.table.pk)
