"""The five requests of a hand run a fixed number of queries whatever its spots, and a request
authenticates and finds its role in at most 2. Counted on whichever database the
run uses (SQLite, or PostgreSQL with DATABASE_URL): the budgets hold on both."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.roles import DEALER
from tables.models import Seating
from tests.wagers.support import SEVEN_HANDS

pytestmark = pytest.mark.django_db

V = "/api/v1"

# The statements of each request (savepoints not counted: in production the request's
# transaction is the service's; in a test everything runs inside one), authentication and the
# role included. The same for 1 spot and 6. Each request appends one audit event: one statement
# on PostgreSQL (its chain's head locked, the event numbered, hashed and inserted, the head
# moved), three on SQLite (``audit.appends``). Each carries its Idempotency-Key,
# as a device sends it (the money-moving ones must): the key's row is one statement, inserted
# with its answer at the end (``cardroom.api.idempotency``). Settling links its fees to
# the settlement in one INSERT of its own (``wagers.FeeBooking``); at the house-banked table
# played here, the house's net moves its rack by the books in one guarded UPDATE.
AUDIT_APPEND = 1 if connection.vendor == "postgresql" else 3
IDEMPOTENCY_KEY = 1
BUDGET = {
    name: count + AUDIT_APPEND + IDEMPOTENCY_KEY
    for name, count in {"start": 6, "wagers": 8, "cards": 4, "decisions": 8, "settle": 13}.items()
}
AUTH_BUDGET = 2
SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def counted(client, url: str, body: dict | None, status: int) -> tuple[int, dict]:
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, body or {}, format="json")
    assert response.status_code == status, response.content[:500]
    statements = [q["sql"] for q in captured.captured_queries]
    return len([sql for sql in statements if not sql.startswith(SAVEPOINTS)]), response.json()


def play_counting(client, table, seats) -> dict[str, int]:
    seatings = dict(Seating.objects.filter(table=table, left_at=None).values_list("seat", "id"))
    counts = {}
    counts["start"], hand = counted(client, f"{V}/tables/{table.pk}/hands/", None, 201)
    url = f"{V}/hands/{hand['id']}"
    wagers = [{"seating": seatings[n], "ante": "10", "flush_bonus": "5"} for n in seats]
    counts["wagers"], _ = counted(client, f"{url}/wagers/batch/", {"spots": wagers}, 200)
    cards = {str(n): SEVEN_HANDS[n] for n in seats}
    counts["cards"], _ = counted(
        client, f"{url}/cards/", {"dealer_cards": SEVEN_HANDS[0], "spot_cards": cards}, 200
    )
    decisions = [{"seat": n, "decision": "raise", "raise_amount": "10"} for n in seats]
    counts["decisions"], _ = counted(client, f"{url}/decisions/batch/", {"spots": decisions}, 200)
    counts["settle"], _ = counted(client, f"{url}/settle/", None, 200)
    return counts


def test_the_five_requests_of_a_hand_cost_the_same_for_1_spot_and_6(api, world):
    client = api(world.dealer)
    table = world.table("One", banking="house", seats=(1,))  # the world's cardroom made first
    client.get(f"{V}/auth/me/")  # the token's role is cached from its first request on
    one = play_counting(client, table, (1,))
    seats = (1, 2, 3, 4, 5, 6)
    six = play_counting(client, world.table("Six", banking="house", seats=seats), seats)

    assert one == six, f"1 spot: {one}; 6 spots: {six}"
    assert six == BUDGET, f"{six}"


def test_authentication_and_the_role_take_at_most_2_queries(api, world):
    client = api(world.dealer)
    with CaptureQueriesContext(connection) as first:
        assert client.get(f"{V}/auth/me/").status_code == 200
    with CaptureQueriesContext(connection) as again:
        assert client.get(f"{V}/auth/me/").json()["role"] == DEALER

    assert len(first.captured_queries) <= AUTH_BUDGET  # the token with its user; the role
    assert len(again.captured_queries) == 0  # the token, its user and role from the cache


def test_a_changed_role_is_seen_on_the_next_request(api, world):
    client = api(world.dealer)
    assert client.get(f"{V}/auth/me/").json()["role"] == DEALER  # cached now

    world.dealer.groups.remove(Group.objects.get(name=DEALER))
    assert client.get(f"{V}/hands/").status_code == 403  # no role: nothing to read

    Group.objects.get(name=DEALER).user_set.add(world.dealer)
    assert client.get(f"{V}/auth/me/").json()["role"] == DEALER

    Group.objects.get(name=DEALER).user_set.clear()
    assert client.get(f"{V}/hands/").status_code == 403


def test_a_revoked_token_is_refused_though_its_role_was_cached(api, world):
    client = api(world.dealer)
    assert client.get(f"{V}/auth/me/").status_code == 200
    assert client.post(f"{V}/auth/token/revoke/").status_code == 204

    assert client.get(f"{V}/auth/me/").status_code == 401
