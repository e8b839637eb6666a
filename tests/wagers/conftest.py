"""Fixtures for the persisted hands: the shared world of tests/conftest.py (a designated-player
table and a house-banked table opened with the dealer on duty, players seated with chips),
and a clock."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

BUY_IN = "1000"  # what tests/conftest.py's ``seat`` buys in with


# 2024-03-01 23:00 UTC is 18:00 in New York: gaming day 2024-03-01.
T0 = datetime(2024, 3, 1, 23, 0, tzinfo=UTC)


@dataclass
class Clock:
    """What ``django.utils.timezone.now`` answers while the ``clock`` fixture is in use."""

    now: datetime

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    current = Clock(T0)
    monkeypatch.setattr(timezone, "now", lambda: current.now)
    return current
