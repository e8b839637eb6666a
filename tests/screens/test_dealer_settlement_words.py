"""The dealer's settlement in words: what to hand back at a dead spot and in a misdeal (R14),
each spot's hand and the paytable line that paid (R10), the fee said apart from the net
(R12), the designated player's stack beside its bank in play (R13), amounts as $20,000.00,
and no enum value, rule id as help text or "(1 hands)" on the dealer's pages."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from cardroom.screens.templatetags.cardroom import dead_words, dollars, signed_dollars
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from wagers import services as hand_services

from .support import DEALER_CARDS, DRAW_SEAT_3, STRONG, WEAK, Node, error_summary, parse

pytestmark = pytest.mark.django_db

# A six-card heart flush (no run of three): R8 lets it raise 3× the ante, R10 pays its Flush
# Bonus 50 to 1 on the default paytable; distinct from DEALER_CARDS and WEAK (R1).
SIX_HEARTS = "Ah Kh Th 9h 6h 2h 5c"


def _page(client, table) -> Node:
    return parse(client.get(reverse("dealer-table", args=[table.pk])).content)


def _cells(page: Node, seat: int) -> dict[str, Node]:
    """A settlement row's cells by their label."""
    row = page.by_id("settlement").by_id(f"result-{seat}")
    return {td.attrs["data-label"]: td for td in row.find_all("td")}


def _play_six_hearts(dealer, world, *, dp_bank: str | None = None):
    """Seat 3 is the DP (by the draw); seat 1 antes $10 with a $5 Flush Bonus and raises $30
    (3× with six hearts, R8) and seat 5 antes $10 and folds; then the hand settles."""
    hand = hand_services.hand_start(
        table=world.dp_table, by=dealer, draw_cards=DRAW_SEAT_3, dp_bank=dp_bank
    )
    hand_services.wager_place(
        hand=hand, seating=world.seats[1], ante="10", flush_bonus="5", by=dealer
    )
    hand_services.wager_place(hand=hand, seating=world.seats[5], ante="10", by=dealer)
    hand_services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_CARDS, spot_cards={1: SIX_HEARTS, 5: WEAK}, by=dealer
    )
    hand_services.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="30", by=dealer)
    hand_services.spot_decide(hand=hand, seat=5, decision="fold", by=dealer)
    hand_services.hand_settle(hand=hand, by=dealer)
    return hand


# --- R14: what to hand back ---------------------------------------------------------------


def test_a_dead_spot_says_what_to_return_with_its_parts_r14(client, dealer, world, dealt):
    """A spot declared dead for a wrong number of cards: its ante and bonus go back, said in
    the Dealer column like pay and take — not "returned $0.00"."""
    client.force_login(dealer)
    page = _page(client, world.dp_table)
    [confirm] = [b for b in page.find_all("button") if b.text.startswith("Seat 1 · Avery:")]
    assert "Its wagers go back: return $15.00 (ante 10, bonus 5)" in confirm.attrs["data-confirm"]

    hand_services.spot_declare_dead(hand=dealt, seat=1, by=dealer)
    hand_services.spot_decide(hand=dealt, seat=5, decision="fold", by=dealer)
    hand_services.hand_settle(hand=dealt, by=dealer)

    cells = _cells(_page(client, world.dp_table), 1)
    assert cells["Dealer"].text == "return $15.00 (ante 10, bonus 5)"
    assert "return" in cells["Dealer"].attrs["class"].split()
    assert cells["Ante"].text == "returned $10.00"
    assert cells["Flush bonus"].text == "returned $5.00"
    assert cells["Result"].text == "dead: wrong number of cards"
    assert cells["Net"].text == "$0.00" and cells["Fee"].text == "$0.00"  # R14: no fee


def test_a_spot_the_bank_cannot_cover_returns_its_raise_too_r13_r14(client, dealer, world):
    """R13: a $12 bank cannot pay six hearts' $290 win: the spot is dead, and the dealer hands
    back its ante, raise and bonus."""
    _play_six_hearts(dealer, world, dp_bank="12")
    client.force_login(dealer)
    cells = _cells(_page(client, world.dp_table), 1)
    assert cells["Dealer"].text == "return $45.00 (ante 10, raise 30, bonus 5)"
    assert cells["Raise"].text == "returned $30.00"
    assert cells["Result"].text == (
        "dead: the DP's bank could not cover it — would have won +$290.00"
    )


