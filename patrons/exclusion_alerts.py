"""A person registered by name alone (no ID, no date of birth) whose name is on an
exclusion list in force: not refused — a name alone identifies nobody — but an alert for the
floor and compliance, who check the person (an ``exclusion_match`` incident saying so)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db.models import Q
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record

from . import selectors
from .incidents import incident_report
from .keys import normal_text
from .models import Incident, Player


def name_only_alert(player: Player, *, by: User) -> Incident | None:
    """The alert, inside the registration's transaction, when the name matches an entry in
    force today (None when it matches none)."""
    today = timezone.localdate(timezone=ZoneInfo(player.cardroom.time_zone))
    match = (
        selectors.exclusions(player.cardroom_id)
        .filter(name_key=normal_text(player.name), starts_on__lte=today)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=today))
        .order_by("id")
        .first()
    )
    if match is None:
        return None
    incident = incident_report(
        cardroom=player.cardroom,
        kind=Incident.Kind.EXCLUSION_MATCH,
        summary=(
            f"{player} was registered by {by.get_username()} without an ID or date of birth, "
            f"and the name matches exclusion #{match.pk} ({match.get_kind_display()}, "
            f"{match.get_source_display()}). Not refused: check the person's ID."
        ),
        by=by,
        players=[player],
        exclusion=match,
        alert=True,
    )
    audit_record(
        actor=by,
        action=AuditAction.EXCLUSION_NAME_ALERT,
        target=match,
        payload={"player": player.pk, "incident": incident.pk},
    )
    return incident
