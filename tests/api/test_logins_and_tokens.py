"""Logins behind the TLS proxy, throttled per account and per address with backoff,
and tokens: the per-user limit, revocation on a password change or a deactivation, and an
idempotent token login."""

from __future__ import annotations

import os
import threading
from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connections
from django.test import Client
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from audit.models import AuditEvent
from cardroom.api.models import IdempotencyKey
from cardroom.auth_backends import login_cool_off
from core.roles import DEALER

pytestmark = pytest.mark.django_db

V = "/api/v1"
PROXY = "10.0.0.2"  # the TLS proxy: every request reaches the app from it


def login(username: str, password: str, *, client_address: str | None = None, **headers):
    """A token login as it arrives through the proxy: REMOTE_ADDR is the proxy's, and the
    proxy appended the client's address to X-Forwarded-For."""
    extra = {"REMOTE_ADDR": PROXY}
    if client_address is not None:
        extra["HTTP_X_FORWARDED_FOR"] = client_address
    return APIClient().post(
        f"{V}/auth/token/",
        {"username": username, "password": password},
        format="json",
        headers=headers or None,
        **extra,
    )


@pytest.fixture
def behind_one_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1


# --- the proxy, and throttling per account and per address ------------------------------------


def test_behind_the_proxy_the_client_address_is_the_one_the_proxy_appended(
    behind_one_proxy, dealer
):
    # The client wrote its own X-Forwarded-For ("1.1.1.1"); the proxy appended 203.0.113.7.
    login("dealer", "wrong", client_address="1.1.1.1, 203.0.113.7")

    attempt = AccessAttempt.objects.get()
    assert attempt.ip_address == "203.0.113.7"
    event = AuditEvent.objects.get(action="auth.login_failed")
    assert '"ip":"203.0.113.7"' in event.payload


def test_without_a_trusted_proxy_a_forwarded_for_header_is_ignored(settings, dealer):
    settings.TRUSTED_PROXY_COUNT = 0

    login("dealer", "wrong", client_address="203.0.113.7")

    assert AccessAttempt.objects.get().ip_address == PROXY


def test_one_address_failing_on_many_accounts_is_throttled_but_others_behind_the_proxy_are_not(
    behind_one_proxy, make_user, password
):
    """The attack on the old throttle: behind the proxy every client shared one address, so failures
    counted per username + address let anyone lock any account. Now the attacker's own
    address waits, once it failed on accounts as often as a pair may fail four times over;
    the dealer, logging in from the floor, does not."""
    for number in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        make_user(f"victim{number}", role=DEALER)
        login(f"victim{number}", "guess", client_address="198.51.100.66")
    make_user("floor_dealer", role=DEALER)

    attacker = login("floor_dealer", password, client_address="198.51.100.66")
    dealer = login("floor_dealer", password, client_address="192.0.2.10")

    assert attacker.status_code == 429
    assert dealer.status_code == 201


def test_failures_of_an_account_from_one_address_make_that_pair_wait_not_the_account(
    behind_one_proxy, dealer, password
):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login("dealer", "guess", client_address="198.51.100.9")

    guesser = login("dealer", password, client_address="198.51.100.9")
    own_tablet = login("dealer", password, client_address="192.0.2.10")

    assert guesser.status_code == 429
    assert guesser.json()["error"]["code"] == "locked_out"
    assert own_tablet.status_code == 201


def test_five_bad_guesses_from_anywhere_no_longer_lock_an_account(
    behind_one_proxy, dealer, password
):
    for number in range(settings.AXES_FAILURE_LIMIT):
        login("dealer", "guess", client_address=f"198.51.100.{number + 1}")

    response = login("dealer", password, client_address="192.0.2.10")

    assert response.status_code == 201


def test_an_account_guessed_at_from_many_addresses_takes_one_attempt_at_a_time_from_new_ones(
    behind_one_proxy, dealer, password
):
    """The slower per-account throttle: no lock, but one attempt per interval from an address
    the account never logged in from. A held-back attempt checks no password and counts as no
    failure; the dealer's own tablet is never held back."""
    assert login("dealer", password, client_address="192.0.2.10").status_code == 201
    for number in range(settings.LOGIN_ACCOUNT_FAILURE_LIMIT):
        login("dealer", "guess", client_address=f"198.51.100.{number + 1}")
    failures = AccessFailureLog.objects.count()

    held = login("dealer", password, client_address="203.0.113.50")
    own_tablet = login("dealer", password, client_address="192.0.2.10")

    interval = int(settings.LOGIN_ACCOUNT_INTERVAL.total_seconds())
    assert held.status_code == 429
    assert 0 < int(held["Retry-After"]) <= interval
    assert AccessFailureLog.objects.count() == failures  # held back: no failure counted
    assert own_tablet.status_code == 201
    # The interval passes: the next attempt from a new address is checked, and lets in.
    AccessFailureLog.objects.update(
        attempt_time=timezone.now() - settings.LOGIN_ACCOUNT_INTERVAL - timedelta(seconds=1)
    )
    assert login("dealer", password, client_address="203.0.113.50").status_code == 201


