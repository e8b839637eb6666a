"""What the API tells each role of a player under the cardroom's minimum age: a dealer (or the
cashier) gets the neutral ``call_floor`` and "call a floor supervisor"; the floor gets
``under_age`` and "under the minimum age of 21". The floor or an administrator sets the line
(``cardrooms/<id>/minimum-age/``, 18 to 25, audited)."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.utils import timezone

from audit.models import AuditEvent
from patrons.age import gaming_day_now
from patrons.identity import identity_record
from patrons.models import Cardroom, CashTransaction, Player
from patrons.persons import player_record_new
from tables.models import Seating

from .conftest import IDENTITY

pytestmark = pytest.mark.django_db

V = "/api/v1"


def years_ago(world, years: int) -> date:
    """A date of birth ``years`` whole years before the cardroom's gaming day (1 January: the
    same age all year)."""
    return date(gaming_day_now(world.cardroom).year - years, 1, 1)


def error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:500]
    return response.json()["error"]


def seventeen(world) -> Player:
    """A player on file from before the age line, seated nowhere: 17, identity recorded."""
    player = player_record_new(cardroom=world.cardroom, name="Kit Young")
    identity = IDENTITY.__class__(**{**IDENTITY.__dict__, "date_of_birth": years_ago(world, 17)})
    identity_record(player=player, identity=identity, by=world.supervisor)
    return player


def registration(world, born: date) -> dict:
    shown = {**IDENTITY.__dict__, "date_of_birth": born}
    return {
        "cardroom": world.cardroom.pk,
        "name": "Kit Young",
        # registration takes the ID alone; the CTR's person is recorded with the identity
        "identity": {key: str(value) for key, value in shown.items() if key != "person"},
    }


def test_a_17_year_old_s_registration_is_refused_neutrally_naming_the_date_of_birth(api, world):
    body = registration(world, years_ago(world, 17))

    told = error(api(world.dealer).post(f"{V}/players/", body, format="json"), 409)

    assert told == {
        "code": "call_floor",
        "message": "This player cannot be registered; call a floor supervisor.",
        "field": "date_of_birth",
    }
    assert not Player.objects.filter(name="Kit Young").exists()


def test_twenty_one_registers(api, world):
    body = registration(world, years_ago(world, 21))
    assert api(world.dealer).post(f"{V}/players/", body, format="json").status_code == 201


def test_the_dealer_is_told_to_call_the_floor_and_the_floor_why(api, world):
    kit = seventeen(world)
    url = f"{V}/tables/{world.house_table.pk}/seatings/"
    body = {"player": kit.pk, "seat": 3, "buy_in": "100"}

    told_dealer = error(api(world.dealer).post(url, body, format="json"), 409)
    told_floor = error(api(world.supervisor).post(url, body, format="json"), 409)

    assert told_dealer == {
        "code": "call_floor",
        "message": "This player cannot be seated; call a floor supervisor.",
        "field": "player",
    }
    assert "minimum age" not in told_dealer["message"]
    assert told_floor["code"] == "under_age" and told_floor["field"] == "player"
    assert "Kit Young" in told_floor["message"]
    assert "under the minimum age of 21 (17 on gaming day" in told_floor["message"]
    assert not Seating.objects.filter(player=kit).exists()
    incidents = api(world.supervisor).get(f"{V}/incidents/").json()
    rows = incidents["results"] if isinstance(incidents, dict) else incidents
    assert [row["kind"] for row in rows].count("under_age") == 1  # one a player and day


def test_the_cashier_is_told_to_call_the_floor(api, world):
    kit = seventeen(world)
    world.open_cage  # noqa: B018 - opened by the cashier
    body = {"player": kit.pk, "direction": "in", "chips": {"25": 4}}

    told = error(
        api(world.cashier).post(
            f"{V}/cardrooms/{world.cardroom.pk}/cage/player-cash/", body, format="json"
        ),
        409,
    )

    assert told == {
        "code": "call_floor",
        "message": "This player cannot buy chips; call a floor supervisor.",
        "field": "player",
    }
    assert not CashTransaction.objects.filter(player=kit).exists()


def test_a_cash_add_on_at_the_table_is_refused(api, world):
    kit = seventeen(world)
    seating = Seating.objects.create(
        table=world.house_table, seat=3, player=kit, sat_at=timezone.now()
    )
    told = error(
        api(world.dealer).post(
            f"{V}/seatings/{seating.pk}/add-chips/",
            {"amount": "100", "tender": "cash"},
            format="json",
        ),
        409,
    )
    assert told["code"] == "call_floor" and told["field"] == "player"


# --- the setting -----------------------------------------------------------------------------


def test_the_floor_reads_and_sets_the_minimum_age(api, world):
    url = f"{V}/cardrooms/{world.cardroom.pk}/minimum-age/"
    read = api(world.dealer).get(url)
    assert read.json() == {
        "cardroom": world.cardroom.pk,
        "minimum_age": 21,
        "lowest_allowed": 18,
        "highest_allowed": 25,
    }

    changed = api(world.supervisor).put(url, {"minimum_age": 18}, format="json")

    assert changed.status_code == 200 and changed.json()["minimum_age"] == 18
    assert Cardroom.objects.get(pk=world.cardroom.pk).minimum_age == 18
    event = AuditEvent.objects.get(action="cardroom.minimum_age_set")
    assert json.loads(event.payload) == {"minimum_age": 18, "before": 21}


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"minimum_age": 17}, 422, "minimum_age"),
        ({"minimum_age": 26}, 422, "minimum_age"),
        ({"minimum_age": "twenty"}, 400, "minimum_age"),
        ({}, 400, "minimum_age"),
        ({"minimum_age": 21, "age": 3}, 422, "age"),
    ],
)
def test_a_refused_line_names_its_field_and_changes_nothing(api, world, body, status, field):
    url = f"{V}/cardrooms/{world.cardroom.pk}/minimum-age/"
    told = error(api(world.administrator).put(url, body, format="json"), status)
    assert told["field"] == field
    assert Cardroom.objects.get(pk=world.cardroom.pk).minimum_age == 21
    assert not AuditEvent.objects.filter(action="cardroom.minimum_age_set").exists()
