"""Two designated-player tables of one cardroom share no lock: a whole hand at one table, held
open in its transaction, keeps no hand at the other waiting (two real connections on
PostgreSQL, the second with a lock timeout: a shared row or chain head would time it out)."""

from __future__ import annotations

import os
import threading

import pytest
from django.db import connection, connections, transaction

from audit.verification import verify_chains
from wagers import services
from wagers.models import Hand

from .support import SEVEN_HANDS, start, wager

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="real concurrent connections and row locks need PostgreSQL (DATABASE_URL)",
    ),
    pytest.mark.django_db(transaction=True),
]

SPOTS = (1, 2, 3)
DP_SEAT = 4


def play_hand(table, dealer) -> Hand:
    """A complete hand at a DP table (R12-R16): the rotation names seat 4, three spots raise."""
    hand = start(table, dealer, dp=DP_SEAT)
    for seat in SPOTS:
        wager(hand, table, seat, "10", flush_bonus="5", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=SEVEN_HANDS[0],
        spot_cards={seat: SEVEN_HANDS[seat] for seat in SPOTS},
        by=dealer,
    )
    for seat in SPOTS:
        services.spot_decide(hand=hand, seat=seat, decision="raise", raise_amount="10", by=dealer)
    services.hand_settle(hand=hand, by=dealer)
    return hand


def test_a_hand_held_open_at_one_dp_table_keeps_none_waiting_at_another(make_table, seat, dealer):
    tables = [make_table(f"DP {n}") for n in (1, 2)]
    for table in tables:
        for number in (*SPOTS, DP_SEAT):
            seat(table, number)
    held, done = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def hold_first_table_open() -> None:
        try:
            with transaction.atomic():
                play_hand(tables[0], dealer)
                held.set()
                done.wait(timeout=60)  # every lock the hand took is still held here
        except BaseException as error:  # reported to the test thread
            errors.append(error)
            held.set()
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_first_table_open)
    holder.start()
    try:
        assert held.wait(timeout=60) and not errors, errors
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            other = play_hand(tables[1], dealer)
    finally:
        done.set()
        holder.join(timeout=60)

    assert not errors, errors
    other.refresh_from_db()
    assert other.status == Hand.Status.SETTLED
    assert Hand.objects.filter(table=tables[0], status=Hand.Status.SETTLED).count() == 1
    assert verify_chains(full=True).chains_ok