def test_the_wait_doubles_with_each_failure_beyond_the_limit_up_to_the_longest(
    behind_one_proxy, dealer, rf
):
    waits = []
    for _ in range(settings.AXES_FAILURE_LIMIT + 6):
        response = login("dealer", "guess", client_address="198.51.100.9")
        if response.status_code == 429:
            waits.append(int(response["Retry-After"]))

    first = int(settings.LOGIN_BACKOFF_FIRST.total_seconds())
    most = int(settings.LOGIN_BACKOFF_MOST.total_seconds())
    assert waits[:4] == [first, 2 * first, 4 * first, 8 * first]
    assert waits[-1] == most
    assert login_cool_off(None) == settings.LOGIN_BACKOFF_FIRST


def test_after_a_quiet_cool_off_the_account_may_log_in_again(behind_one_proxy, dealer, password):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login("dealer", "guess", client_address="198.51.100.9")
    assert login("dealer", password, client_address="198.51.100.9").status_code == 429
    # The first wait passes with no further failure.
    AccessAttempt.objects.update(
        attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=2)
    )

    assert login("dealer", password, client_address="198.51.100.9").status_code == 201


# --- tokens -----------------------------------------------------------------------------------


def test_a_login_beyond_the_token_limit_revokes_the_oldest_token(dealer, password):
    limit = settings.REST_KNOX["TOKEN_LIMIT_PER_USER"]
    tokens = [login("dealer", password).json()["token"] for _ in range(limit + 3)]

    assert AuthToken.objects.filter(user=dealer).count() == limit
    oldest, newest = tokens[0], tokens[-1]
    assert _me(oldest).status_code == 401
    assert _me(newest).status_code == 200


def _me(token: str):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client.get(f"{V}/auth/me/")


def _session_for(user, password) -> Client:
    client = Client()
    response = client.post("/accounts/login/", {"username": user.username, "password": password})
    assert response.status_code == 302
    return client


def _sessions_of(user) -> list[Session]:
    return [
        s for s in Session.objects.all() if s.get_decoded().get("_auth_user_id") == str(user.pk)
    ]


def test_a_password_change_revokes_every_token_and_session(dealer, password):
    token = login("dealer", password).json()["token"]
    session = _session_for(dealer, password)
    assert session.get(f"{V}/auth/me/").status_code == 200
    assert _sessions_of(dealer)

    dealer.set_password("a-new-password-for-the-dealer")
    dealer.save()

    assert _me(token).status_code == 401
    assert not AuthToken.objects.filter(user=dealer).exists()
    assert session.get(f"{V}/auth/me/").status_code in (401, 403)
    assert not _sessions_of(dealer)


def test_a_deactivation_revokes_every_token_and_session(dealer, password, make_user):
    other = make_user("dealer3", role=DEALER)
    kept = login("dealer3", password).json()["token"]
    token = login("dealer", password).json()["token"]
    _session_for(dealer, password)
    assert _sessions_of(dealer)

    dealer.is_active = False
    dealer.save(update_fields=["is_active"])

    assert not AuthToken.objects.filter(user=dealer).exists()
    assert not _sessions_of(dealer)
    assert _me(token).status_code == 401
    assert _me(kept).status_code == 200  # another user's token stays
    assert other.auth_token_set.count() == 1


def test_saving_a_user_without_changing_the_password_keeps_the_tokens(dealer, password):
    token = login("dealer", password).json()["token"]

    dealer.first_name = "Renamed"
    dealer.save()

    assert _me(token).status_code == 200


def test_a_token_login_retried_with_its_idempotency_key_answers_the_same_token_once(
    dealer, password
):
    first = login("dealer", password, **{"Idempotency-Key": "tablet-7-login-1"})
    again = login("dealer", password, **{"Idempotency-Key": "tablet-7-login-1"})

    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert AuthToken.objects.filter(user=dealer).count() == 1
    assert AuditEvent.objects.filter(action="auth.login").count() == 1
    # The stored answer does not hold the token in the clear.
    stored = IdempotencyKey.objects.get(key="tablet-7-login-1")
    assert first.json()["token"] not in str(stored.body)


def test_a_retry_with_a_wrong_password_gets_no_token(dealer, password):
    login("dealer", password, **{"Idempotency-Key": "k1"})

    response = login("dealer", "not-the-password", **{"Idempotency-Key": "k1"})

    assert response.status_code == 401
    assert "token" not in response.json()


def test_a_new_idempotency_key_is_a_new_login(dealer, password):
    first = login("dealer", password, **{"Idempotency-Key": "k1"}).json()["token"]
    second = login("dealer", password, **{"Idempotency-Key": "k2"}).json()["token"]

    assert first != second
    assert AuthToken.objects.filter(user=dealer).count() == 2


on_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="concurrent logins need PostgreSQL (DATABASE_URL=postgres://…)",
)


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_concurrent_logins_leave_no_more_live_tokens_than_the_limit(dealer, password):
    """The race of concurrent logins (16 live tokens against a limit of 10): the limit is kept under
    a lock on the user's row, whatever the logins' interleaving."""
    limit = settings.REST_KNOX["TOKEN_LIMIT_PER_USER"]
    barrier = threading.Barrier(20)
    statuses: list[int] = []

    def log_in() -> None:
        try:
            barrier.wait(timeout=30)
            statuses.append(login("dealer", password).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=log_in) for _ in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert statuses == [201] * 20
    assert AuthToken.objects.filter(user=dealer).count() == limit
