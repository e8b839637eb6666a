"""Staff accounts through the API: a dealer made by a supervisor gets a one-time set-up link;
a supervisor's account is proposed and made when a second, independent person approves and
signs; the new account's person sets its password with the link, then logs in."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest
from django.contrib.auth.models import User

from core.roles import FLOOR_SUPERVISOR, role_of
from tables.models import Signature, StaffProfile
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

V = "/api/v1"
OWN = "an own password of nine words"


def _uid_token(link: str) -> dict[str, str]:
    _, _, uid, token, _ = urlparse(link).path.rsplit("/", 4)
    return {"uid": uid, "token": token}


def test_a_dealer_account_is_made_with_a_link_its_person_uses_once(api, world):
    made = api(world.supervisor).post(
        f"{V}/staff/",
        {"username": "ola", "first_name": "Ola", "last_name": "Berg", "role": "Dealer"},
        format="json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["account"]["name"] == "Ola Berg" and "/accounts/setup/" in body["setup_link"]
    assert not User.objects.get(username="ola").has_usable_password()

    setup = {**_uid_token(body["setup_link"]), "password": OWN, "pin": "4816"}
    anonymous = api(None)
    assert anonymous.post(f"{V}/auth/setup/", setup, format="json").status_code == 200
    again = anonymous.post(f"{V}/auth/setup/", setup, format="json")
    assert again.status_code == 422 and again.json()["error"]["field"] == "token"
    login = anonymous.post(f"{V}/auth/token/", {"username": "ola", "password": OWN}, format="json")
    assert login.status_code == 201


def test_a_supervisor_account_needs_a_proposal_and_a_second_persons_signature(api, world):
    refused = api(world.supervisor).post(
        f"{V}/staff/",
        {"username": "floor3", "first_name": "Flo", "role": FLOOR_SUPERVISOR},
        format="json",
    )
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "role"
    proposal = api(world.supervisor).post(
        f"{V}/staff-changes/",
        {"username": "floor3", "first_name": "Flo", "role": FLOOR_SUPERVISOR, "reason": "Nights"},
        format="json",
    )
    assert proposal.status_code == 201
    change = proposal.json()
    assert change["proposed_by"]["name"] == "Fran Ortiz" and change["decision"] is None
    url = f"{V}/staff-changes/{change['id']}/approve/"

    own = api(world.supervisor).post(url, {"signature": {"secret": PASSWORD}}, format="json")
    assert own.status_code == 403
    approver = api(world.second_supervisor)
    unsigned = approver.post(url, {}, format="json")
    assert unsigned.status_code == 422 and unsigned.json()["error"]["field"] == "signature"
    wrong = approver.post(url, {"signature": {"secret": "guess"}}, format="json")
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "signature_refused"
    assert not User.objects.filter(username="floor3").exists()

    approved = approver.post(url, {"signature": {"secret": PASSWORD}}, format="json")
    assert approved.status_code == 200, approved.content
    body = approved.json()
    assert body["decision"]["outcome"] == "approved"
    assert body["decision"]["by"]["name"] == world.second_supervisor.get_full_name()
    floor3 = User.objects.get(username="floor3")
    assert role_of(floor3) == FLOOR_SUPERVISOR
    assert StaffProfile.objects.get(user=floor3).set_up_at is None
    assert Signature.objects.get(record_type="tables.twopersonchange").session.startswith("token:")
    assert "/accounts/setup/" in body["setup_link"]


def test_the_staff_list_names_people_and_their_makers(api, world):
    api(world.supervisor).post(
        f"{V}/staff/", {"username": "ola", "first_name": "Ola", "role": "Dealer"}, format="json"
    )
    rows = {row["username"]: row for row in api(world.supervisor).get(f"{V}/staff/").json()}
    assert rows["ola"]["name"] == "Ola" and rows["ola"]["set_up"] is False
    assert rows["ola"]["makers"] == [
        {"id": world.supervisor.pk, "username": "supervisor", "name": "Fran Ortiz", "how": "made"}
    ]


def test_a_person_sets_their_own_pin_with_their_password(api, world):
    client = api(world.dealer)
    weak = client.post(f"{V}/auth/pin/", {"password": PASSWORD, "pin": "0000"}, format="json")
    assert weak.status_code == 422 and weak.json()["error"]["field"] == "pin"
    assert (
        client.post(
            f"{V}/auth/pin/", {"password": PASSWORD, "pin": "4816"}, format="json"
        ).status_code
        == 204
    )
    assert StaffProfile.objects.get(user=world.dealer).pin
