"""Chip sales, fills and credits at one table at the same moment, on real concurrent
PostgreSQL connections: the rack by the books stays exact (its last count plus every house
bank entry booked) and never goes below zero; what it cannot cover is refused, naming the
field, and books nothing."""

from __future__ import annotations

import os
from decimal import Decimal

import pytest

from cage import services
from cage.models import SlipStep
from core.errors import Conflict
from tables.models import HouseBankEntry, Rack, StackEntry
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player
from tables.services.sessions import table_open
from tables.services.stacks import stack_add
from tests.cage_books import slip_up_to_last_step
from tests.racks import rack_opening_count

from ..tables.test_concurrency import at_once

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="real concurrent transactions need PostgreSQL (set DATABASE_URL)",
    ),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def table(cardroom, supervisor, dealer):
    """A house-banked table counted at opening with $500 (five $100 chips), four players
    seated with chips they brought."""
    made = table_create(cardroom=cardroom, name="House", banking="house", by=supervisor)
    table_open(table=made, dealer=dealer, by=supervisor)
    rack_opening_count(made, {"100": 5}, by=supervisor)
    for seat in (1, 2, 3, 4):
        player = player_create(cardroom=cardroom, name=f"Player {seat}", by=dealer)
        seat_player(table=made, seat=seat, player=player, buy_in="0", by=dealer)
    return made


def books_exact(table) -> int:
    """The rack's cents, checked against the count plus every entry booked."""
    held = Rack.objects.get(table=table).cents
    booked = sum(HouseBankEntry.objects.filter(table=table).values_list("amount", flat=True))
    assert Decimal(held) / 100 == Decimal("500.00") + booked
    assert held >= 0
    return held


def test_sales_a_fill_and_a_credit_at_once_keep_the_rack_exact_and_never_negative(
    table, supervisor, dealer
):
    fill = services.slip_request(table=table, kind="fill", chips={"100": 1}, by=supervisor)
    credit = services.slip_request(table=table, kind="credit", chips={"100": 1}, by=supervisor)
    seatings = list(table.seatings.filter(left_at=None).order_by("seat"))
    last_steps = [slip_up_to_last_step(slip, dealer, supervisor) for slip in (fill, credit)]
    for attempt in range(3):
        answers = at_once(
            *(
                lambda s=s: stack_add(seating=s, amount="200", tender="cash", by=dealer)
                for s in seatings
            ),
            *(last_steps if attempt == 0 else ()),
        )
        refused = [a for a in answers if isinstance(a, Exception)]
        assert all(isinstance(a, Conflict) and a.field in ("amount", "chips") for a in refused), (
            refused
        )
        books_exact(table)
    sold = StackEntry.objects.filter(seating__table=table, tender="cash", amount__gt=0).count()
    # Every chip sold came out of the rack: at most what it ever held, $600 with the fill.
    assert 0 < sold * 200 <= 600
    assert books_exact(table) == 50000 - sold * 20000 + _slips_net(table)


def _slips_net(table) -> int:
    net = HouseBankEntry.objects.filter(table=table, reason__in=("fill", "credit"))
    return int(sum(net.values_list("amount", flat=True)) * 100)


def test_two_credits_for_the_last_chips_at_once_deliver_one(table, supervisor, dealer):
    first, second = (
        services.slip_request(table=table, kind="credit", chips={"100": 3}, by=supervisor)
        for _ in range(2)
    )
    answers = at_once(*(slip_up_to_last_step(slip, dealer, supervisor) for slip in (first, second)))
    delivered = [a for a in answers if isinstance(a, SlipStep)]
    refused = [a for a in answers if isinstance(a, Conflict)]
    assert (len(delivered), len(refused)) == (1, 1), answers
    assert refused[0].field == "chips.100.00"
    assert books_exact(table) == 20000
    assert Rack.objects.get(table=table).pieces["100.00"] == 2
