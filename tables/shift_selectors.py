"""Reads of the cardroom's shifts: the definition in force on a gaming day, and the spans of
that day's shifts. Every read that maps a moment or a day to shift names goes through the
definition in force ON THAT DAY, so a record keeps the shift it was booked in when the
shifts are redefined later (Nevada MICS, 25 CFR 543.10: each table reconciles by shift)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo

from django.db.models import Q

from core import days
from core.errors import DomainError
from core.prepared import PreparedRead
from patrons.models import Cardroom

from .models import HouseBankEntry, ShiftDefinition, StackEntry, Table, TableSession

#: The one shift of a cardroom that defines none: the whole gaming day.
WHOLE_DAY = "day"


class ShiftSpan(NamedTuple):
    """One shift of one gaming day, and the moments it starts and ends (aware datetimes)."""

    day: date
    shift: str
    start: datetime
    end: datetime


def shift_spans(
    zone: str, day_start: time, starts: Sequence[tuple[str, time]], day: date
) -> list[ShiftSpan]:
    """The shifts of gaming ``day``, in order, from the cardroom's zone, day-start hour and its
    shifts' ``(name, start)``: each runs to the next one's start, the last to the next gaming
    day's start. A shift whose wall-clock start is before the day start falls on the next
    calendar date (a grave shift from 22:00 in a day that starts at 06:00 is of the same
    gaming day; one from 02:00 is on the next date)."""
    tz = ZoneInfo(zone)
    ordered = sorted(starts or [(WHOLE_DAY, day_start)], key=lambda s: _offset(s[1], day_start))

    def moment(at: time) -> datetime:
        on = day if at >= day_start else day + timedelta(days=1)
        return datetime.combine(on, at, tzinfo=tz)

    next_day = datetime.combine(day + timedelta(days=1), day_start, tzinfo=tz)
    bounds = [moment(at) for _, at in ordered] + [next_day]
    return [ShiftSpan(day, name, bounds[i], bounds[i + 1]) for i, (name, _) in enumerate(ordered)]


def _offset(at: time, day_start: time) -> int:
    """Seconds from the day start to ``at`` on the gaming day's clock."""
    seconds = (at.hour - day_start.hour) * 3600 + (at.minute - day_start.minute) * 60
    return (seconds + at.second - day_start.second) % 86400


def definition_in_force(cardroom: Cardroom, day: date) -> ShiftDefinition | None:
    """The newest definition with ``effective_from`` on or before ``day`` (of two on one day,
    the later made); None when the cardroom defined none by then."""
    return _in_force(_DEFINITIONS_OF.all(cardroom.pk), day)


def _in_force(definitions: list[ShiftDefinition], day: date) -> ShiftDefinition | None:
    for definition in definitions:  # newest first
        if definition.effective_from <= day:
            return definition
    return None


def shift_starts(cardroom: Cardroom, day: date) -> list[tuple[str, time]]:
    """The cardroom's shifts on gaming ``day`` as ``(name, start)`` in the order of its gaming
    day; one ``day`` shift from the day start when none is in force."""
    return _starts(cardroom, definition_in_force(cardroom, day))


def _starts(cardroom: Cardroom, definition: ShiftDefinition | None) -> list[tuple[str, time]]:
    day_start = cardroom.gaming_day_starts_at
    if definition is None:
        return [(WHOLE_DAY, day_start)]
    starts = [(name, time.fromisoformat(start)) for name, start in definition.shifts]
    return sorted(starts, key=lambda s: _offset(s[1], day_start))


def day_shifts(cardroom: Cardroom, day: date) -> list[ShiftSpan]:
    """Every shift of a gaming day, in order, as the definition in force on that day has it."""
    return shift_spans(
        cardroom.time_zone, cardroom.gaming_day_starts_at, shift_starts(cardroom, day), day
    )


def shift_bounds(cardroom: Cardroom, day: date, shift: str) -> tuple[datetime, datetime]:
    """When ``shift`` of gaming ``day`` starts and ends; a DomainError for a shift the
    cardroom does not have on that day."""
    spans = day_shifts(cardroom, day)
    for span in spans:
        if span.shift == shift:
            return span.start, span.end
    names = ", ".join(span.shift for span in spans)
    raise DomainError(
        f"{cardroom} has no shift {shift!r} on {day} (its shifts: {names}).", field="shift"
    )


def shift_of(cardroom: Cardroom, at: datetime) -> ShiftSpan:
    """The gaming day and shift a moment falls in."""
    return shifts_of(cardroom, at)[0]


def shifts_of(cardroom: Cardroom, *moments: datetime) -> list[ShiftSpan]:
    """The gaming day and shift of each moment, with one read of the definitions (a booking
    asks for now and for when its hand started)."""
    definitions = _DEFINITIONS_OF.all(cardroom.pk)
    found = []
    for at in moments:
        day = days.day_of(cardroom.time_zone, cardroom.gaming_day_starts_at, at)
        starts = _starts(cardroom, _in_force(definitions, day))
        spans = shift_spans(cardroom.time_zone, cardroom.gaming_day_starts_at, starts, day)
        moment = at.astimezone(UTC)
        # Of a shift start in a daylight-saving gap: the day's first shift.
        found.append(next((s for s in reversed(spans) if moment >= s.start), spans[0]))
    return found


@dataclass(frozen=True)
class ShiftSchedule:
    """The definition in force on a day and those scheduled after it, oldest first."""

    current: ShiftDefinition | None
    scheduled: list[ShiftDefinition]


def shift_schedule(cardroom: Cardroom, day: date) -> ShiftSchedule:
    """What the shifts are on ``day`` and what is to come: of several definitions made for one
    later day, only the newest (the one in force then) is listed."""
    definitions = _DEFINITIONS_OF.all(cardroom.pk)
    later: dict[date, ShiftDefinition] = {}
    for definition in definitions:  # newest first
        if definition.effective_from > day:
            later.setdefault(definition.effective_from, definition)
    return ShiftSchedule(
        current=_in_force(definitions, day),
        scheduled=[later[d] for d in sorted(later)],
    )


def day_has_records(cardroom: Cardroom, day: date) -> bool:
    """Whether anything was booked under the shifts of gaming ``day``: a table open in it, or a
    stack, bank, fee, settlement, slip or count row of the day. The layers above are reached
    through their reverse relations on ``Table`` (``fees``, ``slips``, ``hands``), so that
    tables imports none of them."""
    start, end = days.day_bounds(cardroom.time_zone, cardroom.gaming_day_starts_at, day)
    sessions = TableSession.objects.filter(table__cardroom=cardroom, opened_at__lt=end).filter(
        Q(closed_at__isnull=True) | Q(closed_at__gt=start)
    )
    tables = Table.objects.filter(cardroom=cardroom)
    return (
        sessions.exists()
        or StackEntry.objects.filter(seating__table__cardroom=cardroom, gaming_day=day).exists()
        or HouseBankEntry.objects.filter(table__cardroom=cardroom, gaming_day=day).exists()
        or tables.filter(fees__gaming_day=day).exists()
        or tables.filter(slips__gaming_day=day).exists()
        or tables.filter(hands__settlements__gaming_day=day).exists()
        or tables.filter(sessions__inventory_counts__gaming_day=day).exists()
    )


# Read on every booking (``shift_of``), compiled once per process (core.prepared).
_DEFINITIONS_OF = PreparedRead(
    lambda key: ShiftDefinition.objects.filter(cardroom_id=key).order_by("-effective_from", "-id")
)
