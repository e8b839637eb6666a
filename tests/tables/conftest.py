"""Factories for the tables tests: a cardroom, its tables, an open session and seated players,
all made through the services, as the floor supervisor and the dealer would make them."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from tables.models import Seating
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.clock import Clock
from tests.conftest import an_administrator
from tests.racks import rack_opening_count

from .support import T0


@pytest.fixture
def cardroom(supervisor):
    return cardroom_create(name="Test Cardroom", by=an_administrator())


@pytest.fixture
def make_table(cardroom, supervisor):
    """``make_table("T1", settings={"dp_min_bank": "100"})``: a designated-player table unless
    ``banking`` says otherwise."""

    def make(name: str = "DP table", *, banking: str = "designated_player", **kwargs):
        return table_create(cardroom=cardroom, name=name, banking=banking, by=supervisor, **kwargs)

    return make


@pytest.fixture
def dp_table(make_table):
    return make_table("Table 1")


@pytest.fixture
def house_table(make_table):
    return make_table("Table 2", banking="house")


@pytest.fixture
def session(dp_table, dealer, supervisor):
    """The DP table, open with the dealer on duty."""
    return table_open(table=dp_table, dealer=dealer, by=supervisor)


@pytest.fixture
def house_session(house_table, dealer, supervisor):
    """The house table, open with the dealer on duty, its rack counted at opening."""
    session = table_open(table=house_table, dealer=dealer, by=supervisor)
    rack_opening_count(house_table, by=supervisor)
    session.refresh_from_db()
    return session


@pytest.fixture
def make_player(cardroom, dealer):
    names = iter(["Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Gray", "Harper"])

    def make(name: str | None = None):
        return player_create(cardroom=cardroom, name=name or next(names), by=dealer)

    return make


@pytest.fixture
def seat(dp_table, session, dealer, make_player):
    """``seat(3, buy_in="300")``: a new player sits at the seat and buys in, seated by the
    dealer on duty. ``table=`` seats at another (open) table."""

    def sit(number: int, *, buy_in: str = "500", table=None, name: str | None = None) -> Seating:
        return seat_player(
            table=table or dp_table, seat=number, player=make_player(name), buy_in=buy_in, by=dealer
        )

    return sit


@pytest.fixture
def seated(seat) -> dict[int, Seating]:
    """Three players at the DP table, seats 1, 3 and 5, with chips."""
    return {
        number: seat(number, buy_in=buy_in)
        for number, buy_in in ((1, "500"), (3, "300"), (5, "400"))
    }


class MinuteClock(Clock):
    """The test's clock, set by minutes after T0."""

    def at(self, minutes: float) -> datetime:
        """Set the time to ``minutes`` after T0, and return it."""
        self.now = T0 + timedelta(minutes=minutes)
        return self.now


@pytest.fixture
def clock_start() -> MinuteClock:
    """The clock starts at T0 (2024-03-01 18:00 UTC) and is set by minutes after it."""
    return MinuteClock(T0)
