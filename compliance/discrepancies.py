"""The discrepancy report (N.J.A.C. 13:69D-1.21; Nevada MICS; 25 CFR 543.18): every variance
the cage found in a period — rack counts against the books, drop boxes against the expected
drop, and corrected counts — with the incident it raised, whether it is on the regulator's
list, and whether its sign-off still signs it. Nothing is left off: a $1 shortage is here too.
Exported as CSV for the regulator's list or compliance's own file."""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from cage.count_sheets import drop_count_now, drop_sign_off_now
from cage.models import DropCount, DropCountCorrection, InventoryCount, Variance
from core.csv_cells import csv_writer
from core.money import money_text
from core.people import person_name
from patrons.models import Cardroom

HEADER = [
    "gaming_day",
    "shift",
    "table",
    "source",
    "record",
    "amount",
    "now",
    "incident",
    "regulator",
    "signed_off",
    "signed_by",
    "explanation",
    "found_by",
    "found_at",
]


@dataclass(frozen=True)
class DiscrepancyRow:
    """One variance as found and as it stands: ``now`` is its record's variance today (a
    correction may have changed a drop count's since); ``current`` says it still stands."""

    variance: Variance
    now: Decimal
    current: bool
    signed_off: bool
    signed_by: str


def discrepancies(
    cardroom: Cardroom, start: date, end: date, *, regulator_only: bool = False
) -> list[DiscrepancyRow]:
    """The variances of gaming days ``start`` to ``end`` (both included), oldest first."""
    found = (
        Variance.objects.filter(cardroom=cardroom, gaming_day__gte=start, gaming_day__lte=end)
        .select_related("table", "found_by", "incident")
        .order_by("gaming_day", "shift", "id")
    )
    if regulator_only:
        found = found.filter(regulator=True)
    return [_row(variance) for variance in found]


def _row(variance: Variance) -> DiscrepancyRow:
    if variance.source == Variance.Source.RACK_COUNT:
        count = InventoryCount.objects.select_related("verified_by").get(pk=variance.record_id)
        # The verifier signed the count, note and all, at the moment of the count.
        return DiscrepancyRow(variance, variance.amount, True, True, person_name(count.verified_by))
    drop = _drop_count_of(variance)
    now = drop_count_now(drop).variance
    latest = (
        Variance.objects.filter(
            record_type__in=["cage.dropcount", "cage.dropcountcorrection"],
            source__in=[Variance.Source.DROP_COUNT, Variance.Source.DROP_CORRECTION],
            table=variance.table,
            gaming_day=variance.gaming_day,
            shift=variance.shift,
        )
        .order_by("-id")
        .values_list("pk", flat=True)
        .first()
    )
    current = latest == variance.pk and now == variance.amount
    sign_off = drop_sign_off_now(drop) if current else None
    signer = person_name(sign_off.signed_by) if sign_off else ""
    return DiscrepancyRow(variance, now, current, sign_off is not None, signer)


def _drop_count_of(variance: Variance) -> DropCount:
    if variance.source == Variance.Source.DROP_CORRECTION:
        return DropCountCorrection.objects.select_related("count").get(pk=variance.record_id).count
    return DropCount.objects.get(pk=variance.record_id)


def discrepancies_csv(rows: list[DiscrepancyRow]) -> str:
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow(HEADER)
    for row in rows:
        v = row.variance
        writer.writerow(
            [
                v.gaming_day.isoformat(),
                v.shift,
                v.table.name if v.table else "",
                v.source,
                f"{v.record_type}:{v.record_id}",
                money_text(v.amount),
                money_text(row.now) if row.current else f"superseded ({money_text(row.now)})",
                v.incident_id or "",
                "yes" if v.regulator else "no",
                "yes" if row.signed_off else "no",
                row.signed_by,
                v.explanation,
                person_name(v.found_by),
                v.found_at.isoformat(),
            ]
        )
    return out.getvalue()
