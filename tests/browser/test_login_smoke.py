"""Smoke test of the real-browser setup: a dealer logs in through the form, lands on their
start screen, and sees their name and role."""

import re

import pytest
from playwright.sync_api import Page, expect

from core.roles import DEALER

pytestmark = pytest.mark.browser

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_dealer_logs_in_and_sees_name_and_role(
    live_server, page: Page, make_user, password, screenshots
):
    make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")

    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("dee")
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()

    # Home sends each role on to its own start screen (a dealer: /dealer/).
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    assert page.url.startswith(live_server.url)
    header = page.get_by_role("banner")
    expect(header).to_contain_text("Dee Lee")
    expect(header).to_contain_text(DEALER)
    expect(header.get_by_role("button", name="Log out")).to_be_visible()

    shot = screenshots / "login_smoke_home.png"
    shot.unlink(missing_ok=True)
    page.screenshot(path=str(shot), full_page=True)
    assert shot.is_file()
    assert shot.read_bytes()[:8] == PNG_SIGNATURE
