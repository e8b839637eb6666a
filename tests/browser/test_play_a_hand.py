"""End to end in a real Chromium: a dealer logs in and plays a full hand at a designated-player
table through the screens — start (the high-card draw names the DP), wagers, cards with the
card picker (tapped and typed), decisions, settlement — with screenshots of the dealer screen
before and after settlement; then compliance logs in and verifies the audit chain."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from audit.chain import heads_hash
from audit.models import AuditEvent, ChainHead
from core.roles import COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR
from tables.models import Seating
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.browser.support import log_in
from tests.conftest import an_administrator
from wagers import selectors
from wagers.models import Hand

pytestmark = pytest.mark.browser

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# The cards make the hand deterministic whichever seat the draw gives the button: the dealer
# qualifies with K-9-4 of spades (R4); the first spot's four-card heart flush beats it (R2) and
# raises 1× (R8: the cap for four cards); the second spot has a two-card flush and folds.
DEALER_CARDS = "Ks 9s 4s 2c 7h 8c 3c"
STRONG = "Ah Th 6h 2h Jd 5c 9c"
WEAK_TYPED = "qh 8H 3d 4c 10d 6s js"  # typed as a dealer might: any case, 10 for T (R1)
WEAK = "Qh 8h 3d 4c Td 6s Js"


def _tap(page: Page, cards: str) -> None:
    deck = page.locator("#cards-form .deck")
    for card in cards.split():
        deck.locator(f'button[data-card="{card}"]').click()


def test_a_dealer_plays_a_hand_to_settlement_and_compliance_verifies_the_chain(
    live_server, new_page, make_user, password, screenshots
):
    began = time.monotonic()
    # The world, through the services (live_server tests start from an empty database).
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    make_user("cora", role=COMPLIANCE_AUDITOR, first_name="Cora", last_name="Diaz")
    cardroom = cardroom_create(name="Riverside", by=an_administrator())
    table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    table_open(table=table, dealer=dealer, by=supervisor)
    buy_ins = {1: ("Avery", "500"), 3: ("Blake", "300"), 5: ("Casey", "400")}
    for seat, (name, buy_in) in buy_ins.items():
        player = player_create(cardroom=cardroom, name=name, by=dealer)
        seat_player(table=table, seat=seat, player=player, buy_in=buy_in, by=dealer)
    base = live_server.url

    # --- the dealer ------------------------------------------------------------------------
    page = new_page()
    log_in(page, base, "dee", password)
    # Home → the dealer's screens → straight to the one table on duty.
    expect(page).to_have_url(f"{base}/dealer/tables/{table.pk}/")
    play = page.locator("#play")
    expect(play.get_by_role("heading", level=1)).to_contain_text("Table 1")
    expect(play).to_contain_text("open · dealer Dee Lee")

    # Start: the session's first hand goes by a high-card draw (R16); the button shows.
    page.get_by_role("button", name="Start hand").click()
    expect(page.locator("#hand")).to_have_attribute("data-status", "open")
    button = page.locator("#seats .button-dp")
    expect(button).to_have_count(1)
    dp_row_id = button.locator("xpath=ancestor::tr").get_attribute("id")
    dp = int(dp_row_id.removeprefix("seat-"))
    hand = Hand.objects.get(table=table)
    assert hand.dp_seating.seat == dp and hand.rotation.method == "draw"
    expect(page.locator("#hand h2").first).to_contain_text(f"DP seat {dp}")
    first, second = sorted(set(buy_ins) - {dp})

    # Wagers, every seat's in one form: an ante and a Flush Bonus on the first (typed), an
    # ante on the second (chips: $5 twice).
    wagers = page.locator("#wagers")
    expect(wagers.locator("tr.wager-row")).to_have_count(2)
    page.get_by_label(f"Ante, seat {first}", exact=True).fill("10")
    page.get_by_label(f"Flush, seat {first}", exact=True).fill("5")
    chip = page.locator(f"#wager-{second} button[data-chip='5.00']")
    chip.click()
    chip.click()
    expect(page.get_by_label(f"Ante, seat {second}", exact=True)).to_have_value("10")
    page.get_by_role("button", name="Place wagers").click()
    expect(page.locator(f"#spot-{first}")).to_contain_text("$10.00")
    expect(page.locator(f"#spot-{second}")).to_be_visible()
    expect(page.locator("#wagers")).to_have_count(0)  # every seat but the DP's has a spot

    # Cards: tap 7 cards for the dealer, then 7 for the first spot (the picker moves on to the
    # next field by itself); type the second spot's hand.
    form = page.locator("#cards-form")
    dealer_field = form.get_by_label("Dealer")
    dealer_field.click()
    _tap(page, DEALER_CARDS)
    expect(dealer_field).to_have_value(DEALER_CARDS)
    expect(form.get_by_label(f"Seat {first}")).to_be_focused()
    _tap(page, STRONG)
    expect(form.get_by_label(f"Seat {first}")).to_have_value(STRONG)
    form.get_by_label(f"Seat {second}").fill(WEAK_TYPED)
    # Cards in a hand are greyed out in the deck, typed ones too; the rest can be tapped.
    deck = form.locator(".deck")
    expect(deck.locator("button[disabled]")).to_have_count(21)
    for used in ("Ks", "Ah", "Qh", "Td"):
        expect(deck.locator(f'button[data-card="{used}"]')).to_be_disabled()
    expect(deck.locator('button[data-card="As"]')).to_be_enabled()
    form.get_by_role("button", name="Enter cards").click()
    expect(page.locator("#hand")).to_have_attribute("data-status", "dealt")
    expect(page.locator("#error-summary")).to_have_count(0)

    # Decisions: the four-card flush raises 1× the ante (the cap, pre-filled: R8), the
    # two-card flush folds; the last decision brings up Settle's question, and once confirmed
    # both are recorded and the hand settles.
    expect(page.get_by_label(f"Raise, seat {first}", exact=True)).to_have_value("10")
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator(f"#decide-{first} label.raise").click()
    expect(page.get_by_role("button", name="Settle", exact=True)).to_be_visible()

    before = screenshots / "dealer-before-settlement.png"
    after = screenshots / "dealer-after-settlement.png"
    for shot in (before, after):
        shot.unlink(missing_ok=True)
    page.screenshot(path=str(before), full_page=True)

    page.locator(f"#decide-{second} label.fold").click()

    # The settlement, per spot, in big numbers: each wager's outcome, the fee, the net; the
    # DP's net and the settlement order (R13: from the DP's right, counter-clockwise).
    panel = page.locator("#settlement")
    expect(panel).to_be_visible()
    expect(panel.locator("#dealer-net")).to_be_in_viewport()  # no scrolling to see the result
    expect(panel.get_by_role("heading")).to_have_text("Hand 1 settled")
    strong_row, weak_row = panel.locator(f"#result-{first}"), panel.locator(f"#result-{second}")
    assert asked and asked[0].startswith("Settle hand 1 with these decisions?")
    names = {seat: name for seat, (name, _) in buy_ins.items()}
    # Under each wager why it came out so (R9, R10); the fee said apart from what the dealer
    # pays or takes (R12).
    expect(strong_row.locator("td")).to_have_text(
        [
            str(first),
            names[first],
            "raised",
            "win +$10.00 beats the dealer's flush, 1 to 1",
            "win +$10.00 beats the dealer's flush, 1 to 1",
            "win +$10.00 4-card flush, 2 to 1",
            "",
            "$1.00",
            "+$29.00",
            "pay $30.00, collect the $1.00 fee",
        ]
    )
    expect(weak_row.locator("td")).to_have_text(
        [
            str(second),
            names[second],
            "folded",
            "lose -$10.00 folded",
            "",
            "",
            "",
            "$1.00",
            "-$11.00",
            "take $10.00, collect the $1.00 fee",
        ]
    )
    expect(panel.locator("#dealer-net")).to_have_text("-$21.00")
    expect(panel).to_contain_text(f"DP seat {dp} · {names[dp]} net")
    expect(panel.locator("#house-rake")).to_have_text("$3.00")
    # Under each spot's figures its hand and the flush that counts (R2).
    expect(panel.locator(f"#hand-row-{first}")).to_contain_text("4-card flush: A♥ T♥ 6♥ 2♥")
    order = sorted((s for s in (first, second) if s < dp), reverse=True) + sorted(
        (s for s in (first, second) if s > dp), reverse=True
    )
    expect(panel).to_contain_text(" → ".join(map(str, order)))
    page.screenshot(path=str(after), full_page=True)

    for shot in (before, after):
        assert shot.is_file(), shot
        assert shot.read_bytes()[:8] == PNG_SIGNATURE, shot

    # What the screen showed is what was stored.
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    # The typed hand was stored in canonical notation (R1).
    assert sorted(hand.spots.get(seat=second).cards.split()) == sorted(WEAK.split())
    result = selectors.settlement_in_force(hand).result
    assert {s["seat"]: s["net"] for s in result["spots"]} == {first: "29.00", second: "-11.00"}
    assert result["dealer"]["net"] == "-21.00" and result["settlement_order"] == order
    stacks = dict(Seating.objects.filter(table=table).values_list("seat", "stack"))
    expected = {seat: int(buy_in) for seat, (_, buy_in) in buy_ins.items()}
    expected[first] += 29
    expected[second] -= 11
    expected[dp] -= 21
    assert stacks == expected

    # --- compliance, at another device ------------------------------------------------------
    audit = new_page()
    log_in(audit, base, "cora", password)
    expect(audit).to_have_url(f"{base}/compliance/audit/")
    expect(audit.get_by_role("heading", name="Audit log")).to_be_visible()
    expect(audit.locator("#events")).to_contain_text("hand.settled")
    audit.get_by_role("button", name="Verify the chain").click()

    verdict = audit.locator("#verification")
    expect(verdict).to_have_attribute("data-ok", "true")
    expect(verdict).to_contain_text("The chain holds.")
    # Chains per table: the newest event, and the hash over every chain's head.
    heads = [list(h) for h in ChainHead.objects.values_list("chain", "seq", "hash")]
    newest = AuditEvent.objects.order_by("-seq").first()
    expect(verdict).to_contain_text(
        f"{AuditEvent.objects.count()} events verified in {len(heads)} chains. "
        f"Newest event: #{newest.seq}; hash over the chains' heads: {heads_hash(heads)}"
    )
    assert time.monotonic() - began < 60
