"""The incident log: typed incidents linked to a table, a hand, players and a time, and their
follow-ups (notes, surveillance review requests and findings, the closure by a named person).
Append-only: nothing recorded is changed, later knowledge is a new entry.

Tables and hands are layers up: the service checks what it is told of them (``AtTable``,
``OfHand``) and the caller up there links the incident to them in the same transaction
(``wagers.services.incidents``, ``tables.services.incidents``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.db import lock_until_commit
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR, TABLE_STAFF

from .models import Cardroom, Exclusion, Incident, IncidentEntry, Player


class AtTable(Protocol):
    """What the log reads of a table an incident happened at (``tables.Table``)."""

    @property
    def pk(self) -> int: ...

    @property
    def cardroom_id(self) -> int: ...


class OfHand(Protocol):
    """What the log reads of a hand an incident is about (``wagers.Hand``)."""

    @property
    def pk(self) -> int: ...

    @property
    def table_id(self) -> int: ...

    @property
    def table(self) -> AtTable: ...


#: Who reports an incident: anyone working the floor, and compliance.
REPORTERS = (*TABLE_STAFF, COMPLIANCE_AUDITOR)
#: Who follows one up, asks surveillance, records findings and closes it.
REVIEWERS = (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


@transaction.atomic
def incident_report(
    *,
    cardroom: Cardroom,
    kind: str,
    summary: str,
    by: User,
    occurred_at: datetime | None = None,
    table: AtTable | None = None,
    hand: OfHand | None = None,
    players: Sequence[Player] = (),
    exclusion: Exclusion | None = None,
    alert: bool = False,
) -> Incident:
    """Log an incident (a hand implies its table; every player and the table must be of the
    cardroom). The table and the hand are only checked: the caller links them. An ``alert``
    is the screening's own (an exclusion match), raised whoever's action it refused — the
    cashier's at the cage too."""
    if not alert:
        require_role(by, *REPORTERS, action="report an incident")
    if kind not in Incident.Kind.values:
        raise DomainError(f"The kind is one of: {', '.join(Incident.Kind.values)}.", field="kind")
    if not summary or not summary.strip():
        raise DomainError("Say what happened.", field="summary")
    now = timezone.now()
    if occurred_at is not None and occurred_at > now:
        raise DomainError("An incident is reported after it happens.", field="occurred_at")
    if hand is not None:
        if table is not None and hand.table_id != table.pk:
            raise DomainError(f"{hand} was not played at {table}.", field="hand")
        table = hand.table
    if table is not None and table.cardroom_id != cardroom.pk:
        raise DomainError(f"{table} is not a table of {cardroom}.", field="table")
    for player in players:
        if player.cardroom_id != cardroom.pk:
            raise DomainError(f"{player} is not a player of {cardroom}.", field="players")
    incident = Incident.objects.create(
        cardroom=cardroom,
        kind=kind,
        occurred_at=occurred_at or now,
        summary=summary.strip(),
        exclusion=exclusion,
        reported_by=by,
        created_at=now,
    )
    incident.players.set(players)
    audit_record(
        actor=by,
        action=AuditAction.INCIDENT_REPORTED,
        target=incident,
        payload={
            "kind": kind,
            "table": table.pk if table else None,
            "hand": hand.pk if hand else None,
            "players": sorted(player.pk for player in players),
            "occurred_at": incident.occurred_at,
        },
    )
    return incident


@transaction.atomic
def incident_follow_up(*, incident: Incident, kind: str, text: str, by: User) -> IncidentEntry:
    """A note, a surveillance review request, surveillance's findings, or the closure; a
    closed incident takes no more entries, and findings answer a request."""
    require_role(by, *REVIEWERS, action="follow up an incident")
    # The incident is append-only (no row lock for the runtime role): follow-ups of one
    # incident queue on a lock of their own, so that two closures cannot both pass the check.
    lock_until_commit("patrons.incident", incident.pk)
    incident = Incident.objects.get(pk=incident.pk)
    if kind not in IncidentEntry.Kind.values:
        names = ", ".join(IncidentEntry.Kind.values)
        raise DomainError(f"The follow-up is one of: {names}.", field="kind")
    if kind == IncidentEntry.Kind.OUTCOME:
        raise DomainError("Record an outcome with its kind (the outcome endpoint).", field="kind")
    if not text or not text.strip():
        raise DomainError("Write what the follow-up says.", field="text")
    kinds = list(incident.entries.values_list("kind", flat=True))
    if IncidentEntry.Kind.CLOSED in kinds:
        raise Conflict(f"Incident {incident.pk} is closed.", field="kind")
    requested = kinds.count(IncidentEntry.Kind.SURVEILLANCE_REQUESTED)
    found = kinds.count(IncidentEntry.Kind.SURVEILLANCE_FINDINGS)
    if kind == IncidentEntry.Kind.SURVEILLANCE_FINDINGS and found >= requested:
        raise Conflict("No surveillance review is waiting for findings.", field="kind")
    entry = IncidentEntry.objects.create(
        incident=incident, kind=kind, text=text.strip(), by=by, at=timezone.now()
    )
    audit_record(
        actor=by,
        action=AuditAction.INCIDENT_FOLLOWED_UP,
        target=incident,
        payload={"kind": kind, "entry": entry.pk},
    )
    return entry


@transaction.atomic
def incident_outcome_record(
    *, incident: Incident, outcome: str, text: str, by: User
) -> IncidentEntry:
    """What the cardroom did after an exclusion match (chips held, redeemed and the player
    escorted out, released...): its kind and, in words, what happened; an open incident's."""
    require_role(by, *REVIEWERS, action="record an incident's outcome")
    lock_until_commit("patrons.incident", incident.pk)
    incident = Incident.objects.get(pk=incident.pk)
    if incident.kind != Incident.Kind.EXCLUSION_MATCH:
        raise DomainError("An outcome is recorded for an exclusion match.", field="incident")
    if outcome not in IncidentEntry.Outcome.values:
        names = ", ".join(IncidentEntry.Outcome.values)
        raise DomainError(f"The outcome is one of: {names}.", field="outcome")
    if not text or not text.strip():
        raise DomainError("Say what the cardroom did.", field="text")
    if incident.entries.filter(kind=IncidentEntry.Kind.CLOSED).exists():
        raise Conflict(f"Incident {incident.pk} is closed.", field="outcome")
    entry = IncidentEntry.objects.create(
        incident=incident,
        kind=IncidentEntry.Kind.OUTCOME,
        outcome=outcome,
        text=text.strip(),
        by=by,
        at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.INCIDENT_OUTCOME_RECORDED,
        target=incident,
        payload={"outcome": outcome, "entry": entry.pk},
    )
    return entry
