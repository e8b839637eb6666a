"""The dealer screen's tap targets in a real Chromium: a complete 3-spot hand at the
designated-player table played through the dealer screen, counting every tap (a click, a
confirmation answered) and every keystroke the test makes — once with the card picker, once with the
system's shuffle and "same wagers as last hand" — and the confirmations on the irreversible
actions. The screenshots of each state at each size are test_dealer_fit.py's.

A hand holds 7 cards a hand (R1): a 3-spot hand entered with the picker is 4 hands, 28 card
taps however the picker is made. The test counts the card taps, the other taps, and the taps
that fix a mistake (a wrong card and its undo) apart: the target is 28 card taps and at most 11
others for the hand itself. Two steps advance by themselves once their input is complete — the
cards once the last hand's seventh card is tapped, Settle's question once the last spot is
decided — and settling still asks first (it moves money)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Dialog, Locator, Page, expect

from core.roles import DEALER, FLOOR_SUPERVISOR
from tables.models import Seating
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tests.browser.support import log_in
from tests.conftest import an_administrator
from wagers import services as hand_services
from wagers.models import Hand

pytestmark = pytest.mark.browser

# 28 distinct cards: seven a hand, the three spots' and the dealer's.
PICKED = (
    "Ah Th 6h 2h Jd 5c 9c",
    "Qh 8h 3d 4c Td 6s Js",
    "As Kd Qd 7d 2d 8d 3h",
    "Ks 9s 4s 2c 7h 8c 3c",
)


@dataclass
class Counter:
    """Every tap and keystroke a test makes on the page, and the confirmations answered."""

    page: Page
    taps: int = 0
    card_taps: int = 0
    fixes: int = 0
    keys: int = 0
    asked: list[str] = field(default_factory=list)
    answer: bool = True

    def __post_init__(self) -> None:
        self.page.on("dialog", self._dialog)

    def _dialog(self, dialog: Dialog) -> None:
        self.asked.append(dialog.message)
        self.taps += 1  # OK (or Cancel) is a tap
        dialog.accept() if self.answer else dialog.dismiss()

    def tap(self, locator: Locator) -> None:
        locator.click()
        self.taps += 1

    def card(self, name: str) -> None:
        self.page.locator(f'#cards-form .deck button[data-card="{name}"]').click()
        self.card_taps += 1

    def wait_for_question(self, asked: int) -> None:
        """Until a question comes after the first ``asked`` ones (a step asks by itself)."""
        for _ in range(50):
            if len(self.asked) > asked:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError("nothing asked")

    def fix(self, locator: Locator) -> None:
        """A tap made by mistake, or one that undoes it: counted apart from the hand's."""
        locator.click()
        self.fixes += 1


def _world(make_user):
    supervisor = make_user("floor", role=FLOOR_SUPERVISOR, first_name="Fran", last_name="Ortiz")
    dealer = make_user("dee", role=DEALER, first_name="Dee", last_name="Lee")
    cardroom = cardroom_create(name="Riverside", by=an_administrator())
    table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    table_open(table=table, dealer=dealer, by=supervisor)
    seats = {}
    for seat, name in ((1, "Avery"), (3, "Blake"), (5, "Casey"), (6, "Drew")):
        player = player_create(cardroom=cardroom, name=name, by=dealer)
        seats[seat] = seat_player(table=table, seat=seat, player=player, buy_in="500", by=dealer)
    return table, dealer, seats


