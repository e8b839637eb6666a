"""The answers of a hand's steps are the hand as stored, though they read less to give it:
the start answers from the hand it made, the other steps read the hand and its
spots and skip the settlements of a hand in progress, and a step's service reads its hand (or
table) itself, so that a missing one is a 404 from the service, not a read in the view."""

from __future__ import annotations

import pytest

from audit.actions import AuditAction
from audit.models import AuditEvent, ChainHead
from audit.services import audit_record
from tables.models import Seating
from tests.wagers.support import SEVEN_HANDS

pytestmark = pytest.mark.django_db

V = "/api/v1"


def stored(client, hand_id: int) -> dict:
    response = client.get(f"{V}/hands/{hand_id}/")
    assert response.status_code == 200
    return response.json()


@pytest.mark.parametrize("banking", ["designated_player", "house"])
def test_every_step_answers_the_hand_as_it_is_stored(api, world, banking):
    table = world.table(f"Answers {banking}", banking=banking)
    client = api(world.dealer)

    started = client.post(f"{V}/tables/{table.pk}/hands/", {}, format="json")
    assert started.status_code == 201, started.content[:300]
    hand = started.json()
    assert hand == stored(client, hand["id"])
    if banking == "designated_player":
        assert hand["dp_seat"] is not None and hand["dp_bank"] is not None

    sitting = Seating.objects.filter(table=table, left_at=None).exclude(seat=hand["dp_seat"])
    seats = sorted(sitting.values_list("seat", "id"))[:3]
    url = f"{V}/hands/{hand['id']}"
    steps = [
        ("wagers/batch/", {"spots": [{"seating": pk, "ante": "10"} for _, pk in seats]}),
        (
            "cards/",
            {
                "dealer_cards": SEVEN_HANDS[0],
                "spot_cards": {str(seat): SEVEN_HANDS[seat] for seat, _ in seats},
            },
        ),
        ("decisions/batch/", {"spots": [{"seat": seat, "decision": "fold"} for seat, _ in seats]}),
    ]
    for path, body in steps:
        response = client.post(f"{url}/{path}", body, format="json")
        assert response.status_code == 200, (path, response.content[:300])
        answer = response.json()
        assert answer == stored(client, hand["id"]), path
        assert len(answer["spots"]) == len(seats)
        assert answer["settlements"] == []

    settled = client.post(f"{url}/settle/", {}, format="json")
    assert settled.status_code == 200
    assert stored(client, hand["id"])["settlements"] == [settled.json()]


def test_a_dead_hand_answers_with_its_settlement(api, world):
    table = world.table("Misdeal", banking="house", seats=(1, 2))
    client = api(world.dealer)
    hand = client.post(f"{V}/tables/{table.pk}/hands/", {}, format="json").json()
    seating = Seating.objects.get(table=table, seat=1, left_at=None)
    client.post(
        f"{V}/hands/{hand['id']}/wagers/batch/",
        {"spots": [{"seating": seating.pk, "ante": "10"}]},
        format="json",
    )

    response = client.post(
        f"{V}/hands/{hand['id']}/misdeal/", {"reason": "shuffler_fault"}, format="json"
    )

    assert response.status_code == 200, response.content[:300]
    assert response.json()["status"] == "dead"
    assert len(response.json()["settlements"]) == 1  # read: a dead hand is not in progress
    assert response.json() == stored(client, hand["id"])


@pytest.mark.parametrize(
    "path", ["wagers/batch/", "deal/", "cards/", "decisions/batch/", "settle/", "cancel/"]
)
def test_a_step_on_a_missing_hand_is_a_404_naming_nothing_else(api, world, path):
    client = api(world.dealer)
    body = {"spots": [{"seat": 1, "decision": "fold"}]} if "decisions" in path else {}
    if path == "wagers/batch/":
        body = {"spots": [{"seating": 1, "ante": "10"}]}
    if path == "cards/":
        body = {"dealer_cards": SEVEN_HANDS[0], "spot_cards": {"1": SEVEN_HANDS[1]}}

    response = client.post(f"{V}/hands/987654/{path}", body, format="json")

    assert response.status_code == 404, response.content[:300]
    assert response.json()["error"]["code"] == "not_found"


def test_starting_a_hand_at_a_missing_table_is_a_404(api, world):
    response = api(world.dealer).post(f"{V}/tables/987654/hands/", {}, format="json")

    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_an_appended_event_has_its_id_and_moves_its_chain_head(world):
    from django.db import transaction

    with transaction.atomic():
        event = audit_record(
            actor=world.supervisor, action=AuditAction.CARDROOM_SHIFTS_SET, target=world.cardroom
        )

    assert event.pk is not None and not event._state.adding
    assert AuditEvent.objects.get(pk=event.pk).hash == event.hash
    head = ChainHead.objects.get(chain=event.chain)
    assert (head.seq, head.hash) == (event.chain_seq, event.hash)


@pytest.mark.parametrize("deal", ["cards/", "deal/"])
def test_the_steps_that_answer_from_the_spots_they_kept_answer_the_stored_spots(api, world, deal):
    """A batch of wagers (the spots placed before it and its own), the cards (a dead spot
    among them, dealt nothing) and a batch of decisions answer from the spots their service
    kept and saved: the same as reading them again, amounts and all."""
    table = world.table(f"Kept {deal}", banking="house", seats=(1, 2, 3, 4))
    client = api(world.dealer)
    hand = client.post(f"{V}/tables/{table.pk}/hands/", {}, format="json").json()
    url = f"{V}/hands/{hand['id']}"
    pk = dict(Seating.objects.filter(table=table, left_at=None).values_list("seat", "id"))

    def step(path: str, body: dict) -> dict:
        response = client.post(f"{url}/{path}", body, format="json")
        assert response.status_code == 200, (path, response.content[:300])
        answer = response.json()
        assert answer == stored(client, hand["id"]), path
        return answer

    first = [{"seating": pk[1], "ante": "10", "flush_bonus": "5"}, {"seating": pk[4], "ante": "7"}]
    step("wagers/batch/", {"spots": first})
    placed = step("wagers/batch/", {"spots": [{"seating": pk[2], "ante": "12"}]})
    assert [(s["seat"], s["ante"]) for s in placed["spots"]] == [
        (1, "10.00"),
        (2, "12.00"),
        (4, "7.00"),
    ]
    step("dead-spots/", {"seat": 4})
    cards = {
        "dealer_cards": SEVEN_HANDS[0],
        "spot_cards": {"1": SEVEN_HANDS[1], "2": SEVEN_HANDS[2]},
    }
    dealt = step(deal, cards if deal == "cards/" else {})
    assert [bool(s["cards"]) for s in dealt["spots"]] == [True, True, False]
    decisions = [
        {"seat": 1, "decision": "raise", "raise_amount": "10"},
        {"seat": 2, "decision": "fold"},
    ]
    decided = step("decisions/batch/", {"spots": decisions})
    assert [(s["decision"], s["raise_amount"]) for s in decided["spots"]][:2] == [
        ("raise", "10.00"),
        ("fold", "0.00"),
    ]
