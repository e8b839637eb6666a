"""Every statement a hand sends to PostgreSQL, BEGIN, COMMIT, SAVEPOINT and RELEASE included."""

from __future__ import annotations

import os
import tempfile

import psycopg
import pytest
from django.db import connection

from tables.models import Seating
from tests.wagers.support import SEVEN_HANDS

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="counts what psycopg sends to PostgreSQL",
    ),
]

V = "/api/v1"


class Traced:
    def __init__(self):
        self.file = tempfile.TemporaryFile()

    def __enter__(self):
        connection.ensure_connection()
        pgconn = connection.connection.pgconn
        pgconn.trace(self.file.fileno())
        pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS | psycopg.pq.Trace.REGRESS_MODE)
        return self

    def __exit__(self, *exc):
        connection.connection.pgconn.untrace()
        self.file.seek(0)
        self.lines = self.file.read().decode().splitlines()
        self.sent = [
            line.split("\t", 3)[3] for line in self.lines
            if line.startswith("F\t") and line.split("\t")[2] in ("Query", "Parse")
        ]
        self.trips = sum(1 for line in self.lines if "\tReadyForQuery" in line)


def play(client, table, seats, dp=None):
    seatings = dict(Seating.objects.filter(table=table, left_at=None).values_list("seat", "id"))
    out = {}

    def post(name, url, body, status=200):
        with Traced() as t:
            r = client.post(url, body or {}, format="json")
        assert r.status_code == status, r.content[:500]
        out[name] = t
        return r.json()

    hand = post("start", f"{V}/tables/{table.pk}/hands/", None, 201)
    url = f"{V}/hands/{hand['id']}"
    seats = [n for n in seats if n != hand.get("dp_seat")]
    wagers = [{"seating": seatings[n], "ante": "10", "flush_bonus": "5"} for n in seats]
    post("wagers", f"{url}/wagers/batch/", {"spots": wagers})
    cards = {str(n): SEVEN_HANDS[i] for i, n in enumerate(seats, 1)}
    post("cards", f"{url}/cards/", {"dealer_cards": SEVEN_HANDS[0], "spot_cards": cards})
    decisions = [{"seat": n, "decision": "raise", "raise_amount": "10"} for n in seats]
    post("decisions", f"{url}/decisions/batch/", {"spots": decisions})
    post("settle", f"{url}/settle/", None)
    return out


@pytest.mark.parametrize("banking", ["house", "designated_player"])
def test_explore(api, world, banking):
    client = api(world.dealer)
    client.get(f"{V}/auth/me/")
    seats = (1, 2, 3, 4, 5, 6, 7) if banking == "designated_player" else (1, 2, 3, 4, 5, 6)
    table = world.table("T", banking=banking, seats=seats)
    play(client, table, seats)
    out = play(client, table, seats)
    total = 0
    with open(f"/tmp/hp/{banking}.txt", "w") as f:
        for name, t in out.items():
            total += t.trips
            print(f"== {name}: {t.trips} round trips, {len(t.sent)} sent", file=f)
            for s in t.sent:
                print("   ", s[:300], file=f)
        print("TOTAL", total, file=f)
