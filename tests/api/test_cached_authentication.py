"""A known token authenticates from the cache without a query, and never answers for
a user or a token that has changed since it was cached."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from knox.crypto import hash_token
from knox.models import AuthToken
from rest_framework.test import APIClient

from audit.models import AuditEvent
from cardroom.api.tokens import _remembered, forget_roles, role_key
from core.roles import DEALER, FLOOR_SUPERVISOR

pytestmark = pytest.mark.django_db

V = "/api/v1"


def client_with(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def test_a_known_token_reads_nothing_and_the_user_is_whole_when_asked(world):
    world.dealer.email = "dealer@example.test"
    world.dealer.save()
    client = client_with(AuthToken.objects.create(world.dealer)[1])
    assert client.get(f"{V}/auth/me/").status_code == 200  # cached from here on

    with CaptureQueriesContext(connection) as queries:
        me = client.get(f"{V}/auth/me/")
    assert me.json() == {
        "id": world.dealer.pk,
        "username": "dealer",
        "name": "Dee Lee",
        "role": DEALER,
    }
    assert len(queries.captured_queries) == 0

    digest = AuthToken.objects.get(user=world.dealer).digest
    assert cache.get(role_key(digest)) is not None
    user, token = _remembered(digest)  # what the next request gets
    assert (user.pk, token.pk) == (world.dealer.pk, digest)
    assert user.email == "dealer@example.test"  # a field not cached is read when used


def test_a_renamed_user_acts_under_the_new_name_at_once(api, world):
    client = api(world.dealer)
    assert client.get(f"{V}/auth/me/").json()["username"] == "dealer"

    world.dealer.username = "dealer-renamed"
    world.dealer.save()

    assert client.get(f"{V}/auth/me/").json()["username"] == "dealer-renamed"
    table = world.table("Renamed", banking="house", seats=(1,))
    assert client.post(f"{V}/tables/{table.pk}/hands/", {}, format="json").status_code == 201
    assert AuditEvent.objects.order_by("-seq").first().actor_name == "dealer-renamed"


def test_a_token_past_its_expiry_is_refused_though_it_was_cached(world, monkeypatch):
    token = AuthToken.objects.create(world.dealer, expiry=timedelta(hours=1))[1]
    client = client_with(token)
    assert client.get(f"{V}/auth/me/").status_code == 200  # cached

    later = timezone.now() + timedelta(hours=2)
    monkeypatch.setattr(timezone, "now", lambda: later)

    assert client.get(f"{V}/auth/me/").status_code == 401
    assert not AuthToken.objects.filter(user=world.dealer).exists()  # the expired one deleted


def test_a_deactivated_user_is_refused_though_the_token_was_cached(api, world):
    client = api(world.dealer)
    assert client.get(f"{V}/auth/me/").status_code == 200

    world.dealer.is_active = False
    world.dealer.save()

    assert client.get(f"{V}/auth/me/").status_code == 401


def test_a_superuser_flag_taken_away_is_seen_on_the_next_request(api, world):
    world.dealer.is_superuser = True
    world.dealer.save()
    client = api(world.dealer)
    assert client.get(f"{V}/auth/me/").status_code == 200
    digest = AuthToken.objects.get(user=world.dealer).digest
    user, _ = _remembered(digest)
    assert user.is_superuser is True

    world.dealer.is_superuser = False
    world.dealer.save()

    assert cache.get(role_key(digest)) is None  # forgotten
    assert client.get(f"{V}/auth/me/").status_code == 200
    user, _ = _remembered(digest)
    assert user.is_superuser is False


def test_a_token_revoked_while_its_first_request_reads_it_is_refused_and_not_cached(
    world, monkeypatch
):
    token = AuthToken.objects.create(world.dealer)[1]
    digest = hash_token(token)
    caching = cache.set

    def revoked_meanwhile(key, value, timeout=None):
        AuthToken.objects.filter(digest=digest).delete()  # another request's revocation
        caching(key, value, timeout)

    monkeypatch.setattr(cache, "set", revoked_meanwhile)

    assert client_with(token).get(f"{V}/auth/me/").status_code == 401
    assert cache.get(role_key(digest)) is None


def test_a_first_request_reads_the_token_its_user_and_role_in_one_query_then_checks_it(world):
    token = AuthToken.objects.create(world.supervisor)[1]
    with CaptureQueriesContext(connection) as queries:
        me = client_with(token).get(f"{V}/auth/me/")

    assert me.json()["role"] == FLOOR_SUPERVISOR
    statements = [q["sql"] for q in queries.captured_queries]
    assert len(statements) == 2  # the token with its user and role; still there after caching
    assert "auth_user_groups" in statements[0] and "knox_authtoken" in statements[1]


def test_a_forgotten_entry_is_forgotten_again_when_the_change_commits(
    world, django_capture_on_commit_callbacks
):
    key = role_key("a" * 128)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        forget_roles(["a" * 128])
        cache.set(key, {"stale": True}, 60)  # cached by a request that read before the commit
        assert cache.get(key) == {"stale": True}

    assert len(callbacks) == 1
    assert cache.get(key) is None
