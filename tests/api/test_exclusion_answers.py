"""What the API tells each role of a player on an exclusion list: a dealer gets the neutral
``call_floor`` and "call a floor supervisor" (the lists are confidential); a floor supervisor
gets ``excluded`` with the reason — the kind, the list, since when. A player barred while
seated is held at once: the seat says ``call_floor``, and the one-spot and batch wagers and
the dealer's chip moves are refused, answered in the one error shape."""

from __future__ import annotations

from datetime import date

import pytest

from patrons.exclusions import ExclusionInput, exclusion_add
from patrons.identity import identity_record
from patrons.models import Incident
from tables.models import Seating

from .conftest import IDENTITY

pytestmark = pytest.mark.django_db

V = "/api/v1"
SEAT_REFUSED = "This player cannot be seated; call a floor supervisor."
PLAY_REFUSED = "This player cannot play on; call a floor supervisor."


def bar(world, player):
    entry = ExclusionInput(
        kind="barred", name="", starts_on=date(2024, 1, 1), reason="Past-posting."
    )
    return exclusion_add(cardroom=world.cardroom, entry=entry, player=player, by=world.supervisor)


@pytest.fixture
def held(world) -> Seating:
    """Seat 1 of the house table (players at 1 and 2), identified, barred while seated."""
    seating = Seating.objects.get(table=world.house_table, seat=1, left_at=None)
    identity_record(player=seating.player, identity=IDENTITY, by=world.dealer)
    bar(world, seating.player)
    return seating


def error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:500]
    return response.json()["error"]


def test_a_barred_player_is_refused_a_seat_neutrally_for_the_dealer_and_with_why_for_the_floor(
    api, world
):
    player = world.identified_player
    entry = bar(world, player)
    body = {"player": player.pk, "seat": 3, "buy_in": "100"}
    url = f"{V}/tables/{world.house_table.pk}/seatings/"

    told_dealer = error(api(world.dealer).post(url, body, format="json"), 409)
    told_floor = error(api(world.supervisor).post(url, body, format="json"), 409)

    assert told_dealer == {"code": "call_floor", "message": SEAT_REFUSED, "field": "player"}
    assert told_floor["code"] == "excluded" and told_floor["field"] == "player"
    assert told_floor["message"] == (
        f"Ida Known cannot be seated: barred on the cardroom's own list since 2024-01-01, "
        f"for life (exclusion #{entry.pk})."
    )
    assert Incident.objects.filter(kind="exclusion_match").count() == 2  # each try alerts


def test_a_registration_on_a_state_list_is_refused_with_call_floor(
    api, world, django_capture_on_commit_callbacks
):
    csv = (
        "kind,name,date_of_birth,starts_on,reference\nbarred,Pat Listed,1975-06-06,2024-01-01,S-9\n"
    )
    with django_capture_on_commit_callbacks(execute=True):  # the import's task, on commit
        imported = api(world.auditor).post(
            f"{V}/exclusions/import/", {"csv": csv, "source_name": "s.csv"}, format="json"
        )
    assert imported.status_code == 202
    body = {
        "cardroom": world.cardroom.pk,
        "name": "pat listed",
        "identity": {**IDENTITY.__dict__, "date_of_birth": "1975-06-06"},
    }
    body["identity"] = {
        key: str(value) for key, value in body["identity"].items() if key != "person"
    }  # registration takes the ID alone; the CTR's person is recorded with the identity

    told = error(api(world.dealer).post(f"{V}/players/", body, format="json"), 409)

    assert told["code"] == "call_floor" and "state list" not in told["message"]


def test_the_held_seat_says_call_floor_and_the_others_do_not(api, world, held):
    rows = api(world.dealer).get(f"{V}/tables/{world.house_table.pk}/seatings/").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    assert {row["seat"]: row["call_floor"] for row in rows} == {1: True, 2: False}


@pytest.mark.parametrize("path", ["wagers/", "wagers/batch/"])
def test_her_wagers_are_refused_neutrally_for_the_dealer_and_with_why_for_the_floor(
    api, world, held, path
):
    hand = api(world.dealer).post(f"{V}/tables/{world.house_table.pk}/hands/").json()
    if path == "wagers/":
        body, field = {"seating": held.pk, "ante": "10"}, "seating"
    else:
        other = Seating.objects.get(table=world.house_table, seat=2, left_at=None)
        spots = [{"seating": other.pk, "ante": "10"}, {"seating": held.pk, "ante": "10"}]
        body, field = {"spots": spots}, "spots[1].seating"
    url = f"{V}/hands/{hand['id']}/{path}"

    told_dealer = error(api(world.dealer).post(url, body, format="json"), 409)
    told_floor = error(api(world.supervisor).post(url, body, format="json"), 409)

    assert told_dealer == {"code": "call_floor", "message": PLAY_REFUSED, "field": field}
    assert told_floor["code"] == "excluded" and told_floor["field"] == field
    assert "barred on the cardroom's own list since 2024-01-01" in told_floor["message"]
    assert "through a floor supervisor" in told_floor["message"]
    assert not held.spots.exists()


def test_only_a_floor_supervisor_cashes_the_held_player_out(api, world, held):
    url = f"{V}/seatings/{held.pk}/cash-out/"
    told = error(api(world.dealer).post(url, {}, format="json"), 409)
    assert told == {"code": "call_floor", "message": PLAY_REFUSED, "field": "seating"}
    add = api(world.dealer).post(f"{V}/seatings/{held.pk}/add-chips/", {"amount": "5"})
    assert error(add, 409)["code"] == "call_floor"

    cashed = api(world.supervisor).post(url, {}, format="json")

    assert cashed.status_code == 200, cashed.content[:300]
    assert cashed.json()["stack"] == "0.00" and cashed.json()["call_floor"] is True
