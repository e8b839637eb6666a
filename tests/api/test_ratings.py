"""The ratings API: a player's rating per session, gaming day and month, read by the floor
supervisors and compliance; an ended session's rating is final (refused by name, nothing
written)."""

from __future__ import annotations

import pytest

from tables.services.seating import seating_leave
from wagers.models import DecisionCost

pytestmark = pytest.mark.django_db

V = "/api/v1"


def test_a_player_s_ratings_are_read_by_the_supervisor_and_compliance_not_the_dealer(
    api, supervisor, auditor, dealer, dp_players
):
    player = dp_players[1].player
    url = f"{V}/reports/players/{player.pk}/ratings/"
    for reader in (supervisor, auditor):
        response = api(reader).get(url)
        assert response.status_code == 200, response.content
        data = response.json()
        assert data["name"] == player.name
        assert [s["seat"] for s in data["sessions"]] == [1]
        assert data["sessions"][0]["buy_ins"] == {"cash": "0.00", "chips": "1000.00"}
        assert data["total"]["theoretical_win"] == "0.00"
    assert api(dealer).get(url).status_code == 403


def test_a_period_backwards_is_refused_naming_the_field(api, auditor, dp_players):
    player = dp_players[1].player
    response = api(auditor).get(
        f"{V}/reports/players/{player.pk}/ratings/?from=2024-03-05&to=2024-03-01"
    )
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "to"


def test_valuing_an_ended_session_is_refused_by_name_and_writes_nothing(
    api, auditor, dealer, dp_players, nothing_written
):
    seating = dp_players[2]
    seating_leave(seating=seating, by=dealer)
    with nothing_written():
        response = api(auditor).post(f"{V}/reports/seatings/{seating.pk}/rating/value/")
    assert response.status_code == 409
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("session_closed", "seating")
    assert "its rating is final" in error["message"]
    assert not DecisionCost.objects.exists()


def test_an_open_session_s_rating_is_read_and_valued(api, supervisor, dp_players):
    seating = dp_players[1]
    response = api(supervisor).post(f"{V}/reports/seatings/{seating.pk}/rating/value/")
    assert response.status_code == 200, response.content
    assert response.json()["open"] is True
    assert api(supervisor).get(f"{V}/reports/seatings/{seating.pk}/rating/").json()["seat"] == 1
