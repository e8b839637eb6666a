"""Logins, logouts, failed logins and refused permissions go into the audit log."""

from __future__ import annotations

import json

import pytest
from django.db import transaction
from django.urls import reverse

from audit.models import AuditEvent
from audit.services import audit_refusal
from core.errors import PermissionDenied
from tables.models import Table
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create
from tests.conftest import an_administrator

from .support import verify_audit


def events(action: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=action).order_by("seq"))


def test_a_login_through_the_login_form_appends_an_event(client, dealer, password):
    response = client.post(
        reverse("login"), {"username": "dealer", "password": password}, REMOTE_ADDR="10.0.0.7"
    )
    assert response.status_code == 302
    [event] = events("auth.login")
    assert (event.actor_id, event.actor_name) == (dealer.pk, "dealer")
    assert json.loads(event.payload) == {"ip": "10.0.0.7"}


def test_a_logout_appends_an_event(client, dealer):
    client.force_login(dealer)
    response = client.post(reverse("logout"))
    assert response.status_code == 302
    [event] = events("auth.logout")
    assert (event.actor_id, event.actor_name) == (dealer.pk, "dealer")


def test_a_failed_login_records_the_username_tried_and_never_the_password(client, dealer):
    secret = "hunter2-wrong-password"
    response = client.post(
        reverse("login"), {"username": "dealer", "password": secret}, REMOTE_ADDR="10.0.0.8"
    )
    assert response.status_code == 200  # the form again, with its error
    [event] = events("auth.login_failed")
    assert event.actor_id is None and event.actor_name == ""
    assert json.loads(event.payload) == {"username": "dealer", "ip": "10.0.0.8"}
    assert secret not in event.payload and "password" not in event.payload
    assert not events("auth.login")


def log_in(client, username: str, password: str) -> bool:
    """Through the login form, as a person would (``client.login`` gives django-axes no
    request, which it refuses)."""
    response = client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR="10.0.0.9"
    )
    return response.status_code == 302


def test_a_failed_login_of_an_unknown_user_is_recorded_too(client, db):
    assert log_in(client, "nobody", "guess-1234") is False
    [event] = events("auth.login_failed")
    assert json.loads(event.payload) == {"username": "nobody", "ip": "10.0.0.9"}
    assert "guess-1234" not in event.payload


def test_login_logout_and_failed_login_each_append_one_event_to_a_valid_chain(
    client, dealer, password
):
    assert log_in(client, "dealer", "wrong") is False
    assert log_in(client, "dealer", password) is True
    client.post(reverse("logout"))
    actions = list(AuditEvent.objects.order_by("seq").values_list("action", flat=True))
    assert actions == ["auth.login_failed", "auth.login", "auth.logout"]
    assert verify_audit()[0] == 0


@pytest.mark.django_db(transaction=True)
def test_a_refused_permission_is_recorded_although_the_refused_change_rolled_back(
    supervisor, dealer
):
    cardroom = cardroom_create(name="Cardroom", by=an_administrator())
    before = AuditEvent.objects.count()
    try:
        table_create(cardroom=cardroom, name="Dealer's table", banking="house", by=dealer)
    except PermissionDenied as refusal:
        event = audit_refusal(actor=dealer, attempted="create a table", message=refusal.message)
    else:
        pytest.fail("a dealer may not create a table")
    assert not transaction.get_connection().in_atomic_block  # the refusal was committed
    assert not Table.objects.exists()
    assert AuditEvent.objects.count() == before + 1
    stored = AuditEvent.objects.get(pk=event.pk)
    assert (stored.action, stored.actor_id, stored.actor_name) == (
        "permission.refused",
        dealer.pk,
        "dealer",
    )
    assert json.loads(stored.payload) == {
        "attempted": "create a table",
        "message": "Only a floor supervisor may create a table.",
        "count": 1,
    }
    assert verify_audit()[0] == 0


@pytest.mark.django_db(transaction=True)
def test_a_refusal_recorded_after_a_rolled_back_change_in_the_same_request_is_kept(
    supervisor, dealer
):
    """The change and its own events roll back; the refusal, recorded after, stays."""
    cardroom = cardroom_create(name="Cardroom", by=an_administrator())
    with pytest.raises(PermissionDenied), transaction.atomic():
        player_create(cardroom=cardroom, name="Ann", by=dealer)  # allowed ...
        table_create(cardroom=cardroom, name="T", banking="house", by=dealer)
    audit_refusal(actor=dealer, attempted="create a table", message="refused", target=cardroom)
    actions = list(AuditEvent.objects.order_by("seq").values_list("action", flat=True))
    assert actions == ["cardroom.created", "paytables.catalogue_seeded", "permission.refused"]
    refusal = AuditEvent.objects.get(action="permission.refused")
    assert (refusal.object_type, refusal.object_id) == ("tables.cardroom", str(cardroom.pk))
    assert verify_audit()[0] == 0
