"""In a real browser: a fill requested at the cage appears on the dealer's screen by itself;
the dealer counts the chips, types their PIN and signs; the screen asks first, saying what
will happen, and a dismissed question signs nothing; then the rack moves."""

import re

import pytest
from playwright.sync_api import expect

from cage import services as cage_services
from cage.models import SlipDelivery
from core.roles import DEALER, FLOOR_SUPERVISOR
from tables.models import HouseBankEntry
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tables.signatures import pin_set
from tests.browser.support import log_in
from tests.conftest import an_administrator

pytestmark = pytest.mark.browser

PIN = "4816"


def test_the_dealer_signs_for_a_fill_with_their_pin(live_server, new_page, make_user, password):
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    pin_set(user=dealer, password=password, pin=PIN, by=dealer)
    cardroom = cardroom_create(name="Riverside", by=an_administrator())
    table = table_create(cardroom=cardroom, name="Table 2", banking="house", by=supervisor)
    table_open(table=table, dealer=dealer, by=supervisor)
    page = new_page()
    log_in(page, live_server.url, "dee", password)
    expect(page).to_have_url(re.compile(rf"/dealer/tables/{table.pk}/$"))
    expect(page.locator(".slip-waiting")).to_have_count(0)

    # The floor asks for the fill at the cage; the panel refreshes itself (every 20 s).
    fill = cage_services.slip_request(
        table=table, kind="fill", chips={"100": 5, "25": 4}, by=supervisor
    )
    waiting = page.locator(f"#waiting-{fill.pk}")
    expect(waiting).to_be_visible(timeout=25_000)
    expect(waiting).to_contain_text("Fill F-000001")
    expect(waiting).to_contain_text("Total$600.00")
    expect(waiting).to_contain_text("Count the chips, then sign.")

    asked: list[str] = []
    answers = iter([False, True])  # the first question dismissed, the second accepted

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept() if next(answers) else dialog.dismiss()

    page.on("dialog", answer)
    waiting.get_by_label("Your password or PIN").fill(PIN)
    waiting.get_by_role("button", name="Sign for F-000001").click()
    page.wait_for_timeout(300)
    assert not SlipDelivery.objects.exists()  # dismissed: nothing signed
    waiting.get_by_role("button", name="Sign for F-000001").click()
    expect(page.locator("#slip-signed")).to_have_text(
        "Fill F-000001 signed: $600.00 went into the rack."
    )
    expect(page.locator(".slip-waiting")).to_have_count(0)
    assert (
        asked
        == [
            "Sign for fill F-000001: $600.00 in chips (4×$25.00, 5×$100.00) go into this table's "
            "rack. Sign only once you have counted them."
        ]
        * 2
    )
    delivery = SlipDelivery.objects.get(slip=fill)
    assert delivery.delivered_by == dealer
    assert HouseBankEntry.objects.get(reference="F-000001").amount == 600
