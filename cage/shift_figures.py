"""A table's figures for one shift (inventory, fills, credits, the expected and counted drop,
win, hold) and the tables that had a drop box in it; ``selectors`` builds the statistics of
shifts, days and months from them. Every figure is exact (``Decimal``), summed in Python from
the rows (SQLite adds decimals as floating point)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import Q

from core.money import ZERO, money_text
from engine.table import Banking
from patrons.models import Cardroom
from rake.models import FeeEntry
from tables import selectors as table_selectors
from tables.models import HouseBankEntry, StackEntry, Table, TableSession, Tender

from .count_sheets import drop_count_now, drop_signed_off
from .models import DropCount, InventoryCount

#: What a shift misses when a table closed without its closing count: the remedy with it.
LATE_CLOSING_COUNT_MISSING = (
    "closing count (the table was closed without it: two floor supervisors record a late "
    "closing count)"
)
HUNDRED = Decimal(100)
CENT = Decimal("0.01")


def money_sum(values: Iterable[Decimal]) -> Decimal:
    return sum(values, ZERO)


# --- the drop ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExpectedDrop:
    """What a drop box should hold: the fees booked at the table in the shift (chips) and, at a
    house-banked table, the cash paid there for chips."""

    cash: Decimal
    chips: Decimal

    @property
    def total(self) -> Decimal:
        return self.cash + self.chips


def expected_drop(table: Table, day: date, shift: str) -> ExpectedDrop:
    fees = FeeEntry.objects.filter(table=table, gaming_day=day, shift=shift)
    cash = StackEntry.objects.filter(
        seating__table=table, gaming_day=day, shift=shift, tender=Tender.CASH, amount__gt=0
    )
    return ExpectedDrop(
        cash=money_sum(cash.values_list("amount", flat=True)),
        chips=money_sum(fees.values_list("amount", flat=True)),
    )


# --- a table's figures for one shift ------------------------------------------------------------


@dataclass
class TableShiftFigures:
    table: int
    table_name: str
    banking: str
    day: date
    shift: str
    opening: Decimal | None = None  # the counts opening the shift's segments, summed
    closing: Decimal | None = None  # the counts closing them
    fills: Decimal = ZERO
    credits: Decimal = ZERO
    fees: Decimal = ZERO
    cash_in: Decimal = ZERO  # cash for chips sold at the table
    expected_drop: Decimal = ZERO
    counted_drop: Decimal | None = None
    drop_variance: Decimal | None = None
    variance_signed_off: bool | None = None
    drop: Decimal = ZERO  # counted, or expected until counted
    win: Decimal | None = None
    hold: Decimal | None = None  # win / drop, in percent
    house_result: Decimal = ZERO  # house net in settled hands + fees
    mismatch: Decimal | None = None  # win − (house_result + drop_variance)
    inventory_variance: Decimal = ZERO  # counts against the rack by the books
    missing: list[str] = field(default_factory=list)  # what is missing for the figures

    def as_json(self) -> dict[str, Any]:
        return jsonable(asdict(self))


def jsonable(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in values.items():
        if isinstance(value, Decimal):
            out[key] = money_text(value)
        elif isinstance(value, date):
            out[key] = value.isoformat()
        else:
            out[key] = value
    return out


def table_shift_figures(table: Table, day: date, shift: str) -> TableShiftFigures:
    figures = TableShiftFigures(
        table=table.pk, table_name=table.name, banking=table.banking, day=day, shift=shift
    )
    bank = list(
        HouseBankEntry.objects.filter(table=table, gaming_day=day, shift=shift).values_list(
            "reason", "amount"
        )
    )
    figures.fills = money_sum(a for r, a in bank if r == HouseBankEntry.Reason.FILL)
    figures.credits = -money_sum(a for r, a in bank if r == HouseBankEntry.Reason.CREDIT)
    expected = expected_drop(table, day, shift)
    figures.fees, figures.cash_in = expected.chips, expected.cash
    figures.expected_drop = expected.total
    _drop(figures, table, day, shift)
    house_net = money_sum(a for r, a in bank if r == HouseBankEntry.Reason.SETTLEMENT)
    figures.house_result = house_net + figures.fees
    if table.banking == Banking.HOUSE:
        _inventory(figures, table, day, shift)
    return figures


def _drop(figures: TableShiftFigures, table: Table, day: date, shift: str) -> None:
    count = DropCount.objects.filter(table=table, gaming_day=day, shift=shift).first()
    if count is None:
        figures.drop = figures.expected_drop
        figures.missing.append("drop count")
        return
    total = drop_count_now(count).total  # as corrected, if it was
    figures.counted_drop, figures.drop = total, total
    figures.drop_variance = total - figures.expected_drop
    if figures.drop_variance:
        figures.variance_signed_off = drop_signed_off(count)


def _inventory(figures: TableShiftFigures, table: Table, day: date, shift: str) -> None:
    """The shift's segments: each count opening one (opening, or a shift change made in the
    shift) to the table's next count; the win once every segment is closed."""
    counts = list(
        InventoryCount.objects.filter(table=table).select_related("session").order_by("id")
    )
    in_shift = [c for c in counts if (c.gaming_day, c.shift) == (day, shift)]
    figures.inventory_variance = money_sum(
        c.total - c.book_total for c in in_shift if c.book_total is not None
    )
    openers = [c for c in in_shift if c.kind != InventoryCount.Kind.CLOSING]
    if not openers:
        if _was_open(table, day, shift):
            figures.missing.append("opening count")
        return
    figures.opening = money_sum(c.total for c in openers)
    closers = [_next(counts, c) for c in openers]
    if any(c is None for c in closers):
        unclosed = [o for o, c in zip(openers, closers, strict=True) if c is None]
        if any(o.session.closed_at is not None for o in unclosed):
            figures.missing.append(LATE_CLOSING_COUNT_MISSING)
        else:
            figures.missing.append("closing count")
        return
    figures.closing = money_sum(c.total for c in closers if c is not None)
    figures.win = figures.closing - figures.opening + figures.credits - figures.fills
    figures.win += figures.drop
    figures.mismatch = figures.win - figures.house_result - (figures.drop_variance or ZERO)
    if figures.drop:
        figures.hold = (figures.win * HUNDRED / figures.drop).quantize(CENT)


