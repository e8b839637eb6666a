"""Every cage and count screen fits a tablet in portrait (768×1024): no sideways scroll, and
the win and hold of each table and of the day on the screen (the wide tables stack below
~900 px). Screenshots go to artifacts/screenshots/ to look at. The rack's count form shows
its running total as the chips are typed, and the close asks first with it."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from cage import services as cage_services
from cage.models import InventoryCount
from core.roles import COMPLIANCE_AUDITOR, COUNT_TEAM, DEALER, FLOOR_SUPERVISOR
from tables import selectors as table_selectors
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.browser.support import log_in
from tests.conftest import an_administrator, signed

pytestmark = pytest.mark.browser

WIDTH, HEIGHT = 768, 1024
RACK = {"1": 100, "5": 100, "25": 80, "100": 20}  # $4,600


@pytest.fixture
def cage_day(make_user):
    """A house-banked table with its opening count, a player who bought $300 of chips from
    the rack, and a second table still to count: the current shift's figures."""
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    make_user("cora", role=COMPLIANCE_AUDITOR, first_name="Cora", last_name="Diaz")
    make_user("cam", role=COUNT_TEAM, first_name="Cam", last_name="Diaz")
    cardroom = cardroom_create(name="Riverside", by=an_administrator())
    house = table_create(cardroom=cardroom, name="Table 2", banking="house", by=supervisor)
    other = table_create(cardroom=cardroom, name="Table 3", banking="house", by=supervisor)
    for table in (house, other):
        table_open(table=table, dealer=dealer, by=supervisor)
    cage_services.inventory_count_record(
        table=house,
        kind="opening",
        chips=RACK,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    player = player_create(cardroom=cardroom, name="Pat", by=dealer)
    seat_player(table=house, seat=1, player=player, buy_in="300", by=dealer)
    span = table_selectors.shift_of(cardroom, timezone.now())
    return {
        "house": house,
        "other": other,
        "query": f"day={span.day.isoformat()}&shift={span.shift}",
    }


def _fits(page: Page, name: str, screenshots) -> None:
    """No sideways scroll; every win and hold cell within the viewport; a screenshot."""
    page.screenshot(path=str(screenshots / f"{name}_{WIDTH}x{HEIGHT}.png"), full_page=True)
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"{name} is {overflow}px too wide at {WIDTH} px"
    cells = page.locator("td.figure-win, td.figure-hold")
    for index in range(cells.count()):
        box = cells.nth(index).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (
            f"{name}: a win or hold cell is off the screen at {box}"
        )


def _signed_in(browser: Browser, base: str, username: str, password: str) -> Page:
    context = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT})
    page = context.new_page()
    log_in(page, base, username, password)
    return page


def test_the_cage_and_count_screens_fit_a_portrait_tablet(
    live_server, browser: Browser, cage_day, password, screenshots
):
    base, query = live_server.url, cage_day["query"]
    pages = {
        "floor": [
            ("cage_overview", f"/cage/?{query}"),
            ("cage_rack", f"/cage/tables/{cage_day['house'].pk}/"),
            ("cage_month", "/cage/month/"),
        ],
        "cora": [("cage_overview_compliance", f"/cage/?{query}")],
        "cam": [("count", f"/count/?{query}")],
    }
    seen = 0
    for username, paths in pages.items():
        page = _signed_in(browser, base, username, password)
        try:
            for name, path in paths:
                page.goto(base + path)
                expect(page.locator("main h1").first).to_be_visible()
                _fits(page, name, screenshots)
                seen += 1
        finally:
            page.context.close()
    assert seen == 5


def test_the_overview_shows_each_tables_win_and_hold_on_screen(
    live_server, browser: Browser, cage_day, password, screenshots
):
    page = _signed_in(browser, live_server.url, "floor", password)
    try:
        page.goto(f"{live_server.url}/cage/?{cage_day['query']}")
        wins = page.locator("table.figures td.figure-win")
        expect(wins).to_have_count(2)  # both house tables
        day_hold = page.locator("#day-totals td.figure-hold").first
        day_hold.scroll_into_view_if_needed()
        expect(day_hold).to_be_in_viewport()
        for index in range(2):
            wins.nth(index).scroll_into_view_if_needed()
            expect(wins.nth(index)).to_be_in_viewport()
    finally:
        page.context.close()


def test_a_count_shows_its_running_total_and_asks_with_it(
    live_server, browser: Browser, cage_day, password, screenshots
):
    other = cage_day["other"]
    page = _signed_in(browser, live_server.url, "floor", password)
    try:
        page.goto(f"{live_server.url}/cage/tables/{other.pk}/")
        count = page.locator("#count form")
        total = count.locator("#count-total")
        expect(total).to_have_text("$0.00")
        count.get_by_label("$25.00").fill("40")
        count.get_by_label("$100.00").fill("12")
        expect(total).to_have_text("$2,200.00")  # before anything is recorded
        _fits(page, "cage_rack_count_typed", screenshots)
        count.get_by_label("Counted by: the dealer's username").fill("dee")
        count.get_by_label("The dealer's password or PIN").fill(password)
        count.get_by_label("Your password or PIN: you verify").fill(password)
        asked: list[str] = []
        answers = iter([False, True])  # dismissed first: nothing recorded; then accepted

        def answer(dialog):
            asked.append(dialog.message)
            dialog.accept() if next(answers) else dialog.dismiss()

        page.on("dialog", answer)
        count.get_by_role("button", name="Record the count").click()
        page.wait_for_timeout(300)
        assert not InventoryCount.objects.filter(table=other).exists()
        count.get_by_role("button", name="Record the count").click()
        expect(page.locator("#counts")).to_contain_text("$2,200.00")
        assert len(asked) == 2 and "$2,200.00 in chips" in asked[0]
        assert InventoryCount.objects.get(table=other).total == 2200
    finally:
        page.context.close()
