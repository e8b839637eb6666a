"""The dealer's screen: one table, each step a small form posted to ``dealer_step``. A refusal
comes back next to the field at fault (and in the summary at the top), with status 422 for a
plain post; an htmx post gets the play area alone; a success redirects (or re-renders the play
area for htmx). A full hand played through the steps ends with its settlement on the page."""

from __future__ import annotations

import html
import json

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from cardroom.screens import dealer_steps as dealer_screen
from core.roles import DEALER
from tables.models import RotationRecord, Seating
from tables.services.configuration import table_create
from wagers import selectors
from wagers import services as hand_services
from wagers.models import Hand, SpotSettlement

from .support import (
    DEALER_CARDS,
    DRAW_SEAT_3,
    STRONG,
    WEAK,
    error_summary,
    field_errors,
    last_seq,
    parse,
)

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
#: Settle asks first (once it would pass): a test posting it directly posts the answer too.
CONFIRMED = {"confirmed": "1"}


@pytest.fixture
def step(client, dealer, world):
    """``step("wager", {...}, htmx=True)``: the dealer posts one step at the DP table."""
    client.force_login(dealer)

    def post(name: str, data: dict | None = None, *, htmx: bool = False, table=None):
        url = reverse("dealer-step", args=[(table or world.dp_table).pk, name])
        return client.post(url, data or {}, headers=HTMX if htmx else {})

    return post


def _form(page, step_name: str, table, **hidden: str):
    """The form of ``step_name`` on the page; with ``hidden``, the row's form that carries
    those hidden values (the seat a form belongs to)."""
    action = reverse("dealer-step", args=[table.pk, step_name])
    forms = [
        form
        for form in page.find_all("form", action=action)
        if all(form.find_all("input", name=k, value=str(v)) for k, v in hidden.items())
    ]
    assert len(forms) == 1, f"{len(forms)} {step_name} forms match {hidden}"
    return forms[0]


def _is_play_partial(response) -> bool:
    text = response.content.decode()
    return "<html" not in text and text.lstrip().startswith('<div id="play">')


# --- wagers ----------------------------------------------------------------------------------


def _wagers_form(page, table):
    return _form(page, "wagers", table)


def test_a_wager_off_the_limits_shows_the_R5_message_next_to_that_seats_ante(step, world, started):
    response = step("wagers", {"ante_1": "2", "flush_bonus_1": "5", "ante_5": "10"})

    assert response.status_code == 422
    page = parse(response.content)
    message = "The ante $2.00 is off the limits: it must be between $5.00 and $100.00 (R5)."
    assert error_summary(page) == [
        f"Ante, seat 1: {message}",
        "Nothing was placed: correct the field marked below.",
    ]
    form = _wagers_form(page, world.dp_table)
    assert field_errors(form, "ante_1") == [message]
    assert form.find("input", name="ante_1").attrs["value"] == "2"  # what was typed stays
    assert form.find("input", name="flush_bonus_1").attrs["value"] == "5"
    assert form.find("input", name="ante_5").attrs["value"] == "10"
    assert field_errors(form, "ante_5") == []  # the other seat's wager is untouched
    assert not started.spots.exists()  # all or none: seat 5's good wager is not placed either


def test_every_wrong_field_is_shown_at_once_and_fields_keep_their_width(step, world, started):
    """Every error when several fields are wrong, each next to its own field."""
    response = step("wagers", {"ante_1": "2", "ante_5": "10", "flush_bonus_5": "30"})
    form = _wagers_form(parse(response.content), world.dp_table)
    assert field_errors(form, "ante_1") == [
        "The ante $2.00 is off the limits: it must be between $5.00 and $100.00 (R5)."
    ]
    assert field_errors(form, "flush_bonus_5") == [
        "The flush bonus $30.00 is off the limits: it must be between $1.00 and $25.00 (R5)."
    ]
    # The width is the stylesheet's, not the error's: the wager inputs have a fixed size.
    assert form.find("input", name="ante_1").attrs["size"] == "6"
    assert not started.spots.exists()


def test_each_seats_wager_fields_have_labels_and_ids_of_their_own(step, world, started, client):
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    ids = [node.attrs["id"] for node in page.iter() if "id" in node.attrs]
    assert len(ids) == len(set(ids)), "an id is used twice on the page"
    form = _wagers_form(page, world.dp_table)
    for seat in (1, 5):
        ante = form.find("input", name=f"ante_{seat}")
        assert form.find("label", **{"for": ante.attrs["id"]}).text == f"Ante, seat {seat}"
    assert form.find_all("input", name="ante_3") == []  # seat 3 is the DP: no wagers


def test_chip_buttons_are_the_cardrooms_denominations_within_the_limits(
    client, dealer, world, started
):
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    row = page.by_id("wager-1")
    chips = [b.attrs["data-chip"] for b in row.find_all("button") if "data-chip" in b.attrs]
    assert chips == ["1.00", "5.00", "25.00", "100.00"]  # $500 is above the $100 ante maximum
    limits = page.by_id("limits").text
    assert "Ante $5.00–$100.00" in " ".join(limits.split())
    assert "Bonuses $1.00–$25.00" in " ".join(limits.split())


@pytest.mark.parametrize(
    ("field", "amount", "message"),
    [
        (
            "flush_bonus",
            "30",
            "The flush bonus $30.00 is off the limits: it must be between $1.00 and $25.00 (R5).",
        ),
        (
            "straight_flush_bonus",
            "0.50",
            "The straight flush bonus $0.50 is off the limits: it must be between $1.00 and "
            "$25.00 (R5).",
        ),
    ],
)
def test_a_bonus_off_the_limits_shows_the_R5_message_next_to_that_bonus(
    step, world, started, field, amount, message
):
    response = step("wagers", {"ante_5": "10", f"{field}_5": amount})

    assert response.status_code == 422
    form = _wagers_form(parse(response.content), world.dp_table)
    assert field_errors(form, f"{field}_5") == [message]
    assert field_errors(form, "ante_5") == []


