"""Fixtures for the cage: a cardroom in New York with three shifts (day 06:00, swing 14:00,
grave 22:00), the count team, a clock, a floor with its racks counted, and helpers that play a
hand to the end."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

import pytest
from django.utils import timezone

from cage import services
from core.roles import COUNT_TEAM
from tables.services.cardrooms import cardroom_create, cardroom_shifts_set
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tests.conftest import an_administrator, signed

# 2024-03-01 12:00 UTC is 07:00 in New York (EST): the day shift of gaming day 2024-03-01.
T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
SHIFTS = [("day", time(6)), ("swing", time(14)), ("grave", time(22))]
RACK = {"1": 100, "5": 100, "25": 80, "100": 20}  # $4,600


@dataclass
class Clock:
    now: datetime

    def at(self, hhmm: str, *, days: int = 0) -> datetime:
        """Move the clock to ``hhmm`` New York time (EST, UTC−5) on 2024-03-01 + ``days``."""
        hours, minutes = (int(part) for part in hhmm.split(":"))
        self.now = T0.replace(hour=0, minute=0) + timedelta(
            days=days, hours=hours + 5, minutes=minutes
        )
        return self.now

    def advance(self, **delta: float) -> datetime:
        self.now += timedelta(**delta)
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    current = Clock(T0)
    monkeypatch.setattr(timezone, "now", lambda: current.now)
    return current


@pytest.fixture
def cardroom(supervisor, clock):
    """Harbour Cardroom (New York, gaming day from 06:00) with day, swing and grave shifts."""
    cardroom = cardroom_create(
        name="Harbour Cardroom", time_zone="America/New_York", by=an_administrator()
    )
    cardroom_shifts_set(cardroom=cardroom, shifts=SHIFTS, by=supervisor)
    return cardroom


@pytest.fixture
def counter(make_user):
    return make_user("counter", role=COUNT_TEAM, first_name="Cam", last_name="Diaz")


@pytest.fixture
def second_counter(make_user):
    return make_user("counter2", role=COUNT_TEAM, first_name="Jo", last_name="Fox")


@pytest.fixture
def floor(cardroom, clock, supervisor, dealer):
    """At 07:00 of 2024-03-01: the house table open with its opening count; the DP table
    open; a closed house table."""
    clock.at("07:00")
    house = table_create(cardroom=cardroom, name="House", banking="house", by=supervisor)
    dp = table_create(cardroom=cardroom, name="DP", banking="designated_player", by=supervisor)
    closed = table_create(cardroom=cardroom, name="Closed", banking="house", by=supervisor)
    for table in (house, dp):
        table_open(table=table, dealer=dealer, by=supervisor)
    services.inventory_count_record(
        table=house,
        kind="opening",
        chips=RACK,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    return {"house": house, "dp": dp, "closed": closed}
