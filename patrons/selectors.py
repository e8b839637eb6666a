"""Reads of players under the law: policies, identities, the cash log, exclusions, reviews and
incidents. Compliance reads all of them; ``masking`` decides what others see of an ID."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import Q, QuerySet, Sum

from core.money import ZERO

from .keys import normal_text
from .models import (
    DEFAULT_LOG_THRESHOLD,
    DEFAULT_STRUCTURING_BAND,
    DEFAULT_STRUCTURING_COUNT,
    CashPolicy,
    CashTransaction,
    CurrencyTransactionReport,
    Exclusion,
    Incident,
    PersonMatch,
    Player,
    PlayerIdentity,
    StructuringFlag,
    SuspiciousActivityReview,
)


@dataclass(frozen=True)
class Policy:
    log_threshold: Decimal
    structuring_count: int
    structuring_band: Decimal


def cash_policy(cardroom_id: int) -> Policy:
    """The cardroom's cash-reporting settings, or the defaults ($3,000.00, 3, 80%)."""
    row = CashPolicy.objects.filter(cardroom_id=cardroom_id).first()
    if row is None:
        return Policy(DEFAULT_LOG_THRESHOLD, DEFAULT_STRUCTURING_COUNT, DEFAULT_STRUCTURING_BAND)
    return Policy(row.log_threshold, row.structuring_count, row.structuring_band)


def identity_of(player: Player) -> PlayerIdentity | None:
    return PlayerIdentity.objects.filter(player_id=player.pk).first()


def person_identities(person_id: int) -> QuerySet[PlayerIdentity]:
    """The identities on file under a person's records, the newest ID first."""
    return PlayerIdentity.objects.filter(player__person_id=person_id).order_by("-id_expires")


def identity_valid_on(identity: PlayerIdentity | None, day: date) -> bool:
    """An identity a CTR can rest on: on file, and its ID not expired on ``day``."""
    return identity is not None and identity.id_expires >= day


def person_cash(person_id: int, day: date) -> QuerySet[CashTransaction]:
    """A person's cash transactions of a gaming day: under every record of theirs, at every
    table, cage and cardroom of the licensee."""
    return CashTransaction.objects.filter(player__person_id=person_id, gaming_day=day)


def day_total(person_id: int, day: date, direction: str) -> Decimal:
    """A person's cash in (or out) of a gaming day, under every record of theirs, across
    every table, the cage and every cardroom of the licensee; in and out never netted."""
    total = (
        person_cash(person_id, day)
        .filter(direction=direction)
        .aggregate(total=Sum("amount"))["total"]
    )
    return total or ZERO


def cash_log(cardroom_id: int, day: date | None = None) -> QuerySet[CashTransaction]:
    rows = CashTransaction.objects.filter(cardroom_id=cardroom_id)
    if day is not None:
        rows = rows.filter(gaming_day=day)
    return rows.select_related("player", "recorded_by").order_by("created_at", "id")


def multiple_transaction_log(
    cardroom_id: int, day: date | None = None
) -> QuerySet[CashTransaction]:
    """The MTL: every cash transaction at or over the log threshold in force when it was made."""
    return cash_log(cardroom_id, day).filter(logged=True)


def ctrs(cardroom_id: int, day: date | None = None) -> QuerySet[CurrencyTransactionReport]:
    rows = CurrencyTransactionReport.objects.filter(cardroom_id=cardroom_id)
    if day is not None:
        rows = rows.filter(gaming_day=day)
    return rows.select_related("cardroom", "player", "player__identity", "filed_by")


def person_matches(cardroom_id: int, status: str | None = None) -> QuerySet[PersonMatch]:
    """The possible matches that name a record of the cardroom (either side), newest first."""
    rows = PersonMatch.objects.filter(
        Q(cardroom_id=cardroom_id) | Q(other__cardroom_id=cardroom_id)
    )
    if status is not None:
        rows = rows.filter(status=status)
    return rows.select_related("player", "other__cardroom", "resolved_by")


def structuring_flags(cardroom_id: int) -> QuerySet[StructuringFlag]:
    return StructuringFlag.objects.filter(cardroom_id=cardroom_id).select_related("player")


def reviews(player_id: int | None = None) -> QuerySet[SuspiciousActivityReview]:
    rows = SuspiciousActivityReview.objects.select_related("player", "opened_by")
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    return rows.prefetch_related("notes__by")


def exclusions(cardroom_id: int | None = None) -> QuerySet[Exclusion]:
    rows = Exclusion.objects.all()
    if cardroom_id is not None:
        rows = rows.filter(Q(cardroom__isnull=True) | Q(cardroom_id=cardroom_id))
    return rows.select_related("created_by")


def exclusion_match(
    *,
    cardroom_id: int,
    name: str,
    date_of_birth: date | None,
    id_hash: str,
    on: date,
    player_id: int | None = None,
) -> Exclusion | None:
    """The first exclusion in force on ``on`` (started, not ended; lifetime has no end) that
    matches on the ID's keyed hash, or on the normalised name and the date of birth, or names
    the registered player itself (the floor's "Bar a player"). ``entry_matches`` is the same
    rule for entries in hand."""
    match = Q()
    if id_hash:
        match |= Q(id_hash=id_hash)
    if date_of_birth is not None and name.strip():
        match |= Q(name_key=normal_text(name), date_of_birth=date_of_birth)
    if player_id is not None:
        match |= Q(player_id=player_id)
    if not match:
        return None
    return (
        exclusions(cardroom_id)
        .filter(match, starts_on__lte=on)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))
        .order_by("id")
        .first()
    )


@dataclass(frozen=True)
class Person:
    """Who an entry is matched against: a registered player as the law knows them."""

    cardroom_id: int
    player_id: int | None
    name: str
    date_of_birth: date | None
    id_hash: str


def entry_matches(entry: Exclusion, person: Person, *, on: date) -> bool:
    """``exclusion_match``'s rule for one entry already read: in force on ``on``, of the
    person's cardroom or a state list, and matching the ID's hash, the name and date of birth,
    or the player."""
    if entry.cardroom_id is not None and entry.cardroom_id != person.cardroom_id:
        return False
    if entry.starts_on > on or (entry.ends_on is not None and entry.ends_on < on):
        return False
    if entry.player_id is not None and entry.player_id == person.player_id:
        return True
    if entry.id_hash and entry.id_hash == person.id_hash:
        return True
    return (
        entry.date_of_birth is not None
        and entry.date_of_birth == person.date_of_birth
        and bool(person.name.strip())
        and entry.name_key == normal_text(person.name)
    )


def incidents(cardroom_id: int | None = None) -> QuerySet[Incident]:
    rows = Incident.objects.all()
    if cardroom_id is not None:
        rows = rows.filter(cardroom_id=cardroom_id)
    # Their tables and hands are linked from the layers up, which join them when they read.
    return rows.select_related("reported_by", "exclusion").prefetch_related(
        "players", "entries__by"
    )


def incident_status(incident: Incident) -> str:
    """``open``, ``surveillance`` (a review requested and no findings yet) or ``closed``."""
    kinds = [entry.kind for entry in incident.entries.all()]
    if "closed" in kinds:
        return "closed"
    requested = kinds.count("surveillance_requested")
    if requested > kinds.count("surveillance_findings"):
        return "surveillance"
    return "open"
