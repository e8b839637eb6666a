"""Input the API refuses instead of misreading: unknown fields, digits
that are not ASCII, and settling a cancelled hand."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from engine import settle_json
from wagers import services as wagers
from wagers.models import Hand, Spot

from .test_authorization import ROUND
from .test_errors import error_of

pytestmark = pytest.mark.django_db

V = "/api/v1"


def _events() -> int:
    return AuditEvent.objects.count()


# --- unknown fields ---------------------------------------------------------------------------


def test_a_wager_with_a_misspelt_bonus_is_refused_naming_it_and_nothing_is_placed(api, world):
    hand, seating = world.hand_open, world.hand_open_seating
    events = _events()

    response = api(world.dealer).post(
        f"{V}/hands/{hand.pk}/wagers/",
        {"seating": seating.pk, "ante": "10", "flush_bonuss": "5"},
        format="json",
    )

    error = error_of(response, 422)
    assert error["code"] == "unknown_field"
    assert error["field"] == "flush_bonuss"
    assert "flush_bonus" in error["message"]  # it says what the endpoint takes
    assert not Spot.objects.filter(hand=hand).exists()
    assert _events() == events


def test_an_unknown_form_field_is_refused_too(api, world):
    response = api(world.administrator).post(
        f"{V}/cardrooms/", {"name": "Form Cardroom", "colour": "green"}
    )

    assert error_of(response, 422)["field"] == "colour"


def test_a_write_that_takes_no_input_refuses_a_body_with_fields(api, world):
    hand = world.hand_ready
    events = _events()

    response = api(world.dealer).post(
        f"{V}/hands/{hand.pk}/settle/", {"force": True}, format="json"
    )

    assert error_of(response, 422)["field"] == "force"
    hand.refresh_from_db()
    assert hand.status != Hand.Status.SETTLED
    assert _events() == events


def test_an_empty_body_is_still_welcome_where_no_input_is_taken(api, world):
    response = api(world.dealer).post(f"{V}/hands/{world['hand_ready']}/settle/", {}, format="json")

    assert response.status_code == 200, response.content[:300]


def test_a_settle_preview_spot_with_an_unknown_key_is_refused_naming_its_path(api, world):
    body = {**ROUND, "spots": [{**ROUND["spots"][0], "insurance": "5"}, ROUND["spots"][1]]}

    response = api(world.auditor).post(f"{V}/settle-preview/", body, format="json")

    error = error_of(response, 422)
    assert error["field"] == "spots[0].insurance"


# --- ASCII digits only ------------------------------------------------------------------------


@pytest.mark.parametrize("amount", ["٥", "５", "۵", "১০", "5.٥"])
def test_an_amount_in_digits_that_are_not_ascii_is_refused_naming_it(api, world, amount):
    hand, seating = world.hand_open, world.hand_open_seating

    response = api(world.dealer).post(
        f"{V}/hands/{hand.pk}/wagers/", {"seating": seating.pk, "ante": amount}, format="json"
    )

    error = error_of(response, 400)
    assert error["field"] == "ante"
    assert not Spot.objects.filter(hand=hand).exists()


def test_a_seat_or_id_in_digits_that_are_not_ascii_is_refused(api, world):
    hand = world.hand_open

    response = api(world.dealer).post(
        f"{V}/hands/{hand.pk}/wagers/", {"seating": "٣", "ante": "5"}, format="json"
    )

    assert error_of(response, 400)["field"] == "seating"
    assert not Spot.objects.filter(hand=hand).exists()


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"spots": [{**ROUND["spots"][0], "ante": "١٠"}, ROUND["spots"][1]]}, "spots[0].ante"),
        ({"dealer": {**ROUND["dealer"], "bank": "٥٠٠"}}, "dealer.bank"),
        ({"table": {"banking": "house", "flush_paytable": {"٤": 2}}}, "table.flush_paytable.٤"),
    ],
)
def test_the_settle_json_contract_refuses_digits_that_are_not_ascii(change, field):
    result = settle_json({**ROUND, **change})

    assert result["error"]["field"] == field


def test_the_settle_json_contract_still_reads_ascii_paytable_odds_given_as_text():
    table = {"banking": "house", "flush_paytable": {"4": "2", "5": 5, "6": 10, "7": 20}}

    assert "error" not in settle_json(
        {**ROUND, "table": table, "dealer": {"cards": ROUND["dealer"]["cards"]}}
    )


# --- settling a cancelled hand ----------------------------------------------------------------


def test_settling_a_cancelled_hand_is_a_409_naming_the_status(api, world):
    hand = world.hand_open
    wagers.hand_cancel(hand=hand, by=world.dealer)
    events = _events()

    response = api(world.dealer).post(f"{V}/hands/{hand.pk}/settle/", format="json")

    error = error_of(response, 409)
    assert error["field"] == "status"
    assert not hand.settlements.exists()
    assert _events() == events
