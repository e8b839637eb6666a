"""Every statement a hand sends to PostgreSQL, BEGIN, COMMIT, SAVEPOINT and RELEASE included,
counted by libpq's own trace of the connection (``PGconn.trace``): each is a round trip. The
requests run as in production, each in its own transaction (not inside a test's), with their
Idempotency-Key, at a house-banked and at a designated-player table (R12-R16), for 1 spot and
for 6: the count is the same whatever the spots."""

from __future__ import annotations

import os
import tempfile

import psycopg
import pytest
from django.db import connection

from cardroom.celery import app as celery_app
from tables.models import Seating
from tests.wagers.support import SEVEN_HANDS

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="counts what psycopg sends to PostgreSQL (DATABASE_URL)",
    ),
]

V = "/api/v1"

# The round trips of each request: BEGIN; the change; the Idempotency-Key's row with its
# answer; COMMIT — no savepoint. Each audit event is one (its chain's head locked, the event
# numbered, hashed and inserted, and the head moved, in one statement). A DP hand's start
# also runs the rotation (R16: the seatings locked, the last record read, the new one and its
# event) and takes the DP's bank off the stack (R13: its entry, the stack, its event).
BUDGET = {
    "house": {"start": 10, "wagers": 12, "cards": 8, "decisions": 12, "settle": 17},
    "designated_player": {"start": 19, "wagers": 12, "cards": 8, "decisions": 12, "settle": 16},
}
#: What a hand should cost at most (not reached yet: the test below says by how much).
TARGET = 40


class Traced:
    """The statements psycopg sends on the connection while inside, from libpq's trace."""

    def __enter__(self) -> Traced:
        self.file = tempfile.TemporaryFile()
        connection.ensure_connection()
        pgconn = connection.connection.pgconn
        pgconn.trace(self.file.fileno())
        pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS | psycopg.pq.Trace.REGRESS_MODE)
        return self

    def __exit__(self, *exc: object) -> None:
        connection.connection.pgconn.untrace()
        self.file.seek(0)
        lines = self.file.read().decode().splitlines()
        self.file.close()
        # Sent by the client: a simple Query, or an extended one's Parse; each answered by
        # one ReadyForQuery (one round trip).
        self.sent = [
            line.split("\t", 3)[3].strip()
            for line in lines
            if line.startswith("F\t") and line.split("\t")[2] in ("Query", "Parse")
        ]
        self.round_trips = sum(
            1 for line in lines if line.startswith("B\t") and "ReadyForQuery" in line
        )


def play(client, table, spots: int) -> dict[str, Traced]:
    seatings = dict(Seating.objects.filter(table=table, left_at=None).values_list("seat", "id"))
    traced: dict[str, Traced] = {}

    def post(step: str, url: str, body: dict | None, status: int = 200) -> dict:
        with Traced() as traced[step]:
            response = client.post(url, body or {}, format="json")
        assert response.status_code == status, response.content[:500]
        return response.json()

    hand = post("start", f"{V}/tables/{table.pk}/hands/", None, 201)
    url = f"{V}/hands/{hand['id']}"
    seats = [n for n in sorted(seatings) if n != hand["dp_seat"]][:spots]
    wagers = [{"seating": seatings[n], "ante": "10", "flush_bonus": "5"} for n in seats]
    post("wagers", f"{url}/wagers/batch/", {"spots": wagers})
    cards = {str(n): SEVEN_HANDS[i] for i, n in enumerate(seats, 1)}
    post("cards", f"{url}/cards/", {"dealer_cards": SEVEN_HANDS[0], "spot_cards": cards})
    decisions = [{"seat": n, "decision": "raise", "raise_amount": "10"} for n in seats]
    post("decisions", f"{url}/decisions/batch/", {"spots": decisions})
    post("settle", f"{url}/settle/", None)
    return traced


@pytest.fixture
def valued_by_a_worker():
    """The settled decisions' valuation sent to the worker through Redis, as in production
    (the test run otherwise values them in the request, eagerly, after its commit)."""
    celery_app.conf.task_always_eager = False
    yield
    celery_app.conf.task_always_eager = True


@pytest.fixture
def counted(api, world, valued_by_a_worker):
    """``counted(banking)``: each request's statements of a table's second hand (the first
    of a DP table's session goes by a draw, R16) with 6 spots, and of its third with 1."""

    def count(banking: str) -> tuple[dict[str, Traced], dict[str, Traced]]:
        client = api(world.dealer)
        client.get(f"{V}/auth/me/")  # the token's role is cached from its first request on
        seats = range(1, 8) if banking == "designated_player" else range(1, 7)
        table = world.table(f"Counted {banking}", banking=banking, seats=tuple(seats))
        play(client, table, 6)
        return play(client, table, 6), play(client, table, 1)

    return count


@pytest.mark.parametrize("banking", ["house", "designated_player"])
def test_each_request_of_a_hand_sends_its_budget_of_statements_for_1_spot_and_6(counted, banking):
    six, one = counted(banking)

    listing = "\n".join(
        f"{step}: {t.round_trips}\n  " + "\n  ".join(s[:120] for s in t.sent)
        for step, t in six.items()
    )
    assert {step: t.round_trips for step, t in six.items()} == BUDGET[banking], listing
    assert {step: t.round_trips for step, t in one.items()} == BUDGET[banking]
    assert all(len(t.sent) == t.round_trips for t in six.values())  # one statement a trip
    sent = [sql for t in six.values() for sql in t.sent]
    assert not [sql for sql in sent if "SAVEPOINT" in sql or sql.startswith('"RELEASE')]
    assert sum(sql.startswith(('"BEGIN', '"COMMIT')) for sql in sent) == 2 * len(six)


@pytest.mark.xfail(
    strict=True,
    reason="a hand sends 59 statements at a house-banked table, 67 at a DP table: not 40 yet",
)
@pytest.mark.parametrize("banking", ["house", "designated_player"])
def test_a_hand_sends_at_most_40_statements(counted, banking):
    six, _ = counted(banking)

    assert sum(t.round_trips for t in six.values()) <= TARGET