def test_a_3_spot_hand_with_the_card_picker_in_28_card_taps_and_11_others(
    live_server, new_page, make_user, password
):
    table, _, seats = _world(make_user)
    page = new_page()
    log_in(page, live_server.url, "dee", password)
    count = Counter(page)

    count.tap(page.get_by_role("button", name="Start hand"))
    expect(page.locator("#hand")).to_have_attribute("data-status", "open")
    hand = Hand.objects.get(table=table)
    spots = sorted(set(seats) - {hand.dp_seating.seat})
    assert len(spots) == 3

    # Wagers: one chip a seat ($5, the minimum ante), a $5 Flush Bonus on the first (a tap on
    # its field, one on the chip), one tap to place them all.
    for seat in spots:
        count.tap(page.locator(f"#wager-{seat} button[data-chip='5.00']"))
    count.tap(page.locator(f"#id_wagers_flush_bonus_{spots[0]}"))
    count.tap(page.locator(f"#wager-{spots[0]} button[data-chip='5.00']"))
    expect(page.locator(f"#id_wagers_ante_{spots[1]}")).to_have_value("5")
    expect(page.locator(f"#id_wagers_flush_bonus_{spots[0]}")).to_have_value("5")
    count.tap(page.get_by_role("button", name="Place wagers"))
    expect(page.locator("#hand")).to_have_attribute("data-status", "wagering")
    expect(page.locator("#error-summary")).to_have_count(0)

    # Cards: the picker fills the hands in deal order (the spots by seat, the dealer's last),
    # moving on by itself after seven; no tap on a field. One wrong tap, undone.
    form = page.locator("#cards-form")
    count.card("Ah")
    count.fix(page.locator('#cards-form .deck button[data-card="Kh"]'))
    count.fix(page.get_by_role("button", name="Undo last card"))
    expect(form.locator(f"#id_cards_{spots[0]}")).to_have_value("Ah")
    for card in PICKED[0].split()[1:]:
        count.card(card)
    for seat_cards in PICKED[1:]:
        for card in seat_cards.split():
            count.card(card)
    # The fields open no soft keyboard on a tablet; typing still works (the keyboard button).
    expect(form.locator("#id_dealer_cards")).to_have_attribute("inputmode", "none")
    # The 28th card completes the dealer's hand: the cards are entered by themselves, with
    # no "Enter cards" tap.
    expect(page.locator("#hand")).to_have_attribute("data-status", "dealt")
    hand.refresh_from_db()
    stored = [hand.spots.get(seat=seat).cards for seat in spots] + [hand.dealer_cards]
    assert [sorted(cards.split()) for cards in stored] == [
        sorted(cards.split()) for cards in PICKED
    ]

    # Decisions: one tap each — raise at the cap (pre-filled, R8), raise, fold. The last one
    # brings up Settle's question, answered OK (a tap): decisions and settlement in one post.
    decisions = page.locator("#decisions")
    expect(decisions.locator(f"#decide-{spots[0]} .cap")).to_contain_text("raise up to")
    cap = decisions.locator(f"#id_decisions_raise_amount_{spots[0]}").input_value()
    assert cap in {"5", "10", "15"}  # 1×, 2× or 3× the $5 ante, by the flush (R8)
    count.tap(decisions.locator(f"#decide-{spots[0]} label.raise"))
    count.tap(decisions.locator(f"#decide-{spots[1]} label.raise"))
    assert count.asked == []  # a spot is still undecided: nothing asks yet
    count.tap(decisions.locator(f"#decide-{spots[2]} label.fold"))
    expect(page.locator("#settlement")).to_be_visible()
    assert len(count.asked) == 1
    assert count.asked[0].startswith("Settle hand 1 with these decisions?")

    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    assert {s.seat: s.decision for s in hand.spots.all()} == {
        spots[0]: "raise",
        spots[1]: "raise",
        spots[2]: "fold",
    }
    assert hand.spots.get(seat=spots[0]).raise_amount == int(cap)
    # The tap count: 28 cards (R1: 4 hands of 7), and the rest.
    assert count.card_taps == 28
    assert count.keys == 0
    print(f"\npicker hand: {count.card_taps} card taps, {count.taps} others, 0 keys")
    # Start 1, chips 3, the Flush Bonus 2, Place 1, decisions 3, Settle's OK 1: 11; and the
    # mistake's 2 (the wrong card, its undo) apart.
    assert count.taps <= 11, count.taps
    assert count.fixes == 2


def test_a_wrong_last_card_undone_at_once_is_not_entered(
    live_server, new_page, make_user, password
):
    """The moment between the last card and its entry: Undo stops the entry, and the right
    card then enters the hand."""
    table, dealer, seats = _world(make_user)
    hand = hand_services.hand_start(table=table, by=dealer)
    spots = sorted(set(seats) - {hand.dp_seating.seat})
    for seat in spots:
        hand_services.wager_place(hand=hand, seating=seats[seat], ante="5", by=dealer)
    page = new_page()
    log_in(page, live_server.url, "dee", password)
    form = page.locator("#cards-form")
    # Typed, the hands wait for "Enter cards"; the dealer's is one card short.
    for seat, cards in zip(spots, PICKED, strict=False):
        form.locator(f"#id_cards_{seat}").fill(cards)
    form.locator("#id_dealer_cards").fill(PICKED[3].rsplit(" ", 1)[0])
    # The wrong last card and Undo, at once; then longer than the moment before entry.
    page.evaluate(
        """() => {
        document.querySelector('#cards-form .deck button[data-card="Kh"]').click();
        document.getElementById("undo-card").click();
    }"""
    )
    expect(page.locator("#entering-cards")).to_have_count(0)
    page.wait_for_timeout(1500)
    expect(page.locator("#hand")).to_have_attribute("data-status", "wagering")
    expect(form.locator("#id_dealer_cards")).to_have_value(PICKED[3].rsplit(" ", 1)[0])
    page.locator('#cards-form .deck button[data-card="3c"]').click()
    expect(page.locator("#entering-cards")).to_be_visible()
    expect(page.locator("#hand")).to_have_attribute("data-status", "dealt")
    hand.refresh_from_db()
    assert sorted(hand.dealer_cards.split()) == sorted(PICKED[3].split())


def _play_a_hand_by_services(table, dealer, seats, draw=None) -> None:
    """A settled hand with every non-DP seat's $10 ante (and a $5 Flush Bonus on seat 1)."""
    hand = hand_services.hand_start(table=table, by=dealer, draw_cards=draw)
    for seat, seating in seats.items():
        if seating.pk != hand.dp_seating_id:
            bonus = "5" if seat == 1 else "0"
            hand_services.wager_place(
                hand=hand, seating=seating, ante="10", flush_bonus=bonus, by=dealer
            )
    hand_services.hand_deal(hand=hand, by=dealer)
    for spot in hand.spots.all():
        hand_services.spot_decide(hand=hand, seat=spot.seat, decision="fold", by=dealer)
    hand_services.hand_settle(hand=hand, by=dealer)


