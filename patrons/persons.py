"""One person however many player records (31 CFR 1021.313 aggregates by person): a new
record is a person of its own; an ID already on another record of the licensee is refused
unless compliance links the two records to one person; a possible match (the same name where
a date of birth is missing, or a near name with the same date of birth) is an alert for
compliance to resolve: linked, or not the same person."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR

from .keys import normal_text
from .linked_cash import ctrs_follow, linked_days_total
from .models import (
    Cardroom,
    Person,
    PersonMatch,
    Player,
    PlayerIdentity,
)

#: A near name: at most this many letters added, dropped or changed (after case, spacing and
#: accents are set aside), "Jon Smith" and "John Smith".
NEAR_NAME_DISTANCE = 2


def player_record_new(*, cardroom: Cardroom, name: str) -> Player:
    """A new player record, a person of its own until compliance links it to another."""
    person = Person.objects.create(licensee_id=cardroom.licensee_id)
    return Player.objects.create(
        cardroom=cardroom, person=person, name=name, name_key=normal_text(name)
    )


def records_of(player: Player) -> list[Player]:
    """Every record of the player's person (the player's own included), oldest first."""
    return list(
        Player.objects.filter(person_id=player.person_id)
        .select_related("cardroom")
        .order_by("created_at", "id")
    )


def identity_holder(*, player: Player, hashed_id: str) -> Player | None:
    """Another person's record of the same licensee that holds this ID (by its keyed hash)."""
    row = (
        PlayerIdentity.objects.filter(
            id_hash=hashed_id, player__cardroom__licensee_id=player.cardroom.licensee_id
        )
        .exclude(player__person_id=player.person_id)
        .select_related("player__cardroom")
        .order_by("player_id")
        .first()
    )
    return row.player if row is not None else None


def identity_unique_check(*, player: Player, hashed_id: str) -> None:
    """Refuse an ID that another person's record holds: one ID, one person. Compliance links
    the records first (``player_link``) when they are one person."""
    holder = identity_holder(player=player, hashed_id=hashed_id)
    if holder is None:
        return
    raise Conflict(
        f"This ID is on file for {holder.name} (player #{holder.pk}, {holder.cardroom}). "
        "One ID is one person: if they are the same person, compliance links the two records "
        "first.",
        field="id_number",
        code="id_on_another_record",
    )


def edit_distance(a: str, b: str) -> int:
    """Levenshtein: letters added, dropped or changed to make ``a`` into ``b``."""
    previous = list(range(len(b) + 1))
    for i, left in enumerate(a, 1):
        current = [i]
        for j, right in enumerate(b, 1):
            current.append(
                min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (left != right))
            )
        previous = current
    return previous[-1]


def _birth_dates(players: list[Player]) -> dict[int, object]:
    ids = [p.pk for p in players]
    return dict(
        PlayerIdentity.objects.filter(player_id__in=ids).values_list("player_id", "date_of_birth")
    )


def _candidates(player: Player) -> list[tuple[Player, str]]:
    """Other persons' records of the licensee that may be this player, with the match kind."""
    others = Player.objects.filter(cardroom__licensee_id=player.cardroom.licensee_id).exclude(
        person_id=player.person_id
    )
    born = PlayerIdentity.objects.filter(player_id=player.pk).values_list(
        "date_of_birth", flat=True
    )
    birth_date = born.first()
    same_name = list(others.filter(name_key=player.name_key)) if player.name_key else []
    dates = _birth_dates(same_name)
    found: list[tuple[Player, str]] = [
        (other, PersonMatch.Kind.SAME_NAME_NO_BIRTH_DATE)
        for other in same_name
        if birth_date is None or dates.get(other.pk) is None
    ]
    if birth_date is not None:
        same_day = others.filter(identity__date_of_birth=birth_date)
        found += [
            (other, PersonMatch.Kind.NEAR_NAME_SAME_BIRTH_DATE)
            for other in same_day
            if edit_distance(other.name_key, player.name_key) <= NEAR_NAME_DISTANCE
        ]
    return found


def person_matches_find(*, player: Player, by: User) -> list[PersonMatch]:
    """Raise an alert for each possible match of ``player`` not raised before (either way)."""
    player = Player.objects.select_related("cardroom").get(pk=player.pk)
    raised = []
    for other, kind in _candidates(player):
        pair = Q(player=player, other=other) | Q(player=other, other=player)
        if PersonMatch.objects.filter(pair).exists():
            continue
        match = PersonMatch.objects.create(
            licensee_id=player.cardroom.licensee_id,
            cardroom=player.cardroom,
            player=player,
            other=other,
            kind=kind,
            created_at=timezone.now(),
        )
        audit_record(
            actor=by,
            action=AuditAction.PERSON_MATCH_RAISED,
            target=match,
            payload={"player": player.pk, "other": other.pk, "kind": kind},
        )
        raised.append(match)
    return raised


