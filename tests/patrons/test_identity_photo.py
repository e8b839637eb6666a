"""A player's identity with an optional photo: a JPEG or PNG of at most 5 MB, known
by its bytes; through the service, the API (multipart) and the floor's identity screen."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from rest_framework.test import APIClient

from audit.models import AuditEvent
from core.errors import DomainError
from patrons.identity import identity_record
from patrons.models import PlayerIdentity
from tables.services.seating import player_create

from .conftest import an_id

pytestmark = pytest.mark.django_db

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
ID_FIELDS = {
    "date_of_birth": "1980-05-17",
    "id_type": "passport",
    "id_number": "P7654321",
    "id_issuer": "United States",
    "id_expires": "2033-01-01",
}


@pytest.fixture
def player(cardroom, dealer):
    return player_create(cardroom=cardroom, name="Robin Vale", by=dealer)


def test_a_png_photo_is_kept_with_the_identity(player, supervisor):
    photo = SimpleUploadedFile("robin.png", PNG, content_type="image/png")

    row = identity_record(player=player, identity=an_id(), photo=photo, by=supervisor)

    row.refresh_from_db()
    assert row.photo.read() == PNG
    event = AuditEvent.objects.filter(action="player.identity_recorded").latest("seq")
    assert json.loads(event.payload)["photo"] is True


def test_a_file_that_is_not_an_image_is_refused_naming_the_photo(player, supervisor):
    text = SimpleUploadedFile("robin.png", b"#!/bin/sh\necho hi\n", content_type="image/png")

    with pytest.raises(DomainError) as refused:
        identity_record(player=player, identity=an_id(), photo=text, by=supervisor)

    assert refused.value.field == "photo"
    assert not PlayerIdentity.objects.filter(player=player).exists()


def test_the_api_takes_the_photo_as_multipart_and_says_one_is_on_file(player, dealer):
    client = APIClient()
    client.force_authenticate(dealer)
    photo = SimpleUploadedFile("robin.png", PNG, content_type="image/png")

    response = client.post(
        f"/api/v1/players/{player.pk}/identity/", {**ID_FIELDS, "photo": photo}, format="multipart"
    )

    assert response.status_code == 201, response.content
    assert response.json()["photo_on_file"] is True
    assert response.json()["id_number"] == "••••4321"


def test_the_floor_records_an_identity_on_its_screen_masked_afterwards(client, player, supervisor):
    client.force_login(supervisor)
    photo = SimpleUploadedFile("robin.png", PNG, content_type="image/png")

    response = client.post(
        reverse("law-identity"), {"player": player.pk, **ID_FIELDS, "photo": photo}, follow=True
    )

    assert response.status_code == 200
    page = response.content.decode()
    assert "Identity on file for Robin Vale (ID ••••4321)" in page
    assert "P7654321" not in page
    assert PlayerIdentity.objects.get(player=player).photo


def test_the_identity_screen_refuses_an_expired_id_naming_the_field(client, player, supervisor):
    client.force_login(supervisor)

    response = client.post(
        reverse("law-identity"), {"player": player.pk, **ID_FIELDS, "id_expires": "2001-01-01"}
    )

    assert response.status_code == 422
    assert "expired" in response.content.decode()
    assert not PlayerIdentity.objects.filter(player=player).exists()
