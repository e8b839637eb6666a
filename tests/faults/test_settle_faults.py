"""Settling through faults ("Tests"), on PostgreSQL and a real Redis of the test's own:
Redis stopped while hands settle, and the database connection of a settle killed
(``pg_terminate_backend``) at each step of its transaction. Nothing is lost, nothing is
doubled, a retry settles the hand once, and afterwards the books (``verify_books``) and the
audit chain (``verify_chain``) verify.

The connection killed is the settle's own backend, found by its pid on the test's database:
the machine's PostgreSQL is never stopped and no other session is touched. A blocking lock
taken by a second connection holds the settle at the chosen step (after the hand's row lock
and the settlement rows it has written, uncommitted) while it is killed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import connection, connections
from django.db.utils import DatabaseError, InterfaceError
from knox.models import AuthToken
from rest_framework.test import APIClient

from audit.models import AuditEvent, ChainHead
from audit.verification import verify_chain
from compliance.books import verify_books
from compliance.models import VerificationRun
from compliance.services import verification_request
from rake.models import FeeEntry
from tables.models import Seating, StackEntry
from tests import runtime_role
from wagers import services as wagers
from wagers.models import Hand, Settlement

from .export_support import celery_on, redis_server, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

postgres_only = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="kills PostgreSQL backends (pg_terminate_backend): DATABASE_URL=postgres://…",
)

V = "/api/v1"
SEATS = (1, 2, 3)


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    return client


def ready_hand(table, dealer) -> Hand:
    """A hand at ``table`` with every decision made: the next step is to settle it."""
    hand = wagers.hand_start(table=table, by=dealer)
    for number in SEATS:
        seating = table.seatings.get(seat=number, left_at=None)
        wagers.wager_place(hand=hand, seating=seating, ante="10", flush_bonus="5", by=dealer)
    wagers.hand_cards_enter(
        hand=hand,
        dealer_cards="Ks 9s 4s 2c 7h 8c 3c",
        spot_cards={
            1: "Ah Th 6h 2h Jd 5c 9c",
            2: "Qd 8d 5d As 6c 4h 3s",
            3: "Qh 8h 3d 4c Td 6s Js",
        },
        by=dealer,
    )
    wagers.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="10", by=dealer)
    wagers.spot_decide(hand=hand, seat=2, decision="fold", by=dealer)
    wagers.spot_decide(hand=hand, seat=3, decision="raise", raise_amount="10", by=dealer)
    hand.refresh_from_db()
    return hand


def books() -> dict[str, object]:
    """What a settlement writes, counted; and the stacks."""
    return {
        "settlements": Settlement.objects.count(),
        "fees": FeeEntry.objects.count(),
        "stack_entries": StackEntry.objects.count(),
        "events": AuditEvent.objects.count(),
        "heads": sorted(ChainHead.objects.values_list("chain", "seq")),  # every chain's
        "stacks": sorted(Seating.objects.values_list("pk", "stack")),
    }


def assert_books_and_chain_verify() -> None:
    report = verify_books()
    assert report.ok, f"{report.row}: {report.problem}"
    chain = verify_chain()
    assert chain.ok, f"#{chain.broken_seq}: {chain.problem}"


@pytest.fixture
def table(house_table, seat):
    for number in SEATS:
        seat(house_table, number)
    return house_table


# --- Redis stopped while hands settle ----------------------------------------------------------


def test_with_redis_stopped_mid_evening_hands_still_settle_once_and_retries_double_nothing(
    table, dealer, auditor, settings
):
    api = client_for(dealer)
    with redis_server() as server, celery_on(server.url):
        settings.REDIS_URL = server.url
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": server.url,
            }
        }
        settled: list[tuple[int, dict]] = []

        def settle(hand: Hand) -> dict:
            response = api.post(
                f"{V}/hands/{hand.pk}/settle/", format="json",
                headers={"Idempotency-Key": f"settle-{hand.pk}"},
            )  # fmt: skip
            assert response.status_code == 200, response.content[:300]
            settled.append((hand.pk, response.json()))
            return response.json()

        settle(ready_hand(table, dealer))
        settle(ready_hand(table, dealer))
        server.stop()  # Redis gone mid-evening
        settle(ready_hand(table, dealer))
        settle(ready_hand(table, dealer))
        # A verification asked for now cannot be queued: failed at once with the reason.
        run = verification_request(kind="books", by=auditor)
        run.refresh_from_db()
        assert run.status == VerificationRun.Status.FAILED
        assert "could not be queued" in run.error

        server.start()
        settle(ready_hand(table, dealer))
        before = books()
        for pk, first in settled:  # every settle sent again, as a device would after a timeout
            again = api.post(
                f"{V}/hands/{pk}/settle/",
                format="json",
                headers={"Idempotency-Key": f"settle-{pk}"},
            )
            assert again.status_code == 200 and again.json() == first
            assert again["Idempotent-Replayed"] == "true"
            without_key = api.post(f"{V}/hands/{pk}/settle/", format="json")
            assert without_key.status_code == 428  # a settle needs its key: moved nothing
        assert books() == before

    assert Hand.objects.filter(status=Hand.Status.SETTLED).count() == 5
    assert Settlement.objects.filter(kind="original").count() == 5 == Settlement.objects.count()
    assert_books_and_chain_verify()


# --- database connections killed mid-settle ----------------------------------------------------

#: Where the settle is held and killed: (what blocks it, the lock a second connection takes).
STEPS = {
    "settlement rows": "LOCK TABLE wagers_settlement IN SHARE MODE",
    "wager lines": "LOCK TABLE wagers_wagersettlement IN SHARE MODE",
    "stack entries": "LOCK TABLE tables_stackentry IN SHARE MODE",
    # the head of the table's own chain (chains per table)
    "audit chain": "SELECT 1 FROM audit_chainhead WHERE chain = 'table:{table}' FOR UPDATE",
}


def _blocker() -> psycopg.Connection:
    """A second connection, as the tables' owner: LOCK TABLE in SHARE MODE is beyond the
    runtime role (and is only the test's way of holding the settle at a step)."""
    database = connection.settings_dict
    return psycopg.connect(
        host=database["HOST"] or "127.0.0.1",
        port=database["PORT"] or 5432,
        user=runtime_role.current().owner,
        password=database["PASSWORD"] or None,
        dbname=database["NAME"],
    )


class SettleInThread:
    """``hand_settle`` on a connection of its own (a thread's), its backend pid known."""

    def __init__(self, hand: Hand, dealer) -> None:
        self.hand, self.dealer = hand, dealer
        self.pid: int | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                self.pid = cursor.fetchone()[0]
            wagers.hand_settle(hand=self.hand, by=self.dealer)
        except BaseException as error:  # noqa: BLE001 - the test reads it
            self.error = error
        finally:
            connections.close_all()

    def waiting_on_a_lock(self, cursor: Any) -> bool:
        if self.pid is None:
            return False
        cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [self.pid])
        row = cursor.fetchone()
        return row is not None and row[0] == "Lock"


