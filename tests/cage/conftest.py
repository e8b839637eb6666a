"""Fixtures for the cage: a cardroom in New York with three shifts (day 06:00, swing 14:00,
grave 22:00), a clock set by wall-clock time, the people who sign (a cashier among them), and
a floor with its racks counted (the count team is tests/conftest.py's ``counter`` and
``second_counter``)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import pytest

from cage import services
from tables.services.cardrooms import cardroom_shifts_set
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tests.clock import Clock
from tests.conftest import signed

# 2024-03-01 12:00 UTC is 07:00 in New York (EST): the day shift of gaming day 2024-03-01.
T0 = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)
SHIFTS = [("day", time(6)), ("swing", time(14)), ("grave", time(22))]
RACK = {"1": 100, "5": 100, "25": 80, "100": 20}  # $4,600


class ShiftClock(Clock):
    """The test's clock, set by New York wall-clock time on the cage's gaming day."""

    def at(self, hhmm: str, *, days: int = 0) -> datetime:
        """Move the clock to ``hhmm`` New York time (EST, UTC−5) on 2024-03-01 + ``days``."""
        hours, minutes = (int(part) for part in hhmm.split(":"))
        self.now = T0.replace(hour=0, minute=0) + timedelta(
            days=days, hours=hours + 5, minutes=minutes
        )
        return self.now


@pytest.fixture
def clock_start() -> ShiftClock:
    """The clock starts at 07:00 in New York on 2024-03-01: the day shift."""
    return ShiftClock(T0)


@pytest.fixture
def cardroom(supervisor, clock, cardroom):
    """tests/conftest.py's Harbour Cardroom (New York, gaming day from 06:00), made on the
    test's clock, with day, swing and grave shifts."""
    cardroom_shifts_set(cardroom=cardroom, shifts=SHIFTS, by=supervisor)
    return cardroom


@pytest.fixture
def people(
    supervisor,
    second_supervisor,
    dealer,
    other_dealer,
    auditor,
    counter,
    second_counter,
    cashier,
    second_cashier,
):
    """Everyone who may be asked to sign, by persona name."""
    return {
        "cashier": cashier,
        "second_cashier": second_cashier,
        "supervisor": supervisor,
        "second_supervisor": second_supervisor,
        "dealer": dealer,
        "other_dealer": other_dealer,
        "auditor": auditor,
        "counter": counter,
        "second_counter": second_counter,
    }


@pytest.fixture
def house(cardroom, clock, supervisor, dealer):
    """At 07:00 of 2024-03-01: a house-banked table, open with the dealer, its rack not yet
    counted."""
    clock.at("07:00")
    table = table_create(cardroom=cardroom, name="House", banking="house", by=supervisor)
    table_open(table=table, dealer=dealer, by=supervisor)
    return table


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
