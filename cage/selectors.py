"""Reads for the cage: the rack by the books, the expected drop, each table's figures per shift
(inventory, fills, credits, drop, win, hold), what a shift still needs before it closes, and
the table-games statistics per shift, day and month.

Every figure is exact (``Decimal``), summed in Python from the rows (SQLite adds decimals as
floating point). A house-banked table's win for a shift is

    win = Σ(closing − opening) + credits − fills + drop

summed over the shift's segments (an opening or shift-change count to the next count), with
the counted drop (the expected one until the box is counted). It must equal the house's result
in the shift (its net in every settlement entry booked in the shift, plus the fees) plus the
drop's variance; what is left over is the ``mismatch``, shown, never hidden (a rack that does
not hold what the books say, play before a count).
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, fields
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.utils import timezone

from core.money import ZERO, money_text
from engine.table import Banking
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import HouseBankEntry, Table
from wagers.models import Settlement

from .count_sheets import counts_as_they_stand
from .models import DayClose, DropCount, InventoryCount, ShiftClose, Slip
from .shift_figures import (
    CENT,
    HUNDRED,
    TableShiftFigures,
    active_tables,
    jsonable,
    money_sum,
    table_shift_figures,
)

#: Bills a drop box's cash is counted in.
CASH_DENOMINATIONS = ("1.00", "2.00", "5.00", "10.00", "20.00", "50.00", "100.00")


# --- the rack by the books --------------------------------------------------------------------


def last_count(table: Table) -> InventoryCount | None:
    """The table's latest count: of its latest counted session (a late closing count of an
    earlier session is that session's last, never the current one's)."""
    return InventoryCount.objects.filter(table=table).order_by("-session_id", "-id").first()


def rack_by_the_books(table: Table) -> tuple[Decimal | None, int]:
    """What the rack holds by the books now, and the last house bank entry it includes: the
    last count plus every entry since. ``None`` before the table's first count."""
    entries = HouseBankEntry.objects.filter(table=table)
    through = entries.order_by("-id").values_list("id", flat=True).first() or 0
    previous = last_count(table)
    if previous is None:
        return None, through
    since = entries.filter(id__gt=previous.bank_through).values_list("amount", flat=True)
    return previous.total + money_sum(since), through


# --- statistics: shift, day, month ----------------------------------------------------------------


@dataclass
class Totals:
    drop: Decimal = ZERO
    win: Decimal = ZERO  # house-banked tables' win, plus designated-player tables' fees
    fills: Decimal = ZERO
    credits: Decimal = ZERO
    fees: Decimal = ZERO
    expected_drop: Decimal = ZERO
    drop_variance: Decimal = ZERO
    inventory_variance: Decimal = ZERO
    mismatch: Decimal = ZERO
    hold: Decimal | None = None

    def add(self, figures: TableShiftFigures | Totals) -> None:
        if isinstance(figures, Totals):
            for name in ("drop", "win", "fills", "credits", "fees", "expected_drop"):
                setattr(self, name, getattr(self, name) + getattr(figures, name))
            self.drop_variance += figures.drop_variance
            self.inventory_variance += figures.inventory_variance
            self.mismatch += figures.mismatch
        else:
            self.drop += figures.drop
            self.fills += figures.fills
            self.credits += figures.credits
            self.fees += figures.fees
            self.expected_drop += figures.expected_drop
            self.drop_variance += figures.drop_variance or ZERO
            self.inventory_variance += figures.inventory_variance
            self.mismatch += figures.mismatch or ZERO
            house = figures.banking == Banking.HOUSE
            self.win += (figures.win or ZERO) if house else figures.drop
        self.hold = (self.win * HUNDRED / self.drop).quantize(CENT) if self.drop else None

    def as_json(self) -> dict[str, Any]:
        return jsonable({f.name: getattr(self, f.name) for f in fields(self)})


@dataclass
class ShiftStatistics:
    day: date
    shift: str
    start: datetime
    end: datetime
    tables: list[TableShiftFigures]
    totals: Totals
    closed: ShiftClose | None

    def as_json(self) -> dict[str, Any]:
        return {
            "day": self.day.isoformat(),
            "shift": self.shift,
            "tables": [t.as_json() for t in self.tables],
            "totals": self.totals.as_json(),
        }


def shift_statistics(cardroom: Cardroom, day: date, shift: str) -> ShiftStatistics:
    start, end = table_selectors.shift_bounds(cardroom, day, shift)
    tables = [table_shift_figures(t, day, shift) for t in active_tables(cardroom, day, shift)]
    totals = Totals()
    for figures in tables:
        totals.add(figures)
    closed = ShiftClose.objects.filter(cardroom=cardroom, gaming_day=day, shift=shift).first()
    return ShiftStatistics(day, shift, start, end, tables, totals, closed)


@dataclass
class Adjustment:
    """An entry booked on a later gaming day (or shift) for a hand of this one: a correction,
    or the settlement of a hand that started here and settled after (its day perhaps closed)."""

    hand: int
    hand_number: int
    table_name: str
    booked_day: date
    booked_shift: str
    adjusts_shift: str
    house: Decimal  # the change to the house's result: its net and the fees
    reason: str


@dataclass
class DayStatistics:
    day: date
    shifts: list[ShiftStatistics]
    totals: Totals
    closed: DayClose | None
    adjustments: list[Adjustment]

    def as_json(self) -> dict[str, Any]:
        return {
            "day": self.day.isoformat(),
            "shifts": [s.as_json() for s in self.shifts],
            "totals": self.totals.as_json(),
        }


