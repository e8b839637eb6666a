"""Players under the law: a New York cardroom (gaming day from 06:00) on a clock the test
sets, two open house-banked tables (cash buy-ins), and people to act."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from patrons.identity import IdentityInput
from tables.services.seating import player_create
from tests.clock import Clock

NY = ZoneInfo("America/New_York")


def local(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=NY)


@pytest.fixture
def clock_start() -> Clock:
    """The clock starts at 20:00 on 2026-04-02 in New York (gaming day 2026-04-02)."""
    return Clock(local(2026, 4, 2, 20, 0))


@pytest.fixture
def cardroom(supervisor, clock, cardroom):
    """tests/conftest.py's cardroom in New York (gaming day from 06:00), made once the clock is
    the test's."""
    return cardroom


@pytest.fixture
def player(cardroom, dealer):
    """Robin Vale, registered by the dealer, no ID on file."""
    return player_create(cardroom=cardroom, name="Robin Vale", by=dealer)


@pytest.fixture
def house_a(make_table):
    return make_table("House A", banking="house", settings={"chip_unit": "0.01"})


@pytest.fixture
def house_b(make_table):
    return make_table("House B", banking="house", settings={"chip_unit": "0.01"})


def an_id(number: str = "D1234567", born: date = date(1980, 5, 17)) -> IdentityInput:
    return IdentityInput(
        date_of_birth=born,
        id_type="driver_licence",
        id_number=number,
        id_issuer="CA",
        id_expires=date(2030, 1, 1),
    )
