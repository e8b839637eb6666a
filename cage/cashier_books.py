"""Reads for the cage as a department: who holds the cage now, and what it holds by the books —
its last count plus every cage entry since — chips by denomination and cash.

Summed in Python from the rows, exactly (``Decimal``; SQLite adds decimals as floating point).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from django.db.models import QuerySet

from core.money import ZERO
from patrons.models import Cardroom

from .models import CageCount, CageEntry, CageShift


@dataclass
class CageBooks:
    """The cage by the books: chips by denomination (money strings to pieces), cash, and the
    last cage entry they include. ``counted`` is False before the cage's first count."""

    chips: dict[str, int]
    cash: Decimal = ZERO
    through: int = 0
    counted: bool = False
    shift: CageShift | None = field(default=None)

    @property
    def chips_total(self) -> Decimal:
        return pieces_total(self.chips)

    @property
    def total(self) -> Decimal:
        return self.chips_total + self.cash


def pieces_total(pieces: Mapping[str, int]) -> Decimal:
    return sum((Decimal(d) * n for d, n in pieces.items()), ZERO)


def pieces_add(into: dict[str, int], more: Mapping[str, int], sign: int = 1) -> dict[str, int]:
    for denomination, count in more.items():
        into[denomination] = into.get(denomination, 0) + sign * count
    return into


def open_cage_shift(cardroom: Cardroom) -> CageShift | None:
    """The cashier's shift that holds the cage now: the last one opened, unless a count ended
    it (the cage is closed then)."""
    last = (
        CageShift.objects.filter(cardroom=cardroom)
        .select_related("cashier")
        .order_by("-id")
        .first()
    )
    if last is None or CageCount.objects.filter(ends=last).exists():
        return None
    return last


def last_cage_count(cardroom: Cardroom, *, at: datetime | None = None) -> CageCount | None:
    counts = CageCount.objects.filter(cardroom=cardroom)
    if at is not None:
        counts = counts.filter(created_at__lte=at)
    return counts.order_by("-id").first()


def cage_books(cardroom: Cardroom, *, at: datetime | None = None) -> CageBooks:
    """What the cage holds by the books now (or at ``at``): its last count plus every cage entry
    since. Every denomination of the cardroom is there, with zero pieces if need be."""
    books = CageBooks(chips=dict.fromkeys(cardroom.chip_denominations, 0))
    entries: QuerySet[CageEntry] = CageEntry.objects.filter(cardroom=cardroom)
    if at is not None:
        entries = entries.filter(created_at__lte=at)
    books.through = entries.order_by("-id").values_list("id", flat=True).first() or 0
    count = last_cage_count(cardroom, at=at)
    if count is not None:
        books.counted = True
        pieces_add(books.chips, count.chips)
        books.cash = count.cash_total
        entries = entries.filter(id__gt=count.entries_through)
    _entries_add(books, entries.values_list("chips", "cash"))
    books.shift = open_cage_shift(cardroom) if at is None else None
    return books


def _entries_add(books: CageBooks, rows: Iterable[tuple[dict[str, int], Decimal]]) -> None:
    for chips, cash in rows:
        pieces_add(books.chips, chips)
        books.cash += cash


def cage_pieces(cardroom: Cardroom) -> dict[str, int]:
    """The cage's chips by denomination now, by the books (for any code that needs them: a
    denomination withdrawn, a fill prepared, chips in circulation)."""
    return cage_books(cardroom).chips


def cage_entries(cardroom: Cardroom, *, shift: CageShift | None = None) -> QuerySet[CageEntry]:
    entries = CageEntry.objects.filter(cardroom=cardroom).select_related("by")
    if shift is not None:
        entries = entries.filter(shift=shift)
    return entries.order_by("-id")


def cage_counts(cardroom: Cardroom) -> QuerySet[CageCount]:
    return (
        CageCount.objects.filter(cardroom=cardroom)
        .select_related("outgoing", "incoming")
        .order_by("-id")
    )
