"""Deny by default, screen by screen: an anonymous visitor is sent to the login page, a user
whose role does not fit gets the 403 page and the refusal lands in the audit log, the right
role gets the screen. Navigation shows each role its own screens."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.models import AuditEvent
from cage import services as cage_services
from compliance import services as compliance_services
from core.roles import COMPLIANCE_AUDITOR, COUNT_TEAM, DEALER, FLOOR_SUPERVISOR
from patrons import cash, incidents, reviews
from patrons.identity import identity_record
from patrons.models import CurrencyTransactionReport, PersonMatch
from tables.services.seating import player_create
from tests.api.conftest import IDENTITY
from tests.conftest import a_cashier
from tests.racks import rack_closing_count

from .support import last_seq, parse

pytestmark = pytest.mark.django_db

SUPERVISOR, DEALER_ONLY, AUDITOR, COUNTER = "supervisor", "dealer", "auditor", "counter"
STAFF = {SUPERVISOR, DEALER_ONLY}
FLOOR = {SUPERVISOR}
COMPLIANCE = {SUPERVISOR, AUDITOR}
ONLY_COMPLIANCE = {AUDITOR}  # cash reporting, identities unmasked, reviews
COUNT = {COUNTER}  # the count team: its count screen, nothing else


# name, URL arguments (names of the objects below), method, POST data, roles allowed, and the
# status the allowed roles get (a POST that changes nothing here: an empty or refused form).
SCREENS = [
    ("dealer-home", {}, "get", None, STAFF, 200),
    ("dealer-table", {"pk": "table"}, "get", None, STAFF, 200),
    ("dealer-step", {"pk": "table", "step": "deal"}, "post", {}, STAFF, 422),
    ("floor-tables", {}, "get", None, FLOOR, 200),
    ("floor-waitlist", {}, "get", None, FLOOR, 200),
    ("floor-waitlist-action", {"action": "join"}, "post", {}, FLOOR, 422),
    ("floor-table-create", {}, "post", {}, FLOOR, 422),
    ("floor-dashboard", {}, "get", None, FLOOR, 200),
    # 204 from the test client: it is no threaded server (tests/screens/test_floor_stream.py).
    ("floor-stream", {}, "get", None, FLOOR, 204),
    ("floor-staff", {}, "get", None, FLOOR, 200),
    ("floor-staff", {}, "post", {}, FLOOR, 422),
    ("floor-staff-action", {"pk": "dealer_user", "action": "role"}, "post", {}, FLOOR, 422),
    ("floor-table", {"pk": "table"}, "get", None, FLOOR, 200),
    ("floor-table-action", {"pk": "table", "action": "propose"}, "post", {}, FLOOR, 422),
    ("floor-hand", {"pk": "hand"}, "get", None, FLOOR, 200),
    ("compliance-home", {}, "get", None, COMPLIANCE, 302),
    ("compliance-audit", {}, "get", None, COMPLIANCE, 200),
    ("compliance-verify", {}, "post", {}, COMPLIANCE, 302),
    ("compliance-verify-books", {}, "post", {}, COMPLIANCE, 302),
    ("compliance-verification", {"pk": "verification"}, "get", None, COMPLIANCE, 200),
    ("compliance-reports", {}, "get", None, COMPLIANCE, 200),
    ("compliance-player", {"pk": "player"}, "get", None, COMPLIANCE, 200),
    ("compliance-player-ratings", {"pk": "player"}, "get", None, COMPLIANCE, 200),
    ("compliance-session-value", {"pk": "seating"}, "post", {}, COMPLIANCE, 302),
    ("compliance-exports", {}, "get", None, COMPLIANCE, 200),
    ("compliance-export", {"pk": "export"}, "get", None, COMPLIANCE, 200),
    ("compliance-export-download", {"pk": "export"}, "get", None, COMPLIANCE, 200),
    # the cage
    ("cage-overview", {}, "get", None, COMPLIANCE, 200),
    ("cage-overview-action", {"action": "sign-off"}, "post", {}, COMPLIANCE, 422),
    ("cage-csv", {}, "get", None, COMPLIANCE, 200),
    ("cage-month", {}, "get", None, COMPLIANCE, 200),
    ("cage-table", {"pk": "house_table"}, "get", None, FLOOR, 200),
    ("cage-table-action", {"pk": "house_table", "action": "slip"}, "post", {}, FLOOR, 422),
    ("cage-slip-print", {"pk": "fill_slip"}, "post", {}, COMPLIANCE, 200),
    # the cage's fills and credits: the cashier's (not an actor here) and the floor's
    ("cage-slips", {}, "get", None, FLOOR, 200),
    ("cage-slip-action", {"action": "prepare"}, "post", {}, FLOOR, 422),
    ("count-home", {}, "get", None, COUNT, 200),
    ("count-record", {}, "post", {}, COUNT, 422),
    # the count sheet (the count team signs it), the cage's controls, the discrepancy report
    ("cage-count-sheet", {}, "get", None, COMPLIANCE | COUNT, 200),
    ("cage-controls", {}, "get", None, FLOOR, 200),
    ("cage-controls", {}, "post", {}, FLOOR, 422),
    ("compliance-discrepancies", {}, "get", None, COMPLIANCE, 200),
    # the catalogue of approved paytables
    ("floor-paytables", {}, "get", None, FLOOR, 200),
    ("floor-paytable-action", {"action": "propose"}, "post", {}, FLOOR, 422),
    # the cardroom's settings: the age line (an administrator's too)
    ("floor-cardroom", {}, "get", None, FLOOR, 200),
    ("floor-cardroom", {}, "post", {}, FLOOR, 422),
    # players under the law: compliance's, and the floor's incident log
    ("law-home", {}, "get", None, ONLY_COMPLIANCE, 200),
    ("law-mtl-csv", {}, "get", None, ONLY_COMPLIANCE, 200),
    ("law-ctr-csv", {}, "get", None, ONLY_COMPLIANCE, 200),
    ("law-ctr-file", {"pk": "ctr"}, "post", {}, ONLY_COMPLIANCE, 422),
    ("law-exclusion-import", {}, "post", {}, ONLY_COMPLIANCE, 422),
    ("law-player", {"pk": "player"}, "get", None, ONLY_COMPLIANCE, 200),
    ("law-player-reveal", {"pk": "player"}, "post", {}, ONLY_COMPLIANCE, 200),
    ("law-review-open", {"pk": "player"}, "post", {}, ONLY_COMPLIANCE, 422),
    ("law-review-note", {"pk": "review"}, "post", {}, ONLY_COMPLIANCE, 422),
    ("law-match-resolve", {"pk": "person_match"}, "post", {}, ONLY_COMPLIANCE, 422),
    ("law-incidents", {}, "get", None, COMPLIANCE, 200),
    ("law-incident-report", {}, "post", {}, COMPLIANCE, 422),
    ("law-incident-follow-up", {"pk": "incident"}, "post", {}, COMPLIANCE, 422),
    ("law-exclusion-bar", {}, "post", {}, COMPLIANCE, 422),
    ("law-table-notice", {"pk": "table"}, "get", None, COMPLIANCE, 200),
    ("law-identity", {}, "get", None, COMPLIANCE, 200),
    ("law-game-restart", {"pk": "table"}, "post", {}, FLOOR, 422),
]
IDS = [f"{screen[0]}-{screen[2]}" for screen in SCREENS]


@pytest.fixture
def objects(
    world, settled, auditor, supervisor, settings, tmp_path, django_capture_on_commit_callbacks
):
    """What the URLs point at: the DP table, its settled hand, a player, a finished export,
    the house-banked table and a fill slip."""
    settings.MEDIA_ROOT = tmp_path
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        export = compliance_services.export_request(
            kind="audit_log", start=now - timedelta(days=1), end=now + timedelta(days=1), by=auditor
        )
    return {
        "table": world.dp_table.pk,
        "hand": settled.pk,
        "player": world.seats[1].player_id,
        "seating": world.seats[1].pk,
        "export": export.pk,
        "verification": compliance_services.verification_request(kind="books", by=auditor).pk,
        "house_table": world.house_table.pk,
        "dealer_user": world.dp_table.sessions.get().dealer_id,
        "fill_slip": cage_services.slip_request(
            table=world.house_table, kind="fill", chips={"100": 1}, by=supervisor
        ).pk,
        **_law_objects(world, supervisor, auditor),
    }


def _law_objects(world, supervisor, auditor) -> dict[str, int]:
    """A CTR (cash over the federal line at the cage, identity on file), a review, an
    incident."""
    player = world.seats[1].player
    identity_record(player=player, identity=IDENTITY, by=supervisor)
    cash.cage_cash(player=player, direction="in", amount=Decimal("10000.01"), by=a_cashier())
    return {
        "ctr": CurrencyTransactionReport.objects.get(player=player).pk,
        "review": reviews.review_open(player=player, note="Cash", by=auditor).pk,
        "incident": incidents.incident_report(
            cardroom=world.cardroom, kind="dispute", summary="A payout", by=supervisor
        ).pk,
        "person_match": _person_match(world, supervisor),
    }


def _person_match(world, supervisor) -> int:
    """Two records of one name, no date of birth on either: a possible match."""
    for _ in range(2):
        player_create(cardroom=world.cardroom, name="Sam Twice", by=supervisor)
    return PersonMatch.objects.get().pk


def _url(name: str, args: dict, objects: dict) -> str:
    return reverse(name, kwargs={key: objects.get(value, value) for key, value in args.items()})


def _ask(client, method: str, url: str, data):
    return client.post(url, data) if method == "post" else client.get(url)


@pytest.mark.parametrize(("name", "args", "method", "data", "allowed", "status"), SCREENS, ids=IDS)
def test_an_anonymous_visitor_is_sent_to_the_login_page(
    client, objects, name, args, method, data, allowed, status
):
    url = _url(name, args, objects)
    before = last_seq()

    response = _ask(client, method, url, data)

    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={url}"
    assert last_seq() == before  # nothing happened, nothing to record


@pytest.mark.parametrize(("name", "args", "method", "data", "allowed", "status"), SCREENS, ids=IDS)
@pytest.mark.parametrize("persona", [SUPERVISOR, DEALER_ONLY, AUDITOR, COUNTER, "nobody"])
def test_each_role_gets_its_own_screens_and_a_403_page_elsewhere(
    client, request, objects, persona, name, args, method, data, allowed, status
):
    user = request.getfixturevalue(persona)
    client.force_login(user)
    url = _url(name, args, objects)
    before = last_seq()

    response = _ask(client, method, url, data)

    if persona in allowed:
        assert response.status_code == status
        assert not AuditEvent.objects.filter(seq__gt=before, action="permission.refused").exists()
        return
    assert response.status_code == 403
    page = parse(response.content)
    assert page.find("h1").text == "Not allowed"
    assert "Your role does not allow this screen." in page.find("main").text
    refusal = AuditEvent.objects.get(seq__gt=before)  # the refusal, and nothing else
    assert refusal.action == "permission.refused"
    assert refusal.actor_id == user.pk
    assert json.loads(refusal.payload) == {
        "attempted": f"screen {url}",
        "message": "Your role does not allow this screen.",
        "count": 1,  # the account's first refusal of the minute
    }


def test_the_dealer_steps_take_posts_only(client, dealer, world):
    client.force_login(dealer)
    response = client.get(reverse("dealer-step", args=[world.dp_table.pk, "start"]))
    assert response.status_code == 405


def test_an_unknown_dealer_step_is_not_found(client, dealer, world):
    client.force_login(dealer)
    response = client.post(reverse("dealer-step", args=[world.dp_table.pk, "shuffle"]))
    assert response.status_code == 404
    assert "No such step." in response.text


def test_an_unknown_floor_action_is_not_found(client, supervisor, world):
    client.force_login(supervisor)
    response = client.post(reverse("floor-table-action", args=[world.dp_table.pk, "burn"]))
    assert response.status_code == 404
    assert "No such action." in response.text


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("cage-table-action", lambda world, dealer: [world.house_table.pk, "burn"]),
        ("cage-overview-action", lambda world, dealer: ["burn"]),
        ("floor-paytable-action", lambda world, dealer: ["burn"]),
        ("floor-waitlist-action", lambda world, dealer: ["burn"]),
        ("floor-staff-action", lambda world, dealer: [dealer.pk, "burn"]),
    ],
)
def test_every_screens_unknown_action_is_not_found(client, supervisor, dealer, world, name, args):
    client.force_login(supervisor)
    response = client.post(reverse(name, args=args(world, dealer)))
    assert response.status_code == 404
    assert "No such action." in response.text


def test_a_dealer_is_sent_straight_to_the_one_table_on_duty(client, dealer, world, supervisor):
    rack_closing_count(world.house_table, by=supervisor)  # closes the house-banked table
    client.force_login(dealer)
    response = client.get(reverse("dealer-home"))
    assert response.status_code == 302
    assert response["Location"] == reverse("dealer-table", args=[world.dp_table.pk])


def test_a_dealer_on_duty_at_two_tables_chooses_one(client, dealer, world):
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-home")).content)
    links = {a.text: a.attrs["href"] for a in page.find("main").find_all("a")}
    assert links == {
        "Table 1": reverse("dealer-table", args=[world.dp_table.pk]),
        "Table 2": reverse("dealer-table", args=[world.house_table.pk]),
    }


# --- home, login, navigation ---------------------------------------------------------------


def test_home_sends_an_anonymous_visitor_to_log_in(client):
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next=/"


@pytest.mark.parametrize(
    ("persona", "start"),
    [
        (SUPERVISOR, "floor-tables"),
        (DEALER_ONLY, "dealer-home"),
        (AUDITOR, "compliance-audit"),
        (COUNTER, "count-home"),
    ],
)
def test_home_sends_each_role_to_its_start_screen(client, request, persona, start):
    client.force_login(request.getfixturevalue(persona))
    response = client.get(reverse("home"))
    assert response.status_code == 302
    assert response["Location"] == reverse(start)


def test_home_tells_a_user_without_a_role_to_ask_for_one(client, nobody):
    client.force_login(nobody)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "none assigned" in response.text
    assert parse(response.content).find("nav").find_all("a") == []  # no screens to go to


def test_the_login_page_logs_in_and_goes_where_the_visitor_was_going(client, supervisor, password):
    login = client.get(reverse("login") + "?next=/floor/")
    assert login.status_code == 200
    form = parse(login.content).find("form", action=reverse("login"))
    assert form.find("input", name="next").attrs["value"] == "/floor/"

    response = client.post(
        reverse("login"), {"username": "supervisor", "password": password, "next": "/floor/"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/floor/"
    assert client.get("/floor/").status_code == 200


def test_the_login_page_says_when_the_password_is_wrong(client, supervisor):
    response = client.post(reverse("login"), {"username": "supervisor", "password": "nope"})
    assert response.status_code == 200
    assert "didn't match" in parse(response.content).find("p", class_="error").text


@pytest.mark.parametrize(
    ("persona", "role", "links"),
    [
        (
            SUPERVISOR,
            FLOOR_SUPERVISOR,
            [
                "floor-tables",
                "floor-waitlist",
                "floor-dealers",
                "floor-paytables",
                "floor-staff",
                "dealer-home",
                "compliance-home",
                "cage-overview",
                "law-incidents",
            ],
        ),
        (DEALER_ONLY, DEALER, ["dealer-home"]),
        (
            AUDITOR,
            COMPLIANCE_AUDITOR,
            [
                "compliance-audit",
                "compliance-reports",
                "compliance-exports",
                "cage-overview",
                "law-home",
                "law-incidents",
            ],
        ),
        (COUNTER, COUNT_TEAM, ["count-home"]),
    ],
)
def test_the_navigation_shows_each_role_its_screens(client, request, world, persona, role, links):
    client.force_login(request.getfixturevalue(persona))
    response = client.get(reverse("home"), follow=True)
    assert response.status_code == 200
    header = parse(response.content).find("header")
    assert [a.attrs["href"] for a in header.find("nav").find_all("a")] == [
        reverse(name) for name in links
    ]
    assert role in header.text
    assert header.find("form", action=reverse("logout")).find("button").text == "Log out"
    for name in links:  # every link of the navigation opens for the role
        assert client.get(reverse(name), follow=True).status_code == 200


def test_logging_out_ends_the_session(client, dealer):
    client.force_login(dealer)
    response = client.post(reverse("logout"))
    assert response.status_code in (200, 302)
    assert client.get(reverse("dealer-home")).status_code == 302
