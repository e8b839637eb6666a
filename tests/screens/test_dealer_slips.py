"""The dealer screen's fills and credits: the dealer on duty sees what is on its way to their
table once the cashier has prepared it — the slip's number, chips by denomination, total —
counts the chips, then signs as themselves with their own PIN or password; a floor supervisor
signs next, and then the rack moves. The button asks first and says what it will do. Nobody
else's screen shows or signs them."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from cage import services as cage_services
from cage.models import Slip, SlipDelivery, SlipStep
from core.roles import CASHIER
from tables.models import HouseBankEntry
from tables.signatures import pin_set
from tests.cage_books import slip_prepared
from tests.conftest import PASSWORD, signed

from .support import parse

pytestmark = pytest.mark.django_db

PIN = "4816"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def cashier(make_user):
    return make_user("cashier", role=CASHIER, first_name="Cy", last_name="Moss")


@pytest.fixture
def requested(world, supervisor) -> Slip:
    """$600 asked for the house-banked table: five $100 chips and four $25."""
    return cage_services.slip_request(
        table=world.house_table, kind="fill", chips={"100": 5, "25": 4}, by=supervisor
    )


@pytest.fixture
def fill(requested, cashier) -> Slip:
    """The fill prepared at the cage: on its way to the table."""
    slip_prepared(requested, cashier)
    return requested


def sign_url(slip: Slip) -> str:
    return reverse("dealer-slip-sign", args=[slip.table_id, slip.pk])


def test_the_dealer_sees_a_fill_counts_it_and_signs_with_their_pin(
    client, world, dealer, fill, supervisor
):
    pin_set(user=dealer, password=PASSWORD, pin=PIN, by=dealer)
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.house_table.pk])).content)
    waiting = page.by_id(f"waiting-{fill.pk}")
    assert "Fill F-000001" in waiting.text
    rows = [
        " ".join(cell.text for cell in row.iter() if cell.tag in ("td", "th")).strip()
        for row in waiting.find("table", class_="slip-chips").find_all("tr")
    ]
    assert rows[1:] == [
        "$25.00 4 $100.00",
        "$100.00 5 $500.00",
        "Total  $600.00",
    ]
    assert "Requested by Fran Ortiz" in waiting.text
    assert "Count the chips, then sign as yourself." in waiting.text
    button = waiting.find("button", type="submit")
    assert button.text == "Count and sign F-000001"
    assert button.attrs["data-confirm"] == (
        "Sign for fill F-000001: $600.00 in chips (4×$25.00, 5×$100.00) come to this table's "
        "rack. Sign only once you have counted them."
    )
    # A wrong PIN: refused next to the PIN, the chips do not move.
    wrong = client.post(sign_url(fill), {"secret": "9731", "confirmed": "1"}, **HTMX)
    assert wrong.status_code == 200  # htmx swaps the panel in place, its refusal in it
    error = parse(wrong.content).by_id(f"slip-error-{fill.pk}")
    assert error.text == "That username, password or PIN is wrong."
    assert not SlipStep.objects.filter(step="dealer").exists()
    # The PIN: signed; the slip leaves the panel, the floor signs next.
    answer = client.post(sign_url(fill), {"secret": PIN, "confirmed": "1"}, **HTMX)
    assert answer.status_code == 200
    panel = parse(answer.content).by_id("slips")
    assert panel.by_id("slip-signed").text == (
        "Fill F-000001 counted and signed: a floor supervisor signs next, then the chips "
        "($600.00) go into the rack."
    )
    assert panel.find_all("div", class_="slip-waiting") == []
    step = SlipStep.objects.get(slip=fill, step="dealer")
    assert step.person == dealer
    signature = step.signature
    assert (signature.signer, signature.capacity, signature.method) == (dealer, "dealer", "pin")
    assert signature.session.startswith("session:")
    event = AuditEvent.objects.filter(action="cage.slip_step_signed").latest("seq")
    assert (event.actor, '"person_name":"Dee Lee"' in event.payload) == (dealer, True)
    # Not in the rack until the floor signs; then it is.
    assert not HouseBankEntry.objects.filter(reference="F-000001").exists()
    cage_services.slip_supervisor_sign(slip=fill, signature=signed(supervisor), by=supervisor)
    assert SlipDelivery.objects.get(slip=fill).bank_entry.amount == Decimal("600.00")
    again = client.get(reverse("dealer-table", args=[world.house_table.pk]))
    assert parse(again.content).by_id("slips").find_all("div", class_="slip-waiting") == []


def test_without_htmx_the_signature_returns_to_the_table_and_says_so(client, world, dealer, fill):
    client.force_login(dealer)
    refused = client.post(sign_url(fill), {"secret": "not it", "confirmed": "1"})
    assert refused.status_code == 422
    assert "password or PIN is wrong" in refused.text
    response = client.post(sign_url(fill), {"secret": PASSWORD, "confirmed": "1"}, follow=True)
    assert response.redirect_chain == [(reverse("dealer-table", args=[world.house_table.pk]), 302)]
    assert "Fill F-000001 counted and signed: a floor supervisor signs next" in response.text
    assert SlipStep.objects.get(slip=fill, step="dealer").person == dealer


def test_a_credit_says_its_chips_leave_the_rack(client, world, dealer, supervisor):
    credit = cage_services.slip_request(
        table=world.house_table, kind="credit", chips={"100": 2}, by=supervisor
    )
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.house_table.pk])).content)
    waiting = page.by_id(f"waiting-{credit.pk}")
    assert "Credit C-000001 · chips from this table's rack back to the cage" in waiting.text
    assert "leave this table's rack for the cage" in waiting.find("button").attrs["data-confirm"]


def test_a_floor_supervisor_does_not_sign_the_dealers_step_there(client, world, supervisor, fill):
    client.force_login(supervisor)
    response = client.post(sign_url(fill), {"secret": PASSWORD, "confirmed": "1"}, **HTMX)
    error = parse(response.content).by_id(f"slip-error-{fill.pk}")
    assert "Fran Ortiz is not a dealer: cannot sign." in error.text
    assert not SlipStep.objects.filter(step="dealer").exists()


def test_a_fill_not_yet_prepared_is_not_on_the_panel_and_is_not_signed(
    client, world, dealer, requested
):
    client.force_login(dealer)
    panel = parse(client.get(reverse("dealer-slips", args=[world.house_table.pk])).content)
    assert panel.by_id("slips").find_all("div", class_="slip-waiting") == []
    response = client.post(sign_url(requested), {"secret": PASSWORD, "confirmed": "1"}, **HTMX)
    refused = parse(response.content).by_id("slip-refused")
    assert "Fill F-000001 is not prepared by the cashier yet" in refused.text
    assert not SlipStep.objects.exists()


def test_another_dealer_neither_sees_nor_signs_the_tables_slips(client, world, other_dealer, fill):
    client.force_login(other_dealer)
    assert client.get(reverse("dealer-slips", args=[world.house_table.pk])).status_code == 403
    assert client.post(sign_url(fill), {"secret": PASSWORD, "confirmed": "1"}).status_code == 403
    assert not SlipStep.objects.filter(step="dealer").exists()


def test_the_panel_refreshes_itself_and_a_designated_player_table_has_none(
    client, world, dealer, fill
):
    client.force_login(dealer)
    panel = parse(client.get(reverse("dealer-slips", args=[world.house_table.pk])).content)
    section = panel.by_id("slips")
    assert section.attrs["hx-get"] == reverse("dealer-slips", args=[world.house_table.pk])
    assert section.attrs["hx-trigger"].startswith("every 20s")
    assert section.by_id(f"waiting-{fill.pk}")
    dp = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    assert "hx-get" not in dp.by_id("slips").attrs
    assert dp.by_id("slips").find_all("div", class_="slip-waiting") == []


def test_a_slip_voided_meanwhile_is_not_signed_and_the_panel_says_why(
    client, world, dealer, supervisor, second_supervisor, fill
):
    client.force_login(dealer)
    cage_services.slip_void(
        slip=fill, reason="Wrong table", witness=signed(second_supervisor), by=supervisor
    )
    response = client.post(sign_url(fill), {"secret": PASSWORD, "confirmed": "1"}, **HTMX)
    panel = parse(response.content).by_id("slips")
    assert panel.by_id("slip-refused").text == "F-000001: Fill F-000001 is void."
    assert panel.find_all("div", class_="slip-waiting") == []
    assert not SlipStep.objects.filter(step="dealer").exists()
