"""The floor's cardroom settings screen shows the age line and changes it (the floor or an
administrator, 18 to 25, audited); the dealer screen refuses an under-age player neutrally."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from patrons.age import gaming_day_now
from patrons.identity import IdentityInput, identity_record
from patrons.models import Cardroom, Incident
from patrons.persons import player_record_new
from tests.conftest import an_administrator

from .support import last_seq, parse

pytestmark = pytest.mark.django_db
URL = reverse("floor-cardroom")


def test_the_floor_sees_the_minimum_age_and_changes_it(floor, world):
    page = parse(floor.get(URL).content)
    assert page.find(id="minimum-age").text == "21"

    saved = floor.post(URL, {"minimum_age": "18", "confirmed": "1"}, follow=True)

    assert saved.status_code == 200
    assert parse(saved.content).find(id="minimum-age").text == "18"
    assert "The minimum age is 18." in parse(saved.content).find(id="saved").text
    assert Cardroom.objects.get(pk=world.cardroom.pk).minimum_age == 18
    assert AuditEvent.objects.filter(action="cardroom.minimum_age_set").count() == 1


def test_an_administrator_changes_it_too(client, world):
    client.force_login(an_administrator())
    assert client.post(URL, {"minimum_age": "25", "confirmed": "1"}).status_code == 302
    assert Cardroom.objects.get(pk=world.cardroom.pk).minimum_age == 25


@pytest.mark.parametrize("value", ["17", "26", "", "twenty", "٢١"])
def test_a_line_out_of_bounds_is_refused_next_to_its_field_and_changes_nothing(floor, world, value):
    before = last_seq()
    response = floor.post(URL, {"minimum_age": value, "confirmed": "1"})
    assert response.status_code == 422
    assert list(response.context["form"].errors) == ["minimum_age"]
    if value in ("17", "26"):  # the service's refusal, shown next to the field
        assert "The minimum age is 18 to 25." in response.text
    assert Cardroom.objects.get(pk=world.cardroom.pk).minimum_age == 21
    assert last_seq() == before


def test_the_dealer_screen_refuses_an_under_age_player_neutrally(client, dealer, world):
    day = gaming_day_now(world.cardroom)
    kit = player_record_new(cardroom=world.cardroom, name="Kit Young")
    identity_record(
        player=kit,
        identity=IdentityInput(
            date_of_birth=date(day.year - 17, 1, 1),
            id_type="driver_licence",
            id_number="Y1234567",
            id_issuer="CA",
            id_expires=day + timedelta(days=1000),
        ),
        by=dealer,
    )
    client.force_login(dealer)
    url = reverse("dealer-step", args=[world.dp_table.pk, "seat"])

    response = client.post(url, {"seat": "2", "player": str(kit.pk), "buy_in": "0"})

    assert response.status_code == 422
    assert "This player cannot be seated; call a floor supervisor." in response.text
    assert "minimum age" not in response.text
    assert Incident.objects.filter(kind="under_age").count() == 1
