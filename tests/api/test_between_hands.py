"""Through the API as on the screen: a player in the hand in progress leaves once it settles,
and chips are added between hands only (table stakes); each refusal is a 409 naming its field,
and nothing changes. Once settled, the player leaves and the button (R16) passes them by."""

from __future__ import annotations

import pytest

from tables.models import Seating
from tests.wagers.support import SEVEN_HANDS
from wagers.models import Hand

pytestmark = pytest.mark.django_db

V = "/api/v1"


def _play_to_decisions(client, table) -> tuple[dict, list[tuple[int, int]]]:
    """Hand 1 started (the DP named), every other seat on a $10 ante, cards entered."""
    hand = client.post(f"{V}/tables/{table.pk}/hands/", {}, format="json").json()
    sitting = Seating.objects.filter(table=table, left_at=None).exclude(seat=hand["dp_seat"])
    seats = sorted(sitting.values_list("seat", "id"))
    url = f"{V}/hands/{hand['id']}"
    spots = {"spots": [{"seating": pk, "ante": "10"} for _, pk in seats]}
    assert client.post(f"{url}/wagers/batch/", spots, format="json").status_code == 200
    cards = {
        "dealer_cards": SEVEN_HANDS[0],
        "spot_cards": {str(seat): SEVEN_HANDS[seat] for seat, _ in seats},
    }
    assert client.post(f"{url}/cards/", cards, format="json").status_code == 200
    return hand, seats


def test_r16_leave_and_add_chips_wait_for_the_settlement_and_the_button_passes_the_leaver(
    api, world
):
    table = world.dp_table
    client = api(world.dealer)
    hand, seats = _play_to_decisions(client, table)
    dp = Seating.objects.get(table=table, seat=hand["dp_seat"], left_at=None)
    stack = dp.stack

    refused = client.post(f"{V}/seatings/{dp.pk}/leave/", {}, format="json")

    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["field"] == "seating"
    assert error["message"] == (
        f"Seat {dp.seat} ({dp.player}) is in hand 1: the player can leave once it settles."
    )
    refused = client.post(f"{V}/seatings/{seats[0][1]}/add-chips/", {"amount": "50"}, format="json")
    assert refused.status_code == 409 and refused.json()["error"]["field"] == "amount"
    assert "between hands only (table stakes)" in refused.json()["error"]["message"]
    dp.refresh_from_db()
    assert dp.left_at is None and dp.stack == stack

    decisions = {"spots": [{"seat": seat, "decision": "fold"} for seat, _ in seats]}
    url = f"{V}/hands/{hand['id']}"
    assert client.post(f"{url}/decisions/batch/", decisions, format="json").status_code == 200
    assert client.post(f"{url}/settle/", {}, format="json").status_code == 200

    assert client.post(f"{V}/seatings/{dp.pk}/leave/", {}, format="json").status_code == 200
    added = client.post(f"{V}/seatings/{seats[0][1]}/add-chips/", {"amount": "50"}, format="json")
    assert added.status_code == 200
    following = client.post(f"{V}/tables/{table.pk}/hands/", {}, format="json").json()
    assert following["dp_seat"] != dp.seat  # the leaver is offered nothing
    rotation = Hand.objects.get(pk=following["id"]).rotation
    assert dp.seat not in [offer["seat"] for offer in rotation.offers]
