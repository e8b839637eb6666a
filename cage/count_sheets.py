"""Reads of a drop count as it stands (4 CCR §12385): its figures now (the latest initialled
correction, or the count as entered), whether its variance is signed off for that amount, and
the count sheet — time, boxes, counters, totals, the slip originals found, the corrections."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User

from core.money import ZERO, money_text
from core.people import person_name
from patrons.models import Cardroom

from .models import DropBox, DropCount, DropCountCorrection, VarianceSignOff


@dataclass(frozen=True)
class DropFigures:
    """A count's figures now: ``correction`` is the one they come from, if any."""

    cash: dict[str, int]
    chips: dict[str, int]
    cash_total: Decimal
    chips_total: Decimal
    total: Decimal
    variance: Decimal
    correction: DropCountCorrection | None = None


def drop_count_now(count: DropCount) -> DropFigures:
    latest = count.corrections.order_by("-id").first()
    source: DropCount | DropCountCorrection = latest or count
    return DropFigures(
        cash=source.cash,
        chips=source.chips,
        cash_total=source.cash_total,
        chips_total=source.chips_total,
        total=source.total,
        variance=source.variance,
        correction=latest,
    )


def drop_sign_off_now(count: DropCount) -> VarianceSignOff | None:
    """The sign-off of the count's variance as it is now: one signed for that very amount.
    A sign-off of an amount a correction has changed signs nothing any more."""
    variance = drop_count_now(count).variance
    if not variance:
        return None
    return count.sign_offs.filter(amount=variance).select_related("signed_by").first()


def drop_signed_off(count: DropCount) -> bool:
    return drop_sign_off_now(count) is not None


def counters_of(count: DropCount) -> list[User]:
    """Every member of the count team who counted the box, in the order they signed."""
    further = [row.counter for row in count.counters.select_related("counter")]
    return [count.counted_by, count.second_counter, *further]


@dataclass
class CountSheet:
    """The count sheet of one shift's drop (4 CCR §12385(b)): when it was counted, how many
    boxes, by whom, and the totals as they stand."""

    cardroom: str
    gaming_day: date
    shift: str
    started_at: datetime | None = None
    finished_at: datetime | None = None
    boxes: list[dict[str, Any]] = field(default_factory=list)
    counters: list[str] = field(default_factory=list)
    cash_total: Decimal = ZERO
    chips_total: Decimal = ZERO
    total: Decimal = ZERO
    expected_total: Decimal = ZERO
    variance: Decimal = ZERO

    @property
    def number_of_boxes(self) -> int:
        return len(self.boxes)


def count_sheet(cardroom: Cardroom, day: date, shift: str) -> CountSheet:
    counts = list(
        DropCount.objects.filter(table__cardroom=cardroom, gaming_day=day, shift=shift)
        .select_related("table", "counted_by", "second_counter")
        .order_by("created_at", "id")
    )
    identifiers = dict(
        DropBox.objects.filter(
            cardroom=cardroom, gaming_day=day, shift=shift, kind=DropBox.Kind.TABLE
        ).values_list("table_id", "identifier")
    )
    sheet = CountSheet(cardroom=cardroom.name, gaming_day=day, shift=shift)
    names: list[str] = []
    for count in counts:
        now = drop_count_now(count)
        people = [person_name(user) for user in counters_of(count)]
        names += [name for name in people if name not in names]
        sheet.boxes.append(_box_line(count, now, people, identifiers.get(count.table_id)))
        sheet.cash_total += now.cash_total
        sheet.chips_total += now.chips_total
        sheet.total += now.total
        sheet.expected_total += count.expected_total
        sheet.variance += now.variance
    if counts:
        sheet.started_at, sheet.finished_at = counts[0].created_at, counts[-1].created_at
    sheet.counters = names
    return sheet


def _box_line(
    count: DropCount, now: DropFigures, people: list[str], identifier: str | None
) -> dict[str, Any]:
    sign_off = drop_sign_off_now(count)
    return {
        "count": count.pk,
        "table": count.table.name,
        "box": identifier or "",
        "counted_at": count.created_at,
        "counters": people,
        "cash": now.cash,
        "chips": now.chips,
        "cash_total": money_text(now.cash_total),
        "chips_total": money_text(now.chips_total),
        "total": money_text(now.total),
        "expected_total": money_text(count.expected_total),
        "variance": money_text(now.variance),
        "signed_off": sign_off is not None,
        "as_entered": money_text(count.total),
        "corrections": [
            {
                "total": money_text(c.total),
                "initials": c.initials,
                "reason": c.reason,
                "at": c.created_at,
            }
            for c in count.corrections.order_by("id")
        ],
        "slip_originals": list(count.slip_originals.values_list("serial", flat=True)),
    }


def counts_as_they_stand(counts: Iterable[DropCount]) -> list[DropCount]:
    """Each count with ``now`` (its figures as corrected) and ``sign_off`` (the sign-off of
    its variance now, or None), for the screens."""
    rows = list(counts)
    for count in rows:
        count.now = drop_count_now(count)  # type: ignore[attr-defined]
        count.sign_off = drop_sign_off_now(count)  # type: ignore[attr-defined]
    return rows
