"""Fee reports (R12): what the house drop collected, per table, gaming day and fee mode."""

from __future__ import annotations

from datetime import UTC, date, timedelta
from decimal import Decimal

from django.db.models import Count, Sum

from tables.models import Table
from tables.selectors import gaming_day_bounds

from .models import FeeEntry

CENT = Decimal("0.01")


def _cents(total: Decimal | None) -> Decimal:
    """A database sum as exact cents: SQLite adds decimals as floating point, so a day whose
    reversals cancel its fees would otherwise read 2.77555756156289E-17, not 0.00."""
    return (total or Decimal("0.00")).quantize(CENT)


def fees_by_mode(table: Table, first_day: date, last_day: date) -> dict[date, dict[str, Decimal]]:
    """Fees collected per gaming day and fee mode, corrections included (their reversals are
    negative entries), for the days ``first_day``..``last_day``."""
    rows = (
        FeeEntry.objects.filter(table=table, gaming_day__range=(first_day, last_day))
        .values("gaming_day", "rake_mode")
        .annotate(total=Sum("amount"), entries=Count("id"))
        .order_by("gaming_day", "rake_mode")
    )
    report: dict[date, dict[str, Decimal]] = {}
    for row in rows:
        report.setdefault(row["gaming_day"], {})[row["rake_mode"]] = _cents(row["total"])
    return report


def fees_total(table: Table, first_day: date, last_day: date) -> Decimal:
    total = FeeEntry.objects.filter(table=table, gaming_day__range=(first_day, last_day)).aggregate(
        total=Sum("amount")
    )["total"]
    return _cents(total)


def fees_per_hour(table: Table, day: date) -> list[tuple[str, Decimal]]:
    """Fees collected in each hour of a gaming day, in the cardroom's time, from its
    day-start hour on: the 24 bars of the compliance chart."""
    start, _ = gaming_day_bounds(table.cardroom, day)
    zone, start = start.tzinfo, start.astimezone(UTC)  # hours counted in real time, not clock
    totals = [Decimal("0.00")] * 24
    entries = FeeEntry.objects.filter(table=table, gaming_day=day).values_list(
        "created_at", "amount"
    )
    for created_at, amount in entries:
        hour = int((created_at - start).total_seconds() // 3600)
        totals[min(max(hour, 0), 23)] += amount
    return [
        ((start + timedelta(hours=h)).astimezone(zone).strftime("%H"), totals[h]) for h in range(24)
    ]
