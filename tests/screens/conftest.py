"""The world the screen tests look at, made through the services as the floor supervisor and
the dealer would make it: a cardroom, a designated-player table and a house-banked table, both
open with the dealer persona on duty, and players seated with chips."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from patrons.models import Cardroom
from tables.models import Seating, Table
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.conftest import an_administrator
from tests.racks import rack_opening_count
from wagers import services as hand_services
from wagers.models import Hand

from .support import DEALER_CARDS, DRAW_SEAT_3, STRONG, WEAK


@dataclass
class World:
    cardroom: Cardroom
    dp_table: Table
    house_table: Table
    seats: dict[int, Seating]  # at the DP table
    house_seats: dict[int, Seating]  # at the house-banked table


@pytest.fixture
def floor(client, supervisor):
    """The test client, signed in as the floor supervisor."""
    client.force_login(supervisor)
    return client


@pytest.fixture
def compliance(client, auditor):
    """The test client, signed in as the compliance auditor."""
    client.force_login(auditor)
    return client


@pytest.fixture
def nobody(make_user):
    """A user in no role group."""
    return make_user("nobody")


@pytest.fixture
def world(supervisor, dealer) -> World:
    cardroom = cardroom_create(name="Screens Cardroom", by=an_administrator())
    dp_table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    house_table = table_create(cardroom=cardroom, name="Table 2", banking="house", by=supervisor)
    for table in (dp_table, house_table):
        table_open(table=table, dealer=dealer, by=supervisor)
    rack_opening_count(house_table, by=supervisor)

    def sit(table: Table, seat: int, name: str, buy_in: str) -> Seating:
        player = player_create(cardroom=cardroom, name=name, by=dealer)
        return seat_player(table=table, seat=seat, player=player, buy_in=buy_in, by=dealer)

    seats = {
        1: sit(dp_table, 1, "Avery", "500"),
        3: sit(dp_table, 3, "Blake", "300"),
        5: sit(dp_table, 5, "Casey", "400"),
    }
    house_seats = {2: sit(house_table, 2, "Devon", "200"), 4: sit(house_table, 4, "Emery", "200")}
    return World(cardroom, dp_table, house_table, seats, house_seats)


@pytest.fixture
def started(world, dealer) -> Hand:
    """A hand at the DP table with seat 3 on the button (by the draw), nothing wagered yet."""
    return hand_services.hand_start(table=world.dp_table, by=dealer, draw_cards=DRAW_SEAT_3)


@pytest.fixture
def wagered(started, world, dealer) -> Hand:
    """Seat 3 is the DP; seats 1 and 5 ante $10, seat 1 also a $5 Flush Bonus."""
    for seat in (1, 5):
        hand_services.wager_place(
            hand=started,
            seating=world.seats[seat],
            ante="10",
            flush_bonus="5" if seat == 1 else "0",
            by=dealer,
        )
    started.refresh_from_db()
    return started


@pytest.fixture
def dealt(wagered, dealer) -> Hand:
    """The cards are entered: seat 1 holds the strong hand, seat 5 the weak one."""
    hand_services.hand_cards_enter(
        hand=wagered, dealer_cards=DEALER_CARDS, spot_cards={1: STRONG, 5: WEAK}, by=dealer
    )
    wagered.refresh_from_db()
    return wagered


@pytest.fixture
def settled(dealt, dealer) -> Hand:
    """Seat 1 raised $10, seat 5 folded, and the hand is settled."""
    hand_services.spot_decide(hand=dealt, seat=1, decision="raise", raise_amount="10", by=dealer)
    hand_services.spot_decide(hand=dealt, seat=5, decision="fold", by=dealer)
    hand_services.hand_settle(hand=dealt, by=dealer)
    dealt.refresh_from_db()
    return dealt
