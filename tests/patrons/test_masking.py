"""PII: an ID number is masked in every API body and screen for dealers and the floor (and
for compliance until it asks); compliance's "show" is an audit event; reviews are
compliance's alone."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from audit.models import AuditEvent
from tables.services.seating import player_create, seat_player

from .conftest import an_id

pytestmark = pytest.mark.django_db
FULL = "D1234567"


@pytest.fixture
def identified_player(cardroom, house_a, dealer):
    identified_player = player_create(
        cardroom=cardroom, name="Robin Vale", identity=an_id(FULL), by=dealer
    )
    seat_player(table=house_a, seat=1, player=identified_player, buy_in="100", by=dealer)
    return identified_player


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_api_bodies_mask_the_id_for_dealers_the_floor_and_compliance(
    identified_player, dealer, supervisor, auditor
):
    for user in (dealer, supervisor, auditor):
        response = client_for(user).get(f"/api/v1/players/{identified_player.pk}/identity/")
        assert response.status_code == 200, user
        assert FULL not in response.content.decode()
        assert response.json()["id_number"] == "••••4567"
    assert (
        "date_of_birth"
        not in client_for(dealer).get(f"/api/v1/players/{identified_player.pk}/identity/").json()
    )


def test_only_compliance_sees_the_whole_number_and_each_look_is_audited(
    identified_player, dealer, supervisor, auditor
):
    url = f"/api/v1/players/{identified_player.pk}/identity/reveal/"
    for user in (dealer, supervisor):
        assert client_for(user).post(url, {}, format="json").status_code == 403
    response = client_for(auditor).post(url, {"reason": "CTR filing"}, format="json")
    assert response.json() == {"player": identified_player.pk, "id_number": FULL}
    event = AuditEvent.objects.get(action="player.identity_revealed")
    assert event.actor_name == "auditor" and FULL not in event.payload


def test_screens_show_the_id_masked_and_the_show_button_reveals_it_audited(
    client, identified_player, house_a, dealer, supervisor, auditor
):
    client.force_login(dealer)
    assert FULL not in client.get(f"/dealer/tables/{house_a.pk}/").content.decode()
    client.force_login(supervisor)
    for url in ("/floor/incidents/", f"/floor/tables/{house_a.pk}/"):
        assert FULL not in client.get(url).content.decode()
    assert client.get(f"/compliance/law/players/{identified_player.pk}/").status_code == 403
    client.force_login(auditor)
    page = client.get(f"/compliance/law/players/{identified_player.pk}/").content.decode()
    assert FULL not in page and "••••4567" in page
    assert not AuditEvent.objects.filter(action="player.identity_revealed").exists()
    shown = client.post(f"/compliance/law/players/{identified_player.pk}/reveal/").content.decode()
    assert FULL in shown
    assert AuditEvent.objects.filter(action="player.identity_revealed").count() == 1


def test_reviews_and_cash_reports_are_compliances_alone(
    identified_player, cardroom, dealer, supervisor, auditor
):
    opened = client_for(auditor).post(
        f"/api/v1/players/{identified_player.pk}/reviews/", {"note": "Chip walking"}, format="json"
    )
    assert opened.status_code == 201
    for user in (dealer, supervisor):
        assert client_for(user).get("/api/v1/reviews/").status_code == 403
        assert client_for(user).get(f"/api/v1/cardrooms/{cardroom.pk}/ctrs/").status_code == 403
    assert len(client_for(auditor).get("/api/v1/reviews/").json()["results"]) == 1