def test_a_wager_the_stack_cannot_complete_shows_the_R7_message_next_to_the_ante(
    step, world, dealer
):
    hand_services.hand_start(table=world.house_table, by=dealer)

    response = step(
        "wagers",
        {"ante_2": "100", "flush_bonus_2": "25", "straight_flush_bonus_2": "25"},
        table=world.house_table,
    )

    assert response.status_code == 422
    form = _wagers_form(parse(response.content), world.house_table)
    assert field_errors(form, "ante_2") == [
        "Devon has $200.00; this spot needs $150.00 in wagers and $100.00 more on the table for "
        "a 1× raise and the fee on each spot (R7)."
    ]


def test_an_amount_that_is_not_money_is_refused_next_to_its_field(step, world, started):
    response = step("wagers", {"ante_1": "ten"})
    assert response.status_code == 422
    [message] = field_errors(_wagers_form(parse(response.content), world.dp_table), "ante_1")
    assert "ten" in message


def test_no_wager_at_all_is_refused_in_words(step, world, started):
    response = step("wagers", {"ante_1": "", "ante_5": ""})
    assert response.status_code == 422
    assert error_summary(parse(response.content)) == [
        "No wagers to place: tap the chips of a seat's ante, or Same as last hand."
    ]


def test_a_bonus_without_an_ante_is_refused_next_to_the_ante(step, world, started):
    response = step("wagers", {"flush_bonus_1": "5"})
    form = _wagers_form(parse(response.content), world.dp_table)
    assert field_errors(form, "ante_1") == ["A bonus needs an ante on the same spot (R5)."]


def test_placed_wagers_redirect_to_the_table_and_leave_the_wager_rows(step, world, started):
    response = step("wagers", {"ante_1": "10", "flush_bonus_1": "5"})

    assert response.status_code == 302
    assert response["Location"] == reverse("dealer-table", args=[world.dp_table.pk])
    spot = started.spots.get()
    assert (spot.seat, spot.ante, spot.flush_bonus) == (1, 10, 5)
    assert Seating.objects.get(pk=world.seats[1].pk).stack == 485  # only chips play (R5)


def test_every_seats_wagers_go_in_one_post(step, world, started):
    response = step("wagers", {"ante_1": "10", "ante_5": "25", "straight_flush_bonus_5": "2"})
    assert response.status_code == 302
    assert {s.seat: (s.ante, s.straight_flush_bonus) for s in started.spots.all()} == {
        1: (10, 0),
        5: (25, 2),
    }


def test_same_as_last_hand_repeats_each_players_last_wagers(step, world, settled, dealer):
    """The whole table in one tap: each player's wagers of their last hand at this table, for
    the seats left empty; a seat typed in keeps what was typed."""
    last = {s.player_id: s for s in settled.spots.all()}
    hand = hand_services.hand_start(table=world.dp_table, by=dealer)
    rows = [s for s in world.seats.values() if s.pk != hand.dp_seating_id]
    response = step("wagers", {"same": "all"})
    assert response.status_code == 302, error_summary(parse(response.content))
    placed = {s.player_id: s for s in hand.spots.all()}
    repeated = [s for s in rows if s.player_id in last]
    assert repeated and set(placed) == {s.player_id for s in repeated}
    for seating in repeated:
        before, now = last[seating.player_id], placed[seating.player_id]
        assert (now.ante, now.flush_bonus, now.straight_flush_bonus) == (
            before.ante,
            before.flush_bonus,
            before.straight_flush_bonus,
        )


def test_an_htmx_wager_gets_the_play_area_alone(step, world, started):
    response = step("wagers", {"ante_1": "10"}, htmx=True)

    assert response.status_code == 200
    assert _is_play_partial(response)
    page = parse(response.content)
    assert error_summary(page) == []
    assert page.by_id("spot-1").find_all("td")[2].text == "$10.00"
    assert page.find("tr", id="seat-1").find("td", class_="stack").text == "$490.00"
    # Seat 1 has its spot: only seat 5 is left to wager (seat 3 is the DP).
    assert [row.attrs["id"] for row in page.by_id("wagers").find_all("tr")[1:]] == ["wager-5"]


def test_an_htmx_refusal_gets_the_play_area_with_the_message_in_place(step, world, started):
    response = step("wagers", {"ante_1": "200"}, htmx=True)

    # 200, so that htmx swaps the message in (it does not swap a 4xx answer by default).
    assert response.status_code == 200
    assert _is_play_partial(response)
    form = _wagers_form(parse(response.content), world.dp_table)
    assert field_errors(form, "ante_1") == [
        "The ante $200.00 is off the limits: it must be between $5.00 and $100.00 (R5)."
    ]


def test_the_table_page_is_the_whole_page_and_the_play_area_is_inside_it(client, dealer, world):
    client.force_login(dealer)
    response = client.get(reverse("dealer-table", args=[world.dp_table.pk]))
    assert response.status_code == 200
    assert "<html" in response.text
    page = parse(response.content)
    assert page.by_id("play").find("h1").text.startswith("Table 1")
    assert [row.attrs["id"] for row in page.by_id("seats").find_all("tr")[1:]] == [
        "seat-1",
        "seat-3",
        "seat-5",
    ]


# --- start: the rotation and the DP's bank ---------------------------------------------------


