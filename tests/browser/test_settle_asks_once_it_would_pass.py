"""Settle in a real Chromium: a Settle with a decision missing asks nothing and names the seat
beside it; once the decisions are complete the dialog asks, saying what settles; cancelled,
nothing is settled and the form stays as filled; confirmed, the hand settles."""

from __future__ import annotations

import pytest
from playwright.sync_api import Dialog, expect

from core.roles import DEALER, FLOOR_SUPERVISOR
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.browser.support import log_in
from tests.conftest import an_administrator
from wagers import services as hand_services
from wagers.models import Hand

pytestmark = pytest.mark.browser

DEALER_CARDS = "Ks 9s 4s 2c 7h 8c 3c"
STRONG = "Ah Th 6h 2h Jd 5c 9c"
WEAK = "Qh 8h 3d 4c Td 6s Js"


def test_settle_asks_only_once_the_decisions_are_complete(
    live_server, new_page, make_user, password
):
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR)
    cardroom = cardroom_create(name="Riverside", by=an_administrator())
    table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    table_open(table=table, dealer=dealer, by=supervisor)
    seats = {}
    for seat, name in ((1, "Avery"), (3, "Blake"), (5, "Casey")):
        player = player_create(cardroom=cardroom, name=name, by=dealer)
        seats[seat] = seat_player(table=table, seat=seat, player=player, buy_in="500", by=dealer)
    hand = hand_services.hand_start(table=table, by=dealer, draw_cards={1: "2c", 3: "Ah", 5: "Kd"})
    for seat in (1, 5):
        hand_services.wager_place(hand=hand, seating=seats[seat], ante="10", by=dealer)
    hand_services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_CARDS, spot_cards={1: STRONG, 5: WEAK}, by=dealer
    )

    page = new_page()
    asked: list[str] = []
    answers = iter([False, True])

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if next(answers) else dialog.dismiss()

    page.on("dialog", answer)
    log_in(page, live_server.url, "dee", password)
    settle = page.get_by_role("button", name="Settle", exact=True)

    # Seat 5 has no decision: refused beside it, and no dialog.
    page.locator("#decide-1 label.raise").click()
    settle.click()
    expect(page.locator("#decide-5")).to_contain_text("Seat 5 has no decision: raise or fold.")
    assert asked == []
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEALT

    # Complete: the dialog says what settles; cancelled, nothing moves, the choices stay.
    page.locator("#decide-5 label.fold").click()
    settle.click()
    expect(page.locator("#decide-5 input[value='fold']")).to_be_checked()
    page.wait_for_timeout(300)
    assert len(asked) == 1 and asked[0].startswith(
        "Settle hand 1 with these decisions? (seat 1 (Avery) raises $10; seat 5 (Casey) folds)"
    )
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEALT
    expect(page.locator("#decide-1 input[value='raise']")).to_be_checked()

    # Asked again and confirmed: settled.
    settle.click()
    expect(page.locator("#settlement")).to_be_visible()
    assert len(asked) == 2
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