def day_statistics(cardroom: Cardroom, day: date) -> DayStatistics:
    shifts = [
        shift_statistics(cardroom, day, span.shift)
        for span in table_selectors.day_shifts(cardroom, day)
    ]
    totals = Totals()
    for stats in shifts:
        totals.add(stats.totals)
    closed = DayClose.objects.filter(cardroom=cardroom, gaming_day=day).first()
    return DayStatistics(day, shifts, totals, closed, adjustments_to(cardroom, day))


def adjustments_to(cardroom: Cardroom, day: date) -> list[Adjustment]:
    """The corrections and late settlements booked since to hands of ``day`` (entries naming
    it as the day they adjust), one line per hand and booking: the day's own figures stay as
    they were."""
    entries = (
        Settlement.objects.filter(hand__table__cardroom=cardroom, adjusts_day=day)
        .select_related("hand__table")
        .order_by("created_at", "id")
    )
    lines: dict[tuple[int, date | None, str, str], Adjustment] = {}
    for entry in entries:
        key = (entry.hand_id, entry.gaming_day, entry.shift, entry.reason)
        house = entry.house_rake
        if entry.hand.table.banking == Banking.HOUSE:
            house += entry.dealer_net
        if key not in lines:
            lines[key] = Adjustment(
                hand=entry.hand_id,
                hand_number=entry.hand.number,
                table_name=entry.hand.table.name,
                booked_day=entry.gaming_day or day,
                booked_shift=entry.shift,
                adjusts_shift=entry.adjusts_shift,
                house=ZERO,
                reason=entry.reason,
            )
        lines[key].house += house
    return list(lines.values())


@dataclass
class MonthStatistics:
    year: int
    month: int
    days: list[tuple[date, Totals, bool]]  # each day's totals, and whether it is closed
    totals: Totals


def month_statistics(cardroom: Cardroom, year: int, month: int) -> MonthStatistics:
    """Each gaming day of the month up to today, and the month's totals."""
    today = table_selectors.gaming_day(cardroom, timezone.now())
    last = calendar.monthrange(year, month)[1]
    days = [date(year, month, d) for d in range(1, last + 1) if date(year, month, d) <= today]
    totals, rows = Totals(), []
    for day in days:
        stats = day_statistics(cardroom, day)
        totals.add(stats.totals)
        rows.append((day, stats.totals, stats.closed is not None))
    return MonthStatistics(year, month, rows, totals)


# --- what a shift or day still needs --------------------------------------------------------------


def shift_outstanding(cardroom: Cardroom, day: date, shift: str) -> list[str]:
    """Everything that keeps a shift from closing, one sentence each; empty when it may."""
    problems: list[str] = []
    for table in active_tables(cardroom, day, shift):
        figures = table_shift_figures(table, day, shift)
        for missing in figures.missing:
            problems.append(f"{table.name}: no {missing}")
        if figures.drop_variance and not figures.variance_signed_off:
            problems.append(
                f"{table.name}: the drop's variance of ${money_text(figures.drop_variance)} "
                "is not signed off"
            )
    pending = (
        Slip.objects.filter(cardroom=cardroom, gaming_day=day, shift=shift)
        .filter(delivery__isnull=True, void__isnull=True)
        .select_related("table")
    )
    problems.extend(
        f"{slip.table.name}: {slip.kind} {slip.number} is neither delivered nor voided"
        for slip in pending
    )
    return problems


def last_shift_over(cardroom: Cardroom) -> tuple[date, str]:
    """The gaming day and shift of the last shift that is over: the one to count and close."""
    current = table_selectors.shift_of(cardroom, timezone.now())
    spans = table_selectors.day_shifts(cardroom, current.day)
    index = [s.shift for s in spans].index(current.shift)
    if index > 0:
        return current.day, spans[index - 1].shift
    previous = table_selectors.day_shifts(cardroom, date.fromordinal(current.day.toordinal() - 1))
    return previous[-1].day, previous[-1].shift


def shift_closed(cardroom: Cardroom, day: date, shift: str) -> bool:
    return ShiftClose.objects.filter(cardroom=cardroom, gaming_day=day, shift=shift).exists()


def day_closed(cardroom: Cardroom, day: date) -> bool:
    return DayClose.objects.filter(cardroom=cardroom, gaming_day=day).exists()


def drop_boxes(cardroom: Cardroom, day: date, shift: str) -> list[tuple[Table, DropCount | None]]:
    """The shift's drop boxes and their counts (none yet: to count). What the count team
    sees: no expected figure before it counts (a blind count)."""
    counts = {
        c.table_id: c
        for c in counts_as_they_stand(
            DropCount.objects.filter(
                table__cardroom=cardroom, gaming_day=day, shift=shift
            ).select_related("counted_by", "second_counter")
        )
    }
    return [(table, counts.get(table.pk)) for table in active_tables(cardroom, day, shift)]


def slips(
    table: Table | None = None, *, cardroom: Cardroom | None = None, waiting: bool = False
) -> Any:
    """Slips, newest first; ``waiting``: only those neither delivered nor void (their chips are
    on their way and need a signature)."""
    rows = Slip.objects.select_related(
        "cardroom",
        "table",
        "requested_by",
        "delivery__delivered_by",
        "void__voided_by",
        "void__witness",
    ).prefetch_related("steps__person")
    if waiting:
        rows = rows.filter(delivery__isnull=True, void__isnull=True)
    if table is not None:
        rows = rows.filter(table=table)
    if cardroom is not None:
        rows = rows.filter(cardroom=cardroom)
    return rows.order_by("-id")


def inventory_counts(table: Table) -> Any:
    return (
        InventoryCount.objects.filter(table=table)
        .select_related("counted_by", "verified_by")
        .order_by("-id")
    )