def test_seats_refuse_the_button_one_tap_each_and_the_next_one_takes_it(step, world, client):
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    boxes = _form(page, "start", world.dp_table).find_all("input", name="refusals")
    assert [(box.attrs["type"], box.attrs["value"]) for box in boxes] == [
        ("checkbox", "1"),
        ("checkbox", "3"),
        ("checkbox", "5"),
    ]

    response = step("start", {"refusals": ["1", "3"]})

    assert response.status_code == 302
    hand = Hand.objects.get(table=world.dp_table)
    assert hand.dp_seating_id == world.seats[5].pk
    offers = {offer["seat"]: offer["outcome"] for offer in hand.rotation.offers}
    assert offers == {1: "refused", 3: "refused", 5: "accepted"}
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    assert page.by_id("seat-5").find("span", class_="button-dp").text == "D"
    assert page.by_id("seat-1").find_all("span", class_="button-dp") == []
    assert "DP seat 5 (Casey), bank $400.00" in page.by_id("hand").find_all("h2")[0].text


def test_the_dp_bank_is_asked_after_the_rotation_names_the_dp_with_its_stack(step, world, client):
    """Once, the bank was asked before anyone knew who the DP would be."""
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    assert _form(page, "start", world.dp_table).find_all("input", name="dp_bank") == []

    step("start", {"refusals": ["1", "3"]})  # seat 5, Casey ($400), takes the button
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    form = _form(page, "bank", world.dp_table)
    assert "seat 5 · Casey, stack $400.00" in " ".join(form.text.split())
    assert form.find("input", name="dp_bank").attrs["value"] == "400"  # the whole stack

    response = step("bank", {"dp_bank": "10000"})
    assert response.status_code == 422
    form = _form(parse(response.content), "bank", world.dp_table)
    message = "The designated player's bank must be between $1.00 and the stack $400.00 (R12, R13)."
    assert field_errors(form, "dp_bank") == [message]
    assert form.find("input", name="dp_bank").attrs["value"] == "10000"

    assert step("bank", {"dp_bank": "150"}).status_code == 302
    hand = Hand.objects.get(table=world.dp_table)
    assert hand.dp_bank == 150
    assert Seating.objects.get(pk=world.seats[5].pk).stack == 250
    event = AuditEvent.objects.order_by("-seq").first()
    assert event.action == "hand.dp_bank_set"
    assert json.loads(event.payload) == {
        "number": 1,
        "dp_seat": 5,
        "dp_bank": "150.00",
        "was": "400.00",
    }


def test_the_dp_bank_is_not_changed_once_someone_has_wagered(step, world, started):
    step("wagers", {"ante_1": "10"})
    response = step("bank", {"dp_bank": "100"})
    assert error_summary(parse(response.content)) == [
        "DP's bank: Hand 1 has wagers: the DP's bank is set before the first wager."
    ]
    started.refresh_from_db()
    assert started.dp_bank == 300


def test_an_empty_dp_bank_is_refused_in_words(step, world, started):
    response = step("bank", {"dp_bank": ""})
    assert error_summary(parse(response.content)) == [
        "DP's bank: Enter the DP's bank: the chips it puts in action."
    ]


def test_when_every_seat_refuses_the_game_stops_with_every_answer_shown(step, world):
    response = step("start", {"refusals": ["1", "3", "5"]})

    assert response.status_code == 422
    [message] = error_summary(parse(response.content))
    assert message.startswith("No seat accepts the designated-player position")
    assert "seat 1 refused; seat 3 refused; seat 5 refused" in message
    assert not Hand.objects.exists()
    assert RotationRecord.objects.get().designated_player is None  # the offers are kept (R16)


def test_a_house_banked_table_starts_without_a_rotation(step, world, client):
    page = parse(client.get(reverse("dealer-table", args=[world.house_table.pk])).content)
    assert _form(page, "start", world.house_table).find_all("input", name="refusals") == []

    response = step("start", htmx=True, table=world.house_table)

    assert response.status_code == 200
    hand = Hand.objects.get(table=world.house_table)
    assert hand.dp_seating is None and hand.rotation is None
    page = parse(response.content)
    assert page.find_all("span", class_="button-dp") == []
    assert len(page.by_id("wagers").find_all("tr")) == 3  # a header row and two seats


# --- cards -----------------------------------------------------------------------------------

DEALT_TWICE = "Qh 8h 3d 4c Td 6s Ks"  # Ks is the dealer's


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (
            "Qh 8h 3d 4c Td 6s Zz",
            "'Zz' is not a card: write rank then suit, like As, Td, 10h or 9c (R1).",
        ),
        (
            "Qh 8h 3d 4c Td 6s",
            "A hand is exactly 7 cards; 6 were entered (R1). If the dealer dealt the wrong "
            "number, declare the spot dead or the round a misdeal.",
        ),
        ("Qh 8h 3d 4c Td 6s Qh", "Qh is entered twice (R1)."),
        (DEALT_TWICE, "Ks is in another hand already: a card is dealt once (R1)."),
    ],
    ids=["not-a-card", "six-cards", "twice-in-a-hand", "dealt-twice"],
)
def test_bad_cards_show_the_R1_message_next_to_that_seats_cards(
    step, world, wagered, cards, message
):
    data = {"dealer_cards": DEALER_CARDS, "cards_1": STRONG, "cards_5": cards}

    response = step("cards", data)

    assert response.status_code == 422
    page = parse(response.content)
    form = page.by_id("cards-form")
    assert field_errors(form, "cards_5") == [message]
    assert field_errors(form, "cards_1") == []
    assert field_errors(form, "dealer_cards") == []
    assert error_summary(page) == [f"Seat 5: {message}"]
    # What was typed stays in the fields, to be put right.
    assert form.find("input", name="cards_5").attrs["value"] == cards
    assert form.find("input", name="dealer_cards").attrs["value"] == DEALER_CARDS
    wagered.refresh_from_db()
    assert wagered.status == Hand.Status.WAGERING and wagered.dealer_cards == ""


