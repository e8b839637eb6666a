"""In a real browser, three people at three devices, each signed in as themselves: the floor
asks for a fill; the cashier prepares it at the cage and signs; it appears on the dealer's
screen by itself, the dealer counts the chips, types their PIN and signs (a dismissed question
signs nothing); the floor supervisor signs on the cage table screen, and only then does the
rack move (Nevada MICS, fills: cashier, dealer and supervisor sign)."""

import re

import pytest
from playwright.sync_api import expect

from cage import services as cage_services
from cage.cashier_books import cage_pieces
from cage.models import SlipDelivery, SlipStep
from core.roles import CASHIER, DEALER, FLOOR_SUPERVISOR
from tables.models import HouseBankEntry
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tables.signatures import pin_set
from tests.browser.support import log_in
from tests.cage_books import cage_opened
from tests.conftest import an_administrator

pytestmark = pytest.mark.browser

PIN = "4816"


def test_a_fill_is_signed_by_the_cashier_the_dealer_and_the_floor_each_as_themselves(
    live_server, new_page, make_user, password
):
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    cashier = make_user("cy", role=CASHIER, first_name="Cy", last_name="Moss")
    pin_set(user=dealer, password=password, pin=PIN, by=dealer)
    cardroom = cardroom_create(name="Riverside", by=an_administrator())
    table = table_create(cardroom=cardroom, name="Table 2", banking="house", by=supervisor)
    table_open(table=table, dealer=dealer, by=supervisor)
    cage_opened(cardroom, cashier)  # the fill's chips come out of the cage's books
    in_cage = cage_pieces(cardroom)["100.00"]
    at_the_table = new_page()
    log_in(at_the_table, live_server.url, "dee", password)
    expect(at_the_table).to_have_url(re.compile(rf"/dealer/tables/{table.pk}/$"))
    expect(at_the_table.locator(".slip-waiting")).to_have_count(0)
    fill = cage_services.slip_request(
        table=table, kind="fill", chips={"100": 5, "25": 4}, by=supervisor
    )

    # The cage: the cashier prepares the fill and signs with their own password.
    cage = new_page()
    cage.on("dialog", lambda dialog: dialog.accept())
    log_in(cage, live_server.url, "cy", password)
    cage.goto(f"{live_server.url}/cage/slips/")
    waiting = cage.locator(f"#prepare-{fill.pk}")
    expect(waiting).to_contain_text("Fill F-000001 · Table 2 · $600.00")
    waiting.get_by_label("Your password or PIN").fill(password)
    waiting.get_by_role("button", name="Prepared: sign F-000001").click()
    expect(cage.locator(f"#prepare-{fill.pk}")).to_have_count(0)

    # The table: the panel refreshes itself (every 20 s); the dealer counts and signs.
    waiting = at_the_table.locator(f"#waiting-{fill.pk}")
    expect(waiting).to_be_visible(timeout=25_000)
    expect(waiting).to_contain_text("Total$600.00")
    expect(waiting).to_contain_text("Count the chips, then sign as yourself.")
    asked: list[str] = []
    answers = iter([False, True])  # the first question dismissed, the second accepted

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept() if next(answers) else dialog.dismiss()

    at_the_table.on("dialog", answer)
    waiting.get_by_label("Your password or PIN").fill(PIN)
    waiting.get_by_role("button", name="Count and sign F-000001").click()
    at_the_table.wait_for_timeout(300)
    assert not SlipStep.objects.filter(step="dealer").exists()  # dismissed: nothing signed
    waiting.get_by_role("button", name="Count and sign F-000001").click()
    expect(at_the_table.locator("#slip-signed")).to_contain_text(
        "Fill F-000001 counted and signed: a floor supervisor signs next"
    )
    assert len(asked) == 2 and "come to this table's rack" in asked[0]
    assert not HouseBankEntry.objects.filter(reference="F-000001").exists()

    # The floor: the supervisor signs on the table's cage screen; the rack moves.
    floor = new_page()
    floor.on("dialog", lambda dialog: dialog.accept())
    log_in(floor, live_server.url, "floor", password)
    floor.goto(f"{live_server.url}/cage/tables/{table.pk}/")
    row = floor.locator(f"#slip-{fill.pk}")
    expect(row).to_contain_text("waits to be signed by the floor supervisor")
    row.get_by_text("Sign the fill").click()
    row.get_by_label("Your password or PIN").fill(password)
    row.get_by_role("button", name="Sign F-000001").click()
    expect(floor.locator(f"#slip-{fill.pk}")).to_contain_text("delivered")

    steps = SlipStep.objects.filter(slip=fill).order_by("id")
    assert [(s.step, s.person.username, s.signature.method) for s in steps] == [
        ("prepared", "cy", "password"),
        ("dealer", "dee", "pin"),
        ("supervisor", "floor", "password"),
    ]
    assert SlipDelivery.objects.get(slip=fill).delivered_by == supervisor
    assert HouseBankEntry.objects.get(reference="F-000001").amount == 600
    assert cage_pieces(cardroom)["100.00"] == in_cage - 5
