"""The table-games statistics as CSV: one row per table and shift (a shift, a day), or per day
(a month), with the period's totals last. Money as two-decimal strings, never float."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import Any

from core.csv_cells import csv_writer
from core.money import money_text

from .selectors import DayStatistics, MonthStatistics, ShiftStatistics, Totals
from .shift_figures import TableShiftFigures

TABLE_COLUMNS = (
    "gaming_day",
    "shift",
    "table",
    "banking",
    "opening",
    "closing",
    "fills",
    "credits",
    "fees",
    "cash_in",
    "expected_drop",
    "counted_drop",
    "drop_variance",
    "drop",
    "win",
    "hold_percent",
    "house_result",
    "mismatch",
    "inventory_variance",
    "missing",
)
TOTAL_COLUMNS = (
    "drop",
    "win",
    "hold_percent",
    "fills",
    "credits",
    "fees",
    "expected_drop",
    "drop_variance",
    "inventory_variance",
    "mismatch",
)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    if hasattr(value, "quantize"):
        return money_text(value)
    return str(value)


def _table_row(figures: TableShiftFigures) -> list[str]:
    values = {
        **{name: getattr(figures, name) for name in TABLE_COLUMNS if hasattr(figures, name)},
        "gaming_day": figures.day.isoformat(),
        "table": figures.table_name,
        "hold_percent": figures.hold,
    }
    return [_text(values.get(name)) for name in TABLE_COLUMNS]


def _total_row(label: list[str], totals: Totals) -> list[str]:
    values = {"hold_percent": totals.hold, **{n: getattr(totals, n, None) for n in TOTAL_COLUMNS}}
    return label + [_text(values[name]) for name in TOTAL_COLUMNS]


def _csv(rows: Iterable[list[str]]) -> str:
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\r\n")
    writer.writerows(rows)
    return out.getvalue()


def shift_csv(stats: ShiftStatistics) -> str:
    rows = [list(TABLE_COLUMNS)] + [_table_row(t) for t in stats.tables]
    rows.append([])
    rows.append(["total", "", *TOTAL_COLUMNS])
    rows.append(_total_row([stats.day.isoformat(), stats.shift], stats.totals))
    return _csv(rows)


def day_csv(stats: DayStatistics) -> str:
    rows = [list(TABLE_COLUMNS)]
    rows += [_table_row(t) for shift in stats.shifts for t in shift.tables]
    rows.append([])
    rows.append(["total", "", *TOTAL_COLUMNS])
    rows += [_total_row([stats.day.isoformat(), s.shift], s.totals) for s in stats.shifts]
    rows.append(_total_row([stats.day.isoformat(), "day"], stats.totals))
    for note in stats.adjustments:
        rows.append(
            [
                "adjustment",
                note.adjusts_shift,
                note.table_name,
                f"hand {note.hand_number} corrected on {note.booked_day} ({note.booked_shift})",
                money_text(note.house),
                note.reason,
            ]
        )
    return _csv(rows)


def month_csv(stats: MonthStatistics) -> str:
    rows = [["gaming_day", "closed", *TOTAL_COLUMNS]]
    rows += [
        _total_row([day.isoformat(), "yes" if closed else "no"], t) for day, t, closed in stats.days
    ]
    rows.append(_total_row([f"{stats.year:04d}-{stats.month:02d}", "month"], stats.totals))
    return _csv(rows)
