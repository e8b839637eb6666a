"""Staff management by a floor supervisor (issue 15): create an account in one role (never
an administrator), change its role, deactivate it (its sessions and tokens end); audited."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from knox.models import AuthToken

from audit.models import AuditEvent
from cardroom.kernel.errors import DomainError, PermissionDenied
from cardroom.kernel.roles import ADMINISTRATOR, COUNT_TEAM, DEALER, FLOOR_SUPERVISOR, role_of
from tables import staff

from .support import field_errors, last_seq, parse

pytestmark = pytest.mark.django_db

PASSWORD = "a long first password 7"


@pytest.fixture
def floor(client, supervisor):
    client.force_login(supervisor)
    return client


def test_a_supervisor_creates_a_dealer_account_from_the_screen(floor, supervisor):
    before = last_seq()
    response = floor.post(
        reverse("floor-staff"),
        {
            "first_name": "Ola",
            "last_name": "Berg",
            "username": "ola",
            "role": DEALER,
            "password": PASSWORD,
        },
    )
    assert response.status_code == 302
    ola = User.objects.get(username="ola")
    assert role_of(ola) == DEALER and ola.check_password(PASSWORD)
    [event] = AuditEvent.objects.filter(seq__gt=before)
    assert event.action == "staff.created" and event.actor_id == supervisor.pk
    assert json.loads(event.payload) == {"username": "ola", "name": "Ola Berg", "role": DEALER}
    page = parse(floor.get(reverse("floor-staff")).content)
    row = page.by_id(f"staff-{ola.pk}")
    assert row.find("td", class_="role").text == DEALER


def test_an_administrator_is_not_made_here(floor):
    response = floor.post(
        reverse("floor-staff"),
        {"first_name": "A", "username": "boss", "role": ADMINISTRATOR, "password": PASSWORD},
    )
    assert response.status_code == 422
    form = parse(response.content).find("form", id="staff-create")
    assert field_errors(form, "role")
    assert not User.objects.filter(username="boss").exists()
    with pytest.raises(DomainError) as refused:
        staff.staff_create(
            username="boss",
            first_name="A",
            last_name="",
            role=ADMINISTRATOR,
            password=PASSWORD,
            by=User.objects.get(username="supervisor"),
        )
    assert refused.value.field == "role"


def test_a_taken_username_and_a_weak_password_are_refused_next_to_their_fields(floor, dealer):
    response = floor.post(
        reverse("floor-staff"),
        {"first_name": "D", "username": "DEALER", "role": DEALER, "password": PASSWORD},
    )
    form = parse(response.content).find("form", id="staff-create")
    assert field_errors(form, "username") == ["The username 'DEALER' is taken."]
    response = floor.post(
        reverse("floor-staff"),
        {"first_name": "D", "username": "newone", "role": DEALER, "password": "123"},
    )
    form = parse(response.content).find("form", id="staff-create")
    assert field_errors(form, "password")


def test_a_role_is_changed_to_one_other_role(floor, dealer):
    before = last_seq()
    response = floor.post(
        reverse("floor-staff-action", args=[dealer.pk, "role"]), {"role": COUNT_TEAM}
    )
    assert response.status_code == 302
    dealer = User.objects.get(pk=dealer.pk)
    assert role_of(dealer) == COUNT_TEAM
    assert list(dealer.groups.values_list("name", flat=True)) == [COUNT_TEAM]
    [event] = AuditEvent.objects.filter(seq__gt=before)
    assert event.action == "staff.role_set"
    assert json.loads(event.payload)["was"] == DEALER


def test_deactivating_ends_the_accounts_sessions_and_tokens(floor, dealer):
    tablet = Client()
    tablet.force_login(dealer)
    assert tablet.get(reverse("dealer-home")).status_code in (200, 302)
    AuthToken.objects.create(user=dealer)
    before = last_seq()

    response = floor.post(
        reverse("floor-staff-action", args=[dealer.pk, "deactivate"]), {"reason": "Left us"}
    )

    assert response.status_code == 302
    assert not User.objects.get(pk=dealer.pk).is_active
    assert not AuthToken.objects.filter(user=dealer).exists()
    ended = tablet.get(reverse("dealer-home"))
    assert ended.status_code == 302 and ended["Location"].startswith(reverse("login"))
    [event] = AuditEvent.objects.filter(seq__gt=before)
    assert event.action == "staff.deactivated"
    assert json.loads(event.payload) == {"username": "dealer", "reason": "Left us"}
    row = parse(floor.get(reverse("floor-staff")).content).by_id(f"staff-{dealer.pk}")
    assert row.find("td", class_="status").text == "deactivated"


def test_a_supervisor_does_not_deactivate_themself(floor, supervisor):
    response = floor.post(
        reverse("floor-staff-action", args=[supervisor.pk, "deactivate"]), {"reason": "x"}
    )
    assert response.status_code == 422
    assert User.objects.get(pk=supervisor.pk).is_active


def test_only_a_floor_supervisor_manages_staff(dealer, auditor):
    for who in (dealer, auditor):
        with pytest.raises(PermissionDenied):
            staff.staff_create(
                username="x", first_name="X", last_name="", role=DEALER, password=PASSWORD, by=who
            )
    with pytest.raises(PermissionDenied):
        staff.staff_deactivate(user=auditor, reason="r", by=dealer)


def test_an_administrator_account_is_not_managed_here(floor, administrator):
    response = floor.post(
        reverse("floor-staff-action", args=[administrator.pk, "deactivate"]), {"reason": "x"}
    )
    assert response.status_code == 404
    assert User.objects.get(pk=administrator.pk).is_active
    supervisor = User.objects.get(username="supervisor")
    with pytest.raises(DomainError):
        staff.staff_deactivate(user=administrator, reason="r", by=supervisor)


def test_a_second_supervisor_is_made_from_the_screen(floor):
    floor.post(
        reverse("floor-staff"),
        {"first_name": "Gus", "username": "gus", "role": FLOOR_SUPERVISOR, "password": PASSWORD},
    )
    assert role_of(User.objects.get(username="gus")) == FLOOR_SUPERVISOR
