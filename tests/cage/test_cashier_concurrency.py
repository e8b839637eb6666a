"""Two sales of the cage's last chips at the same moment, on real concurrent PostgreSQL
connections: one lands, the other is refused — the cage's books never go below zero, because
every cage transaction locks the cardroom's row before it reads them."""

from __future__ import annotations

import os

import pytest

from cage import cashier_books, services
from cage.models import CageEntry
from cage.services import CountGiven
from core.errors import Conflict
from tests.conftest import signed

from ..tables.test_concurrency import at_once

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="real concurrent transactions need PostgreSQL (set DATABASE_URL)",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_two_sales_of_the_last_chips_at_once_leave_the_cage_at_zero_not_below(
    cardroom, cashier, supervisor, make_player
):
    services.cage_open(
        cardroom=cardroom,
        count=CountGiven(chips={"100": 10}, cash={}),
        signature=signed(cashier),
        witness=signed(supervisor),
        by=cashier,
    )
    first, second = make_player("First Buyer"), make_player("Second Buyer")
    answers = at_once(
        lambda: services.cage_chips_sell(player=first, chips={"100": 6}, by=cashier),
        lambda: services.cage_chips_sell(player=second, chips={"100": 6}, by=cashier),
    )
    landed = [a for a in answers if isinstance(a, CageEntry)]
    refused = [a for a in answers if isinstance(a, Conflict)]
    assert (len(landed), len(refused)) == (1, 1), answers
    assert refused[0].field == "chips.100.00"
    assert cashier_books.cage_pieces(cardroom)["100.00"] == 4
