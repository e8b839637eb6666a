"""Run by tests/faults/test_replica.py, in a pytest of its own whose DATABASE_URL is a primary
of the test's own and DATABASE_REPLICA_URL a streaming replica of it (``pg_basebackup -R``):
a report is read from the replica, and with the replica stopped a hand still settles and the
report is read from the primary, saying why. In order (``-p no:randomly``): the second stops
the replica. Not collected by the suite (no ``test_`` prefix); skipped without a replica."""

from __future__ import annotations

import os
import random
import subprocess
import time
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import connections
from django.test import Client
from django.test.utils import CaptureQueriesContext

from compliance.models import Export, VerificationRun
from compliance.services import export_request, verification_request
from compliance.verifications import verification_run
from core.replica import REPLICA
from tables.selectors import gaming_day
from tests.audit.support import play_hand
from wagers.models import Hand

pytestmark = [
    pytest.mark.skipif(
        REPLICA not in settings.DATABASES,
        reason="run by tests/faults/test_replica.py with a replica of its own",
    ),
    # Committed, so that the replica replays it; the replica mirrors the test database.
    pytest.mark.django_db(transaction=True, databases=["default", REPLICA]),
]

SEATS = (1, 2, 3)


def replica_caught_up(timeout: float = 30) -> None:
    """Wait until the replica has replayed everything the primary has written so far."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()")
        (written,) = cursor.fetchone()
    deadline = time.monotonic() + timeout
    while True:
        with connections[REPLICA].cursor() as cursor:
            cursor.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [written])
            if cursor.fetchone()[0]:
                return
        assert time.monotonic() < deadline, "the replica did not catch up"
        time.sleep(0.1)


def report_tables(queries: CaptureQueriesContext) -> str:
    return " ".join(query["sql"] for query in queries.captured_queries)


@pytest.fixture
def played(house_table, seat, dealer, clock):
    for number in SEATS:
        seat(house_table, number)
    hand = play_hand(
        house_table,
        rng=random.Random(27),
        by=dealer,
        clock=clock,
        settle_at=clock.now + timedelta(minutes=2),
    )
    assert hand.status == Hand.Status.SETTLED
    return hand


def day_report(client: Client, hand: Hand):
    day = gaming_day(hand.table.cardroom, hand.settled_at)
    return client.get(f"/api/v1/reports/tables/{hand.table_id}/days/{day.isoformat()}/")


def test_a_report_is_read_from_the_replica_and_says_how_far_behind_it_was(played, auditor):
    client = Client()
    client.force_login(auditor)
    replica_caught_up()

    with (
        CaptureQueriesContext(connections[REPLICA]) as on_replica,
        CaptureQueriesContext(connections["default"]) as on_primary,
    ):
        answer = day_report(client, played)
        hold = client.get(
            f"/api/v1/reports/hold/tables/{played.table_id}/",
            {
                "period": "range",
                "from": (played.settled_at - timedelta(hours=1)).isoformat(),
                "to": (played.settled_at + timedelta(hours=1)).isoformat(),
            },
        )

    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["hands_played"] == 1  # the hand the primary settled, read back from the replica
    assert body["read_from"]["database"] == "replica"
    assert body["read_from"]["note"] == ""
    assert float(body["read_from"]["lag_seconds"]) >= 0
    assert hold.status_code == 200, hold.content
    assert hold.json()["read_from"]["database"] == "replica"
    assert hold.json()["total"]["hands"] == 1
    # The report's rows came from the replica; the primary served the session and the table.
    assert "wagers_hand" in report_tables(on_replica)
    assert "rake_feeentry" in report_tables(on_replica)
    assert "wagers_hand" not in report_tables(on_primary)
    with connections[REPLICA].cursor() as cursor:  # the connection the report used
        cursor.execute("SELECT pg_is_in_recovery()")
        assert cursor.fetchone()[0] is True
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_is_in_recovery()")
        assert cursor.fetchone()[0] is False

    day = gaming_day(played.table.cardroom, played.settled_at)
    screen = client.get(f"/compliance/reports/?table={played.table_id}&day={day.isoformat()}")
    assert screen.status_code == 200
    assert b"Read from the replica, " in screen.content
    assert b"s behind the primary" in screen.content


def test_verifications_and_exports_read_from_the_replica_and_write_to_the_primary(played, auditor):
    replica_caught_up()
    with CaptureQueriesContext(connections[REPLICA]) as on_replica:
        runs = [
            verification_run(verification_request(kind=kind, by=auditor).pk)
            for kind in (VerificationRun.Kind.BOOKS, VerificationRun.Kind.AUDIT_CHAIN)
        ]
        export = export_request(
            kind=Export.Kind.SETTLEMENTS,
            start=played.settled_at - timedelta(hours=1),
            end=played.settled_at + timedelta(hours=1),
            by=auditor,
        )

    for run in runs:
        run.refresh_from_db()  # its progress and result were written to the primary
        assert run.status == VerificationRun.Status.DONE, run.error
        assert run.ok, run.result
        assert run.result["read_from"]["database"] == "replica"
    export.refresh_from_db()
    assert export.status == Export.Status.DONE, export.error
    assert export.rows == 1
    read = report_tables(on_replica)
    assert "wagers_settlement" in read and "audit_auditevent" in read


def test_with_the_replica_stopped_a_hand_still_settles_and_the_report_reads_the_primary(
    played, auditor, dealer, clock
):
    version, name = os.environ["CARDROOM_REPLICA_CLUSTER"].split("/")
    subprocess.run(
        ["pg_ctlcluster", version, name, "stop", "-m", "fast"], check=True, capture_output=True
    )
    connections[REPLICA].close()

    second = play_hand(
        played.table,
        rng=random.Random(28),
        by=dealer,
        clock=clock,
        settle_at=played.settled_at + timedelta(minutes=2),
    )

    assert second.status == Hand.Status.SETTLED
    assert second.settlements.count() == 1
    client = Client()
    client.force_login(auditor)
    with CaptureQueriesContext(connections["default"]) as on_primary:
        answer = day_report(client, second)
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["hands_played"] == 2
    assert body["read_from"] == {
        "database": "primary",
        "lag_seconds": None,
        "note": "the replica is not answering",
    }
    assert "wagers_hand" in report_tables(on_primary)