def test_a_misdeal_says_what_each_spot_gets_back_and_the_whole_r14(client, dealer, world, wagered):
    hand_services.hand_declare_misdeal(hand=wagered, reason="shuffler_fault", by=dealer)
    client.force_login(dealer)
    page = _page(client, world.dp_table)
    assert _cells(page, 1)["Dealer"].text == "return $15.00 (ante 10, bonus 5)"
    assert _cells(page, 5)["Dealer"].text == "return $10.00 (ante 10)"
    assert page.by_id("misdeal-returns").text == (
        "Return every wager: $25.00 in all; no fee is taken."
    )
    assert page.by_id("settlement").find("h2").text == "Hand 1 settled — misdeal (shuffler fault)"


def test_a_misdeals_reason_reads_in_words_r14():
    assert dead_words("dealer_card_count") == "a wrong number of cards to the dealer"
    assert dead_words("shuffler_fault") == "shuffler fault"
    assert dead_words("dealer_funds") == "the DP's bank could not cover it"


def test_the_misdeal_button_asks_with_what_goes_back(client, dealer, world, wagered):
    client.force_login(dealer)
    page = _page(client, world.dp_table)
    [misdeal] = [b for b in page.find_all("button") if b.text == "Misdeal"]
    assert "return every wager, $25.00 in all" in misdeal.attrs["data-confirm"]


# --- R10, R12: the hand, the paytable line, the fee -------------------------------------------


def test_each_spot_shows_its_hand_and_the_flush_that_counts(client, dealer, world, settled):
    client.force_login(dealer)
    page = _page(client, world.dp_table)
    seven = page.by_id("hand-1").find_all("span", class_="card")
    assert sorted(card.attrs["title"].split(":")[0] for card in seven) == sorted(STRONG.split())
    assert page.by_id("flush-1").text == "4-card flush: A♥ T♥ 6♥ 2♥"
    assert page.by_id("flush-5").text.startswith("2-card flush: ")


def test_the_flush_bonus_line_names_the_paytable_line_that_paid_r10(client, dealer, world):
    _play_six_hearts(dealer, world)
    client.force_login(dealer)
    cells = _cells(_page(client, world.dp_table), 1)
    assert cells["Flush bonus"].text == "win +$250.00 6-card flush, 50 to 1"
    assert cells["Flush bonus"].find("small", class_="why").text == "6-card flush, 50 to 1"
    # R9: the dealer qualifies (K-9-4 of spades) and six hearts beat it: even money.
    assert cells["Ante"].find("small").text == "beats the dealer's flush, 1 to 1"
    assert cells["Raise"].text == "win +$30.00 beats the dealer's flush, 1 to 1"
    assert cells["Dealer"].text == "pay $290.00, collect the $1.00 fee"


def test_a_four_card_flush_is_paid_2_to_1_and_a_fold_loses_its_ante(client, dealer, world, settled):
    client.force_login(dealer)
    page = _page(client, world.dp_table)
    assert _cells(page, 1)["Flush bonus"].find("small").text == "4-card flush, 2 to 1"
    assert _cells(page, 5)["Ante"].text == "lose -$10.00 folded"
    assert _cells(page, 5)["Result"].text == "folded"
    assert _cells(page, 1)["Result"].text == "raised"


def test_the_fee_is_said_apart_from_what_the_net_pays_r12(client, dealer, world, settled):
    """Seat 1 wins $30 on its wagers and pays the $1 fee: net +$29, which alone would hide
    the fee; seat 5 loses its $10 ante and pays the fee too."""
    client.force_login(dealer)
    page = _page(client, world.dp_table)
    one, five = _cells(page, 1), _cells(page, 5)
    assert one["Dealer"].text == "pay $30.00, collect the $1.00 fee"
    assert one["Net"].text == "+$29.00"
    assert "pay" in one["Dealer"].attrs["class"].split()
    assert five["Dealer"].text == "take $10.00, collect the $1.00 fee"
    assert "take" in five["Dealer"].attrs["class"].split()


