"""Players under the law: a New York cardroom (gaming day from 06:00) on a clock the test
sets, two open house-banked tables (cash buy-ins), and people to act."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from patrons.identity import IdentityInput
from tables.services.cardrooms import cardroom_create
from tests.conftest import an_administrator

NY = ZoneInfo("America/New_York")


def local(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=NY)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def set(self, moment: datetime) -> datetime:
        self.now = moment
        return moment


@pytest.fixture
def clock(monkeypatch) -> Clock:
    current = Clock(local(2026, 4, 2, 20, 0))
    monkeypatch.setattr(timezone, "now", lambda: current.now)
    return current


@pytest.fixture
def cardroom(supervisor, clock):
    return cardroom_create(
        name="Harbour Cardroom", time_zone="America/New_York", by=an_administrator()
    )


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
