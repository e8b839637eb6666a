"""The CTR's person on the identity: the name split, the address, the TIN (nine ASCII digits,
encrypted, masked everywhere but compliance's audited "show") and the occupation."""

from __future__ import annotations

import dataclasses
import json

import pytest
from django.db import connection
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import AuditEvent
from core.errors import DomainError
from patrons.ctr_person import CtrPerson
from patrons.identity import identity_record
from patrons.models import PlayerIdentity

from .conftest import an_id

pytestmark = pytest.mark.django_db

TIN = "123456789"
MASKED = "•••••6789"
PERSON = CtrPerson(
    last_name="Vale",
    first_name="Robin",
    middle_name="Q",
    street="1 Main St",
    city="Gardena",
    state="ca",
    zip_code="90247",
    country="us",
    tin="123-45-6789",
    tin_type="ssn",
    occupation="Teacher",
)
ID_FIELDS = {
    "date_of_birth": "1980-05-17",
    "id_type": "passport",
    "id_number": "P7654321",
    "id_issuer": "United States",
    "id_expires": "2033-01-01",
}
PERSON_FIELDS = {
    "last_name": "Vale",
    "first_name": "Robin",
    "street": "1 Main St",
    "city": "Gardena",
    "state": "CA",
    "zip_code": "90247",
    "tin": TIN,
    "tin_type": "ssn",
    "occupation": "Teacher",
}


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def with_person(**changes: str):
    return dataclasses.replace(an_id(), person=dataclasses.replace(PERSON, **changes))


def test_the_person_is_kept_whole_the_tin_encrypted_and_its_last_four_beside(player, supervisor):
    row = identity_record(player=player, identity=with_person(), by=supervisor)

    row = PlayerIdentity.objects.get(pk=row.pk)
    assert (row.last_name, row.first_name, row.middle_name) == ("Vale", "Robin", "Q")
    assert (row.street, row.city, row.state, row.zip_code, row.country) == (
        "1 Main St",
        "Gardena",
        "CA",
        "90247",
        "US",
    )
    assert (row.tin, row.tin_last4, row.tin_type, row.occupation) == (
        TIN,
        "6789",
        "ssn",
        "Teacher",
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT tin FROM patrons_playeridentity WHERE id = %s", [row.pk])
        stored = cursor.fetchone()[0]
    assert TIN not in stored and "6789" not in stored


def test_an_identity_without_the_person_is_still_taken_as_before(player, supervisor):
    row = identity_record(player=player, identity=an_id(), by=supervisor)

    assert (row.last_name, row.tin, row.tin_last4, row.country) == ("", None, "", "US")


@pytest.mark.parametrize(
    "tin",
    ["１２３４５６７８９", "12345678a", "12345678", "1234567890", "١٢٣٤٥٦٧٨٩", "abcdefghi"],
)
def test_a_tin_that_is_not_nine_ascii_digits_is_refused_and_nothing_is_kept(
    player, supervisor, tin
):
    with pytest.raises(DomainError) as refused:
        identity_record(player=player, identity=with_person(tin=tin), by=supervisor)

    assert refused.value.field == "tin"
    assert not PlayerIdentity.objects.filter(player=player).exists()


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"tin_type": "passport"}, "tin_type"),
        ({"tin": "", "tin_type": "ssn"}, "tin"),
        ({"state": "California"}, "state"),
        ({"state": "ZZ"}, "state"),
        ({"state": "Ｃa"}, "state"),
        ({"zip_code": "9024"}, "zip_code"),
        ({"zip_code": "９０２４７"}, "zip_code"),
        ({"country": "USA"}, "country"),
        ({"country": "1"}, "country"),
        ({"last_name": ""}, "last_name"),
        ({"first_name": ""}, "first_name"),
        ({"street": ""}, "street"),
        ({"city": ""}, "city"),
    ],
)
def test_a_malformed_part_of_the_person_is_refused_naming_its_field(
    player, supervisor, changes, field
):
    with pytest.raises(DomainError) as refused:
        identity_record(player=player, identity=with_person(**changes), by=supervisor)

    assert refused.value.field == field
    assert not PlayerIdentity.objects.filter(player=player).exists()


def test_a_foreign_address_takes_a_province_and_a_postcode(player, supervisor):
    identity = with_person(state="ON", zip_code="M5V 2T6", country="CA", tin_type="foreign")

    row = identity_record(player=player, identity=identity, by=supervisor)

    assert (row.state, row.zip_code, row.country, row.tin_type) == (
        "ON",
        "M5V 2T6",
        "CA",
        "foreign",
    )


def test_a_newer_id_without_a_tin_keeps_the_tin_on_file(player, supervisor):
    identity_record(player=player, identity=with_person(), by=supervisor)

    row = identity_record(
        player=player,
        identity=with_person(tin="", tin_type="", city="Reno", state="NV"),
        by=supervisor,
    )

    row.refresh_from_db()
    assert (row.tin, row.tin_type, row.city) == (TIN, "ssn", "Reno")


