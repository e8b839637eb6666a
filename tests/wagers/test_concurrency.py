"""Settling is impossible twice, not just unlikely: two settle calls racing on one hand from two
real database connections settle it once (PostgreSQL row locks; SQLite has one writer and no
``SELECT … FOR UPDATE``, so these run on PostgreSQL only)."""

from __future__ import annotations

import os
import threading
from datetime import date

import pytest
from django.db import connections

from compliance.books import verify_books
from core.errors import Conflict
from patrons.exclusions import ExclusionInput, exclusion_add
from rake.models import FeeEntry
from tables.models import StackEntry
from wagers import services
from wagers.models import Hand, Settlement

from .books import assert_booked
from .support import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    stacks,
    start,
    wager,
)

pytestmark = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="real concurrent connections and row locks need PostgreSQL (DATABASE_URL)",
)


def race(*calls) -> tuple[list, list[BaseException]]:
    """Run the calls at the same moment, each in its own thread with its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)
    errors: list[BaseException] = []

    def run(index: int, call) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except BaseException as error:  # reported to the test thread
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a settle call never returned"
    return results, errors


def ready_to_settle(table, dealer, dp=None) -> Hand:
    hand = start(table, dealer, dp=dp)
    seats = [s for s in sorted(stacks(table)) if s != dp][:3]
    for seat in seats:
        wager(hand, table, seat, "10", flush_bonus="5", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_K94,
        spot_cards=dict(
            zip(seats, (FOUR_HEARTS_AT62, THREE_DIAMONDS_Q85, FOUR_CLUBS_KQJ4), strict=True)
        ),
        by=dealer,
    )
    for seat in seats:
        services.spot_decide(hand=hand, seat=seat, decision="raise", raise_amount="10", by=dealer)
    return hand


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", ["designated_player", "house"])
def test_two_concurrent_settles_of_one_hand_settle_it_once(
    kind, dp_table, house_table, dp_players, house_players, dealer
):
    table = dp_table if kind == "designated_player" else house_table
    before = stacks(table)
    hand = ready_to_settle(table, dealer, dp=4 if kind == "designated_player" else None)
    entries = StackEntry.objects.count()

    results, errors = race(
        lambda: services.hand_settle(hand=hand, by=dealer).pk,
        lambda: services.hand_settle(hand=hand, by=dealer).pk,
    )

    assert not errors, errors
    assert results[0] == results[1]
    assert list(Settlement.objects.filter(hand=hand).values_list("pk", flat=True)) == [results[0]]
    # Stacks moved once: one payout entry per stack that moved, each stack by its net.
    settlement = assert_booked(hand, table, before)
    moved = {row.spot.seating_id for row in settlement.spots.all() if row.paid_back}
    if hand.dp_seating_id:
        moved.add(hand.dp_seating_id)
    assert StackEntry.objects.count() - entries == len(moved)
    assert FeeEntry.objects.filter(booking__hand=hand).count() == (4 if hand.dp_seating_id else 0)


@pytest.mark.django_db(transaction=True)
def test_settles_at_two_tables_at_once_both_go_through(
    dp_table, house_table, dp_players, house_players, dealer
):
    """Different hands lock different rows; the audit chain serialises them without a
    deadlock."""
    before = {table.pk: stacks(table) for table in (dp_table, house_table)}
    hands = [ready_to_settle(dp_table, dealer, dp=4), ready_to_settle(house_table, dealer)]

    results, errors = race(
        *[(lambda hand=hand: services.hand_settle(hand=hand, by=dealer).pk) for hand in hands]
    )

    assert not errors, errors
    assert all(results)
    for hand in hands:
        assert_booked(hand, hand.table, before[hand.table_id])


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("repeat", range(3))
def test_a_bar_racing_a_batch_of_wagers_leaves_her_no_spot_and_no_deadlock(
    repeat, house_table, house_players, identify, dealer, supervisor
):
    """An exclusion takes effect at once (wagers.services.holds): whichever commits first, the
    barred player ends with no spot in the hand and all her chips, held; the others' wagers
    stand or are refused whole with call_floor; neither call waits forever."""
    barred = house_players[1]
    identify(barred.player)
    hand = start(house_table, dealer)
    entry = ExclusionInput(kind="barred", name="", starts_on=date(2024, 1, 1), reason="Cheating")
    batch = [{"seat": seat, "ante": "10"} for seat in (1, 2, 3)]

    results, errors = race(
        lambda: services.wagers_place_many(hand=hand, wagers=batch, by=dealer),
        lambda: exclusion_add(
            cardroom=house_table.cardroom, entry=entry, player=barred.player, by=supervisor
        ),
    )

    assert all(isinstance(e, Conflict) and e.code == "call_floor" for e in errors), errors
    barred.refresh_from_db()
    assert barred.exclusion_hold is not None and barred.stack == 1000
    assert not hand.spots.filter(seating=barred).exists()


#: Dealer's hands of cards no spot holds: spades 8-7-2 does not qualify (R4); diamonds T-3-2
#: does, below seat 2's Q-8-5. Either changes the hand's result.
DEALER_872_NOT_QUALIFYING = "8s 7s 2s 9d 7d 3h Kh"
DEALER_T32_QUALIFYING = "Js 6s 2d 3d Td 9h 7c"


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_corrections_of_one_hand_one_books_the_other_is_stale(
    dp_table, dp_players, dealer, supervisor, second_supervisor
):
    hand = ready_to_settle(dp_table, dealer, dp=4)
    original = services.hand_settle(hand=hand, by=dealer)

    def correct(by, cards):
        return lambda: (
            services.hand_correct(
                hand=hand,
                corrects=original.pk,
                by=by,
                reason="Dealer's cards misread",
                dealer_cards=cards,
            ).pk
        )

    results, errors = race(
        correct(supervisor, DEALER_872_NOT_QUALIFYING),
        correct(second_supervisor, DEALER_T32_QUALIFYING),
    )

    assert len(errors) == 1, errors
    assert isinstance(errors[0], Conflict) and errors[0].field == "corrects", errors[0]
    [booked] = [pk for pk in results if pk]
    history = list(Settlement.objects.filter(hand=hand).order_by("entry"))
    assert [(s.entry, s.kind) for s in history] == [
        (1, "original"),
        (2, "reversal"),
        (3, "correction"),
    ]
    assert history[2].pk == booked
    assert verify_books().ok
