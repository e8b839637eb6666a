"""Exclusion lists: barred, self-excluded and self-restricted people, from the cardroom's own
list or a state list imported from CSV; and the screening the tables' services run when a
player is registered, seated or buys chips.

A match refuses the action — a dealer is told only to call a floor supervisor, the floor and
compliance the reason (``patrons.refusals``) — and raises an alert: an incident of kind
``exclusion_match``, which the floor and compliance see. The refusal rolls the action back; the
alert is recorded after it (``alerting``), so that the alert stays when the action does not.
An entry recorded or imported, like an identity recorded, is handed to the layers above
(``patrons.hooks``), which hold the seated players it matches.
A state list's import is ``exclusion_imports``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR

from . import hooks, seals, selectors
from .age import UnderAge, age_alert
from .exclusion_terms import ExclusionInput as ExclusionInput
from .exclusion_terms import duplicate_refuse, entry_with_term
from .incidents import AtTable, incident_report
from .keys import id_hash, normal_id, normal_text
from .models import Cardroom, Exclusion, IdType, Incident, Player
from .refusals import refusal_words

KEEPERS = (COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR)


class Excluded(Conflict):
    """An action refused because the player is on an exclusion list in force: neutral
    (``call_floor``) for a dealer, with the reason for the floor and compliance (``by``); what
    matched travels with the error, for the alert."""

    def __init__(
        self,
        *,
        action: str,
        exclusion: Exclusion,
        cardroom: Cardroom,
        player: Player | None,
        table: AtTable | None,
        name: str,
        by: User | None = None,
    ) -> None:
        code, message = refusal_words(action, exclusion, by=by, who=player or name)
        super().__init__(message, field="player", code=code)
        self.action, self.exclusion, self.cardroom = action, exclusion, cardroom
        self.player, self.table, self.name = player, table, name
        self.alerted = False


def exclusion_screen(
    *,
    action: str,
    cardroom: Cardroom,
    name: str,
    date_of_birth: date | None,
    hashed_id: str,
    by: User,
    player: Player | None = None,
    table: AtTable | None = None,
) -> None:
    """Refuse ``action`` (``register``, ``seat``, ``buy chips``) for a person on a list in
    force today in the cardroom's zone: matched on the ID's keyed hash, or the name and date
    of birth. Runs inside the caller's transaction."""
    on = timezone.localdate(timezone=_zone(cardroom))
    match = selectors.exclusion_match(
        cardroom_id=cardroom.pk,
        name=name,
        date_of_birth=date_of_birth,
        id_hash=hashed_id,
        on=on,
        player_id=player.pk if player is not None else None,
    )
    if match is not None:
        raise Excluded(
            action=action,
            exclusion=match,
            cardroom=cardroom,
            player=player,
            table=table,
            name=name,
            by=by,
        )


def player_screen(*, action: str, player: Player, by: User, table: AtTable | None = None) -> None:
    """``exclusion_screen`` for a registered player, with the identity on file if any."""
    identity = selectors.identity_of(player)
    exclusion_screen(
        action=action,
        cardroom=player.cardroom,
        name=player.name,
        date_of_birth=identity.date_of_birth if identity else None,
        hashed_id=identity.id_hash if identity else "",
        by=by,
        player=player,
        table=table,
    )


#: What a layer above adds to an alert in its transaction (tables: the link to the table).
AlertLinked = Callable[[Incident, "Excluded | UnderAge"], object]


@contextmanager
def alerting(by: User, *, linked: AlertLinked | None = None) -> Iterator[None]:
    """Around a service whose transaction screens players: a match's alert is recorded once
    the refused transaction has rolled back (and the refusal raised on); so is the alert of a
    player under the minimum age (``patrons.age``). The service runs in a savepoint of its
    own, so that inside a caller's transaction its refusal rolls back to it and leaves the
    transaction whole for the alert (``core.transactions``: a change nested without one would
    leave the transaction only to roll back)."""
    try:
        with transaction.atomic():
            yield
    except Excluded as refusal:
        if not refusal.alerted:
            refusal.alerted = True
            exclusion_alert(refusal, by=by, linked=linked)
        raise
    except UnderAge as refusal:
        age_alert(refusal, by=by, linked=linked)
        raise


@transaction.atomic
def exclusion_alert(refusal: Excluded, *, by: User, linked: AlertLinked | None = None) -> Incident:
    """The alert of a match: an ``exclusion_match`` incident for the floor and compliance
    (``linked`` links it to the table, from the layer that has tables)."""
    exclusion = refusal.exclusion
    who = refusal.player or refusal.name
    where = f" at {refusal.table}" if refusal.table is not None else ""
    end = f"until {exclusion.ends_on:%Y-%m-%d}" if exclusion.ends_on else "for life"
    summary = (
        f"{who} matched an exclusion list entry ({exclusion.get_kind_display()}, "
        f"{exclusion.get_source_display()}, {end}) when {by.get_username()} tried to "
        f"{refusal.action}{where}; the action was refused."
    )
    incident = _report_as_system(refusal, summary, by)
    if linked is not None:
        linked(incident, refusal)
    audit_record(
        actor=by,
        action=AuditAction.EXCLUSION_MATCHED,
        target=exclusion,
        payload={
            "action": refusal.action,
            "player": refusal.player.pk if refusal.player else None,
            "table": refusal.table.pk if refusal.table else None,
            "incident": incident.pk,
        },
    )
    return incident


