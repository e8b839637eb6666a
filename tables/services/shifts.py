"""The cardroom's shifts, redefined from a gaming day on: a new definition never touches a
day already booked, so every record keeps the shift it was booked in."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, time, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core import days
from core.errors import DomainError
from core.permissions import require_supervisor
from patrons.models import Cardroom

from .. import shift_selectors
from ..models import ShiftDefinition


@transaction.atomic
def cardroom_shifts_set(
    *,
    cardroom: Cardroom,
    shifts: Sequence[tuple[str, time]],
    by: User,
    effective_from: date | None = None,
) -> ShiftDefinition:
    """The shifts of the cardroom's gaming day (e.g. day / swing / grave) from gaming day
    ``effective_from`` on, each from its start to the next one's; the first starts when the
    gaming day does. By default from today if nothing is booked today yet, else from
    tomorrow. A past day, or a day with records, is refused (field ``effective_from``): what
    was booked keeps its shift (Nevada MICS, 25 CFR 543.10 reconcile by shift)."""
    require_supervisor(by, action="define a cardroom's shifts")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    listed = _shifts_checked(cardroom, shifts)
    today = days.day_of(cardroom.time_zone, cardroom.gaming_day_starts_at, timezone.now())
    day = _effective_day(cardroom, effective_from, today)
    made = ShiftDefinition.objects.create(
        cardroom=cardroom,
        effective_from=day,
        shifts=listed,
        defined_by=by,
        defined_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_SHIFTS_SET,
        target=cardroom,
        payload={"shifts": listed, "effective_from": day},
    )
    return made


def _shifts_checked(cardroom: Cardroom, shifts: Sequence[tuple[str, time]]) -> list[list[str]]:
    """``[[name, "HH:MM"], …]`` in the order of the gaming day, or a refusal naming
    ``shifts``."""
    names = [name.strip() for name, _ in shifts]
    starts = [start for _, start in shifts]
    if not shifts:
        raise DomainError("Define at least one shift.", field="shifts")
    if any(not name or len(name) > 20 for name in names):
        raise DomainError("Every shift needs a name of 1 to 20 characters.", field="shifts")
    if len(set(names)) < len(names) or len(set(starts)) < len(starts):
        raise DomainError("Two shifts share a name or a start.", field="shifts")
    day_start = cardroom.gaming_day_starts_at
    if day_start not in starts:
        raise DomainError(
            f"The first shift starts when the gaming day does, at {day_start:%H:%M}.",
            field="shifts",
        )
    spans = shift_selectors.shift_spans(
        cardroom.time_zone, day_start, list(zip(names, starts, strict=True)), date(2000, 1, 3)
    )
    at = dict(zip(names, starts, strict=True))
    return [[span.shift, f"{at[span.shift]:%H:%M}"] for span in spans]


def _effective_day(cardroom: Cardroom, asked: date | None, today: date) -> date:
    if asked is None:
        booked = shift_selectors.day_has_records(cardroom, today)
        return today + timedelta(days=1) if booked else today
    if asked < today:
        raise DomainError(
            f"{asked} is past (today is gaming day {today}): shifts change from today on.",
            field="effective_from",
        )
    if shift_selectors.day_has_records(cardroom, asked):
        raise DomainError(
            f"Records are booked under the shifts of {asked} already: redefine them from "
            f"{asked + timedelta(days=1)} on.",
            field="effective_from",
        )
    return asked
