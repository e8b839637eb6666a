"""The dealer screen seats a new player in one transaction: a refused seating registers no one."""

import pytest
from django.urls import reverse

from patrons.models import Player

pytestmark = pytest.mark.django_db


def test_a_refused_seating_on_the_screen_leaves_no_player_behind(client, dealer, world):
    client.force_login(dealer)
    url = reverse("dealer-step", args=[world.dp_table.pk, "seat"])
    response = client.post(url, {"seat": "1", "name": "Frankie", "buy_in": "100"})
    assert response.status_code == 422
    assert "Seat 1 at Table 1 is taken." in response.text
    assert not Player.objects.filter(name="Frankie").exists()

    response = client.post(url, {"seat": "2", "name": "Frankie", "buy_in": "100"})
    assert response.status_code == 302
    assert Player.objects.filter(name="Frankie").count() == 1