def _merge(*, player: Player, into: Player, by: User) -> tuple[Person, Person]:
    """Move every record of ``player``'s person to ``into``'s person (both locked, in id
    order); the absorbed person's CTRs follow (``ctrs_follow``), and each day of the absorbed
    records' cash is totalled again by person."""
    ids = sorted({player.person_id, into.person_id})
    locked = {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    absorbed, kept = locked[player.person_id], locked[into.person_id]
    moved = list(Player.objects.filter(person=absorbed).values_list("pk", flat=True))
    Player.objects.filter(person=absorbed).update(person=kept)
    absorbed.merged_into = kept
    absorbed.save(update_fields=["merged_into"])
    ctrs_follow(absorbed_id=absorbed.pk, kept_id=kept.pk, by=by)
    linked_days_total(person_id=kept.pk, absorbed_ids=moved, by=by)
    return absorbed, kept


def _link_check(player: Player, to_player: Player, reason: str) -> None:
    if player.pk == to_player.pk:
        raise DomainError("A record is linked to another record.", field="to_player")
    if player.cardroom.licensee_id != to_player.cardroom.licensee_id:
        raise DomainError(
            f"{to_player.name} (player #{to_player.pk}) is a record of another licensee: "
            "only one licensee's records are one person.",
            field="to_player",
        )
    if player.person_id == to_player.person_id:
        raise Conflict(
            f"{player.name} and {to_player.name} are already one person.", field="to_player"
        )
    if not reason.strip():
        raise DomainError("Say why they are one person.", field="reason")


@transaction.atomic
def player_link(*, player: Player, to_player: Player, reason: str, by: User) -> Player:
    """Compliance links ``player``'s records to ``to_player``'s person: one person from now
    on, their cash totalled together; the open possible matches between them are resolved as
    linked."""
    require_role(by, COMPLIANCE_AUDITOR, action="link player records to one person")
    player = Player.objects.select_related("cardroom").get(pk=player.pk)
    to_player = Player.objects.select_related("cardroom").get(pk=to_player.pk)
    _link_check(player, to_player, reason)
    absorbed, kept = _merge(player=player, into=to_player, by=by)
    audit_record(
        actor=by,
        action=AuditAction.PLAYER_LINKED,
        target=player,
        payload={
            "to_player": to_player.pk,
            "person": kept.pk,
            "absorbed_person": absorbed.pk,
            "reason": reason.strip(),
        },
    )
    records = Player.objects.filter(person=kept).values_list("pk", flat=True)
    open_matches = PersonMatch.objects.filter(
        status=PersonMatch.Status.OPEN, player_id__in=records, other_id__in=records
    )
    for match in open_matches:
        _resolved(match, PersonMatch.Status.LINKED, reason.strip(), by)
    player.refresh_from_db()
    return player


def _resolved(match: PersonMatch, status: str, reason: str, by: User) -> PersonMatch:
    match.status, match.reason = status, reason
    match.resolved_by, match.resolved_at = by, timezone.now()
    match.save(update_fields=["status", "reason", "resolved_by", "resolved_at"])
    audit_record(
        actor=by,
        action=AuditAction.PERSON_MATCH_RESOLVED,
        target=match,
        payload={"decision": status, "reason": reason},
    )
    return match


@transaction.atomic
def person_match_resolve(
    *, match: PersonMatch, decision: str, reason: str, by: User
) -> PersonMatch:
    """Compliance's decision on a possible match: ``linked`` (one person: the records are
    linked) or ``distinct`` (not the same person), with the reason."""
    require_role(by, COMPLIANCE_AUDITOR, action="resolve a possible match")
    match = PersonMatch.objects.select_for_update().get(pk=match.pk)
    if match.status != PersonMatch.Status.OPEN:
        raise Conflict(f"This possible match was resolved as {match.status}.", field="status")
    choices = (PersonMatch.Status.LINKED, PersonMatch.Status.DISTINCT)
    if decision not in choices:
        raise DomainError("The decision is 'linked' or 'distinct'.", field="decision")
    if not reason.strip():
        raise DomainError("Give the reason for the decision.", field="reason")
    if decision == PersonMatch.Status.DISTINCT:
        return _resolved(match, decision, reason.strip(), by)
    if match.player.person_id == match.other.person_id:  # linked since: only the decision
        return _resolved(match, decision, reason.strip(), by)
    player_link(player=match.player, to_player=match.other, reason=reason, by=by)
    match.refresh_from_db()
    return match