def test_the_dealers_cards_are_checked_too(step, world, wagered):
    data = {"dealer_cards": "Ks 9s 4s 2c 7h 8c", "cards_1": STRONG, "cards_5": WEAK}
    response = step("cards", data, htmx=True)
    form = parse(response.content).by_id("cards-form")
    assert field_errors(form, "dealer_cards")[0].startswith("A hand is exactly 7 cards; 6 were")


def test_every_live_spot_needs_its_cards(step, world, wagered):
    response = step("cards", {"dealer_cards": DEALER_CARDS, "cards_1": STRONG})
    assert response.status_code == 422
    assert field_errors(parse(response.content).by_id("cards-form"), "cards_5") == [
        "Seat 5's seven cards are missing."
    ]


def test_cards_in_any_case_and_with_10_are_stored_in_canonical_notation(step, world, wagered):
    data = {
        "dealer_cards": DEALER_CARDS.lower(),
        "cards_1": STRONG,
        "cards_5": "qh 8H 3d 4C 10d 6s js",
    }

    response = step("cards", data, htmx=True)

    assert response.status_code == 200
    assert error_summary(parse(response.content)) == []
    wagered.refresh_from_db()
    assert wagered.status == Hand.Status.DEALT
    assert sorted(wagered.spots.get(seat=5).cards.split()) == sorted(WEAK.split())


def test_the_card_picker_offers_every_card_before_the_deal(client, dealer, world, wagered):
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    form = page.by_id("cards-form")
    buttons = form.find("div", class_="deck").find_all("button")
    assert len(buttons) == 52
    assert len({b.attrs["data-card"] for b in buttons}) == 52
    assert not any("disabled" in b.attrs for b in buttons)
    # In deal order: the spots clockwise from seat 1, the dealer's hand last.
    fields = form.find_all("input", **{"data-cards": ""})
    assert [i.attrs["name"] for i in fields] == ["cards_1", "cards_5", "dealer_cards"]
    # The picker fills them: no soft keyboard on a tablet (a keyboard still types).
    assert {i.attrs["inputmode"] for i in fields} == {"none"}
    # Suit symbols on the four-colour deck: the class names the suit, the text shows it.
    ace = form.find("button", **{"data-card": "Ah"})
    assert ace.text == "A♥" and ace.attrs["class"] == "h"
    assert form.find("button", **{"data-card": "Tc"}).text == "T♣"
    assert {"undo-card", "type-cards"} <= {b.attrs.get("id") for b in form.find_all("button")}
    # Greying out the cards typed or tapped is the picker's script (tests/browser).
    assert page.find("script", src="/static/cards.js")


def test_once_dealt_the_cards_show_in_the_hand_and_the_picker_is_gone(client, dealer, world, dealt):
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    assert page.find_all("div", class_="deck") == []
    dealt_cards = [n.attrs["data-dealt"] for n in page.by_id("hand").find_all("strong")]
    assert sorted(dealt_cards) == sorted(DEALER_CARDS.split())
    spot_1 = [n.attrs["data-dealt"] for n in page.by_id("spot-1").find_all("span")]
    assert sorted(spot_1) == sorted(STRONG.split())


# --- decisions -------------------------------------------------------------------------------


def _decisions_form(page, table):
    return _form(page, "decisions", table)


def test_a_raise_above_the_cap_shows_the_R8_message_next_to_that_spots_raise(step, world, dealt):
    response = step(
        "decisions", {"decision_1": "raise", "raise_amount_1": "20", "decision_5": "fold"}
    )

    assert response.status_code == 422
    page = parse(response.content)
    message = (
        "The raise $20.00 is off the limits: with a 4-card flush it must be between the ante "
        "$10.00 and 1× the ante $10.00 (R8)."
    )
    assert error_summary(page) == [
        f"Raise, seat 1: {message}",
        "No decision was recorded: correct the field marked below.",
    ]
    form = _decisions_form(page, world.dp_table)
    assert field_errors(form, "raise_amount_1") == [message]
    assert field_errors(form, "raise_amount_5") == []
    assert set(dealt.spots.values_list("decision", flat=True)) == {""}  # all or none


def test_a_raise_below_the_ante_is_refused_too(step, world, dealt):
    response = step(
        "decisions",
        {"decision_1": "fold", "decision_5": "raise", "raise_amount_5": "5"},
        htmx=True,
    )
    form = _decisions_form(parse(response.content), world.dp_table)
    assert field_errors(form, "raise_amount_5") == [
        "The raise $5.00 is off the limits: with a 2-card flush it must be between the ante "
        "$10.00 and 1× the ante $10.00 (R8)."
    ]


def test_a_fold_with_an_amount_is_refused_next_to_the_amount(step, world, dealt):
    response = step("decide", {"seat": "5", "decision": "fold", "raise_amount": "10"})
    assert error_summary(parse(response.content)) == ["Raise: Only a raise has an amount (R8)."]


def test_a_raise_with_no_amount_is_refused_in_words_not_a_nonetype(step, world, dealt):
    """Once, an empty raise said "a NoneType is not accepted"."""
    message = "Enter the raise: from the ante up to the cap the spot's flush allows (R8)."
    response = step("decide", {"seat": "1", "decision": "raise", "raise_amount": ""})
    assert error_summary(parse(response.content)) == [f"Raise: {message}"]
    response = step("decisions", {"decision_1": "raise", "raise_amount_1": "", "decision_5": ""})
    page = parse(response.content)
    assert not any("NoneType" in line for line in error_summary(page))
    form = _decisions_form(page, world.dp_table)
    assert field_errors(form, "raise_amount_1") == [message]
    # Every wrong field at once: seat 5's missing decision too.
    assert "Seat 5: Seat 5 has no decision: raise or fold." in error_summary(page)


