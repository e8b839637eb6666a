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
from cardroom.kernel.roles import DEALER
from tables import services as table_services
from tables.models import RotationRecord, Seating
from wagers import selectors
from wagers import services as hand_services
from wagers.models import Hand, SpotSettlement

from .support import DEALER_CARDS, STRONG, WEAK, error_summary, field_errors, last_seq, parse

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


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


def test_a_wager_off_the_limits_shows_the_R5_message_next_to_that_seats_ante(step, world, started):
    response = step("wager", {"seating": world.seats[1].pk, "ante": "2", "flush_bonus": "5"})

    assert response.status_code == 422
    page = parse(response.content)
    message = "The ante $2.00 is off the limits: it must be between $5.00 and $100.00 (R5)."
    assert error_summary(page) == [f"Ante: {message}"]
    seat_1 = _form(page, "wager", world.dp_table, seating=world.seats[1].pk)
    assert field_errors(seat_1, "ante") == [message]
    assert seat_1.find("input", name="ante").attrs["value"] == "2"  # what was typed stays
    assert seat_1.find("input", name="flush_bonus").attrs["value"] == "5"
    seat_5 = _form(page, "wager", world.dp_table, seating=world.seats[5].pk)
    assert field_errors(seat_5, "ante") == []  # the other seat's form is untouched
    assert not started.spots.exists()


def test_each_seats_wager_form_has_labels_and_ids_of_its_own(step, world, started, client):
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    ids = [node.attrs["id"] for node in page.iter() if "id" in node.attrs]
    assert len(ids) == len(set(ids)), "an id is used twice on the page"
    for seat in (1, 5):
        form = _form(page, "wager", world.dp_table, seating=world.seats[seat].pk)
        ante = form.find("input", name="ante")
        assert form.find("label", **{"for": ante.attrs["id"]}).text == "Ante:"


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
    response = step("wager", {"seating": world.seats[5].pk, "ante": "10", field: amount})

    assert response.status_code == 422
    form = _form(parse(response.content), "wager", world.dp_table, seating=world.seats[5].pk)
    assert field_errors(form, field) == [message]
    assert field_errors(form, "ante") == []


def test_a_wager_the_stack_cannot_complete_shows_the_R7_message_next_to_the_ante(
    step, world, dealer
):
    hand_services.hand_start(table=world.house_table, by=dealer)
    seating = world.house_seats[2]

    response = step(
        "wager",
        {
            "seating": seating.pk,
            "ante": "100",
            "flush_bonus": "25",
            "straight_flush_bonus": "25",
        },
        table=world.house_table,
    )

    assert response.status_code == 422
    form = _form(parse(response.content), "wager", world.house_table, seating=seating.pk)
    assert field_errors(form, "ante") == [
        "Devon has $200.00; this spot needs $150.00 in wagers and $100.00 more on the table for "
        "a 1× raise and the fee on each spot (R7)."
    ]


def test_an_amount_that_is_not_money_is_refused_next_to_its_field(step, world, started):
    response = step("wager", {"seating": world.seats[1].pk, "ante": "ten"})
    assert response.status_code == 422
    form = _form(parse(response.content), "wager", world.dp_table, seating=world.seats[1].pk)
    [message] = field_errors(form, "ante")
    assert "ten" in message


def test_an_empty_ante_is_required(step, world, started):
    response = step("wager", {"seating": world.seats[1].pk, "ante": ""})
    assert response.status_code == 422
    form = _form(parse(response.content), "wager", world.dp_table, seating=world.seats[1].pk)
    assert field_errors(form, "ante") == ["This field is required."]


def test_a_placed_wager_redirects_to_the_table_and_leaves_the_wager_rows(step, world, started):
    response = step("wager", {"seating": world.seats[1].pk, "ante": "10", "flush_bonus": "5"})

    assert response.status_code == 302
    assert response["Location"] == reverse("dealer-table", args=[world.dp_table.pk])
    spot = started.spots.get()
    assert (spot.seat, spot.ante, spot.flush_bonus) == (1, 10, 5)
    assert Seating.objects.get(pk=world.seats[1].pk).stack == 485  # only chips play (R5)


def test_an_htmx_wager_gets_the_play_area_alone(step, world, started):
    response = step("wager", {"seating": world.seats[1].pk, "ante": "10"}, htmx=True)

    assert response.status_code == 200
    assert _is_play_partial(response)
    page = parse(response.content)
    assert error_summary(page) == []
    assert page.by_id("spot-1").find_all("td")[2].text == "10.00"
    assert page.find("tr", id="seat-1").find("td", class_="stack").text == "490.00"
    # Seat 1 has its spot: only seat 5 is left to wager (seat 3 is the DP).
    assert [row.find_all("td")[0].text for row in page.by_id("wagers").find_all("tr")] == [
        "Seat 5 · Casey"
    ]


