"""Fixtures for the audit tests: the shared world of tests/conftest.py (tables opened with the
dealer on duty, players seated with chips), with a clock that starts when the cardroom does."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tables.services.cardrooms import cardroom_create
from tests.conftest import an_administrator

from .support import T0, Clock


@pytest.fixture
def clock(monkeypatch) -> Clock:
    """Place events at chosen moments: every module reads ``django.utils.timezone.now``."""
    current = Clock(T0)
    monkeypatch.setattr(timezone, "now", lambda: current.now)
    return current


@pytest.fixture
def cardroom(supervisor, clock):
    """A cardroom in New York whose gaming day starts at 06:00 local time; from here on the
    clock is the test's (it starts at T0)."""
    return cardroom_create(
        name="Harbour Cardroom", time_zone="America/New_York", by=an_administrator()
    )