def test_each_spot_shows_its_flush_and_cap_and_the_raise_defaults_to_the_cap(
    client, dealer, world, dealt
):
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    form = _decisions_form(page, world.dp_table)
    # R8: seat 1's four-card flush allows 1× the $10 ante; the raise is pre-filled at the cap.
    cap = " ".join(form.by_id("decide-1").find("td", class_="cap").text.split())
    assert cap == "Flush of 4 cards: raise up to 1× the ante = $10.00"
    assert form.find("input", name="raise_amount_1").attrs["value"] == "10"
    # One tap each: raise (at the cap) or fold, both radio choices of the spot's one field.
    values = [i.attrs["value"] for i in form.find_all("input", name="decision_1")]
    assert values == ["raise", "fold", "walked_away"]


def test_all_decisions_and_the_settlement_go_in_one_post(step, world, dealt):
    response = step(
        "decisions",
        {
            "decision_1": "raise",
            "raise_amount_1": "10",
            "decision_5": "fold",
            "settle": "1",
            **CONFIRMED,
        },
    )
    assert response.status_code == 302
    dealt.refresh_from_db()
    assert dealt.status == Hand.Status.SETTLED
    assert {s.seat: s.decision for s in dealt.spots.all()} == {1: "raise", 5: "fold"}


def test_the_decisions_and_the_settlement_are_one_service_call(step, world, dealt, monkeypatch):
    """Views stay thin (design.md): the screen hands the decisions and the settle to one
    service, which records both in one transaction; the audit log reads as before."""
    called: list[str] = []

    class Recording:
        def __getattr__(self, name):
            service = getattr(hand_services, name)

            def call(*args, **kwargs):
                called.append(name)
                return service(*args, **kwargs)

            return call

    monkeypatch.setattr(dealer_screen, "services", Recording())
    before = last_seq()

    response = step(
        "decisions",
        {
            "decision_1": "raise",
            "raise_amount_1": "10",
            "decision_5": "fold",
            "settle": "1",
            **CONFIRMED,
        },
    )

    assert response.status_code == 302
    assert called == ["hand_decide_and_settle"]
    actions = AuditEvent.objects.filter(seq__gt=before).order_by("seq")
    assert list(actions.values_list("action", flat=True)) == ["hand.decision", "hand.settled"]


# --- a whole hand ----------------------------------------------------------------------------


def _r13_order(dp: int, seats: list[int]) -> list[int]:
    """R13: from the DP's right, counter-clockwise: descending seats below the DP's, then
    descending from the top seat down to the DP's left."""
    below = sorted((s for s in seats if s < dp), reverse=True)
    above = sorted((s for s in seats if s > dp), reverse=True)
    return below + above


def _headline(td) -> str:
    """A cell's own text, without the lines under it (a spot's hand, why a wager won)."""
    said = [
        child.strip() if isinstance(child, str) else child.text
        for child in td.children
        if isinstance(child, str) or child.tag not in ("small", "div", "br")
    ]
    return " ".join(text for text in said if text)


def _signed(amount: str) -> str:
    """A net as the screen shows it: ``+$29.00``, ``-$11.00``, ``$0.00``."""
    if amount.startswith("-"):
        return f"-${amount[1:]}"
    return f"+${amount}" if amount != "0.00" else f"${amount}"


