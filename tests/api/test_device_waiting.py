"""What the table's shuffler reads before it deals (``GET /api/v1/device/hand/``): its table's
hand waiting for cards, the seats and the number of hands to dispense (the spots by seat, then
the dealer's, R1), and the last sequence it sent — signed with its own token only."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.services.devices import device_register, device_revoke
from tables.shuffler_simulator import deal_round
from wagers import services as wagers

pytestmark = pytest.mark.django_db

URL = "/api/v1/device/hand/"


def device_client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Device {token}")
    return client


@pytest.fixture
def shuffler(world):
    device, token = device_register(
        table=world.dp_table, make="Shufflex", model="HF-7", serial="SX-1", by=world.supervisor
    )
    return device, device_client(token)


def test_an_idle_table_has_no_hand_waiting(world, shuffler):
    device, client = shuffler
    response = client.get(URL)
    assert response.status_code == 200
    assert response.json() == {
        "table": world.dp_table.pk,
        "table_name": world.dp_table.name,
        "hand": None,
        "number": None,
        "seats": [],
        "hands": 0,
        "last_sequence": None,
    }


def test_a_hand_waits_once_its_wagers_are_placed_and_no_longer_once_dealt(world, shuffler):
    device, client = shuffler
    hand = wagers.hand_start(table=world.dp_table, by=world.dealer)
    assert client.get(URL).json()["hand"] is None  # started, nobody wagered yet
    seatings = world.dp_table.seatings.filter(left_at=None).exclude(pk=hand.dp_seating_id)
    for seating in seatings:
        wagers.wager_place(hand=hand, seating=seating, ante="10", by=world.dealer)
    seats = sorted(s.seat for s in seatings)

    state = client.get(URL).json()
    assert (state["hand"], state["number"], state["seats"]) == (hand.pk, hand.number, seats)
    assert state["hands"] == len(seats) + 1  # R1: the spots' hands, then the dealer's
    assert "player" not in str(state) and "cards" not in state  # no person, no card

    # A message: its sequence is the device's last; the dealt hand waits no more.
    hands = deal_round(state["hands"])
    posted = client.post("/api/v1/device/hands/", {"sequence": 41, "hands": hands}, format="json")
    assert posted.status_code == 201, posted.json()
    after = client.get(URL).json()
    assert (after["hand"], after["hands"], after["last_sequence"]) == (None, 0, 41)


def test_only_the_devices_token_reads_it(world, shuffler, api):
    device, client = shuffler
    assert api(world.supervisor).get(URL).status_code == 401  # a person's token: none
    device_revoke(device=device, by=world.supervisor)
    assert client.get(URL).status_code == 401
