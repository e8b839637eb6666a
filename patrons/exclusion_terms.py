"""An exclusion's term, and the one entry in force per person and kind.

A term is one year, five years, lifetime, or to a date: a year's or five years' end is
computed from its start (the day before the anniversary), a lifetime has none, and a dated
term is the end given. A second entry of the same kind for the same person (the same ID, or
the same name and date of birth, or the same player) while the first is in force or yet to
start is refused, naming the first."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

from django.db.models import Q

from core.errors import Conflict, DomainError

from . import selectors
from .keys import id_hash, normal_id, normal_text
from .models import Exclusion


@dataclass(frozen=True)
class ExclusionInput:
    kind: str
    name: str
    starts_on: date
    reason: str
    ends_on: date | None = None  # None: lifetime
    date_of_birth: date | None = None
    id_type: str = ""
    id_number: str = ""
    id_issuer: str = ""
    term: str = ""  # one_year, five_years, lifetime, dated; empty: by ends_on


Term = Exclusion.Term
YEARS: dict[str, int] = {Term.ONE_YEAR: 1, Term.FIVE_YEARS: 5}


def term_end(starts_on: date, years: int) -> date:
    """The last day of a term of ``years`` from ``starts_on``: the day before the
    anniversary (a term from 29 February ends on 28 February)."""
    try:
        anniversary = starts_on.replace(year=starts_on.year + years)
    except ValueError:  # 29 February, in a year without one
        anniversary = date(starts_on.year + years, 3, 1)
    return anniversary - timedelta(days=1)


def entry_with_term(entry: ExclusionInput, prefix: str = "") -> ExclusionInput:
    """``entry`` with its term named and its end computed: no term given means lifetime
    without an end, to a date with one."""
    term = entry.term.strip().lower().replace("-", "_").replace(" ", "_")
    if not term:
        term = Term.LIFETIME if entry.ends_on is None else Term.DATED
    if term not in Term.values:
        raise DomainError(f"The term is one of: {', '.join(Term.values)}.", field=f"{prefix}term")
    if term == Term.LIFETIME and entry.ends_on is not None:
        raise DomainError("A lifetime term has no end date.", field=f"{prefix}ends_on")
    if term == Term.DATED and entry.ends_on is None:
        raise DomainError("Give the day a term to a date ends.", field=f"{prefix}ends_on")
    ends_on = entry.ends_on
    if term in YEARS:
        ends_on = term_end(entry.starts_on, YEARS[term])
        if entry.ends_on is not None and entry.ends_on != ends_on:
            raise DomainError(
                f"A {Term(term).label} term from {entry.starts_on:%Y-%m-%d} ends on "
                f"{ends_on:%Y-%m-%d}.",
                field=f"{prefix}ends_on",
            )
    return replace(entry, term=term, ends_on=ends_on)


def duplicate_refuse(
    entry: ExclusionInput, *, cardroom_id: int, player_id: int | None, on: date
) -> None:
    """Refuse ``entry`` when the same person has an entry of its kind in force on ``on`` or
    starting later (field ``player`` for a registered player, ``name`` otherwise)."""
    same = Q(pk__in=[])
    if entry.date_of_birth is not None:
        same |= Q(name_key=normal_text(entry.name), date_of_birth=entry.date_of_birth)
    number = normal_id(entry.id_number)
    if number:
        same |= Q(id_hash=id_hash(entry.id_type, entry.id_issuer, number))
    if player_id is not None:
        same |= Q(player_id=player_id)
    existing = (
        selectors.exclusions(cardroom_id)
        .filter(same, kind=entry.kind)
        .filter(Q(ends_on__isnull=True) | Q(ends_on__gte=on))
        .order_by("id")
        .first()
    )
    if existing is not None:
        where = "the state list" if existing.cardroom_id is None else "the cardroom's own list"
        raise Conflict(
            f"{existing.name} is {existing.get_kind_display().lower()} on {where} already "
            f"(exclusion #{existing.pk}, since {existing.starts_on:%Y-%m-%d}).",
            field="player" if player_id is not None else "name",
        )