def test_a_full_hand_played_through_the_steps_ends_with_its_settlement_on_the_page(
    step, client, world
):
    table = world.dp_table
    stacks_before = {seat: s.stack for seat, s in world.seats.items()}

    # Start: the first hand of the session goes by a high-card draw (R16).
    assert step("start").status_code == 302
    hand = Hand.objects.get(table=table)
    assert hand.rotation.method == "draw"
    dp = hand.dp_seating.seat
    first, second = sorted(set(world.seats) - {dp})

    # Wagers, every seat's in one htmx post.
    response = step(
        "wagers",
        {f"ante_{first}": "10", f"flush_bonus_{first}": "5", f"ante_{second}": "10"},
        htmx=True,
    )
    assert response.status_code == 200 and error_summary(parse(response.content)) == []

    # Cards, typed (the picker fills the same fields).
    response = step(
        "cards",
        {"dealer_cards": DEALER_CARDS, f"cards_{first}": STRONG, f"cards_{second}": WEAK},
        htmx=True,
    )
    page = parse(response.content)
    assert error_summary(page) == [] and page.by_id("hand").attrs["data-status"] == "dealt"
    assert page.find_all(id="settle") == []  # not before every spot has decided

    # Decisions: the strong hand raises 1× (a four-card flush, R8), the weak one folds.
    step("decide", {"seat": first, "decision": "raise", "raise_amount": "10"}, htmx=True)
    response = step("decide", {"seat": second, "decision": "fold"}, htmx=True)
    page = parse(response.content)
    assert page.find_all(id="decisions") == []
    assert page.by_id("settle").text == "Settle"

    response = step("settle", CONFIRMED, htmx=True)

    assert response.status_code == 200 and _is_play_partial(response)
    page = parse(response.content)
    panel = page.by_id("settlement")
    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    stored = selectors.settlement_in_force(hand)
    result = stored.result

    # What the page shows, by the rules: the dealer qualifies (K-9-4, R4); the four-card flush
    # beats it (R2): ante, raise and the Flush Bonus at 2 to 1 (R9, R10) win; the fold loses
    # its ante; every spot and the DP pay the $1 fee (R12, all_players).
    assert panel.find("h2").text == "Hand 1 settled"
    rows = {seat: panel.by_id(f"result-{seat}") for seat in (first, second)}
    cells = {seat: [_headline(td) for td in row.find_all("td")] for seat, row in rows.items()}
    names = {seat: str(world.seats[seat].player) for seat in world.seats}
    # Each spot with its player's name, in dollars, and what the dealer pays or takes, the fee
    # said apart from the wagers (R12).
    assert cells[first] == [
        str(first),
        names[first],
        "raised",
        "win +$10.00",
        "win +$10.00",
        "win +$10.00",
        "",
        "$1.00",
        "+$29.00",
        "pay $30.00, collect the $1.00 fee",
    ]
    assert cells[second] == [
        str(second),
        names[second],
        "folded",
        "lose -$10.00",
        "",
        "",
        "",
        "$1.00",
        "-$11.00",
        "take $10.00, collect the $1.00 fee",
    ]
    # Why each line came out so: R9 for the ante and raise, the paytable line for the bonus.
    whys = [small.text for small in rows[first].find_all("small", class_="why")]
    assert whys == [
        "beats the dealer's flush, 1 to 1",
        "beats the dealer's flush, 1 to 1",
        "4-card flush, 2 to 1",
    ]
    assert panel.by_id("dealer-net").text == "-$21.00"
    assert panel.by_id("house-rake").text == "$3.00"
    assert panel.by_id("dealer-qualified").text == "qualified"  # K-9-4 of spades (R4)
    boxes = {
        div.children[0].strip(): div.find("span").text
        for div in panel.find("div", class_="row").find_all("div")
    }
    assert boxes == {
        f"DP seat {dp} · {names[dp]} net": "-$21.00",
        "DP fee": "$1.00",
        "House rake": "$3.00",
        "Dealer": "qualified",
        "Settlement order": " → ".join(map(str, _r13_order(dp, [first, second]))),
    }

    # The stored settlement is what the page shows, line by line.
    assert result["settlement_order"] == _r13_order(dp, [first, second])
    assert panel.by_id("dealer-net").text == _signed(result["dealer"]["net"])
    assert panel.by_id("house-rake").text == "$" + result["house_rake"]
    for line in result["spots"]:
        seat = line["seat"]
        expected = [str(seat), names[seat], {"played": "raised"}.get(line["status"], "folded")]
        for wager in ("ante", "raise", "flush_bonus", "straight_flush_bonus"):
            w = line[wager]
            expected.append(f"{w['outcome']} {_signed(w['net'])}" if w else "")
        expected += ["$" + line["rake"], _signed(line["net"])]
        assert cells[seat][:-1] == expected
    booked = {row.seat: row.net for row in SpotSettlement.objects.filter(settlement=stored)}
    assert {seat: _signed(f"{net:.2f}") for seat, net in booked.items()} == {
        seat: cells[seat][-2] for seat in cells
    }
    assert _signed(f"{stored.dealer_net:.2f}") == panel.by_id("dealer-net").text
    assert f"${stored.house_rake:.2f}" == panel.by_id("house-rake").text

    # The chips moved as settled, and the seats show the new stacks.
    nets = {first: 29, second: -11, dp: -21}
    for seat, seating in world.seats.items():
        seating.refresh_from_db()
        assert seating.stack == stacks_before[seat] + nets[seat]
        stack = page.by_id(f"seat-{seat}").find("td", class_="stack").text
        assert stack == f"${seating.stack:,.2f}"

    # The next hand can start; the settlement stays on the page until then.
    page = parse(client.get(reverse("dealer-table", args=[table.pk])).content)
    assert page.by_id("settlement").by_id("dealer-net").text == "-$21.00"
    assert page.find_all(id="start")


def test_settling_before_the_decisions_is_refused_with_what_it_waits_for(step, world, dealt):
    # There is no Settle button yet; a post anyway is refused, the hand unchanged.
    response = step("settle")
    assert response.status_code == 422
    assert error_summary(parse(response.content)) == [
        "Hand 1 cannot settle yet: waiting for the decision of seat 1, 5."
    ]


def test_a_dead_spot_is_declared_from_the_screen_and_settles_returned(step, world, dealt):
    response = step("dead", {"seat": "5"}, htmx=True)
    page = parse(response.content)
    assert page.by_id("spot-5").find("span", class_="tag").text == "dead: wrong number of cards"
    assert [row.attrs["id"] for row in page.by_id("decisions").find_all("tr")] == ["decide-1"]

    step("decide", {"seat": "1", "decision": "raise", "raise_amount": "10"})
    page = parse(step("settle", CONFIRMED, htmx=True).content)

    # R14: the spot's ante goes back, said where the dealer reads pay and take.
    row = [td.text for td in page.by_id("result-5").find_all("td")]
    assert row[0] == "5" and row[1].startswith("Casey")
    assert row[2:] == [
        "dead: wrong number of cards",
        "returned $10.00",
        "",
        "",
        "",
        "$0.00",
        "$0.00",
        "return $10.00 (ante 10)",
    ]


def test_a_misdeal_is_declared_with_its_reason_and_every_wager_goes_back(step, world, wagered):
    response = step("misdeal", {"reason": "shuffler_fault"}, htmx=True)

    page = parse(response.content)
    panel = page.by_id("settlement")
    assert panel.find("h2").text == "Hand 1 settled — misdeal (shuffler fault)"
    for seat in (1, 5):
        assert [td.text for td in panel.by_id(f"result-{seat}").find_all("td")][2] == (
            "dead: misdeal"
        )
        assert panel.by_id(f"result-{seat}").find_all("td")[-2].text == "$0.00"
    assert panel.by_id("dealer-net").text == "$0.00"
    wagered.refresh_from_db()
    assert wagered.status == Hand.Status.DEAD and wagered.misdeal == "shuffler_fault"