def _next(counts: list[InventoryCount], count: InventoryCount) -> InventoryCount | None:
    later = [c for c in counts if c.id > count.id and c.session_id == count.session_id]
    return later[0] if later else None


def _was_open(table: Table, day: date, shift: str) -> bool:
    start, end = table_selectors.shift_bounds(table.cardroom, day, shift)
    return (
        TableSession.objects.filter(table=table, opened_at__lt=end)
        .filter(Q(closed_at__isnull=True) | Q(closed_at__gt=start))
        .exists()
    )


def active_tables(cardroom: Cardroom, day: date, shift: str) -> list[Table]:
    """The tables that had a drop box in the shift: open at some moment of it, or with money
    booked in it (a correction of an earlier hand at a table closed since)."""
    start, end = table_selectors.shift_bounds(cardroom, day, shift)
    open_ids = (
        TableSession.objects.filter(table__cardroom=cardroom, opened_at__lt=end)
        .filter(Q(closed_at__isnull=True) | Q(closed_at__gt=start))
        .values_list("table_id", flat=True)
    )
    booked = (
        set(open_ids)
        | set(
            FeeEntry.objects.filter(
                table__cardroom=cardroom, gaming_day=day, shift=shift
            ).values_list("table_id", flat=True)
        )
        | set(
            HouseBankEntry.objects.filter(
                table__cardroom=cardroom, gaming_day=day, shift=shift
            ).values_list("table_id", flat=True)
        )
    )
    return list(
        Table.objects.filter(pk__in=booked).select_related("cardroom").order_by("name", "pk")
    )
