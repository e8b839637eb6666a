"""Fixtures for the audit tests: a cardroom in New York, a designated-player table and a
house-banked table opened with the dealer on duty, players seated with chips, and a clock —
all made through the services, as the floor supervisor and the dealer would make them."""

from __future__ import annotations

import pytest
from django.utils import timezone

from cardroom.roles import FLOOR_SUPERVISOR
from tables import services
from tables.models import Seating

from .support import T0, Clock

DP_SEATS = (1, 2, 4, 5, 6)
HOUSE_SEATS = (1, 2, 3, 4)


@pytest.fixture
def second_supervisor(make_user):
    """The other floor supervisor on duty: the one who approves (R17 dual control)."""
    return make_user("supervisor2", role=FLOOR_SUPERVISOR, first_name="Gus", last_name="Park")


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
    return services.cardroom_create(
        name="Harbour Cardroom", time_zone="America/New_York", by=supervisor
    )


@pytest.fixture
def make_table(cardroom, supervisor, dealer):
    """``make_table("T", banking="house", settings={...})``: a table, open with the dealer."""

    def make(name: str, *, banking: str = "designated_player", **kwargs):
        table = services.table_create(
            cardroom=cardroom, name=name, banking=banking, by=supervisor, **kwargs
        )
        services.table_open(table=table, dealer=dealer, by=supervisor)
        return table

    return make


@pytest.fixture
def dp_table(make_table):
    """A designated-player table: a $1.00 fee from every spot and the DP (R12), open."""
    return make_table("DP table")


@pytest.fixture
def house_table(make_table):
    """A house-banked table: paytable bonuses, no fee, open."""
    return make_table("House table", banking="house")


@pytest.fixture
def make_player(cardroom, dealer):
    count = iter(range(1, 10_000))

    def make(name: str | None = None):
        return services.player_create(
            cardroom=cardroom, name=name or f"Player {next(count)}", by=dealer
        )

    return make


@pytest.fixture
def seat(make_player, dealer):
    """``seat(table, 3, buy_in="300")``: a new player (or ``player``) sits down and buys in."""

    def sit(table, number: int, *, buy_in: str = "1000", player=None) -> Seating:
        return services.seat_player(
            table=table, seat=number, player=player or make_player(), buy_in=buy_in, by=dealer
        )

    return sit


@pytest.fixture
def dp_players(dp_table, seat) -> dict[int, Seating]:
    return {number: seat(dp_table, number) for number in DP_SEATS}


@pytest.fixture
def house_players(house_table, seat) -> dict[int, Seating]:
    return {number: seat(house_table, number) for number in HOUSE_SEATS}


@pytest.fixture
def approve(supervisor, second_supervisor):
    """A change proposed by one floor supervisor and approved by the other (R17)."""

    def change(table, reason: str = "Floor decision", **values):
        proposed = services.setting_change_propose(
            table=table, values=values, reason=reason, by=supervisor
        )
        return services.setting_change_approve(change=proposed, by=second_supervisor)

    return change
