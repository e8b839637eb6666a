"""A cardroom's gaming day: pure arithmetic on its time zone and day-start hour.

Kept here, below every app, so that any layer can say which gaming day a moment falls in
(``tables.selectors.gaming_day`` and the cash log in ``patrons`` both use it).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


def day_bounds(zone: str, day_start: time, day: date) -> tuple[datetime, datetime]:
    """The moments gaming ``day`` starts and ends (the next day's start), as aware datetimes."""
    tz = ZoneInfo(zone)
    start = datetime.combine(day, day_start, tzinfo=tz)
    end = datetime.combine(day + timedelta(days=1), day_start, tzinfo=tz)
    return start, end


def day_of(zone: str, day_start: time, at: datetime) -> date:
    """The gaming day of a moment: its local date, but a day starts at ``day_start`` (06:00
    by default), so 02:00 belongs to the day before. Judged against the day's own bounds, so
    that the two always agree, also when the day-start hour falls in a daylight-saving gap or
    overlap (02:30 on a spring-forward day)."""
    day = at.astimezone(ZoneInfo(zone)).date()
    start, _ = day_bounds(zone, day_start, day)
    return day if at.astimezone(UTC) >= start.astimezone(UTC) else day - timedelta(days=1)
