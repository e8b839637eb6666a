"""Idempotency-Key on POSTs: a retry with the same key and body returns the first
answer and changes nothing; the same key with another body is refused (422); keys belong to
their user; an error answer is remembered like any other; of concurrent duplicates exactly
one executes (PostgreSQL)."""

from __future__ import annotations

import os
import threading

import pytest
from django.db import connections

from audit.models import AuditEvent
from cardroom.api.models import IdempotencyKey
from tables.models import RotationRecord, Seating, StackEntry
from wagers.models import Hand, Settlement, Spot

from .conftest import token_client

pytestmark = pytest.mark.django_db

V = "/api/v1"
KEY = "3f0c2a8e-retry-me"


def rows() -> dict[str, int]:
    """Every row a POST could add: nothing changes while these stay the same."""
    return {
        model.__name__: model.objects.count()
        for model in (Hand, Spot, Settlement, StackEntry, RotationRecord, AuditEvent)
    }


def post(client, url: str, body: dict | None = None, key: str | None = KEY):
    headers = {"Idempotency-Key": key} if key is not None else {}
    return client.post(url, body or {}, format="json", headers=headers)


def test_a_retry_with_the_same_key_and_body_answers_the_first_answer_and_changes_nothing(
    api, world
):
    client = api(world.dealer)
    url = f"{V}/tables/{world['dp_table']}/hands/"

    first = post(client, url)
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first
    before = rows()

    retry = post(client, url)

    assert retry.status_code == 201
    assert retry["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    assert rows() == before
    assert Hand.objects.filter(table=world.dp_table).count() == 1


def test_a_retried_wager_moves_the_stack_once(api, world):
    client = api(world.dealer)
    hand, seating = world.hand_open, world.hand_open_seating
    body = {"seating": seating.pk, "ante": "10", "flush_bonus": "5"}

    first = post(client, f"{V}/hands/{hand.pk}/wagers/", body)
    before = rows()
    retry = post(client, f"{V}/hands/{hand.pk}/wagers/", body)

    assert (first.status_code, retry.status_code) == (200, 200)
    assert retry.json() == first.json()
    assert rows() == before
    assert Seating.objects.get(pk=seating.pk).stack == 1000 - 15


def test_the_same_key_with_another_body_is_refused_and_changes_nothing(api, world):
    client = api(world.dealer)
    url = f"{V}/seatings/{world['seating']}/add-chips/"
    assert post(client, url, {"amount": "100"}).status_code == 200
    before = rows()

    response = post(client, url, {"amount": "200"})

    assert response.status_code == 422
    assert response.json()["error"] == {
        "code": "idempotency_key_reused",
        "message": response.json()["error"]["message"],
        "field": "Idempotency-Key",
    }
    assert rows() == before
    assert Seating.objects.get(pk=world.seating.pk).stack == 1100


def test_the_same_key_on_another_endpoint_is_another_request(api, world):
    client = api(world.dealer)
    seating = world["seating"]
    assert post(client, f"{V}/seatings/{seating}/sit-out/").status_code == 200

    response = post(client, f"{V}/seatings/{seating}/come-back/")

    assert response.status_code == 422
    assert response.json()["error"]["field"] == "Idempotency-Key"
    assert Seating.objects.get(pk=seating).sitting_out is True


def test_different_users_use_the_same_key_independently(api, world):
    url = f"{V}/seatings/{world['seating']}/add-chips/"

    by_dealer = post(api(world.dealer), url, {"amount": "100"})
    by_supervisor = post(api(world.supervisor), url, {"amount": "100"})

    assert (by_dealer.status_code, by_supervisor.status_code) == (200, 200)
    assert "Idempotent-Replayed" not in by_supervisor
    assert Seating.objects.get(pk=world.seating.pk).stack == 1200
    assert IdempotencyKey.objects.filter(key=KEY).count() == 2


def test_an_error_answer_is_replayed_too(api, world):
    """The first answer was 409 (a hand that cannot settle yet); the retry gets that 409 even
    though the hand could settle now, and nothing is settled."""
    client = api(world.dealer)
    hand = world.hand_dealt
    url = f"{V}/hands/{hand.pk}/settle/"

    first = post(client, url)
    assert first.status_code == 409
    for seat in (1, 2):
        post(client, f"{V}/hands/{hand.pk}/decisions/", {"seat": seat, "decision": "fold"}, None)
    before = rows()

    retry = post(client, url)

    assert retry.status_code == 409
    assert retry["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()
    assert rows() == before
    assert Settlement.objects.filter(hand=hand).count() == 0
    assert post(client, url, key="another-key").status_code == 200


def test_a_refused_body_is_replayed_as_refused(api, world):
    client = api(world.dealer)
    url = f"{V}/seatings/{world['seating']}/add-chips/"

    first = post(client, url, {"amount": 12.5})
    retry = post(client, url, {"amount": 12.5})

    assert first.status_code == retry.status_code == 400
    assert retry["Idempotent-Replayed"] == "true"
    assert retry.json() == first.json()


def test_two_posts_with_different_keys_both_run(api, world):
    client = api(world.dealer)
    url = f"{V}/seatings/{world['seating']}/add-chips/"

    post(client, url, {"amount": "100"}, key="first-100")
    post(client, url, {"amount": "100"}, key="second-100")

    assert Seating.objects.get(pk=world.seating.pk).stack == 1200


@pytest.mark.parametrize("key", ["", "k" * 256])
def test_a_key_must_be_1_to_255_characters(api, world, key):
    response = post(api(world.dealer), f"{V}/seatings/{world['seating']}/sit-out/", key=key)

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "Idempotency-Key"
    assert Seating.objects.get(pk=world.seating.pk).sitting_out is False


# --- concurrent duplicates (PostgreSQL: SQLite serialises whole transactions) ----------------

on_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="concurrent duplicates need PostgreSQL (DATABASE_URL=postgres://…)",
)


def race(clients, url: str, body: dict | None = None) -> list:
    """POST the same request with the same key from one thread per client, released together
    by a barrier; each thread has its own database connection."""
    barrier = threading.Barrier(len(clients))
    answers: list = [None] * len(clients)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            answers[index] = post(clients[index], url, body)
        except BaseException as error:  # noqa: BLE001 - reported by the test below
            answers[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    for answer in answers:
        assert not isinstance(answer, BaseException), answer
    return answers


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_of_two_concurrent_duplicate_hand_starts_exactly_one_runs(world):
    table = world.dp_table
    clients = [token_client(world.dealer), token_client(world.dealer)]

    answers = race(clients, f"{V}/tables/{table.pk}/hands/")

    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert sorted(a.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    assert Hand.objects.filter(table=table).count() == 1
    assert RotationRecord.objects.filter(table=table).count() == 1
    assert AuditEvent.objects.filter(action="hand.started").count() == 1


@on_postgres
@pytest.mark.django_db(transaction=True)
def test_of_two_concurrent_duplicate_settlements_exactly_one_runs(world):
    hand = world.hand_ready
    clients = [token_client(world.dealer), token_client(world.dealer)]
    stack_entries = StackEntry.objects.count()

    answers = race(clients, f"{V}/hands/{hand.pk}/settle/")

    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json() == answers[1].json()
    assert sorted(a.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    assert Settlement.objects.filter(hand=hand).count() == 1
    assert AuditEvent.objects.filter(action="hand.settled").count() == 1
    assert StackEntry.objects.count() == stack_entries + 1  # seat 1's payout (seat 2 folded)


# --- a money-moving POST needs its key (428 without) -----------------------------------------

#: Every POST that moves chips or cash or settles: refused without an Idempotency-Key.
MONEY_MOVING = {
    "api/v1/seatings/<int:pk>/add-chips/",
    "api/v1/seatings/<int:pk>/cash-out/",
    "api/v1/seatings/<int:pk>/leave/",
    "api/v1/seatings/<int:pk>/move/",
    "api/v1/waitlist-entries/<int:pk>/seat/",
    "api/v1/tables/<int:pk>/seatings/",
    "api/v1/tables/<int:pk>/hands/",
    "api/v1/hands/<int:pk>/wagers/",
    "api/v1/hands/<int:pk>/wagers/batch/",
    "api/v1/hands/<int:pk>/wagers/currency/",
    "api/v1/hands/<int:pk>/decisions/",
    "api/v1/hands/<int:pk>/decisions/batch/",
    "api/v1/hands/<int:pk>/misdeal/",
    "api/v1/hands/<int:pk>/cancel/",
    "api/v1/hands/<int:pk>/settle/",
    "api/v1/hands/<int:pk>/corrections/",
    "api/v1/drop-counts/<int:pk>/corrections/",
    "api/v1/tables/<int:pk>/inventory/",
    "api/v1/tables/<int:pk>/slips/",
    "api/v1/slips/<int:pk>/prepare/",
    "api/v1/slips/<int:pk>/carry/",
    "api/v1/slips/<int:pk>/dealer-sign/",
    "api/v1/slips/<int:pk>/supervisor-sign/",
    "api/v1/slips/<int:pk>/cage-receive/",
    "api/v1/slips/<int:pk>/void/",
    "api/v1/tables/<int:pk>/drop-counts/",
    "api/v1/drop-counts/<int:pk>/sign-off/",
    "api/v1/cardrooms/<int:pk>/cage/counts/",
    "api/v1/cardrooms/<int:pk>/cage/entries/",
    "api/v1/cardrooms/<int:pk>/cage/player-cash/",
    "api/v1/cardrooms/<int:pk>/cage/chip-issues/",
    "api/v1/cardrooms/<int:pk>/cage/front-money/",
    "api/v1/cardrooms/<int:pk>/cage/safekeeping/",
    "api/v1/cardrooms/<int:pk>/cage/markers/",
    "api/v1/cardrooms/<int:pk>/cage/markers/<int:marker>/payments/",
    "api/v1/cardrooms/<int:pk>/cage/currency-exchange/",
    "api/v1/sessions/<int:pk>/late-closing-count/",
}


def test_exactly_the_posts_that_move_money_need_a_key():
    from .test_authorization import _api_patterns

    needing = {
        route
        for route, pattern in _api_patterns()
        if getattr(pattern.callback.view_class, "moves_money", False)
    }

    assert needing == MONEY_MOVING


def test_add_chips_without_a_key_is_a_428_naming_the_header_and_moves_nothing(world):
    from rest_framework.test import APIClient  # the plain client: no key of its own

    from .conftest import token_for

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(world.dealer)}")
    seating = world.seating
    before, stack = rows(), seating.stack

    response = client.post(
        f"{V}/seatings/{seating.pk}/add-chips/", {"amount": "100"}, format="json"
    )

    assert response.status_code == 428
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("idempotency_key_required", "Idempotency-Key")
    assert rows() == before
    seating.refresh_from_db()
    assert seating.stack == stack
    with_key = client.post(
        f"{V}/seatings/{seating.pk}/add-chips/",
        {"amount": "100"},
        format="json",
        headers={"Idempotency-Key": "add-100"},
    )
    assert with_key.status_code == 200


def test_a_post_that_moves_no_money_still_takes_no_key(world):
    from rest_framework.test import APIClient

    from .conftest import token_for

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_for(world.dealer)}")

    response = client.post(f"{V}/hands/{world['hand_wagering']}/deal/", {}, format="json")

    assert response.status_code == 200, response.content


def test_the_schema_names_the_key_required_where_money_moves(api, world):
    schema = api(world.supervisor).get("/api/schema/?format=json").json()

    def key_of(path: str) -> dict:
        (parameter,) = [
            p for p in schema["paths"][path]["post"]["parameters"] if p["name"] == "Idempotency-Key"
        ]
        return parameter

    assert key_of("/api/v1/seatings/{id}/add-chips/")["required"] is True
    assert key_of("/api/v1/hands/{id}/deal/").get("required", False) is False
    assert "428" in schema["paths"]["/api/v1/seatings/{id}/add-chips/"]["post"]["responses"]


@pytest.mark.parametrize("key", ["", "x" * 256, "naïve", "tab\there"])
def test_a_key_that_is_not_short_printable_ascii_is_a_400_naming_the_header(api, world, key):
    response = post(api(world.dealer), f"{V}/tables/{world['dp_table']}/hands/", key=key)

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "Idempotency-Key"


def test_a_signed_requests_fingerprint_does_not_let_a_reader_test_pin_guesses(world):
    """The fingerprint is keyed with the secret key: hashing a guessed body (PIN included)
    as the table stores it finds nothing."""
    import hashlib

    from audit.chain import canonical_json
    from tests.conftest import PASSWORD

    change = world.change
    url = f"/api/v1/setting-changes/{change.pk}/approve/"
    body = {"signature": {"secret": PASSWORD}}
    response = post(token_client(world.supervisor), url, body)
    assert response.status_code == 200, response.content
    record = IdempotencyKey.objects.get(key=KEY)
    parsed = {"reason": "", **body}
    for guess in (body, parsed):
        text = canonical_json(["POST", url, guess])
        assert record.fingerprint != hashlib.sha256(text.encode()).hexdigest()
