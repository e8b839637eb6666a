"""Field ids are unique on every page, and each label's ``for`` names an element of its own
form: two forms sharing ids made a tap on one form's label land in the other's field.

Every screen URL is in PAGES (rendered here, by the role that uses it, with the objects the
world below holds) or in NOT_PAGES with the reason; a new screen fails the last test until it
is listed."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from django.urls import URLPattern, reverse

from cage import services as cage_services
from cardroom.screens import urls
from patrons import cash, incidents, reviews, sar_cases
from patrons.identity import identity_record
from tables.services.seat_calls import waitlist_call
from tables.services.waitlist import waitlist_join, waitlist_open
from tests.api.conftest import IDENTITY
from tests.conftest import PASSWORD, a_cashier

from .support import Node, parse

pytestmark = pytest.mark.django_db

SUPERVISOR, DEALER, AUDITOR, COUNTER = "supervisor", "dealer", "auditor", "counter"
CASHIER = "cashier"

#: url name, its arguments (names of the objects below), who looks at it.
PAGES = [
    ("account-home", {}, SUPERVISOR),
    ("password_change", {}, SUPERVISOR),
    ("dealer-home", {}, DEALER),
    ("dealer-table", {"pk": "table"}, DEALER),
    ("dealer-table", {"pk": "house_table"}, DEALER),
    ("dealer-table", {"pk": "house_table"}, SUPERVISOR),
    ("floor-tables", {}, SUPERVISOR),
    ("floor-table", {"pk": "table"}, SUPERVISOR),
    ("floor-table", {"pk": "house_table"}, SUPERVISOR),
    ("floor-hand", {"pk": "hand"}, SUPERVISOR),
    ("floor-paytables", {}, SUPERVISOR),
    ("floor-staff", {}, SUPERVISOR),
    ("floor-dealers", {}, SUPERVISOR),
    ("floor-cardroom", {}, SUPERVISOR),
    ("floor-waitlist", {}, SUPERVISOR),
    ("public-board", {"pk": "cardroom"}, SUPERVISOR),
    ("compliance-audit", {}, AUDITOR),
    ("compliance-reports", {}, AUDITOR),
    ("compliance-player", {"pk": "player"}, AUDITOR),
    ("compliance-exports", {}, AUDITOR),
    ("cage-overview", {}, SUPERVISOR),
    ("cage-overview", {}, AUDITOR),
    ("cage-month", {}, AUDITOR),
    ("cage-table", {"pk": "house_table"}, SUPERVISOR),
    ("cage-count-sheet", {}, SUPERVISOR),
    ("cage-controls", {}, SUPERVISOR),
    ("cage-slips", {}, CASHIER),
    ("cashier-home", {}, CASHIER),
    ("compliance-discrepancies", {}, AUDITOR),
    ("count-home", {}, COUNTER),
    ("law-home", {}, AUDITOR),
    ("law-ctr-filer", {}, AUDITOR),
    ("law-player", {"pk": "player"}, AUDITOR),
    ("law-incidents", {}, SUPERVISOR),
    ("law-exclusions", {}, SUPERVISOR),
    ("law-identity", {}, SUPERVISOR),
    ("law-table-notice", {"pk": "table"}, SUPERVISOR),
    ("law-sar-case", {"pk": "sar_case"}, AUDITOR),
]

#: Screen URLs that are not pages with forms of their own, and why.
NOT_PAGES = {
    "home": "a redirect to the role's own screen",
    "cardroom-choose": "a POST from the header's chooser (tests/screens/test_cardroom_choice.py)",
    "account-setup": "a one-time link's page: one form (tests/screens/test_staff_screen.py)",
    "dealer-slips": "the slips panel, part of the dealer table page rendered above",
    "dealer-play": "the play area, part of the dealer table page rendered above",
    "dealer-slip-sign": "a POST; its refusal is the dealer table page's panel",
    "dealer-step": "a POST answering the dealer table's play area",
    "floor-table-create": "a POST answering the tables page",
    "floor-dashboard": "the dashboard fragment, part of the tables page",
    "floor-stream": "the dashboard's server-sent events, no HTML",
    "floor-table-action": "a POST answering the table page",
    "floor-staff-action": "a POST answering the staff page",
    "floor-dealers-action": "a POST answering the dealers page",
    "floor-staff-change": "a POST answering the staff page",
    "floor-paytable-action": "a POST answering the paytables page",
    "floor-waitlist-action": "a POST answering the waitlist page",
    "compliance-home": "a redirect to the audit log",
    "compliance-verify": "a POST, then the verification page",
    "compliance-verify-books": "a POST, then the verification page",
    "compliance-verify-state": "a POST, then the verification page",
    "compliance-verification": "a progress page with no form",
    "compliance-checkpoint-problem-acknowledge": "a POST answering the audit log",
    "compliance-export": "a progress page with no form",
    "compliance-export-retry": "a POST answering the exports page",
    "compliance-export-download": "a file",
    "compliance-player-ratings": "a CSV file",
    "compliance-session-value": "a POST answering the player's page",
    "cage-overview-action": "a POST answering the overview",
    "cage-csv": "a CSV file",
    "cage-table-action": "a POST answering the rack page",
    "cage-slip-print": "a printed slip, no form",
    "count-record": "a POST answering the count page",
    "count-correct": "a POST answering the count page",
    "cage-slip-action": "a POST answering the cage's slips page",
    "cashier-action": "a POST answering the cashier's page",
    "cashier-circulation-csv": "a CSV file",
    "law-mtl-csv": "a CSV file",
    "law-ctr-csv": "a CSV file",
    "law-fincen-batch": "an XML file (FinCEN's CTR batch); its refusal is the law page above",
    "law-ctr-file": "a POST answering the compliance law page",
    "law-exclusion-import": "a POST answering the compliance law page",
    "law-exclusion-import-progress": "a progress page with no form",
    "law-player-reveal": "a POST answering the player page",
    "law-review-open": "a POST answering the player page",
    "law-review-note": "a POST answering the player page",
    "law-sar-open": "a POST answering the case page (or its refusal's own one-form page)",
    "law-sar-note": "a POST answering the SAR case page",
    "law-sar-decision": "a POST answering the SAR case page",
    "law-match-resolve": "a POST answering the compliance law page",
    "law-incident-report": "a POST answering the incident log",
    "law-incident-follow-up": "a POST answering the incident log",
    "law-exclusion-bar": "a POST answering the incident log",
    "law-exclusion-end-proposal": "a POST answering the exclusion page",
    "law-exclusion-end-decision": "a POST answering the exclusion page",
    "law-ctr-filer-save": "a POST answering the filer page",
    "law-incident-outcome": "a POST answering the incident log",
    "law-exclusion-actions-csv": "a CSV file",
    "law-game-restart": "a POST answering the table notice",
}


@pytest.fixture
def objects(world, settled, supervisor, auditor) -> dict:
    """What the pages show: a settled hand, a fill waiting at the house-banked table (its
    slips panel), two house tables' boxes to count, a variance to sign off, a player's file."""
    house = world.house_table
    cage_services.slip_request(table=house, kind="fill", chips={"100": 1}, by=supervisor)
    cage_services.slip_request(table=house, kind="credit", chips={"100": 2}, by=supervisor)
    player = world.seats[1].player
    identity_record(player=player, identity=IDENTITY, by=supervisor)
    cash.cage_cash(player=player, direction="in", amount=Decimal("10000.01"), by=a_cashier())
    reviews.review_open(player=player, note="Cash", by=auditor)
    case = sar_cases.sar_case_open(
        cardroom=world.cardroom,
        opening=sar_cases.SarOpening(summary="Cash just under", player=player),
        by=auditor,
    )
    # Two incidents: the follow-up form under each has ids of its own.
    for summary in ("A payout", "A seat"):
        incidents.incident_report(
            cardroom=world.cardroom, kind="dispute", summary=summary, by=supervisor
        )
    # A list with a player called, one by phone and one waiting: the forms under each entry.
    waitlist = waitlist_open(cardroom=world.cardroom, banking="designated_player", ante_min="5",
                             ante_max="100", by=supervisor)  # fmt: skip
    for name, phone in (("Wren Lister", False), ("Pia Phone", True), ("Sam Ortiz", False)):
        waitlist_join(waitlist=waitlist, name=name, phone=phone, by=supervisor)
    waitlist_call(table=world.dp_table, seat=2, by=supervisor)
    return {
        "cardroom": world.cardroom.pk,
        "table": world.dp_table.pk,
        "house_table": house.pk,
        "hand": settled.pk,
        "player": player.pk,
        "sar_case": case.pk,
    }


def _page(client, request, objects, name, args, persona) -> Node:
    client.force_login(request.getfixturevalue(persona))
    url = reverse(name, kwargs={key: objects[value] for key, value in args.items()})
    response = client.get(url)
    assert response.status_code == 200, url
    return parse(response.content)


def _form_of(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.tag != "form":
        parent = parent.parent
    return parent


@pytest.mark.parametrize(
    ("name", "args", "persona"),
    PAGES,
    ids=[f"{p[0]}-{p[2]}-{'-'.join(p[1].values())}" for p in PAGES],
)
def test_every_id_on_a_page_is_unique_and_every_label_is_its_forms(
    client, request, objects, name, args, persona
):
    page = _page(client, request, objects, name, args, persona)
    ids = Counter(node.attrs["id"] for node in page.iter() if "id" in node.attrs)
    assert [id_ for id_, count in ids.items() if count > 1] == []
    by_id = {node.attrs["id"]: node for node in page.iter() if "id" in node.attrs}
    for label in page.find_all("label"):
        target = label.attrs.get("for")
        if target is None:
            continue
        assert target in by_id, f"<label for={target}> names nothing"
        assert _form_of(by_id[target]) is _form_of(label), f"<label for={target}> is another form's"


def test_every_screen_url_is_a_page_here_or_says_why_not():
    names = {
        pattern.name
        for patterns in vars(urls).values()
        if isinstance(patterns, list)
        for pattern in patterns
        if isinstance(pattern, URLPattern) and pattern.name
    }
    listed = {page[0] for page in PAGES} | set(NOT_PAGES)
    assert sorted(names - listed) == []
    assert sorted(set(NOT_PAGES) - names) == []


def test_a_refused_form_keeps_its_ids_unique_too(client, objects, supervisor, world):
    """A refused count comes back filled in, with its errors: still one id each."""
    client.force_login(supervisor)
    response = client.post(
        reverse("cage-table-action", args=[world.house_table.pk, "count"]),
        {
            "kind": "opening",
            "counted_by": "dealer",
            "counted_by_secret": "x",
            "secret": PASSWORD,
            "confirmed": "1",
        },
    )
    assert response.status_code == 422
    page = parse(response.content)
    ids = Counter(node.attrs["id"] for node in page.iter() if "id" in node.attrs)
    assert [id_ for id_, count in ids.items() if count > 1] == []