def kill_mid_settle(hand: Hand, dealer, lock: str, terminate: Callable[[int], None]) -> None:
    blocker = _blocker()
    try:
        blocker.execute(lock)  # held in the blocker's open transaction
        settle = SettleInThread(hand, dealer)
        settle.thread.start()
        with connection.cursor() as cursor:  # autocommit: pg_stat_activity read afresh
            wait_until(
                lambda: not settle.thread.is_alive() or settle.waiting_on_a_lock(cursor),
                timeout=30,
                what=f"the settle to block on {lock}",
            )
        assert settle.thread.is_alive(), f"the settle did not wait on {lock}: {settle.error!r}"
        terminate(settle.pid)
    finally:
        blocker.rollback()
        blocker.close()
    settle.thread.join(timeout=30)
    assert not settle.thread.is_alive()
    assert isinstance(settle.error, DatabaseError | InterfaceError), repr(settle.error)


def _terminate(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert cursor.fetchone()[0] is True


@postgres_only
def test_a_settle_whose_connection_is_killed_at_any_step_settles_nothing_and_a_retry_once(
    table, dealer
):
    for step, lock in STEPS.items():
        hand = ready_hand(table, dealer)
        before = books()

        kill_mid_settle(hand, dealer, lock.format(table=hand.table_id), _terminate)

        hand.refresh_from_db()
        assert hand.status == Hand.Status.DECISIONS, step  # rolled back whole: not settled
        assert books() == before, f"{step}: a killed settle left something behind"

        first = wagers.hand_settle(hand=hand, by=dealer)  # the retry
        again = wagers.hand_settle(hand=hand, by=dealer)  # and a retry of the retry
        assert again.pk == first.pk
        hand.refresh_from_db()
        assert hand.status == Hand.Status.SETTLED
        assert list(hand.settlements.values_list("kind", flat=True)) == ["original"], step
        after = books()
        assert after["settlements"] == before["settlements"] + 1
        assert after["events"] == before["events"] + 1  # one hand.settled event,
        moved_heads = set(after["heads"]) - set(before["heads"])  # on the table's chain alone
        assert [chain for chain, _ in moved_heads] == [f"table:{hand.table_id}"]
        # The chips back onto the stacks: every stake, less the house's net and its fees (R15).
        moved = sum(s for _, s in after["stacks"]) - sum(s for _, s in before["stacks"])
        staked = sum(
            spot.ante + spot.flush_bonus + spot.straight_flush_bonus + spot.raise_amount
            for spot in hand.spots.all()
        )
        assert moved == staked - first.house_rake - first.dealer_net

    assert_books_and_chain_verify()
