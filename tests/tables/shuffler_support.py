"""A designated-player table with a registered shuffler, for the simulator's tests (here, the
screens' and the browser's): made through the services, as the floor and the dealer would."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User

from patrons.models import Cardroom
from tables.models import Seating, ShufflerDevice, Table
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.devices import device_register
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.conftest import an_administrator
from wagers import services as hand_services
from wagers.models import Hand

MAKE, MODEL, SERIAL = "Acme", "HandFormer 7", "HF7-0042"


@dataclass
class DealWorld:
    cardroom: Cardroom
    table: Table
    seats: dict[int, Seating]


def deal_world(supervisor: User, dealer: User, players: int = 3) -> DealWorld:
    """A DP table, open with ``dealer`` on duty, and ``players`` players at seats 1, 3, 5, 6."""
    cardroom = cardroom_create(name="Shuffler Cardroom", by=an_administrator())
    table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    table_open(table=table, dealer=dealer, by=supervisor)
    seats = {}
    for seat, name in list(((1, "Avery"), (3, "Blake"), (5, "Casey"), (6, "Drew")))[:players]:
        player = player_create(cardroom=cardroom, name=name, by=dealer)
        seats[seat] = seat_player(table=table, seat=seat, player=player, buy_in="500", by=dealer)
    return DealWorld(cardroom, table, seats)


def register_shuffler(table: Table, supervisor: User) -> tuple[ShufflerDevice, str]:
    """The table's shuffler, registered by the floor: the device and its token (shown once)."""
    registered = device_register(
        table=table,
        kind="shuffler",
        make=MAKE,
        model=MODEL,
        serial=SERIAL,
        certification_ref="GLI-29 report 0042",
        by=supervisor,
    )
    return registered.device, registered.token


def wagered_hand(world: DealWorld, dealer: User) -> Hand:
    """The next hand, every seat but the DP's on a $10 ante, placed in one post as the dealer
    screen places them: it waits for its cards."""
    hand = hand_services.hand_start(table=world.table, by=dealer)
    wagers = [
        {"seating": seating, "ante": "10"}
        for seating in world.seats.values()
        if seating.pk != hand.dp_seating_id
    ]
    hand_services.wagers_place_many(hand=hand, wagers=wagers, by=dealer)
    hand.refresh_from_db()
    return hand