def _report_as_system(refusal: Excluded, summary: str, by: User) -> Incident:
    return incident_report(
        cardroom=refusal.cardroom,
        kind=Incident.Kind.EXCLUSION_MATCH,
        summary=summary,
        by=by,
        table=refusal.table,
        players=[refusal.player] if refusal.player is not None else [],
        exclusion=refusal.exclusion,
        alert=True,
    )


def _zone(cardroom: Cardroom) -> ZoneInfo:
    return ZoneInfo(cardroom.time_zone)


def check_entry(entry: ExclusionInput, prefix: str = "") -> None:
    if entry.kind not in Exclusion.Kind.values:
        kinds = ", ".join(Exclusion.Kind.values)
        raise DomainError(f"The kind is one of: {kinds}.", field=f"{prefix}kind")
    if not normal_text(entry.name):
        raise DomainError("Name the person.", field=f"{prefix}name")
    if not entry.reason.strip():
        raise DomainError("Say why the person is on the list.", field=f"{prefix}reason")
    if entry.ends_on is not None and entry.ends_on < entry.starts_on:
        raise DomainError("The term ends after it starts.", field=f"{prefix}ends_on")
    if entry.id_number:
        if entry.id_type not in IdType.values:
            raise DomainError(
                f"The ID type is one of: {', '.join(IdType.values)}.", field=f"{prefix}id_type"
            )
        if not entry.id_issuer.strip():
            raise DomainError("Name the ID's issuer.", field=f"{prefix}id_issuer")
    if not entry.id_number and entry.date_of_birth is None:
        raise DomainError(
            "An entry needs an ID or a date of birth to be matched on.",
            field=f"{prefix}date_of_birth",
        )


def new_row(
    entry: ExclusionInput,
    *,
    cardroom: Cardroom | None,  # none: a state list
    source: str,
    reference: str,
    player: Player | None,
    by: User,
    at: datetime | None = None,
) -> Exclusion:
    """The row of a checked entry, not saved yet: the one way an entry becomes a row, saved
    alone (``_create``) or with a state list's others in batches."""
    number = normal_id(entry.id_number)
    return Exclusion(
        cardroom=cardroom,
        kind=entry.kind,
        source=source,
        reference=reference,
        name=" ".join(entry.name.split()),
        name_key=normal_text(entry.name),
        date_of_birth=entry.date_of_birth,
        id_type=entry.id_type if number else "",
        id_number=number or None,
        id_issuer=entry.id_issuer.strip() if number else "",
        id_hash=id_hash(entry.id_type, entry.id_issuer, number) if number else "",
        starts_on=entry.starts_on,
        ends_on=entry.ends_on,
        term=entry.term or (Exclusion.Term.DATED if entry.ends_on else Exclusion.Term.LIFETIME),
        reason=entry.reason.strip(),
        player=player,
        created_by=by,
        created_at=at or timezone.now(),
    )


def _create(
    entry: ExclusionInput,
    *,
    cardroom: Cardroom,
    source: str,
    reference: str,
    player: Player | None,
    by: User,
) -> Exclusion:
    row = new_row(
        entry, cardroom=cardroom, source=source, reference=reference, player=player, by=by
    )
    row.save(force_insert=True)
    return row


@transaction.atomic
def exclusion_add(
    *, cardroom: Cardroom, entry: ExclusionInput, by: User, player: Player | None = None
) -> Exclusion:
    """The cardroom bars a person (or records a self-exclusion or self-restriction): on its
    own list. With ``player``, the name and identity on file are the player's."""
    require_role(by, *KEEPERS, action="add to an exclusion list")
    if player is not None:
        identity = selectors.identity_of(player)
        entry = ExclusionInput(
            kind=entry.kind,
            name=player.name,
            starts_on=entry.starts_on,
            ends_on=entry.ends_on,
            reason=entry.reason,
            date_of_birth=identity.date_of_birth if identity else entry.date_of_birth,
            id_type=identity.id_type if identity else entry.id_type,
            id_number=identity.id_number if identity else entry.id_number,
            id_issuer=identity.id_issuer if identity else entry.id_issuer,
            term=entry.term,
        )
    check_entry(entry)
    entry = entry_with_term(entry)
    today = timezone.localdate(timezone=_zone(cardroom))
    duplicate_refuse(
        entry, cardroom_id=cardroom.pk, player_id=player.pk if player else None, on=today
    )
    row = _create(
        entry,
        cardroom=cardroom,
        source=Exclusion.Source.CARDROOM,
        reference="",
        player=player,
        by=by,
    )
    hooks.exclusions_recorded([row], by=by)
    audit_record(
        actor=by,
        action=AuditAction.EXCLUSION_ADDED,
        target=row,
        payload={
            "kind": row.kind,
            "source": row.source,
            "player": player.pk if player else None,
            "starts_on": row.starts_on,
            "ends_on": row.ends_on,
            "term": row.term,
            **seals.exclusion_seal(row),
        },
    )
    return row
