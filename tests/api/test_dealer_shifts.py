"""The dealers' API: a floor supervisor clocks a dealer in, puts them on a table, pushes in
one call (never mid-hand), and reads who is due with the minutes elapsed and each dealer's
hours and hands; refusals answer the one error shape naming the field and change nothing."""

from __future__ import annotations

import pytest

from core.roles import DEALER
from tables import selectors
from wagers import services as hand_services

pytestmark = pytest.mark.django_db

V = "/api/v1"


def error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:500]
    return response.json()["error"]


@pytest.fixture
def ann(make_user):
    return make_user("ann", role=DEALER, first_name="Ann", last_name="Bell")


@pytest.fixture
def floor(api, world):
    return api(world.supervisor)


def test_a_dealer_clocked_in_shows_on_the_board_waiting(floor, world, ann, clock):
    cardroom = world["cardroom"]
    answer = floor.post(f"{V}/cardrooms/{cardroom}/dealers/", {"dealer": ann.pk}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["dealer"] == ann.pk
    clock.advance(minutes=7)
    (row,) = floor.get(f"{V}/cardrooms/{cardroom}/dealers/").json()
    assert (row["name"], row["where"], row["minutes_on"], row["break_due"]) == (
        "Ann Bell",
        "waiting",
        7,
        False,
    )


def test_a_dealer_clocked_in_twice_is_refused_by_name(floor, world, ann, nothing_written):
    url = f"{V}/cardrooms/{world['cardroom']}/dealers/"
    floor.post(url, {"dealer": ann.pk}, format="json")
    with nothing_written():
        told = error(floor.post(url, {"dealer": ann.pk}, format="json"), 409)
    assert (told["code"], told["field"]) == ("conflict", "dealer")
    assert "Ann Bell is clocked in already" in told["message"]


def test_a_push_in_one_call_and_its_preview(floor, world, ann, clock):
    cardroom, table = world["cardroom"], world["closed_table"]
    floor.post(f"{V}/cardrooms/{cardroom}/dealers/", {"dealer": world["other_dealer"]})
    assigned = floor.post(f"{V}/dealers/{world['other_dealer']}/assign/", {"table": table})
    assert assigned.status_code == 200, assigned.content
    floor.post(f"{V}/cardrooms/{cardroom}/dealers/", {"dealer": ann.pk}, format="json")
    clock.advance(minutes=20)
    preview = floor.get(f"{V}/cardrooms/{cardroom}/dealer-push/").json()
    assert preview["sentence"] == "Ann Bell takes Closed table; Rae Ng waits for the next table."
    pushed = floor.post(f"{V}/cardrooms/{cardroom}/dealer-push/", {}, format="json")
    assert pushed.status_code == 200, pushed.content
    assert [move["name"] for move in pushed.json()["moves"]] == ["Ann Bell", "Rae Ng"]
    assert selectors.open_session(world.closed_table).dealer == ann


def test_a_push_to_a_table_mid_hand_is_refused_by_name(floor, world, ann, clock, nothing_written):
    cardroom = world["cardroom"]
    floor.post(f"{V}/cardrooms/{cardroom}/dealers/", {"dealer": ann.pk}, format="json")
    hand = hand_services.hand_start(table=world.dp_table, by=world.dealer)
    body = {"table": world["dp_table"]}
    with nothing_written():
        told = error(floor.post(f"{V}/cardrooms/{cardroom}/dealer-push/", body, format="json"), 409)
    assert told["field"] == "table"
    assert f"DP table has hand {hand.number} in progress" in told["message"]


def test_a_dealer_cannot_push(api, world, nothing_written):
    url = f"{V}/cardrooms/{world['cardroom']}/dealer-push/"
    with nothing_written(audited=("permission.refused",)):
        answer = api(world.dealer).post(url, {})
    assert answer.status_code == 403


def test_hours_and_hands_per_day(floor, world, ann, clock):
    cardroom = world["cardroom"]
    floor.post(f"{V}/cardrooms/{cardroom}/dealers/", {"dealer": ann.pk}, format="json")
    clock.advance(minutes=45)
    (row,) = floor.get(f"{V}/cardrooms/{cardroom}/dealer-days/?day=2024-03-01").json()
    assert (row["name"], row["minutes_clocked"], row["hands_dealt"]) == ("Ann Bell", 45, 0)
    told = error(floor.get(f"{V}/cardrooms/{cardroom}/dealer-days/?day=yesterday"), 422)
    assert told["field"] == "day"


def test_the_rotation_settings_are_read_and_set(floor, world):
    url = f"{V}/cardrooms/{world['cardroom']}/dealer-rotation/"
    assert floor.get(url).json()["push_minutes"] == 20
    answer = floor.put(url, {"push_minutes": 30, "break_minutes": 15}, format="json")
    assert answer.json() == {
        "cardroom": world["cardroom"],
        "push_minutes": 30,
        "break_after_minutes": 80,
        "break_minutes": 15,
    }
    told = error(floor.put(url, {"break_after_minutes": 0}, format="json"), 422)
    assert told["field"] == "break_after_minutes"


def test_a_tables_dealer_changed_by_hand_waits_for_the_hand_in_progress(
    floor, world, nothing_written
):
    hand = world.hand_open
    with nothing_written():
        answer = floor.post(
            f"{V}/tables/{hand.table_id}/dealer/", {"dealer": world["other_dealer"]}, format="json"
        )
    told = error(answer, 409)
    assert told["field"] == "table" and f"hand {hand.number} in progress" in told["message"]
