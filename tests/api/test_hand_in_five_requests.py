"""A hand in five requests whatever its spots: start, all the wagers, the cards,
all the decisions, settle. A refused spot places nothing and the error names ``spots[i]``."""

from __future__ import annotations

import pytest

from tables.models import Seating
from tests.wagers.support import SEVEN_HANDS
from wagers.models import Hand, Spot

pytestmark = pytest.mark.django_db

V = "/api/v1"
SEATS = (1, 2, 3, 4, 5, 6)


class Counting:
    """A client that counts the requests it makes."""

    def __init__(self, client) -> None:
        self.client, self.requests = client, 0

    def post(self, url: str, body: dict | None = None, status: int = 200) -> dict:
        self.requests += 1
        response = self.client.post(url, body or {}, format="json")
        assert response.status_code == status, response.content[:500]
        return response.json()


def play(client, table, seats) -> dict:
    seatings = dict(Seating.objects.filter(table=table, left_at=None).values_list("seat", "id"))
    hand = client.post(f"{V}/tables/{table.pk}/hands/", status=201)
    url = f"{V}/hands/{hand['id']}"
    wagers = [{"seating": seatings[n], "ante": "10", "flush_bonus": "5"} for n in seats]
    body = client.post(f"{url}/wagers/batch/", {"spots": wagers})
    assert [spot["seat"] for spot in body["spots"]] == list(seats)
    cards = {str(n): SEVEN_HANDS[n] for n in seats}
    client.post(f"{url}/cards/", {"dealer_cards": SEVEN_HANDS[0], "spot_cards": cards})
    decisions = [{"seat": n, "decision": "raise", "raise_amount": "10"} for n in seats]
    body = client.post(f"{url}/decisions/batch/", {"spots": decisions})
    assert {spot["decision"] for spot in body["spots"]} == {"raise"}
    return client.post(f"{url}/settle/")


def test_a_six_spot_hand_is_played_in_five_requests(api, world):
    table = world.table("Six spots", banking="house", seats=SEATS)
    client = Counting(api(world.dealer))

    settlement = play(client, table, SEATS)

    assert client.requests == 5
    assert len(settlement["result"]["spots"]) == 6
    assert Hand.objects.get(pk=settlement["hand"]).status == Hand.Status.SETTLED


def test_a_refused_spot_places_no_wager_and_is_named(api, world):
    table = world.table("Refused", banking="house", seats=SEATS)
    client = api(world.dealer)
    hand = client.post(f"{V}/tables/{table.pk}/hands/", {}, format="json").json()
    seatings = dict(Seating.objects.filter(table=table).values_list("seat", "id"))
    wagers = [{"seating": seatings[n], "ante": "10"} for n in SEATS]
    wagers[3]["ante"] = "1"

    response = client.post(
        f"{V}/hands/{hand['id']}/wagers/batch/", {"spots": wagers}, format="json"
    )

    assert response.status_code == 422, response.content
    assert response.json()["error"]["field"] == "spots[3].ante"
    assert not Spot.objects.filter(hand_id=hand["id"]).exists()


def test_an_unknown_field_in_a_spot_is_refused_by_name(api, world):
    table = world.table("Unknown", banking="house", seats=(1,))
    client = api(world.dealer)
    hand = client.post(f"{V}/tables/{table.pk}/hands/", {}, format="json").json()
    seating = Seating.objects.get(table=table, seat=1)

    response = client.post(
        f"{V}/hands/{hand['id']}/wagers/batch/",
        {"spots": [{"seating": seating.pk, "ante": "10", "tip": "5"}]},
        format="json",
    )

    assert response.status_code == 422, response.content
    assert response.json()["error"]["field"] == "spots[0].tip"
    assert not Spot.objects.filter(hand_id=hand["id"]).exists()