def test_a_misdeal_needs_a_known_reason(step, world, wagered):
    response = step("misdeal", {"reason": "spilled_drink"})
    assert response.status_code == 422
    [message] = error_summary(parse(response.content))
    assert message.startswith("Reason: Select a valid choice.")


def test_a_hand_without_wagers_can_be_cancelled(step, world, started):
    response = step("cancel")
    assert response.status_code == 302
    started.refresh_from_db()
    assert started.status == Hand.Status.DEAD
    assert Seating.objects.get(pk=world.seats[3].pk).stack == 300  # the DP's bank went back


# --- seats and chips -------------------------------------------------------------------------


def test_a_player_is_seated_from_the_screen_and_a_taken_seat_is_refused_next_to_it(
    step, world, client
):
    response = step("seat", {"seat": "1", "name": "Frankie", "buy_in": "100"})
    assert response.status_code == 422
    page = parse(response.content)
    form = _form(page, "seat", world.dp_table)
    assert field_errors(form, "seat") == ["Seat 1 at Table 1 is taken."]
    assert "open" in form.closest("details").attrs  # the seating panel stays open

    response = step("seat", {"seat": "2", "name": "Frankie", "buy_in": "100"}, htmx=True)
    page = parse(response.content)
    assert page.by_id("seat-2").find_all("td")[1].text == "Frankie"
    assert page.by_id("seat-2").find("td", class_="stack").text == "$100.00"


def test_seating_needs_a_player(step, world):
    response = step("seat", {"seat": "2"})
    form = _form(parse(response.content), "seat", world.dp_table)
    assert field_errors(form, "player") == ["Choose a player, or type a new player's name."]


def test_chips_are_added_and_a_cash_out_above_the_stack_is_refused_next_to_the_amount(step, world):
    seating = world.seats[1]
    response = step("stack", {"seating": seating.pk, "action": "add", "amount": "50"}, htmx=True)
    assert parse(response.content).by_id("seat-1").find("td", class_="stack").text == "$550.00"

    response = step("stack", {"seating": seating.pk, "action": "cash_out", "amount": "1000"})

    assert response.status_code == 422
    page = parse(response.content)
    message = "The stack holds $550.00; $1000.00 cannot be cashed out."
    assert error_summary(page) == [f"Amount: {message}"]
    row = page.by_id("seat-1")
    assert [li.text for li in row.find("ul", class_="errorlist").find_all("li")] == [message]
    assert page.by_id("seat-5").find_all("ul", class_="errorlist") == []


# --- who may act -----------------------------------------------------------------------------


def test_a_dealer_not_on_duty_here_is_refused_and_the_refusal_is_recorded(
    client, make_user, world, started
):
    other = make_user("dealer2", role=DEALER)
    client.force_login(other)
    before = last_seq()

    response = client.post(
        reverse("dealer-step", args=[world.dp_table.pk, "wager"]),
        {"seating": world.seats[1].pk, "ante": "10"},
    )

    # Refused before the step: the answer would show the table's play, its cards.
    assert response.status_code == 403
    message = "Another dealer is on duty at this table: only they and the floor see its play."
    assert message in response.content.decode()
    assert not started.spots.exists()
    [event] = AuditEvent.objects.filter(seq__gt=before)
    assert event.action == "permission.refused" and event.actor_id == other.pk
    assert json.loads(event.payload)["message"] == message


def test_a_dealer_opens_a_closed_table_as_its_dealer_on_duty(client, make_user, world, supervisor):
    table = table_create(
        cardroom=world.cardroom, name="Table 3", banking="designated_player", by=supervisor
    )
    other = make_user("dealer2", role=DEALER)
    client.force_login(other)
    page = parse(client.get(reverse("dealer-table", args=[table.pk])).content)
    assert "This table is closed." in page.by_id("play").text

    response = client.post(reverse("dealer-step", args=[table.pk, "open"]), headers=HTMX)

    assert response.status_code == 200
    assert "open · dealer dealer2" in parse(response.content).by_id("play").find("h1").text
    response = client.post(reverse("dealer-step", args=[table.pk, "open"]))
    assert response.status_code == 422
    assert error_summary(parse(response.content)) == ["Table 3 is open already."]


# --- second spots, proposition players, the rotation's offers --------------------------------


def test_the_hand_shows_the_rotations_offers_with_the_draw_cards(client, dealer, world, started):
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    offers = page.by_id("offers").text
    for offer in started.rotation.offers:
        assert f"seat {offer['seat']}" in offers
        # the first hand's high-card draw (R16), with its suit's symbol
        assert (
            offer["card"][0] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[offer["card"][1]] in offers
        )


def test_a_player_on_one_spot_takes_a_second_at_an_empty_seat_r6(step, world, started, dealer):
    seat_1 = Seating.objects.get(table=world.dp_table, seat=1, left_at=None)
    hand_services.wager_place(hand=started, seating=seat_1, ante="10", by=dealer)
    response = step(
        "wager", {"second": "1", "seating": seat_1.pk, "seat": "2", "ante": "10"}, htmx=True
    )
    assert response.status_code == 200
    assert sorted(started.spots.filter(seating=seat_1).values_list("seat", flat=True)) == [1, 2]


def test_a_second_spot_below_double_the_minimum_ante_is_refused_with_the_r6_message(
    step, world, started, dealer
):
    seat_1 = Seating.objects.get(table=world.dp_table, seat=1, left_at=None)
    hand_services.wager_place(hand=started, seating=seat_1, ante="5", by=dealer)
    response = step("wager", {"second": "1", "seating": seat_1.pk, "seat": "2", "ante": "5"})
    assert response.status_code == 422
    assert "on each of a player's two spots (R6)" in html.unescape(response.text)
    assert started.spots.count() == 1


