"""Settlement through the API answers with the very breakdown ``settle_round`` gives for the
stored round; the settle preview runs the engine on a settle-json round and touches nothing
(settle-json.md)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from tests.rows import row_counts, stored_models
from wagers.models import Settlement

from .conftest import CORRECTED_DEALER_CARDS, DEALER_CARDS, WINNER_CARDS

pytestmark = pytest.mark.django_db

V = "/api/v1"
EXAMPLES = Path(settings.BASE_DIR) / "docs" / "spec" / "examples"
ROUNDS = (EXAMPLES / "rounds.jsonl").read_text().splitlines()
RESULTS = (EXAMPLES / "results.jsonl").read_text().splitlines()
REFUSALS = [json.loads(line) for line in (EXAMPLES / "refusals.jsonl").read_text().splitlines()]
STRAIGHT_FLUSH_DIAMONDS = "4d 5d 6d 7d Kd Qc 2s"


def settle_round(round_: dict) -> dict:
    """What ``manage.py settle_round`` prints for the round."""
    out = io.StringIO()
    call_command("settle_round", stdin=io.StringIO(json.dumps(round_)), stdout=out)
    return json.loads(out.getvalue())


def every_row() -> dict[str, int]:
    return row_counts(stored_models())


def post(client, url: str, body: dict | None = None, status: int = 200) -> dict:
    response = client.post(url, body or {}, format="json")
    assert response.status_code == status, response.content[:500]
    return response.json()


def test_settling_a_house_hand_answers_what_settle_round_gives_for_its_round(api, world):
    hand = world.hand_ready

    body = post(api(world.dealer), f"{V}/hands/{hand.pk}/settle/")

    stored = Settlement.objects.get(hand=hand)
    assert body["id"] == stored.pk
    assert body["round"] == stored.round
    assert body["result"] == stored.result == settle_round(stored.round)
    assert set(body["round"]["dealer"]["cards"].split()) == set(DEALER_CARDS.split())


def test_a_designated_player_hand_played_through_the_api_settles_as_settle_round_does(api, world):
    """The whole hand through the API, at the DP table (fees from the spots and the DP)."""
    client = api(world.dealer)
    table = world["dp_table"]
    hand = post(
        client,
        f"{V}/tables/{table}/hands/",
        {"draw_cards": {"1": "As", "2": "2c", "4": "3c"}, "dp_bank": "500"},
        status=201,
    )
    assert hand["dp_seat"] == 1
    url = f"{V}/hands/{hand['id']}"
    seated = client.get(f"{V}/tables/{table}/seatings/").json()["results"]
    seatings = {seating["seat"]: seating["id"] for seating in seated}
    post(client, f"{url}/wagers/", {"seating": seatings[2], "ante": "10", "flush_bonus": "5"})
    post(
        client,
        f"{url}/wagers/",
        {"seating": seatings[4], "ante": "25", "straight_flush_bonus": "5"},
    )
    post(
        client,
        f"{url}/cards/",
        {
            "dealer_cards": DEALER_CARDS,
            "spot_cards": {"2": WINNER_CARDS, "4": STRAIGHT_FLUSH_DIAMONDS},
        },
    )
    post(client, f"{url}/decisions/", {"seat": 2, "decision": "raise", "raise_amount": "10"})
    post(client, f"{url}/decisions/", {"seat": 4, "decision": "raise", "raise_amount": "50"})

    body = post(client, f"{url}/settle/")

    assert body["result"] == settle_round(body["round"])
    assert body["result"] == Settlement.objects.get(pk=body["id"]).result
    dealer = body["round"]["dealer"]
    assert (dealer["seat"], dealer["bank"]) == (1, "500.00")
    assert set(dealer["cards"].split()) == set(DEALER_CARDS.split())
    nets = {spot["seat"]: spot["net"] for spot in body["result"]["spots"]}
    assert nets == {2: "29.00", 4: "374.00"}  # as in settle-json.md's worked example
    assert body["house_rake"] == body["result"]["house_rake"] == "3.00"
    assert body["dealer_net"] == body["result"]["dealer"]["net"]
    # And the hand shows the settlement it is settled by.
    detail = client.get(f"{url}/").json()
    assert detail["status"] == "settled"
    assert [s["result"] for s in detail["settlements"]] == [body["result"]]


def test_settling_a_settled_hand_answers_its_settlement_again(api, world):
    client = api(world.dealer)
    url = f"{V}/hands/{world['hand_ready']}/settle/"
    first = post(client, url)

    again = post(client, url)

    assert again == first
    assert Settlement.objects.filter(hand=world.hand_ready).count() == 1


def test_a_correction_answers_what_settle_round_gives_for_the_corrected_round(api, world):
    hand = world.hand_settled
    body = post(
        api(world.supervisor),
        f"{V}/hands/{hand.pk}/corrections/",
        {
            "reason": "The 4s was the 4d",
            "corrects": hand.settlements.latest("entry").pk,
            "dealer_cards": CORRECTED_DEALER_CARDS,
        },
        status=201,
    )

    assert body["kind"] == "correction"
    assert set(body["round"]["dealer"]["cards"].split()) == set(CORRECTED_DEALER_CARDS.split())
    assert body["result"] == settle_round(body["round"])
    assert body["result"]["dealer"]["qualifies"] is False


def test_a_correction_made_from_a_stale_entry_answers_409_naming_corrects(api, world):
    hand = world.hand_settled
    seen = hand.settlements.latest("entry").pk
    client = api(world.supervisor)
    body = {"reason": "The 4s was the 4d", "corrects": seen, "dealer_cards": CORRECTED_DEALER_CARDS}
    post(client, f"{V}/hands/{hand.pk}/corrections/", body, status=201)
    stale = post(
        client,
        f"{V}/hands/{hand.pk}/corrections/",
        {**body, "reason": "Another reading", "dealer_cards": DEALER_CARDS},
        status=409,
    )
    assert stale["error"]["field"] == "corrects"
    assert "is no longer the settlement in force" in stale["error"]["message"]
    assert hand.settlements.count() == 3


def test_a_correction_without_the_entry_it_corrects_is_refused_naming_corrects(api, world):
    hand = world.hand_settled
    refused = post(
        api(world.supervisor),
        f"{V}/hands/{hand.pk}/corrections/",
        {"reason": "The 4s was the 4d", "dealer_cards": CORRECTED_DEALER_CARDS},
        status=400,
    )
    assert refused["error"]["field"] == "corrects"
    assert hand.settlements.count() == 1


# --- the settle preview ------------------------------------------------------------------------


@pytest.fixture
def preview(api, auditor):
    """POST a round to the preview as the compliance auditor (who may change nothing)."""
    client = api(auditor)

    def run(round_):
        return client.post(f"{V}/settle-preview/", round_, format="json")

    return run


@pytest.mark.parametrize("line", range(len(ROUNDS)), ids=lambda n: f"round{n + 1}")
def test_the_preview_answers_exactly_the_documented_result(preview, line):
    before = every_row()

    response = preview(json.loads(ROUNDS[line]))

    assert response.status_code == 200
    assert response.json() == json.loads(RESULTS[line])
    assert every_row() == before


@pytest.mark.parametrize("case", REFUSALS, ids=lambda case: case["field"])
def test_the_preview_refuses_a_bad_round_naming_the_documented_field(preview, case):
    before = every_row()

    response = preview(case["round"])

    assert response.status_code == 422
    error = response.json()["error"]
    assert set(error) == {"code", "message", "field"}
    assert error["field"] == case["field"]
    assert error["message"]
    assert every_row() == before


def test_the_preview_refuses_a_json_float_amount(preview):
    round_ = json.loads(ROUNDS[0])
    round_["spots"][0]["ante"] = 10.0

    response = preview(round_)

    assert response.status_code == 422
    assert response.json()["error"]["field"] == "spots[0].ante"


@pytest.mark.parametrize("body", [[], "round", 7, None, {"dealer": {}}, {"spots": []}])
def test_the_preview_refuses_what_is_not_a_round(preview, body):
    response = preview(body)

    assert response.status_code == 422
    assert set(response.json()["error"]) == {"code", "message", "field"}


def test_the_preview_matches_settle_round_on_a_stored_round(api, world, preview):
    settlement = world.hand_settled.settlements.get()

    response = preview(settlement.round)

    assert response.json() == settle_round(settlement.round) == settlement.result
