"""The floor3 attack, in a real Chromium: a floor supervisor tries to approve their own fee
change by making themselves a second supervisor account. Each step that would let one person
complete R17's dual control alone fails, and the screen says why."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from core.roles import DEALER, FLOOR_SUPERVISOR, role_of
from tables.models import TwoPersonChange
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tables.services.setting_changes import setting_change_propose
from tables.staff_models import SettingChange
from tests.browser.support import log_in
from tests.conftest import an_administrator

pytestmark = pytest.mark.browser

OWN = "floor three's own password"


def _accept_every_question(page: Page) -> None:
    page.on("dialog", lambda dialog: dialog.accept())


def test_the_floor3_attack_fails_and_the_screens_say_why(
    live_server, new_page, make_user, password
):
    morgan = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Morgan", last_name="Reyes")
    make_user("floor2", role=FLOOR_SUPERVISOR, first_name="Jordan", last_name="Lee")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    cardroom = cardroom_create(name="Riverside", by=an_administrator())
    table = table_create(cardroom=cardroom, name="Table 3", banking="designated_player", by=morgan)
    table_open(table=table, dealer=dealer, by=morgan)

    # Morgan proposes a fee change on Table 3, then tries to make "floor3" a supervisor.
    attacker = new_page()
    _accept_every_question(attacker)
    log_in(attacker, live_server.url, "floor", password)
    setting_change_propose(
        table=table, values={"rake_amount": "2.00"}, reason="Raise the fee", by=morgan
    )
    attacker.goto(f"{live_server.url}/floor/staff/")
    form = attacker.locator("#staff-create")
    form.get_by_label("First name").fill("Flo")
    form.get_by_label("Last name").fill("Three")
    form.get_by_label("Username").fill("floor3")
    form.get_by_label("Role").select_option(FLOOR_SUPERVISOR)
    form.get_by_label("Why").fill("Nights")
    form.get_by_role("button", name="Create, or propose").click()
    # Step 1 fails: no account is made, and the screen says a second person must approve.
    expect(attacker.locator("#proposed")).to_contain_text("waiting for a second person")
    assert not type(morgan).objects.filter(username="floor3").exists()
    change = TwoPersonChange.objects.get(kind=TwoPersonChange.Kind.STAFF_ACCOUNT)
    row = attacker.locator(f"#staff-change-{change.pk}")
    expect(row.get_by_role("button", name="Approve and sign")).to_have_count(0)

    # A second supervisor approves it, signing with their password: the link is shown once.
    jordan = new_page()
    _accept_every_question(jordan)
    log_in(jordan, live_server.url, "floor2", password)
    jordan.goto(f"{live_server.url}/floor/staff/")
    jordan_row = jordan.locator(f"#staff-change-{change.pk}")
    jordan_row.get_by_label(re.compile("Your password or PIN")).fill(password)
    jordan_row.get_by_role("button", name="Approve and sign").click()
    link = jordan.locator("#setup-link input").input_value()
    assert role_of(type(morgan).objects.get(username="floor3")) == FLOOR_SUPERVISOR

    # Worst case: the link reaches Morgan, who sets floor3's password and signs in as it.
    attacker.goto(link)
    attacker.get_by_label(re.compile(r"^New password:?$")).fill(OWN)
    attacker.get_by_label(re.compile(r"^New password confirmation")).fill(OWN)
    attacker.get_by_role("button", name="Set my password").click()
    expect(attacker.locator("#messages")).to_contain_text("Your account is ready")
    attacker.get_by_label("Username").fill("floor3")
    attacker.get_by_label("Password").fill(OWN)
    attacker.get_by_role("button", name="Log in").click()

    # Step 2 fails: floor3 may not approve the change of the person who made it.
    attacker.goto(f"{live_server.url}/floor/tables/{table.pk}/")
    changes = attacker.locator("#changes")
    changes.get_by_label(re.compile("Your password or PIN")).fill(OWN)
    changes.get_by_role("button", name="Approve and sign").click()
    # The reason at the top of the page (the first alert), and next to the form.
    expect(attacker.get_by_role("alert").first).to_contain_text("one maker's line")
    assert SettingChange.objects.get(table=table).status == "pending"
