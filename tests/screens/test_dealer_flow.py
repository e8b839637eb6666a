"""The dealer screen's flow rules: Settle is checked first and asks only once it would pass;
Leave and Add chips wait for the settlement, refused in words beside the seat; every wrong
wager field is named at once, beside its seat."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tables.models import Seating
from wagers import services as hand_services
from wagers.models import Hand

from .support import error_summary, field_errors, last_seq, parse

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
COMPLETE = {"decision_1": "raise", "raise_amount_1": "10", "decision_5": "fold", "settle": "1"}


@pytest.fixture
def step(client, dealer, world):
    """``step("wager", {...}, htmx=True)``: the dealer posts one step at the DP table."""
    client.force_login(dealer)

    def post(name: str, data: dict | None = None, *, htmx: bool = False):
        url = reverse("dealer-step", args=[world.dp_table.pk, name])
        return client.post(url, data or {}, headers=HTMX if htmx else {})

    return post


def _status(hand: Hand) -> str:
    hand.refresh_from_db()
    return hand.status


# --- Settle: validated first, then asked ------------------------------------------------------


@pytest.mark.parametrize("htmx", [True, False])
def test_settle_with_a_missing_decision_is_refused_naming_the_seat_and_asks_nothing(
    step, dealt, htmx
):
    before = last_seq()
    response = step(
        "decisions", {"decision_1": "raise", "raise_amount_1": "10", "settle": "1"}, htmx=htmx
    )

    page = parse(response.content)
    assert page.find_all(id="confirm-sentence") == []  # no confirmation page
    assert "data-ask" not in page.by_id("decisions-form").attrs  # and no dialog
    assert "Seat 5 has no decision: raise or fold." in page.by_id("decide-5").text
    assert "Seat 5 has no decision: raise or fold." in " ".join(error_summary(page))
    assert _status(dealt) == Hand.Status.DEALT and last_seq() == before


def test_settle_refused_by_the_service_is_shown_unasked_beside_the_seat(step, dealt):
    """A raise above the cap (R8) passes the form; the settle is tried first, refused, and
    nothing asks nor stays."""
    before = last_seq()
    data = COMPLETE | {"raise_amount_1": "500"}
    page = parse(step("decisions", data, htmx=True).content)

    assert "data-ask" not in page.by_id("decisions-form").attrs
    form = page.by_id("decisions-form")
    assert field_errors(form, "raise_amount_1")[0].startswith("The raise $500.00 is off the limits")
    assert _status(dealt) == Hand.Status.DEALT and last_seq() == before


def test_complete_decisions_ask_first_saying_what_settles_and_change_nothing_yet(step, dealt):
    before = last_seq()
    page = parse(step("decisions", COMPLETE, htmx=True).content)

    form = page.by_id("decisions-form")
    assert form.attrs["data-ask"] == (
        "Settle hand 1 with these decisions? (seat 1 (Avery) raises $10; seat 5 (Casey) folds) "
        "The chips move, and a settled hand is only ever corrected, never edited."
    )
    # The form comes back as filled, and settles when posted again confirmed (confirm.js).
    assert "checked" in form.find("input", name="decision_1", value="raise").attrs
    assert "checked" in form.find("input", name="decision_5", value="fold").attrs
    assert form.find("input", type="hidden", name="settle").attrs["value"] == "1"
    assert _status(dealt) == Hand.Status.DEALT and last_seq() == before  # only tried

    response = step("decisions", COMPLETE | {"confirmed": "1"}, htmx=True)

    assert parse(response.content).find_all(id="settlement")
    assert _status(dealt) == Hand.Status.SETTLED


def test_without_javascript_settle_answers_the_confirmation_page_then_settles(step, client, dealt):
    response = step("decisions", COMPLETE)

    page = parse(response.content)
    assert page.by_id("confirm-sentence").text.startswith("Settle hand 1 with these decisions?")
    assert _status(dealt) == Hand.Status.DEALT
    sealed = page.by_id("confirm-form").find("input", name="sealed").attrs["value"]

    response = step("decisions", {"sealed": sealed, "confirmed": "1"})

    assert response.status_code == 302
    assert _status(dealt) == Hand.Status.SETTLED
    assert {s.seat: s.decision for s in dealt.spots.all()} == {1: "raise", 5: "fold"}


def test_a_tampered_confirmation_settles_nothing(step, dealt):
    response = step("decisions", {"sealed": "not-a-seal", "confirmed": "1"})
    assert response.status_code == 400
    assert _status(dealt) == Hand.Status.DEALT


def test_the_settle_button_after_recorded_decisions_asks_once_it_would_pass(step, dealt, dealer):
    page = parse(step("settle", htmx=True).content)
    assert "data-ask" not in page.by_id("decisions-form").attrs  # refused: decisions missing
    assert error_summary(page) == [
        "Hand 1 cannot settle yet: waiting for the decision of seat 1, 5."
    ]
    for seat in (1, 5):
        hand_services.spot_decide(hand=dealt, seat=seat, decision="fold", by=dealer)

    page = parse(step("settle", htmx=True).content)

    assert page.by_id("settle-form").attrs["data-ask"].startswith("Settle hand 1? The chips move")
    assert _status(dealt) == Hand.Status.DECISIONS
    assert "data-confirm" not in page.by_id("settle").attrs  # the server asks, not the button
    step("settle", {"confirmed": "1"}, htmx=True)
    assert _status(dealt) == Hand.Status.SETTLED


def test_record_decisions_only_asks_nothing(step, dealt):
    data = {k: v for k, v in COMPLETE.items() if k != "settle"}
    page = parse(step("decisions", data, htmx=True).content)
    assert page.find_all(id="settle-form")  # recorded; Settle comes next
    assert _status(dealt) == Hand.Status.DECISIONS


# --- Leave and Add chips wait for the settlement ---------------------------------------------


def test_leave_during_the_hand_is_refused_in_words_beside_the_seat(step, world, wagered):
    before = last_seq()
    response = step("stack", {"seating": world.seats[5].pk, "action": "leave"})

    assert response.status_code == 422
    page = parse(response.content)
    message = "Seat 5 (Casey) is in hand 1: the player can leave once it settles."
    row = page.by_id("seat-5")
    assert [li.text for li in row.find("ul", class_="errorlist").find_all("li")] == [message]
    assert message in " ".join(error_summary(page))
    assert Seating.objects.get(pk=world.seats[5].pk).left_at is None and last_seq() == before


def test_r16_the_dps_leave_is_refused_too_and_its_button_asks_nothing_false(
    client, dealer, world, wagered, step
):
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    leave = page.by_id("seat-3").find("button", value="leave")
    assert "data-confirm" not in leave.attrs  # it would say the player leaves
    assert leave.attrs["title"] == "In hand 1: leaves once it settles"

    page = parse(step("stack", {"seating": world.seats[3].pk, "action": "leave"}).content)
    assert "Seat 3 (Blake) is in hand 1: the player can leave once it settles." in (
        page.by_id("seat-3").text
    )


def test_a_seat_out_of_the_hand_asks_before_it_leaves(client, dealer, world, started):
    """With no hand in progress (or no part in it) Leave asks first and then happens."""
    client.force_login(dealer)
    hand_services.hand_cancel(hand=started, by=dealer)
    page = parse(client.get(reverse("dealer-table", args=[world.dp_table.pk])).content)
    ask = page.by_id("seat-5").find("button", value="leave").attrs["data-confirm"]
    assert ask.startswith("Seat 5 (Casey) leaves the table with a stack of $400.00")


def test_adding_chips_during_a_hand_is_refused_beside_the_amount(step, world, wagered):
    response = step(
        "stack", {"seating": world.seats[1].pk, "action": "add", "amount": "50"}, htmx=True
    )
    page = parse(response.content)
    row = page.by_id("seat-1")
    [message] = [li.text for li in row.find("ul", class_="errorlist").find_all("li")]
    assert message.startswith("Chips are added between hands only (table stakes): hand 1")
    assert row.find("input", name="amount").attrs["aria-invalid"] == "true"
    assert row.find("td", class_="stack").text == "$485.00"  # $500 less the $15 wagered


# --- every wrong wager field at once ----------------------------------------------------------


def test_two_wrong_fields_of_one_seat_are_both_named_beside_it(step, world, started):
    response = step("wagers", {"ante_1": "2", "flush_bonus_1": "30", "ante_5": "10"})

    form = parse(response.content).by_id("wagers-form")
    assert field_errors(form, "ante_1") == [
        "The ante $2.00 is off the limits: it must be between $5.00 and $100.00 (R5)."
    ]
    assert field_errors(form, "flush_bonus_1") == [
        "The flush bonus $30.00 is off the limits: it must be between $1.00 and $25.00 (R5)."
    ]
    assert field_errors(form, "ante_5") == []
    assert not started.spots.exists()


def test_the_forms_refusal_and_the_services_are_named_together(step, world, started):
    """A bonus without an ante (the form's check) on seat 5 and an ante off the limits (the
    service's, R5) on seat 1: both at once, each beside its own seat."""
    response = step("wagers", {"ante_1": "2", "flush_bonus_5": "5"})

    form = parse(response.content).by_id("wagers-form")
    assert field_errors(form, "ante_5") == ["A bonus needs an ante on the same spot (R5)."]
    assert field_errors(form, "ante_1") == [
        "The ante $2.00 is off the limits: it must be between $5.00 and $100.00 (R5)."
    ]
    assert not started.spots.exists()
