"""Fixtures for the persisted hands: a cardroom, a designated-player table and a house-banked
table opened with the dealer on duty, and players seated with chips — all made through the
services, as the floor supervisor and the dealer would make them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from cardroom.roles import DEALER, FLOOR_SUPERVISOR
from tables import services
from tables.models import Seating

BUY_IN = "1000"
DP_SEATS = (1, 2, 4, 5, 6)  # seats 3 and 7 stay empty, for second spots (R6)
HOUSE_SEATS = (1, 2, 3, 4)


@pytest.fixture
def second_supervisor(make_user):
    """The other floor supervisor on duty: the one who approves (R17 dual control)."""
    return make_user("supervisor2", role=FLOOR_SUPERVISOR, first_name="Gus", last_name="Park")


@pytest.fixture
def other_dealer(make_user):
    """A dealer who is not on duty at the test's tables."""
    return make_user("dealer2", role=DEALER, first_name="Rae", last_name="Ng")


@pytest.fixture
def cardroom(supervisor):
    """A cardroom whose gaming day starts at 06:00 in New York."""
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
    """A designated-player table (fee $1.00 from every spot and the DP, R12), open."""
    return make_table("DP table")


@pytest.fixture
def house_table(make_table):
    """A house-banked table (paytable bonuses, no fee), open."""
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
    """``seat(table, 3, buy_in="300")``: a new player sits down and buys in."""

    def sit(table, number: int, *, buy_in: str = BUY_IN) -> Seating:
        return services.seat_player(
            table=table, seat=number, player=make_player(), buy_in=buy_in, by=dealer
        )

    return sit


@pytest.fixture
def dp_players(dp_table, seat) -> dict[int, Seating]:
    """Five players at the DP table, $1,000 each."""
    return {number: seat(dp_table, number) for number in DP_SEATS}


@pytest.fixture
def house_players(house_table, seat) -> dict[int, Seating]:
    """Four players at the house table, $1,000 each."""
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