def test_a_dealer_who_does_not_qualify_is_said_in_words_r4_r9(client, dealer, world, wagered):
    """R4: 8-7-2 does not qualify: the ante wins even money, the raise pushes (R9)."""
    low = "8d 7d 2d 3c 4s 5s 7c"  # an 8-high flush; no card of STRONG or WEAK (R1)
    hand_services.hand_cards_enter(
        hand=wagered, dealer_cards=low, spot_cards={1: STRONG, 5: WEAK}, by=dealer
    )
    hand_services.spot_decide(hand=wagered, seat=1, decision="raise", raise_amount="10", by=dealer)
    hand_services.spot_decide(hand=wagered, seat=5, decision="fold", by=dealer)
    hand_services.hand_settle(hand=wagered, by=dealer)
    client.force_login(dealer)
    page = _page(client, world.dp_table)
    cells = _cells(page, 1)
    assert cells["Ante"].text == "win +$10.00 the dealer did not qualify, 1 to 1"
    assert cells["Raise"].text == "push $0.00 the dealer did not qualify"
    assert "the dealer needs a 3-card flush 9-high or better" in page.by_id("dealer-hand").text
    assert "R4" not in page.by_id("settlement").text


# --- R13: the designated player's seat ----------------------------------------------------------


def test_the_dp_seat_shows_its_stack_and_the_bank_in_play_r13(client, dealer, world, started):
    """The whole stack went into the bank at the start: the stack reads $0.00 because the
    chips are in play as the bank, and the seat says so."""
    client.force_login(dealer)
    stack = _page(client, world.dp_table).by_id("seat-3").find("td", class_="stack")
    assert stack.text == "$0.00 bank in play $300.00"
    assert stack.find("small", id="dp-bank").text == "bank in play $300.00"


def test_a_dp_bank_below_the_stack_shows_both(step_client, world, dealer):
    hand_services.hand_start(table=world.dp_table, by=dealer, draw_cards=DRAW_SEAT_3, dp_bank="100")
    stack = _page(step_client, world.dp_table).by_id("seat-3").find("td", class_="stack")
    assert stack.text == "$200.00 bank in play $100.00"
    # The other seats have no bank.
    assert _page(step_client, world.dp_table).by_id("seat-1").find_all("small") == []


@pytest.fixture
def step_client(client, dealer):
    client.force_login(dealer)
    return client


# --- amounts and words ---------------------------------------------------------------------------


def test_amounts_read_with_thousands_and_two_decimals():
    assert dollars(Decimal("20000")) == "$20,000.00"
    assert dollars("1234567.5") == "$1,234,567.50"
    assert dollars(Decimal("-5")) == "-$5.00"
    assert signed_dollars("20000.00") == "+$20,000.00"
    assert signed_dollars("-1500") == "-$1,500.00"
    assert signed_dollars("0") == "$0.00"


def test_a_big_stack_reads_20000_00_on_the_dealer_screen(step_client, world, dealer):
    player = player_create(cardroom=world.cardroom, name="Harper", by=dealer)
    seat_player(table=world.dp_table, seat=6, player=player, buy_in="20000", by=dealer)
    page = _page(step_client, world.dp_table)
    assert page.by_id("seat-6").find("td", class_="stack").text == "$20,000.00"
    assert "$20,000.00?" in page.by_id("seat-6").find("button", value="leave").attrs["data-confirm"]


#: Enum values a screen must never show (settings, outcomes, reasons, statuses).
ENUM_VALUES = (
    "versus_dp",
    "all_players",
    "players_not_dp",
    "dp_only",
    "designated_player",
    "walked_away",
    "wrong_card_count",
    "dealer_funds",
    "shuffler_fault",
    "dealer_card_count",
    "straight_flush",
    "flush_bonus",
)
#: Attributes a person reads (the others are for the browser and the server).
READ_ATTRIBUTES = ("data-confirm", "title", "aria-label", "placeholder", "alt")