def test_a_3_spot_hand_with_the_shuffle_and_same_wagers_in_7_taps(
    live_server, new_page, make_user, password
):
    table, dealer, seats = _world(make_user)
    # Two hands before, so that every player has wagered (the DP moves each hand, R16).
    _play_a_hand_by_services(table, dealer, seats, draw={1: "2c", 3: "Ah", 5: "Kd", 6: "3c"})
    _play_a_hand_by_services(table, dealer, seats)
    page = new_page()
    log_in(page, live_server.url, "dee", password)
    count = Counter(page)

    count.tap(page.get_by_role("button", name="Start hand"))
    expect(page.locator("#hand")).to_have_attribute("data-status", "open")
    count.tap(page.get_by_role("button", name=re.compile("Same wagers as last hand")))
    expect(page.locator("#hand")).to_have_attribute("data-status", "wagering")
    hand = Hand.objects.get(table=table, number=3)
    spots = sorted(s.seat for s in hand.spots.all())
    assert len(spots) == 3
    assert {s.seat: (s.ante, s.flush_bonus) for s in hand.spots.all()} == {
        seat: (10, 5 if seat == 1 else 0) for seat in spots
    }
    count.tap(page.get_by_role("button", name=re.compile("Deal by the system")))
    expect(page.locator("#hand")).to_have_attribute("data-status", "dealt")
    # Three decisions; the last brings up Settle's question, answered OK.
    for seat, choice in zip(spots, ("raise", "raise", "fold"), strict=True):
        count.tap(page.locator(f"#decide-{seat} label.{choice}"))
    expect(page.locator("#settlement")).to_be_visible()
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    print(f"\nshuffle hand: {count.taps} taps, {count.keys} keys")
    # Start, same wagers, deal, three decisions, Settle's OK.
    assert count.taps <= 7 and count.keys == 0, (count.taps, count.keys)


def test_irreversible_actions_ask_first_and_cancel_changes_nothing(
    live_server, new_page, make_user, password
):
    table, _, seats = _world(make_user)
    page = new_page()
    log_in(page, live_server.url, "dee", password)
    count = Counter(page)

    # Leave, cancelled: the player stays. Cash out, cancelled: the stack stays.
    count.answer = False
    count.tap(page.locator("#seat-6 button[value='leave']"))
    assert "Seat 6 (Drew) leaves the table" in count.asked[-1]
    page.get_by_label("amount for seat 5").fill("50")
    count.tap(page.locator("#seat-5 button[value='cash_out']"))
    assert count.asked[-1].startswith("Cash out $50 from seat 5 (Casey)?")
    expect(page.locator("#seat-6")).to_be_visible()
    assert Seating.objects.get(pk=seats[5].pk).stack == 500
    # Answered OK, it happens.
    count.answer = True
    count.tap(page.locator("#seat-5 button[value='cash_out']"))
    expect(page.locator("#seat-5 td.stack")).to_have_text("$450.00")
    # An empty Cash out is refused, naming the field; the stack stays.
    page.get_by_label("amount for seat 1").fill("")
    count.tap(page.locator("#seat-1 button[value='cash_out']"))
    expect(page.locator("#seat-1 .errorlist")).to_have_text(
        "Enter the amount to cash out: the amount field is empty."
    )
    assert Seating.objects.get(pk=seats[1].pk).stack == 500

    # A misdeal and a dead spot ask too.
    count.tap(page.get_by_role("button", name="Start hand"))
    expect(page.locator("#hand")).to_have_attribute("data-status", "open")
    hand = Hand.objects.get(table=table)
    first = min(set(seats) - {hand.dp_seating.seat, 5})
    count.tap(page.locator(f"#wager-{first} button[data-chip='5.00']"))
    count.tap(page.get_by_role("button", name="Place wagers"))
    expect(page.locator("#hand")).to_have_attribute("data-status", "wagering")
    count.tap(page.get_by_role("button", name=re.compile("Deal by the system")))
    expect(page.locator("#hand")).to_have_attribute("data-status", "dealt")
    page.locator("summary", has_text="Dead spot or misdeal").click()
    count.answer = False
    count.tap(page.get_by_role("button", name=re.compile("wrong number of cards")))
    assert "dead for a wrong number of cards" in count.asked[-1]
    count.tap(page.get_by_role("button", name="Misdeal"))
    assert count.asked[-1].startswith("Declare hand 1 a misdeal?")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEALT and not hand.spots.exclude(dead_reason="").exists()

    # The last spot decided, Settle asks by itself; cancelled, nothing is recorded or settled.
    asked = len(count.asked)
    count.tap(page.locator(f"#decide-{first} label.fold"))
    count.wait_for_question(asked)
    assert count.asked[-1].startswith("Settle hand 1 with these decisions?")
    expect(page.locator("#decisions-form")).to_be_visible()
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEALT and hand.spots.get(seat=first).decision == ""