def test_an_htmx_refusal_gets_the_play_area_with_the_message_in_place(step, world, started):
    response = step("wager", {"seating": world.seats[1].pk, "ante": "200"}, htmx=True)

    # 200, so that htmx swaps the message in (it does not swap a 4xx answer by default).
    assert response.status_code == 200
    assert _is_play_partial(response)
    form = _form(parse(response.content), "wager", world.dp_table, seating=world.seats[1].pk)
    assert field_errors(form, "ante") == [
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
    assert "DP seat 5 (Casey), bank 400.00" in page.by_id("hand").find_all("h2")[0].text


def test_a_dp_bank_above_the_stack_is_refused_next_to_the_bank(step, world):
    response = step("start", {"refusals": ["1", "3"], "dp_bank": "10000"})

    assert response.status_code == 422
    form = _form(parse(response.content), "start", world.dp_table)
    message = "The designated player's bank must be between $1.00 and the stack $400.00 (R12, R13)."
    assert field_errors(form, "dp_bank") == [message]
    assert form.find("input", name="dp_bank").attrs["value"] == "10000"
    assert not Hand.objects.exists()
    assert not RotationRecord.objects.exists()  # the whole start rolled back


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
    assert len(page.by_id("wagers").find_all("tr")) == 2


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
        "This field is required."
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
    assert [i.attrs["name"] for i in form.find_all("input", **{"data-cards": ""})] == [
        "dealer_cards",
        "cards_1",
        "cards_5",
    ]
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


def test_a_raise_above_the_cap_shows_the_R8_message_next_to_that_spots_raise(step, world, dealt):
    response = step("decide", {"seat": "1", "decision": "raise", "raise_amount": "20"})

    assert response.status_code == 422
    page = parse(response.content)
    message = (
        "The raise $20.00 is off the limits: with a 4-card flush it must be between the ante "
        "$10.00 and 1× the ante $10.00 (R8)."
    )
    assert error_summary(page) == [f"Raise: {message}"]
    seat_1 = _form(page, "decide", world.dp_table, seat="1")
    assert field_errors(seat_1, "raise_amount") == [message]
    assert field_errors(_form(page, "decide", world.dp_table, seat="5"), "raise_amount") == []
    assert dealt.spots.get(seat=1).decision == ""


def test_a_raise_below_the_ante_is_refused_too(step, world, dealt):
    response = step("decide", {"seat": "5", "decision": "raise", "raise_amount": "5"}, htmx=True)
    seat_5 = _form(parse(response.content), "decide", world.dp_table, seat="5")
    assert field_errors(seat_5, "raise_amount") == [
        "The raise $5.00 is off the limits: with a 2-card flush it must be between the ante "
        "$10.00 and 1× the ante $10.00 (R8)."
    ]


def test_a_fold_with_an_amount_is_refused_next_to_the_amount(step, world, dealt):
    response = step("decide", {"seat": "5", "decision": "fold", "raise_amount": "10"})
    seat_5 = _form(parse(response.content), "decide", world.dp_table, seat="5")
    assert field_errors(seat_5, "raise_amount") == ["Only a raise has an amount (R8)."]


# --- a whole hand ----------------------------------------------------------------------------


def _r13_order(dp: int, seats: list[int]) -> list[int]:
    """R13: from the DP's right, counter-clockwise: descending seats below the DP's, then
    descending from the top seat down to the DP's left."""
    below = sorted((s for s in seats if s < dp), reverse=True)
    above = sorted((s for s in seats if s > dp), reverse=True)
    return below + above


def _signed(amount: str) -> str:
    return f"+{amount}" if not amount.startswith("-") and amount != "0.00" else amount


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

    # Wagers, one htmx post a seat.
    for seat, bonus in ((first, "5"), (second, "")):
        response = step(
            "wager",
            {"seating": world.seats[seat].pk, "ante": "10", "flush_bonus": bonus},
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

    response = step("settle", htmx=True)

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
    cells = {seat: [td.text for td in row.find_all("td")] for seat, row in rows.items()}
    assert cells[first] == [
        str(first),
        "played",
        "win +10.00",
        "win +10.00",
        "win +10.00",
        "",
        "1.00",
        "+29.00",
    ]
    assert cells[second] == [str(second), "folded", "lose -10.00", "", "", "", "1.00", "-11.00"]
    assert panel.by_id("dealer-net").text == "-21.00"
    assert panel.by_id("house-rake").text == "3.00"
    boxes = {
        div.children[0].strip(): div.find("span").text
        for div in panel.find("div", class_="row").find_all("div")
    }
    assert boxes == {
        f"DP seat {dp} net": "-21.00",
        "DP fee": "1.00",
        "House rake": "3.00",
        "Settlement order": " → ".join(map(str, _r13_order(dp, [first, second]))),
    }

    # The stored settlement is what the page shows, line by line.
    assert result["settlement_order"] == _r13_order(dp, [first, second])
    assert panel.by_id("dealer-net").text == _signed(result["dealer"]["net"])
    assert panel.by_id("house-rake").text == result["house_rake"]
    for line in result["spots"]:
        seat = line["seat"]
        expected = [str(seat), line["status"]]
        for wager in ("ante", "raise", "flush_bonus", "straight_flush_bonus"):
            w = line[wager]
            expected.append(f"{w['outcome']} {_signed(w['net'])}" if w else "")
        expected += [line["rake"], _signed(line["net"])]
        assert cells[seat] == expected
    booked = {row.seat: row.net for row in SpotSettlement.objects.filter(settlement=stored)}
    assert {seat: _signed(f"{net:.2f}") for seat, net in booked.items()} == {
        seat: cells[seat][-1] for seat in cells
    }
    assert _signed(f"{stored.dealer_net:.2f}") == panel.by_id("dealer-net").text
    assert f"{stored.house_rake:.2f}" == panel.by_id("house-rake").text

    # The chips moved as settled, and the seats show the new stacks.
    nets = {first: 29, second: -11, dp: -21}
    for seat, seating in world.seats.items():
        seating.refresh_from_db()
        assert seating.stack == stacks_before[seat] + nets[seat]
        assert page.by_id(f"seat-{seat}").find("td", class_="stack").text == f"{seating.stack:.2f}"

    # The next hand can start; the settlement stays on the page until then.
    page = parse(client.get(reverse("dealer-table", args=[table.pk])).content)
    assert page.by_id("settlement").by_id("dealer-net").text == "-21.00"
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
    assert page.by_id("spot-5").find("span", class_="tag").text == "dead: wrong_card_count"
    assert [row.find_all("td")[0].text for row in page.by_id("decisions").find_all("tr")] == [
        "Seat 1 · Avery"
    ]

    step("decide", {"seat": "1", "decision": "raise", "raise_amount": "10"})
    page = parse(step("settle", htmx=True).content)

    row = [td.text for td in page.by_id("result-5").find_all("td")]
    assert row == ["5", "dead (wrong_card_count)", "returned 0.00", "", "", "", "0.00", "0.00"]


def test_a_misdeal_is_declared_with_its_reason_and_every_wager_goes_back(step, world, wagered):
    response = step("misdeal", {"reason": "shuffler_fault"}, htmx=True)

    page = parse(response.content)
    panel = page.by_id("settlement")
    assert panel.find("h2").text == "Hand 1 settled — misdeal (shuffler_fault)"
    for seat in (1, 5):
        assert [td.text for td in panel.by_id(f"result-{seat}").find_all("td")][1] == (
            "dead (misdeal)"
        )
        assert panel.by_id(f"result-{seat}").find_all("td")[-1].text == "0.00"
    assert panel.by_id("dealer-net").text == "0.00"
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
    assert page.by_id("seat-2").find("td", class_="stack").text == "100.00"


def test_seating_needs_a_player(step, world):
    response = step("seat", {"seat": "2"})
    form = _form(parse(response.content), "seat", world.dp_table)
    assert field_errors(form, "player") == ["Choose a player, or type a new player's name."]


def test_chips_are_added_and_a_cash_out_above_the_stack_is_refused_next_to_the_amount(step, world):
    seating = world.seats[1]
    response = step("stack", {"seating": seating.pk, "action": "add", "amount": "50"}, htmx=True)
    assert parse(response.content).by_id("seat-1").find("td", class_="stack").text == "550.00"

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

    # Refused before the step: the answer would show the table's play, its cards (item 5).
    assert response.status_code == 403
    message = "Another dealer is on duty at this table: only they and the floor see its play."
    assert message in response.content.decode()
    assert not started.spots.exists()
    [event] = AuditEvent.objects.filter(seq__gt=before)
    assert event.action == "permission.refused" and event.actor_id == other.pk
    assert json.loads(event.payload)["message"] == message


def test_a_dealer_opens_a_closed_table_as_its_dealer_on_duty(client, make_user, world, supervisor):
    table = table_services.table_create(
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
        assert offer["card"] in offers  # the first hand's high-card draw (R16)


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
