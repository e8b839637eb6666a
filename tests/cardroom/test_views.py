import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse

from core.roles import COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR, role_of

pytestmark = pytest.mark.django_db


def test_home_sends_an_anonymous_visitor_to_the_login_page(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next=/"


def test_the_login_page_renders_a_form(client):
    response = client.get(reverse("login"))
    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password"' in response.content


def test_logging_in_leads_to_the_home_page(client, dealer, password):
    response = client.post(reverse("login"), {"username": "dealer", "password": password})
    assert response.status_code == 302
    assert response["Location"] == reverse("home")


@pytest.mark.parametrize(
    ("persona", "start"),
    [
        ("supervisor", "floor-tables"),
        ("dealer", "dealer-home"),
        ("auditor", "compliance-audit"),
    ],
)
def test_home_sends_each_role_to_its_own_screens(client, request, persona, start):
    client.force_login(request.getfixturevalue(persona))
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == reverse(start)


@pytest.mark.parametrize(
    ("persona", "name", "role"),
    [
        ("supervisor", "Fran Ortiz", FLOOR_SUPERVISOR),
        ("dealer", "Dee Lee", DEALER),
        ("auditor", "Ari Kim", COMPLIANCE_AUDITOR),
    ],
)
def test_every_screen_shows_the_users_name_and_role(client, request, persona, name, role):
    client.force_login(request.getfixturevalue(persona))
    response = client.get(reverse("home"), follow=True)
    assert response.status_code == 200
    assert response.context["role"] == role
    assert f"{name} · {role}" in response.text


def test_home_says_when_a_user_has_no_role(client, make_user):
    client.force_login(make_user("newcomer"))
    response = client.get(reverse("home"))
    assert response.context["role"] is None
    assert "none assigned" in response.text


def test_role_of_prefers_the_first_role_in_precedence_order(make_user):
    user = make_user("both", role=COMPLIANCE_AUDITOR)
    user.groups.create(name=DEALER)
    assert role_of(user) == DEALER


def test_an_anonymous_user_has_no_role():
    assert role_of(AnonymousUser()) is None


def test_health_refuses_writes(client):
    assert client.post(reverse("health")).status_code == 405
