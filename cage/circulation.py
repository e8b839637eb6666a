"""Chips in circulation: what the cardroom has issued, by denomination, is in the cage, in a
rack, or with the players (and in drop boxes not yet deposited) — the outstanding chips, the
difference. The daily statement shows each term at the end of a gaming day (or now, while the
day runs), and the day's cage movements. (Nevada MICS cage: the chip inventory and chips
outstanding; N.J.A.C. 13:69D-1.21; 25 CFR 543.18(d): the cage's accountability reconciled.)

The racks' books are kept in dollars (the house bank's entries are amounts), so the racks and
the outstanding chips are dollar totals; the issued chips and the cage's are by denomination.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from core.csv_cells import csv_writer
from core.money import ZERO, money_text
from engine.table import Banking
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import HouseBankEntry, Table

from .cashier_books import cage_books, pieces_add, pieces_total
from .models import CageEntry, ChipIssue, InventoryCount
from .selectors import rack_by_the_books
from .shift_figures import money_sum


@dataclass
class RackLine:
    table: Table
    total: Decimal


@dataclass
class CirculationStatement:
    cardroom: Cardroom
    day: date
    at: datetime
    final: bool  # the day is over: the figures are its end's
    issued: dict[str, int]
    cage: dict[str, int]
    cage_cash: Decimal
    racks: list[RackLine]
    movements: dict[str, dict[str, Decimal]] = field(default_factory=dict)

    @property
    def issued_total(self) -> Decimal:
        return pieces_total(self.issued)

    @property
    def cage_total(self) -> Decimal:
        return pieces_total(self.cage)

    @property
    def racks_total(self) -> Decimal:
        return money_sum(line.total for line in self.racks)

    @property
    def outstanding(self) -> Decimal:
        """Issued − cage − racks: with the players, or in drop boxes not yet deposited."""
        return self.issued_total - self.cage_total - self.racks_total

    def as_json(self) -> dict[str, Any]:
        return {
            "cardroom": self.cardroom.pk,
            "day": self.day.isoformat(),
            "at": self.at.isoformat(),
            "final": self.final,
            "denominations": [
                {"denomination": d, "issued": self.issued.get(d, 0), "cage": self.cage.get(d, 0)}
                for d in self.cardroom.chip_denominations
            ],
            "issued": money_text(self.issued_total),
            "cage": money_text(self.cage_total),
            "racks": [
                {"table": line.table.pk, "name": line.table.name, "total": money_text(line.total)}
                for line in self.racks
            ],
            "racks_total": money_text(self.racks_total),
            "outstanding": money_text(self.outstanding),
            "cage_cash": money_text(self.cage_cash),
            "movements": {
                kind: {name: money_text(value) for name, value in figures.items()}
                for kind, figures in self.movements.items()
            },
        }

    def as_csv(self) -> str:
        out = io.StringIO()
        rows = csv_writer(out)
        rows.writerow(["term", "denomination", "pieces", "amount"])
        for term, pieces in (("issued", self.issued), ("cage", self.cage)):
            for d in self.cardroom.chip_denominations:
                count = pieces.get(d, 0)
                rows.writerow([term, d, count, money_text(Decimal(d) * count)])
            rows.writerow([term, "", "", money_text(pieces_total(pieces))])
        for line in self.racks:
            rows.writerow([f"rack {line.table.name}", "", "", money_text(line.total)])
        rows.writerow(["racks", "", "", money_text(self.racks_total)])
        rows.writerow(["outstanding", "", "", money_text(self.outstanding)])
        return out.getvalue()


def circulation_statement(cardroom: Cardroom, day: date) -> CirculationStatement:
    """The chips in circulation at the end of ``day`` (now, if the day is not over)."""
    start, end = table_selectors.gaming_day_bounds(cardroom, day)
    now = timezone.now()
    final = now >= end
    at = end if final else now
    issued = dict.fromkeys(cardroom.chip_denominations, 0)
    for direction, chips in ChipIssue.objects.filter(
        cardroom=cardroom, created_at__lte=at
    ).values_list("direction", "chips"):
        pieces_add(issued, chips, 1 if direction == ChipIssue.Direction.ISSUE else -1)
    books = cage_books(cardroom, at=None if not final else at)
    return CirculationStatement(
        cardroom=cardroom,
        day=day,
        at=at,
        final=final,
        issued=issued,
        cage=books.chips,
        cage_cash=books.cash,
        racks=_racks(cardroom, None if not final else at),
        movements=_movements(cardroom, day),
    )


def _racks(cardroom: Cardroom, at: datetime | None) -> list[RackLine]:
    """Every house-banked table's rack by the books (now, or at ``at``), once it is counted."""
    lines = []
    tables = Table.objects.filter(cardroom=cardroom, banking=Banking.HOUSE).order_by("name")
    for table in tables:
        total = rack_by_the_books(table)[0] if at is None else _rack_at(table, at)
        if total is not None:
            lines.append(RackLine(table, total))
    return lines


def _rack_at(table: Table, at: datetime) -> Decimal | None:
    """``rack_by_the_books`` as it stood at ``at``: the last count by then, and the house bank
    entries after it up to then."""
    count = InventoryCount.objects.filter(table=table, created_at__lte=at).order_by("-id").first()
    if count is None:
        return None
    since = HouseBankEntry.objects.filter(
        table=table, id__gt=count.bank_through, created_at__lte=at
    ).values_list("amount", flat=True)
    return count.total + money_sum(since)


def _movements(cardroom: Cardroom, day: date) -> dict[str, dict[str, Decimal]]:
    """The day's cage entries, by kind: chips (their value) and cash, each signed as the cage
    sees them."""
    totals: dict[str, dict[str, Decimal]] = {}
    for kind, chips, cash in CageEntry.objects.filter(
        cardroom=cardroom, gaming_day=day
    ).values_list("kind", "chips_total", "cash"):
        figures = totals.setdefault(kind, {"chips": ZERO, "cash": ZERO})
        figures["chips"] += chips
        figures["cash"] += cash
    return totals
