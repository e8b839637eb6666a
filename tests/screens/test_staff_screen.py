"""The staff screen: a floor supervisor makes dealer accounts and proposes the accounts that
approve or sign, which a second, independent person approves by signing; an administrator
makes any account alone; nobody chooses another person's password (a one-time link does);
a password someone else chose is changed at the next sign-in. Everything is audited."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from knox.models import AuthToken

from audit.models import AuditEvent
from core.errors import DomainError, PermissionDenied
from core.roles import (
    COMPLIANCE_AUDITOR,
    COUNT_TEAM,
    DEALER,
    FLOOR_SUPERVISOR,
    role_of,
)
from tables import setup_links, staff
from tables.models import Signature, StaffLineage, StaffProfile, TwoPersonChange
from tests.conftest import PASSWORD

from .support import field_errors, last_seq, parse

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a long own password 8"


def _create(client, **fields):
    return client.post(reverse("floor-staff"), fields)


def _link_path(response) -> str:
    link = parse(response.content).by_id("setup-link").find("input").attrs["value"]
    return link.removeprefix("http://testserver")


def _actions(seq: int) -> list[str]:
    return list(AuditEvent.objects.filter(seq__gt=seq).values_list("action", flat=True))


def test_a_supervisor_makes_a_dealer_account_with_a_one_time_link_and_no_password(
    floor, supervisor
):
    before = last_seq()
    response = _create(floor, first_name="Ola", last_name="Berg", username="ola", role=DEALER)

    assert response.status_code == 200
    ola = User.objects.get(username="ola")
    assert role_of(ola) == DEALER and not ola.has_usable_password()
    assert StaffProfile.objects.get(user=ola).set_up_at is None
    assert list(StaffLineage.objects.filter(account=ola).values_list("maker", "how")) == [
        (supervisor.pk, "made")
    ]
    assert _actions(before) == ["staff.created", "staff.setup_link_issued"]
    event = AuditEvent.objects.get(seq__gt=before, action="staff.created")
    assert json.loads(event.payload) == {"username": "ola", "name": "Ola Berg", "role": DEALER}
    assert _link_path(response).startswith("/accounts/setup/")
    row = parse(floor.get(reverse("floor-staff")).content).by_id(f"staff-{ola.pk}")
    assert row.find("td", class_="status").text == "waiting for its person to set it up"
    assert "Fran Ortiz (made)" in row.find("td", class_="makers").text


def test_the_person_sets_their_own_password_and_pin_once_through_the_link(floor, client):
    path = _link_path(_create(floor, first_name="Ola", username="ola", role=DEALER))
    person = Client()
    assert person.get(path).status_code == 200
    before = last_seq()

    weak = person.post(path, {"new_password1": "123", "new_password2": "123", "pin": ""})
    assert weak.status_code == 422
    answer = person.post(
        path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD, "pin": "4816"}
    )

    assert answer.status_code == 302 and answer["Location"] == reverse("login")
    ola = User.objects.get(username="ola")
    assert ola.check_password(NEW_PASSWORD)
    profile = StaffProfile.objects.get(user=ola)
    assert profile.set_up_at is not None and profile.pin and not profile.password_change_due
    assert _actions(before) == ["staff.set_up", "staff.pin_set"]
    assert person.login(username="ola", password=NEW_PASSWORD)
    used = Client().get(path)
    assert used.status_code == 410  # the link worked once
    assert "has been used" in parse(used.content).by_id("setup-refused").text


def test_a_set_up_link_stops_working_after_a_day(floor, monkeypatch):
    path = _link_path(_create(floor, first_name="Ola", username="ola", role=DEALER))
    later = timezone.now() + timedelta(hours=25)
    monkeypatch.setattr(setup_links.setup_tokens, "_now", lambda: later.replace(tzinfo=None))
    answer = Client().post(
        path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD, "pin": ""}
    )
    assert answer.status_code == 410
    assert not User.objects.get(username="ola").has_usable_password()


def test_a_new_link_replaces_the_first(floor):
    first = _link_path(_create(floor, first_name="Ola", username="ola", role=DEALER))
    ola = User.objects.get(username="ola")
    second = _link_path(floor.post(reverse("floor-staff-action", args=[ola.pk, "link"])))
    assert first != second
    assert Client().get(first).status_code == 410
    assert Client().get(second).status_code == 200


def test_a_supervisor_only_proposes_a_supervisor_and_nothing_is_made_until_approved(
    floor, supervisor
):
    before = last_seq()
    response = _create(
        floor,
        first_name="Flo",
        last_name="Three",
        username="floor3",
        role=FLOOR_SUPERVISOR,
        reason="Nights",
    )

    assert response.status_code == 200
    assert "waiting for a second person" in parse(response.content).by_id("proposed").text
    assert not User.objects.filter(username="floor3").exists()
    change = TwoPersonChange.objects.get()
    assert change.values["role"] == FLOOR_SUPERVISOR and change.proposed_by == supervisor
    assert _actions(before) == ["two_person.change_proposed"]
    row = parse(floor.get(reverse("floor-staff")).content).by_id(f"staff-change-{change.pk}")
    assert [button.text for button in row.find_all("button")] == ["Withdraw"]  # no approve


def test_a_proposal_needs_a_reason_and_names_the_field(floor):
    response = _create(floor, first_name="Flo", username="floor3", role=FLOOR_SUPERVISOR)
    assert response.status_code == 422
    form = parse(response.content).find("form", id="staff-create")
    assert field_errors(form, "reason") == ["Say why."]
    assert not TwoPersonChange.objects.exists()


def test_a_second_supervisor_approves_by_signing_and_gets_the_link(
    floor, client, second_supervisor
):
    _create(floor, first_name="Flo", username="floor3", role=FLOOR_SUPERVISOR, reason="Nights")
    change = TwoPersonChange.objects.get()
    approver = Client()
    approver.force_login(second_supervisor)
    url = reverse("floor-staff-change", args=[change.pk, "approve"])
    before = last_seq()

    wrong = approver.post(url, {"secret": "not my password"})
    assert wrong.status_code == 422
    assert not User.objects.filter(username="floor3").exists()
    assert _actions(before) == ["signature.failed", "permission.refused"]
    right = approver.post(url, {"secret": PASSWORD})

    assert right.status_code == 200
    floor3 = User.objects.get(username="floor3")
    assert role_of(floor3) == FLOOR_SUPERVISOR and not floor3.has_usable_password()
    assert set(StaffLineage.objects.filter(account=floor3).values_list("how", flat=True)) == {
        "made",
        "approved",
    }
    [signature] = Signature.objects.filter(record_type="tables.twopersonchange")
    assert (signature.signer, signature.capacity, signature.method) == (
        second_supervisor,
        "approver",
        "password",
    )
    assert signature.session.startswith("session:")
    assert _link_path(right).startswith("/accounts/setup/")


def test_a_supervisor_gives_a_signing_role_only_through_a_proposal(floor, dealer):
    response = floor.post(
        reverse("floor-staff-action", args=[dealer.pk, "role"]),
        {"role": COUNT_TEAM, "reason": "Moves to the count room"},
    )
    assert response.status_code == 200
    assert role_of(User.objects.get(pk=dealer.pk)) == DEALER
    change = TwoPersonChange.objects.get()
    assert change.subject == dealer and change.values == {
        "username": "dealer",
        "role": COUNT_TEAM,
        "was": DEALER,
    }


def test_an_administrator_makes_a_compliance_account_alone(client, administrator):
    client.force_login(administrator)
    response = _create(client, first_name="Cora", username="cora", role=COMPLIANCE_AUDITOR)
    assert response.status_code == 200
    assert role_of(User.objects.get(username="cora")) == COMPLIANCE_AUDITOR
    assert not TwoPersonChange.objects.exists()


def test_a_supervisor_cannot_make_a_compliance_or_administrator_account(supervisor):
    for role in (COMPLIANCE_AUDITOR, "Administrator"):
        with pytest.raises(DomainError) as refused:
            staff.staff_account_propose(
                username="boss", first_name="A", last_name="", role=role, reason="r",
                by=supervisor,
            )  # fmt: skip
        assert refused.value.field == "role"
        with pytest.raises(DomainError):
            staff.staff_create(
                username="boss", first_name="A", last_name="", role=role, by=supervisor
            )
    assert not User.objects.filter(username="boss").exists()


def test_a_taken_username_is_refused_next_to_its_field(floor, dealer):
    response = _create(floor, first_name="D", username="DEALER", role=DEALER)
    form = parse(response.content).find("form", id="staff-create")
    assert field_errors(form, "username") == ["The username 'DEALER' is taken."]


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


def test_a_supervisor_does_not_deactivate_themself_nor_an_administrator(
    floor, supervisor, administrator
):
    for who in (supervisor, administrator):
        response = floor.post(
            reverse("floor-staff-action", args=[who.pk, "deactivate"]), {"reason": "x"}
        )
        assert response.status_code == 422
        assert User.objects.get(pk=who.pk).is_active


def test_only_a_floor_supervisor_or_an_administrator_manages_staff(client, dealer, auditor):
    for who in (dealer, auditor):
        with pytest.raises(PermissionDenied):
            staff.staff_create(username="x", first_name="X", last_name="", role=DEALER, by=who)
        client.force_login(who)
        assert client.get(reverse("floor-staff")).status_code == 403
    with pytest.raises(PermissionDenied):
        staff.staff_deactivate(user=auditor, reason="r", by=dealer)


def test_a_password_someone_else_chose_is_changed_at_the_next_sign_in(client, dealer):
    StaffProfile.objects.create(user=dealer, set_up_at=timezone.now(), password_change_due=True)
    assert client.login(username="dealer", password=PASSWORD)

    sent = client.get(reverse("dealer-home"))
    assert sent.status_code == 302 and sent["Location"] == reverse("password_change")
    api = client.get("/api/v1/auth/me/")
    assert api.status_code == 403 and api.json()["error"]["code"] == "password_change_required"
    token = Client().post(
        "/api/v1/auth/token/",
        {"username": "dealer", "password": PASSWORD},
        content_type="application/json",
    )
    assert token.status_code == 403 and token.json()["error"]["code"] == "password_change_required"
    changed = client.post(
        reverse("password_change"),
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert changed.status_code == 302
    assert not StaffProfile.objects.get(user=dealer).password_change_due
    assert client.get(reverse("dealer-home")).status_code == 200


def test_a_person_sets_their_signing_pin_on_their_account_page(client, dealer):
    client.force_login(dealer)
    page = reverse("account-home")
    wrong = client.post(page, {"password": "nope", "pin": "4816"})
    assert field_errors(parse(wrong.content).by_id("pin"), "password") == [
        "Your password is wrong."
    ]
    weak = client.post(page, {"password": PASSWORD, "pin": "1234"})
    assert field_errors(parse(weak.content).by_id("pin"), "pin")
    assert client.post(page, {"password": PASSWORD, "pin": "4816"}).status_code == 302
    assert StaffProfile.objects.get(user=dealer).pin.startswith("md5$")  # hashed, as passwords