def _words_on(page: Node) -> str:
    """Everything on a page a person reads: its text and the attributes they see."""
    said = [page.text]
    for node in page.iter():
        said += [node.attrs[name] for name in READ_ATTRIBUTES if node.attrs.get(name)]
    return "\n".join(said)


def _assert_plain_words(page: Node) -> None:
    words = _words_on(page)
    for value in ENUM_VALUES:
        assert value not in words, f"{value!r} on the dealer screen"
    assert not re.search(r"\b1 hands\b", words), "(1 hands)"
    # Rule ids stay out of help text; a refused step's message may cite its rule.
    help_text = "\n".join(node.text for node in page.iter() if node.tag in ("small", "summary"))
    assert not re.search(r"\bR\d+\b", help_text), help_text


def test_the_dealer_pages_are_in_plain_words_in_every_state(step_client, world, dealer):
    table = world.dp_table
    _assert_plain_words(_page(step_client, table))  # seats, no hand yet
    hand = hand_services.hand_start(table=table, by=dealer, draw_cards=DRAW_SEAT_3)
    _assert_plain_words(_page(step_client, table))  # the DP named, wagers next
    for seat in (1, 5):
        hand_services.wager_place(
            hand=hand, seating=world.seats[seat], ante="10", flush_bonus="5", by=dealer
        )
    _assert_plain_words(_page(step_client, table))  # the cards next
    hand_services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_CARDS, spot_cards={1: STRONG, 5: WEAK}, by=dealer
    )
    _assert_plain_words(_page(step_client, table))  # decisions
    hand_services.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="10", by=dealer)
    hand_services.spot_decide(hand=hand, seat=5, decision="walked_away", by=dealer)
    hand_services.hand_settle(hand=hand, by=dealer)
    page = _page(step_client, table)
    _assert_plain_words(page)  # the settlement
    assert "Fee $1.00 a hand, from every spot and the DP" in " ".join(
        page.by_id("limits").text.split()
    )
    assert "the designated player banks" in page.find("h1").text
    _assert_plain_words(_page(step_client, world.house_table))  # a house-banked table


def test_a_dp_held_one_hand_in_a_row_is_said_in_the_singular_r16(
    step_client, supervisor, dealer, world
):
    """R16 with ``dp_max_consecutive`` 1: the DP of the last hand is not offered the button
    again, "designated player 1 hand in a row" — never "1 hands"."""
    table = table_create(
        cardroom=world.cardroom,
        name="Table 3",
        banking="designated_player",
        settings={"dp_max_consecutive": 1},
        by=supervisor,
    )
    table_open(table=table, dealer=dealer, by=supervisor)
    for seat, name in ((1, "Jordan"), (3, "Kai")):
        player = player_create(cardroom=world.cardroom, name=name, by=dealer)
        seat_player(table=table, seat=seat, player=player, buy_in="300", by=dealer)
    first = hand_services.hand_start(table=table, by=dealer, draw_cards={1: "2c", 3: "Ah"})
    hand_services.hand_cancel(hand=first, by=dealer)

    response = step_client.post(
        reverse("dealer-step", args=[table.pk, "start"]), {"refusals": ["1"]}
    )

    [message] = error_summary(parse(response.content))
    assert "seat 3 ineligible (designated player 1 hand in a row, the most allowed)" in message
    _assert_plain_words(parse(response.content))


def test_the_step_that_ends_a_hand_brings_its_settlement_into_view(step_client, world, dealt):
    """The dealer tapped Settle at the foot of the page: the settlement that replaces the hand
    is scrolled to (htmx swaps, then shows its top); a step that leaves the hand in play
    keeps the page where it is."""

    def post(name: str, data: dict):
        url = reverse("dealer-step", args=[world.dp_table.pk, name])
        return step_client.post(url, data, headers={"HX-Request": "true"})

    kept = post("decisions", {"decision_1": "raise", "raise_amount_1": "10", "decision_5": "fold"})
    assert error_summary(parse(kept.content)) == [] and "HX-Reswap" not in kept
    settled = post("settle", {"confirmed": "1"})  # asked and answered OK
    assert error_summary(parse(settled.content)) == []
    assert settled["HX-Reswap"] == "outerHTML show:#settlement:top"
    assert parse(settled.content).by_id("settlement")
