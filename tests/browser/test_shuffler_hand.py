"""A hand dealt by the table's shuffler, in a real Chromium: the designated-player table with
a registered shuffler, a complete 3-spot hand with "Same wagers as last hand", the simulator
(``tables.shuffler_simulator``, in a thread, over real HTTP against the live server) dealing.
The dealer taps no card and types nothing: ≤ 7 taps (start, same wagers, three decisions,
settle and its confirmation). And a message the system refused shows its reason where the
dealer looks, with Misdeal (R14), which makes the hand dead.

Taps are counted with ``Counter`` of ``test_dealer_speed``."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tables.shuffler_simulator import Dealt, HttpDevice, Simulator
from tests.browser.support import log_in
from tests.browser.test_dealer_speed import Counter, _play_a_hand_by_services, _world
from tests.tables.shuffler_support import register_shuffler
from wagers.models import Hand
from wagers.selectors import settlement_in_force

pytestmark = pytest.mark.browser


@pytest.fixture
def shuffler(live_server) -> Iterator[Callable[..., list[Dealt]]]:
    """``start(token, fault=None)``: the simulated shuffler in a thread, dealing one hand over
    HTTP as soon as one waits for cards; the test joins it and sees what it sent."""
    threads: list[threading.Thread] = []
    dealt: list[Dealt] = []
    errors: list[Exception] = []

    def start(token: str, fault: str | None = None) -> list[Dealt]:
        simulator = Simulator(HttpDevice(live_server.url, token), poll=0.2)

        def run() -> None:
            try:
                dealt.extend(simulator.run(rounds=1, wait=30, fault=fault, out=lambda _: None))
            except Exception as error:  # reported at teardown, in the test's thread
                errors.append(error)

        thread = threading.Thread(target=run, daemon=True)
        threads.append(thread)
        thread.start()
        return dealt

    yield start
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors


def _shuffler_table(make_user):
    """The dealer-speed world (4 players at the DP table), two hands played before (so that
    every player has wagers to repeat), and the table's shuffler registered by the floor."""
    table, dealer, seats = _world(make_user)
    _play_a_hand_by_services(table, dealer, seats, draw={1: "2c", 3: "Ah", 5: "Kd", 6: "3c"})
    _play_a_hand_by_services(table, dealer, seats)
    _, token = register_shuffler(table, User.objects.get(username="floor"))
    return table, token


def test_a_3_spot_hand_dealt_by_the_shuffler_in_7_taps_without_a_card_tap(
    live_server, new_page, make_user, password, shuffler, screenshots
):
    table, token = _shuffler_table(make_user)
    page = new_page()
    log_in(page, live_server.url, "dee", password)
    expect(page.locator("#table-card-source")).to_contain_text(
        "Cards read by the table's shuffler (Acme HandFormer 7"
    )
    count = Counter(page)

    count.tap(page.get_by_role("button", name="Start hand"))
    expect(page.locator("#hand")).to_have_attribute("data-status", "open")
    count.tap(page.get_by_role("button", name=re.compile("Same wagers as last hand")))
    expect(page.locator("#hand")).to_have_attribute("data-status", "wagering")
    # The screen waits for the shuffler: no picker, no system deal, nothing to tap but Misdeal.
    expect(page.locator("#shuffler-waiting")).to_contain_text("Waiting for the shuffler's hands")
    expect(page.locator("#cards-form")).to_have_count(0)
    expect(page.locator("#deal")).to_have_count(0)
    page.screenshot(path=str(screenshots / "dealer-shuffler-waiting-1024x768.png"))

    dealt = shuffler(token)  # the shuffler is switched on, finds the hand waiting, deals

    # The play area polls about every second: the cards arrive without a tap.
    expect(page.locator("#hand")).to_have_attribute("data-status", "dealt", timeout=10_000)
    hand = Hand.objects.get(table=table, number=3)
    spots = sorted(s.seat for s in hand.spots.all())
    assert len(spots) == 3
    for seat in spots:
        expect(page.locator(f"#spot-{seat} [data-dealt]")).to_have_count(7)
    for seat, choice in zip(spots, ("raise", "raise", "fold"), strict=True):
        count.tap(page.locator(f"#decide-{seat} label.{choice}"))
    count.tap(page.get_by_role("button", name="Settle", exact=True))
    expect(page.locator("#settlement")).to_be_visible()

    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    assert hand.card_source == Hand.CardSource.SHUFFLER
    assert [d.status for d in dealt] == [201]
    print(f"\nshuffler hand: {count.taps} taps, {count.card_taps} card taps, {count.keys} keys")
    # Start 1, same wagers 1, decisions 3, Settle and its OK 2.
    assert count.taps <= 7 and count.card_taps == 0 and count.keys == 0, count


def test_a_refused_message_shows_its_reason_and_misdeal_makes_the_hand_dead(
    live_server, new_page, make_user, password, shuffler
):
    table, token = _shuffler_table(make_user)
    page = new_page()
    log_in(page, live_server.url, "dee", password)
    count = Counter(page)
    count.tap(page.get_by_role("button", name="Start hand"))
    count.tap(page.get_by_role("button", name=re.compile("Same wagers as last hand")))
    expect(page.locator("#shuffler-waiting")).to_be_visible()

    dealt = shuffler(token, fault="repeated_card")  # one card in two hands (R1)

    refused = page.locator("#shuffler-refused")
    expect(refused).to_be_visible(timeout=10_000)
    expect(refused).to_contain_text("The shuffler's hands were refused")
    hand = Hand.objects.get(table=table, number=3)
    assert hand.status == Hand.Status.WAGERING
    reason = dealt[0].answer["error"]["message"]
    expect(refused).to_contain_text(reason)

    count.tap(page.locator("#shuffler-misdeal"))
    assert count.asked[-1].startswith("Declare hand 3 a misdeal?")
    expect(page.locator("#hand")).to_have_count(0)  # the hand is over: the next one may start
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEAD and hand.misdeal == "shuffler_fault"
    result = settlement_in_force(hand).result  # R14: every hand of the round is dead
    assert {(s["status"], s["dead_reason"]) for s in result["spots"]} == {("dead", "misdeal")}
