"""The test's clock: what ``django.utils.timezone.now`` answers while the ``clock`` fixture
(tests/conftest.py) is in use. Every module reads the time through that module (services,
rotation, audit, ``auto_now_add``), so moving the clock moves every one of them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

# 2024-03-01 23:00 UTC is 18:00 in New York: gaming day 2024-03-01. Where the clock starts
# unless a suite's ``clock_start`` says otherwise.
T0 = datetime(2024, 3, 1, 23, 0, tzinfo=UTC)


@dataclass
class Clock:
    now: datetime

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now

    def set(self, moment: datetime) -> datetime:
        self.now = moment
        return moment
