"""Authentication: tokens for devices that expire and can be revoked, sessions with
CSRF for the screens, and a lockout after repeated failed logins (django-axes)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from knox.models import AuthToken
from rest_framework.test import APIClient

from audit.models import AuditEvent
from core.roles import DEALER

pytestmark = pytest.mark.django_db

V = "/api/v1"


def login(client: APIClient, username: str, password: str):
    return client.post(
        f"{V}/auth/token/", {"username": username, "password": password}, format="json"
    )


def with_token(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_login_answers_a_token_that_expires_after_a_shift(dealer, password):
    before = timezone.now()

    response = login(APIClient(), "dealer", password)

    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"token", "expiry", "user", "role"}
    assert (body["user"], body["role"]) == ("dealer", DEALER)
    expiry = parse_datetime(body["expiry"])
    ttl = settings.REST_KNOX["TOKEN_TTL"]
    assert before + ttl <= expiry <= timezone.now() + ttl
    assert AuthToken.objects.filter(user=dealer).count() == 1


def test_the_token_authenticates_as_authorization_token(dealer, password):
    token = login(APIClient(), "dealer", password).json()["token"]

    response = with_token(token).get(f"{V}/auth/me/")

    assert response.status_code == 200
    assert response.json() == {
        "id": dealer.pk,
        "username": "dealer",
        "name": "Dee Lee",
        "role": DEALER,
    }


def test_a_revoked_token_no_longer_works(dealer, password):
    token = login(APIClient(), "dealer", password).json()["token"]
    client = with_token(token)

    assert client.post(f"{V}/auth/token/revoke/").status_code == 204

    response = client.get(f"{V}/auth/me/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"
    assert not AuthToken.objects.filter(user=dealer).exists()


def test_revoking_one_device_leaves_the_others_signed_in(dealer, password):
    tablet = login(APIClient(), "dealer", password).json()["token"]
    phone = login(APIClient(), "dealer", password).json()["token"]

    with_token(tablet).post(f"{V}/auth/token/revoke/")

    assert with_token(tablet).get(f"{V}/auth/me/").status_code == 401
    assert with_token(phone).get(f"{V}/auth/me/").status_code == 200


def test_an_expired_token_no_longer_works(dealer, password):
    token = login(APIClient(), "dealer", password).json()["token"]
    AuthToken.objects.filter(user=dealer).update(expiry=timezone.now() - timedelta(seconds=1))

    response = with_token(token).get(f"{V}/auth/me/")

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_a_wrong_password_is_a_401_naming_the_password(dealer):
    response = login(APIClient(), "dealer", "not-the-password")

    assert response.status_code == 401
    assert response.json()["error"]["field"] == "password"
    assert not AuthToken.objects.exists()


def test_an_inactive_user_gets_no_token(make_user, password):
    make_user("gone", role=DEALER, is_active=False)

    assert login(APIClient(), "gone", password).status_code == 401


def test_a_session_must_send_the_csrf_token_to_write(administrator):
    client = APIClient(enforce_csrf_checks=True)
    # client.login() cannot be used: django-axes needs the request, which it does not pass.
    client.force_login(administrator)

    assert client.get(f"{V}/cardrooms/").status_code == 200  # reading needs no CSRF token
    refused = client.post(f"{V}/cardrooms/", {"name": "No CSRF"}, format="json")
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "permission_denied"
    assert "CSRF" in refused.json()["error"]["message"]

    client.get("/accounts/login/")  # any page with a form hands out the CSRF cookie
    csrf = client.cookies[settings.CSRF_COOKIE_NAME].value
    accepted = client.post(
        f"{V}/cardrooms/", {"name": "With CSRF"}, format="json", headers={"X-CSRFToken": csrf}
    )
    assert accepted.status_code == 201


def test_a_token_needs_no_csrf_token(administrator, password):
    token = login(APIClient(), administrator.username, password).json()["token"]
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")

    assert client.post(f"{V}/cardrooms/", {"name": "Device"}, format="json").status_code == 201


def test_after_the_failure_limit_the_account_waits_even_with_the_right_password(dealer, password):
    client = APIClient()
    limit = settings.AXES_FAILURE_LIMIT
    statuses = [login(client, "dealer", f"wrong-{i}").status_code for i in range(limit)]
    assert statuses == [401] * (limit - 1) + [429]  # the failure that reaches the limit waits

    response = login(client, "dealer", password)

    assert response.status_code == 429
    assert int(response["Retry-After"]) > 0
    assert response.json()["error"] == {
        "code": "locked_out",
        "message": response.json()["error"]["message"],
        "field": "username",
    }
    assert not AuthToken.objects.filter(user=dealer).exists()


def test_the_lockout_reaches_the_session_login_too(dealer, password, client):
    api = APIClient()
    for i in range(settings.AXES_FAILURE_LIMIT):
        login(api, "dealer", f"wrong-{i}")

    response = client.post("/accounts/login/", {"username": "dealer", "password": password})

    assert response.status_code in (403, 429)  # django-axes' own lockout page


def test_a_successful_login_resets_the_failures(dealer, password):
    client = APIClient()
    limit = settings.AXES_FAILURE_LIMIT
    for i in range(limit - 1):
        login(client, "dealer", f"wrong-{i}")
    assert login(client, "dealer", password).status_code == 201

    for i in range(limit - 1):
        assert login(client, "dealer", f"again-wrong-{i}").status_code == 401
    assert login(client, "dealer", password).status_code == 201


def test_failed_logins_are_in_the_audit_log_without_the_password(dealer):
    login(APIClient(), "dealer", "not-the-password")

    event = AuditEvent.objects.get(action="auth.login_failed")
    assert event.actor is None
    assert '"username":"dealer"' in event.payload
    assert "not-the-password" not in event.payload


def test_a_token_login_is_in_the_audit_log(dealer, password):
    login(APIClient(), "dealer", password)

    event = AuditEvent.objects.get(action="auth.login")
    assert event.actor == dealer