def test_the_api_records_the_person_and_answers_the_tin_masked(player, dealer, supervisor, auditor):
    response = client_for(dealer).post(
        f"/api/v1/players/{player.pk}/identity/", {**ID_FIELDS, **PERSON_FIELDS}, format="json"
    )

    assert response.status_code == 201, response.content
    assert response.json()["tin"] == MASKED
    assert response.json()["last_name"] == "Vale"
    for user in (dealer, supervisor, auditor):
        answer = client_for(user).get(f"/api/v1/players/{player.pk}/identity/")
        assert TIN not in answer.content.decode(), user
    assert client_for(auditor).get(f"/api/v1/players/{player.pk}/identity/").json()["tin"] == MASKED


def test_the_api_refuses_a_full_width_tin_naming_the_field(player, dealer):
    response = client_for(dealer).post(
        f"/api/v1/players/{player.pk}/identity/",
        {**ID_FIELDS, **PERSON_FIELDS, "tin": "１２３４５６７８９"},
        format="json",
    )

    assert response.status_code == 422, response.content
    assert response.json()["error"]["field"] == "tin"
    assert not PlayerIdentity.objects.filter(player=player).exists()


def test_only_compliance_sees_the_whole_tin_and_the_look_is_audited(
    player, dealer, supervisor, auditor
):
    identity_record(player=player, identity=with_person(), by=supervisor)
    url = f"/api/v1/players/{player.pk}/identity/reveal/"
    for user in (dealer, supervisor):
        assert client_for(user).post(url, {"show": "tin"}, format="json").status_code == 403

    response = client_for(auditor).post(url, {"show": "tin", "reason": "CTR"}, format="json")

    assert response.status_code == 200, response.content
    assert response.json() == {"player": player.pk, "tin": TIN}
    event = AuditEvent.objects.get(action="player.identity_revealed")
    assert event.actor_name == "auditor"
    assert TIN not in event.payload and json.loads(event.payload)["tin"] == MASKED
    shown = client_for(auditor).post(url, {"reason": "CTR"}, format="json").json()
    assert shown == {"player": player.pk, "id_number": "D1234567"}


def test_the_reveal_of_a_tin_not_on_file_is_refused_naming_show(player, supervisor, auditor):
    identity_record(player=player, identity=an_id(), by=supervisor)

    response = client_for(auditor).post(
        f"/api/v1/players/{player.pk}/identity/reveal/", {"show": "tin"}, format="json"
    )

    assert response.status_code == 422
    assert response.json()["error"]["field"] == "show"
    assert not AuditEvent.objects.filter(action="player.identity_revealed").exists()


def test_the_whole_tin_is_in_no_audit_event_screen_or_csv(
    client, player, cardroom, supervisor, auditor
):
    identity_record(player=player, identity=with_person(), by=supervisor)

    assert not any(TIN in event.payload for event in AuditEvent.objects.all())
    client.force_login(auditor)
    page = client.get(f"/compliance/law/players/{player.pk}/").content.decode()
    assert MASKED in page and TIN not in page
    csv = client_for(auditor).get(f"/api/v1/cardrooms/{cardroom.pk}/ctrs.csv").content.decode()
    assert TIN not in csv


def test_compliance_sees_the_whole_tin_on_the_player_page_only_by_asking_and_audited(
    client, player, supervisor, auditor
):
    identity_record(player=player, identity=with_person(), by=supervisor)
    client.force_login(auditor)
    url = f"/compliance/law/players/{player.pk}/"
    assert "Show TIN" in client.get(url).content.decode()
    shown = client.post(f"{url}reveal/", {"show": "tin"}).content.decode()
    assert TIN in shown and "Show TIN" not in shown
    [event] = AuditEvent.objects.filter(action="player.identity_revealed")
    assert json.loads(event.payload)["show"] == "tin" and TIN not in event.payload
    assert TIN not in client.get(url).content.decode()  # shown once, for that look


def test_the_identity_screen_records_the_person_and_shows_the_tin_masked(
    client, player, supervisor
):
    client.force_login(supervisor)

    response = client.post(
        reverse("law-identity"),
        {"player": player.pk, **ID_FIELDS, **PERSON_FIELDS, "country": "US"},
        follow=True,
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert f"TIN {MASKED}" in page and TIN not in page
    assert PlayerIdentity.objects.get(player=player).tin == TIN


def test_the_identity_screen_refuses_a_bad_tin_next_to_its_field(client, player, supervisor):
    client.force_login(supervisor)

    response = client.post(
        reverse("law-identity"),
        {"player": player.pk, **ID_FIELDS, **PERSON_FIELDS, "tin": "12345678", "country": "US"},
    )

    assert response.status_code == 422
    assert "A TIN is nine digits" in response.content.decode()
    assert not PlayerIdentity.objects.filter(player=player).exists()
