"""Settling a hand runs a fixed number of SQL queries, whatever the number of spots: a full
table (6 spots) costs what a single spot costs."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from wagers import services

from .support import SEVEN_HANDS, start, wager

pytestmark = pytest.mark.django_db

# The SQL statements of one hand_settle, by kind of table: lock the hand (with its session,
# the table's open one while it is open) and the actor's role (who may settle), the spots; the
# hand's status; the settlement (its first entry: its number needs no query), its spot lines,
# its wager lines and (at a DP table) its fees and their links to it, each in one INSERT; the
# stacks locked, moved in one UPDATE and logged in one INSERT; the audit event (on PostgreSQL
# one statement: its chain's head locked, the event hashed and inserted, the head moved; on
# SQLite three: the head read, the event, the head moved: ``audit.appends``); the cardroom's shifts
# (the gaming day and shift every entry is booked in). A house-banked table takes no fee: two
# INSERTs fewer; but the house's side is booked in its house bank ledger and linked to the
# settlement: two more; and its rack by the books moves in one guarded UPDATE: one more.
AUDIT_APPEND = 1 if connection.vendor == "postgresql" else 3
BUDGET = {"designated_player": 13 + AUDIT_APPEND, "house": 14 + AUDIT_APPEND}
SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def settle_counting(make_table, seat, dealer, banking: str, spots: int) -> list[str]:
    """A fresh table of the kind with 7 players; a hand with ``spots`` spots, every one of them
    raising (so that every stack moves and, at a DP table, every spot pays its fee), settled
    while the queries are counted."""
    table = make_table(f"{banking} {spots}", banking=banking)
    for number in range(1, 8):
        seat(table, number)
    dp = 7 if banking == "designated_player" else None
    hand = start(table, dealer, dp=dp)
    seats = list(range(1, spots + 1))
    for number in seats:
        wager(hand, table, number, "10", flush_bonus="5", straight_flush_bonus="5", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=SEVEN_HANDS[0],
        spot_cards={number: SEVEN_HANDS[number] for number in seats},
        by=dealer,
    )
    for number in seats:
        services.spot_decide(hand=hand, seat=number, decision="raise", raise_amount="10", by=dealer)
    by = type(dealer).objects.get(pk=dealer.pk)  # as a request loads its user: role not known
    with CaptureQueriesContext(connection) as queries:
        settlement = services.hand_settle(hand=hand, by=by)
    assert settlement.spots.count() == spots
    # The test runs inside a transaction, so the service's atomic block is a savepoint here;
    # in production it is the transaction itself. Only the statements are counted.
    statements = [query["sql"] for query in queries.captured_queries]
    return [sql for sql in statements if not sql.startswith(SAVEPOINTS)]


@pytest.mark.parametrize("banking", ["designated_player", "house"])
def test_settling_six_spots_runs_exactly_the_queries_of_one_spot(make_table, seat, dealer, banking):
    one = settle_counting(make_table, seat, dealer, banking, 1)
    six = settle_counting(make_table, seat, dealer, banking, 6)
    listing = "\n".join(six)
    assert len(six) == len(one), (
        f"{banking}: 1 spot settles in {len(one)} queries, 6 spots in {len(six)}:\n{listing}"
    )
    assert len(six) == BUDGET[banking], (
        f"{banking}: hand_settle runs {len(six)} queries for 1 and for 6 spots "
        f"(budget {BUDGET[banking]}):\n{listing}"
    )