def test_a_supervisor_flags_the_proposition_player_from_the_seats(client, supervisor, world):
    client.force_login(supervisor)
    seating = Seating.objects.get(table=world.dp_table, seat=5, left_at=None)
    url = reverse("dealer-step", args=[world.dp_table.pk, "stack"])
    response = client.post(url, {"seating": seating.pk, "action": "prop"})
    assert response.status_code == 302
    seating.refresh_from_db()
    assert seating.proposition_player


def test_a_dealer_cannot_flag_a_proposition_player(step, world):
    seating = Seating.objects.get(table=world.dp_table, seat=5, left_at=None)
    response = step("stack", {"seating": seating.pk, "action": "prop"})
    assert response.status_code == 422
    assert "Only a floor supervisor may flag a proposition player." in response.text
    seating.refresh_from_db()
    assert not seating.proposition_player


# --- safe and plain --------------------------------------------------------------------------


def test_cash_out_with_an_empty_amount_is_refused_naming_the_amount(step, world):
    """Once, an empty Cash out emptied the stack; nothing moves money on an empty field."""
    seating = world.seats[1]
    seq = last_seq()
    for amount in ("", "  "):
        response = step("stack", {"seating": seating.pk, "action": "cash_out", "amount": amount})
        assert response.status_code == 422
        page = parse(response.content)
        message = "Enter the amount to cash out: the amount field is empty."
        assert error_summary(page) == [f"Amount: {message}"]
        row = page.by_id("seat-1")
        assert [li.text for li in row.find("ul", class_="errorlist").find_all("li")] == [message]
    seating.refresh_from_db()
    assert seating.stack == 500  # untouched
    assert last_seq() == seq  # and nothing recorded as done


def test_adding_chips_with_an_empty_amount_is_refused_too(step, world):
    response = step("stack", {"seating": world.seats[1].pk, "action": "add", "amount": ""})
    assert error_summary(parse(response.content)) == [
        "Amount: Enter the amount to add: the amount field is empty."
    ]


def test_every_irreversible_action_asks_for_confirmation(client, dealer, world, dealt):
    """Settle, misdeal, dead spot, cash out and leave each carry the question the screen's
    script asks (window.confirm) before the form is sent; the browser test answers it."""
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    asks = {
        b.attrs.get("id") or b.attrs.get("value") or b.text: b.attrs["data-confirm"]
        for b in page.iter()
        if b.tag == "button" and "data-confirm" in b.attrs
    }
    # Settle is checked first and asks once it would pass (tests/screens/test_dealer_flow.py).
    assert "decide-and-settle" not in asks
    assert asks["Misdeal"].startswith("Declare hand 1 a misdeal?")
    dead = [q for q in asks.values() if "dead for a wrong number of cards" in q]
    assert len(dead) == 2  # one a live spot
    cash_outs = [q for k, q in asks.items() if k == "cash_out"]
    assert cash_outs
    # Every seat is in the hand: Leave is refused in words until it settles, so it asks
    # nothing (a seat out of the hand asks: tests/screens/test_dealer_flow.py).
    assert "data-confirm" not in page.by_id("seat-5").find("button", value="leave").attrs


def test_a_house_banked_table_shows_no_dp_controls(client, dealer, world):
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.house_table.pk])).content)
    values = {b.attrs.get("value") for b in page.by_id("seats").find_all("button")}
    assert not values & {"waive", "unwaive"}
    assert "DP" not in page.by_id("seats").text
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    values = {b.attrs.get("value") for b in page.by_id("seats").find_all("button")}
    assert "waive" in values


def test_a_spot_the_dps_bank_could_not_cover_says_so_and_what_it_would_have_won(
    step, world, dealer
):
    """R13: a $12 bank ($11 after the DP's $1 fee). Seat 1 settles first (the DP's right) and
    wins $20 with its raise: more than the bank, so it is dead (R14), its wagers returned; the
    screen says why in words and what it would have won, computed by settling the same round
    with a bank that covers it."""
    hand = hand_services.hand_start(
        table=world.dp_table, by=dealer, draw_cards=DRAW_SEAT_3, dp_bank="12"
    )
    assert hand.dp_seating.seat == 3
    for seat in (1, 5):
        hand_services.wager_place(hand=hand, seating=world.seats[seat], ante="10", by=dealer)
    hand_services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_CARDS, spot_cards={1: STRONG, 5: WEAK}, by=dealer
    )
    response = step(
        "decisions",
        {
            "decision_1": "raise",
            "raise_amount_1": "10",
            "decision_5": "fold",
            "settle": "1",
            **CONFIRMED,
        },
        htmx=True,
    )
    panel = parse(response.content).by_id("settlement")
    cells = [td.text for td in panel.by_id("result-1").find_all("td")]
    assert cells[2] == "dead: the DP's bank could not cover it — would have won +$20.00"
    assert "dealer_funds" not in panel.text
    assert [td.text for td in panel.by_id("result-5").find_all("td")][-1] == (
        "take $10.00, collect the $1.00 fee"
    )


def test_every_wrong_hand_is_shown_at_once(step, world, wagered):
    """Several wrong fields, every error shown, each next to its own field."""
    data = {"dealer_cards": "Ks 9s 4s 2c 7h 8c", "cards_1": "Ah Th 6h 2h Jd 5c Zz", "cards_5": WEAK}
    form = parse(step("cards", data).content).by_id("cards-form")
    assert field_errors(form, "dealer_cards")[0].startswith("A hand is exactly 7 cards; 6 were")
    assert len(field_errors(form, "cards_1")) == 1 and "Zz" in field_errors(form, "cards_1")[0]
    assert field_errors(form, "cards_5") == []
