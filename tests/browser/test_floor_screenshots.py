"""Screenshots of the floor and compliance screens at three sizes — a laptop (1366×768), a
tablet in landscape (1024×768) and in portrait (768×1024) — into artifacts/screenshots/,
with a check that nothing runs off the side of the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from core.roles import COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR
from tables.selectors import gaming_day
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tables.services.setting_changes import setting_change_propose
from tests.browser.support import log_in
from tests.conftest import an_administrator
from tests.screens.support import DEALER_CARDS, DRAW_SEAT_3, STRONG, WEAK
from wagers import services as hands

pytestmark = pytest.mark.browser

SIZES = {"1366x768": (1366, 768), "1024x768": (1024, 768), "768x1024": (768, 1024)}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture
def played(make_user):
    """A cardroom on Pacific time with two tables, a settled and corrected hand, a pending
    change (a paytable among its settings), and staff."""
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")
    second = make_user("gus", role=FLOOR_SUPERVISOR, first_name="Gus", last_name="Park")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    make_user("cora", role=COMPLIANCE_AUDITOR, first_name="Cora", last_name="Diaz")
    cardroom = cardroom_create(
        name="Riverside", time_zone="America/Los_Angeles", by=an_administrator()
    )
    table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    house = table_create(cardroom=cardroom, name="Table 2", banking="house", by=supervisor)
    for t in (table, house):
        table_open(table=t, dealer=dealer, by=supervisor)
    seats = {}
    for seat, name in ((1, "Avery"), (3, "Blake"), (5, "Casey")):
        player = player_create(cardroom=cardroom, name=name, by=dealer)
        seats[seat] = seat_player(table=table, seat=seat, player=player, buy_in="500", by=dealer)
    hand = hands.hand_start(table=table, by=dealer, draw_cards=DRAW_SEAT_3)
    for seat in (1, 5):
        hands.wager_place(
            hand=hand,
            seating=seats[seat],
            ante="10",
            flush_bonus="5" if seat == 1 else "0",
            by=dealer,
        )
    hands.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_CARDS, spot_cards={1: STRONG, 5: WEAK}, by=dealer
    )
    hands.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="10", by=dealer)
    hands.spot_decide(hand=hand, seat=5, decision="fold", by=dealer)
    hands.hand_settle(hand=hand, by=dealer)
    hands.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        by=supervisor,
        reason="Dealer's hand misread",
        dealer_cards="8s 7s 4s 2c 7h 8c 3c",
    )
    setting_change_propose(
        table=table,
        values={"ante_min": "10", "flush_paytable": {"4": 1, "5": 10, "6": 100, "7": 300}},
        reason="Weekend",
        by=second,
    )
    return {"table": table, "hand": hand}


def test_screenshots_of_the_floor_and_compliance_screens_at_three_sizes(
    live_server, browser: Browser, played, password, screenshots
):
    base = live_server.url
    table, hand = played["table"], played["hand"]
    hand.refresh_from_db()
    day = gaming_day(table.cardroom, hand.settled_at).isoformat()
    screens = {
        "floor": (
            "floor",
            [
                ("floor_dashboard", "/floor/"),
                ("floor_table", f"/floor/tables/{table.pk}/"),
                ("floor_hand_correction", f"/floor/hands/{hand.pk}/"),
                ("floor_staff", "/floor/staff/"),
                ("floor_paytables", "/floor/paytables/"),
            ],
        ),
        "compliance": (
            "cora",
            [
                ("compliance_audit", "/compliance/audit/"),
                ("compliance_report", f"/compliance/reports/?table={table.pk}&day={day}"),
            ],
        ),
    }
    taken = []
    for size, (width, height) in SIZES.items():
        for username, pages in screens.values():
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            try:
                log_in(page, base, username, password)
                for name, path in pages:
                    page.goto(base + path)
                    expect(page.locator("main h1").first).to_be_visible()
                    shot = screenshots / f"{name}_{size}.png"  # before the checks: to look at
                    page.screenshot(path=str(shot), full_page=True)
                    # Nothing runs off the page sideways (a table too wide, a long hash).
                    overflow = page.evaluate(
                        "document.documentElement.scrollWidth - window.innerWidth"
                    )
                    assert overflow <= 1, f"{name} at {size} is {overflow}px too wide"
                    assert shot.read_bytes()[:8] == PNG_SIGNATURE
                    taken.append(shot.name)
            finally:
                context.close()
    assert len(taken) == 3 * 7
