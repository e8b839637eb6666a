"""The pushed floor dashboard in a real Chromium, on the real Redis of the PostgreSQL run: a
hand started on the dealer's screen shows on an open floor screen in under a second, and the
floor screen does not poll while its stream is open, and fetches only the changed table's rows;
a new table, not on the screen, brings the whole dashboard."""

from __future__ import annotations

import os
import time

import pytest
from playwright.sync_api import Request, expect

from core.roles import DEALER, FLOOR_SUPERVISOR
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.browser.support import log_in
from tests.conftest import an_administrator

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="the push needs Redis"),
]


@pytest.fixture
def open_table(make_user):
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    cardroom = cardroom_create(
        name="Riverside", time_zone="America/Los_Angeles", by=an_administrator()
    )
    table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    table_open(table=table, dealer=dealer, by=supervisor)
    for seat, name in ((1, "Avery"), (3, "Blake")):
        player = player_create(cardroom=cardroom, name=name, by=dealer)
        seat_player(table=table, seat=seat, player=player, buy_in="500", by=dealer)
    return table


def test_a_hand_started_on_the_dealer_screen_shows_on_the_floor_within_a_second(
    live_server, new_page, open_table, password
):
    floor = new_page()
    fetches: list[float] = []
    urls: list[str] = []

    def count(request: Request) -> None:
        if "/floor/dashboard/" in request.url:
            fetches.append(time.monotonic())
            urls.append(request.url)

    floor.on("request", count)
    log_in(floor, live_server.url, "floor", password)
    floor.goto(f"{live_server.url}/floor/")
    expect(floor.locator("#push-state")).to_contain_text("Pushed")
    row = floor.locator(f"#table-{open_table.pk}")
    expect(row.locator(".hand")).to_have_text("")

    dealer = new_page()
    log_in(dealer, live_server.url, "dee", password)
    dealer.goto(f"{live_server.url}/dealer/tables/{open_table.pk}/")
    # Polling is off while the stream is open: two quiet seconds, no fetch of the rows.
    quiet_from = time.monotonic()
    floor.wait_for_timeout(2_000)
    assert [t for t in fetches if t > quiet_from] == []

    # From the moment the dealer's screen has its answer (the hand started and committed).
    clicked = time.monotonic()
    with dealer.expect_response(lambda r: r.request.method == "POST") as answered:
        dealer.get_by_role("button", name="Start hand").click()
    assert answered.value.ok
    started = time.monotonic()
    expect(row.locator(".hand")).to_contain_text("#1", timeout=1_000)
    took = time.monotonic() - started
    assert took < 1.0, f"the floor saw the hand {took:.2f} s after the dealer's screen"
    # Fetched because the stream said so (often before the dealer's screen has its answer),
    # and only the table's rows: the push named it.
    assert [t for t in fetches if t > clicked]
    assert any(url.endswith(f"/floor/dashboard/?tables={open_table.pk}") for url in urls), urls


def test_a_table_not_on_the_screen_brings_the_whole_dashboard(
    live_server, new_page, open_table, password
):
    floor = new_page()
    urls: list[str] = []
    floor.on("request", lambda r: urls.append(r.url) if "/floor/dashboard/" in r.url else None)
    log_in(floor, live_server.url, "floor", password)
    floor.goto(f"{live_server.url}/floor/")
    expect(floor.locator("#push-state")).to_contain_text("Pushed")
    supervisor = open_table.sessions.get().opened_by

    table = table_create(
        cardroom=open_table.cardroom, name="Table 2", banking="house", by=supervisor
    )

    expect(floor.locator(f"#table-{table.pk}")).to_be_visible(timeout=2_000)
    assert any(url.endswith("/floor/dashboard/") for url in urls), urls
    assert not [url for url in urls if "tables=" in url], urls
