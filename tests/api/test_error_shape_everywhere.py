"""Every error under /api/ in the one shape, including those Django answers itself:
an unknown URL, a body too large, a server error; and every answer carries a request id."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from knox.models import AuthToken

from cardroom.api import auth
from cardroom.api import hands as hand_views
from cardroom.api.models import IdempotencyKey

from .test_errors import error_of

pytestmark = pytest.mark.django_db

V = "/api/v1"


@pytest.mark.parametrize("path", [f"{V}/no-such-thing/", "/api/v2/tables/", f"{V}/tables/x/"])
def test_an_unknown_url_under_the_api_is_a_json_404(api, world, path):
    error = error_of(api(world.supervisor).get(path), 404)

    assert error["code"] == "not_found"


def test_an_unknown_page_outside_the_api_is_still_a_page(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_a_json_body_larger_than_the_limit_is_a_400_in_the_one_shape(api, world, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = json.dumps({"name": "x" * 2000})

    response = api(world.administrator).post(
        f"{V}/cardrooms/", body, content_type="application/json"
    )

    assert error_of(response, 400)["code"] == "body_too_large"


def test_a_form_body_larger_than_the_limit_is_a_400_in_the_one_shape(api, world, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000

    response = api(world.administrator).post(f"{V}/cardrooms/", {"name": "x" * 2000})

    assert error_of(response, 400)["code"] == "body_too_large"


def test_a_server_error_under_the_api_is_a_json_500_naming_the_request_id(
    dealer, password, monkeypatch
):
    def broken(*args, **kwargs):
        raise RuntimeError("a defect")

    monkeypatch.setattr(auth, "authenticate", broken)
    client = Client(raise_request_exception=False)

    response = client.post(
        f"{V}/auth/token/",
        {"username": "dealer", "password": password},
        content_type="application/json",
        headers={"X-Request-ID": "abc-123"},
    )

    error = error_of(response, 500)
    assert error["code"] == "server_error"
    assert "abc-123" in error["message"]
    assert response["X-Request-ID"] == "abc-123"
    assert not AuthToken.objects.exists()


def test_every_answer_carries_a_request_id_made_when_none_is_given(client):
    first, second = client.get("/health/"), client.get("/health/")

    assert len(first["X-Request-ID"]) == 32
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_a_request_id_that_is_not_plain_is_replaced(client):
    response = client.get("/health/", headers={"X-Request-ID": "evil\u00e9 id; drop"})

    assert response["X-Request-ID"] != "evil\u00e9 id; drop"
    assert len(response["X-Request-ID"]) == 32


def test_a_server_error_keeps_no_idempotency_record_so_the_retry_runs(world, monkeypatch):
    """A server error is not replayed: an answer of 5xx is never stored under the Idempotency-Key;
    the retry, once the fault is gone, does the work."""
    hand = world.hand_ready
    settle = hand_views.services.hand_settle

    def broken(**kwargs):
        raise RuntimeError("the database went away")

    client = Client(raise_request_exception=False)
    client.force_login(world.dealer)
    monkeypatch.setattr(hand_views.services, "hand_settle", broken)
    failed = client.post(f"{V}/hands/{hand.pk}/settle/", headers={"Idempotency-Key": "settle-once"})
    monkeypatch.setattr(hand_views.services, "hand_settle", settle)
    assert failed.status_code == 500
    assert not IdempotencyKey.objects.filter(key="settle-once").exists()

    retried = client.post(
        f"{V}/hands/{hand.pk}/settle/", headers={"Idempotency-Key": "settle-once"}
    )

    assert retried.status_code == 200, retried.content[:300]
    assert "Idempotent-Replayed" not in retried
    assert IdempotencyKey.objects.get(key="settle-once").status_code == 200
