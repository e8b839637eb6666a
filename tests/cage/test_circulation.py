"""Chips in circulation, reconciled to the chip over a scripted gaming day: the chips issued
equal the cage's, plus the rack's by the books, plus what the players hold — counted apart,
from their stacks and the chips they carry away from the cage."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cage import services
from cage.circulation import circulation_statement
from cage.services import CountGiven
from tables.models import Seating
from tables.services.configuration import table_create
from tables.services.seating import seat_player
from tables.services.sessions import table_open
from tests.conftest import signed

from .conftest import RACK
from .support import DAY, LOSER, play

pytestmark = pytest.mark.django_db

ISSUED = {"1": 1000, "5": 1000, "25": 400, "100": 100, "500": 10}  # $31,000


@pytest.fixture
def day(cardroom, clock, cashier, supervisor, dealer, make_player):
    """07:00: the cage opens empty of chips with a $20,000 float; the cardroom issues its chips
    into the cage; the cage sends the house table's opening rack (its impress) and the table
    opens with that count. Then one player buys $1,000 at the cage and sits down with $500
    of it, a second buys in with $1,000 cash at the table and loses a hand ($20), and the
    first redeems $200 at the cage."""
    clock.at("07:00")
    services.cage_open(
        cardroom=cardroom,
        count=CountGiven(chips={}, cash={"100": 200}),
        signature=signed(cashier),
        witness=signed(supervisor),
        by=cashier,
    )
    services.chip_issue_record(
        cardroom=cardroom,
        direction="issue",
        chips=ISSUED,
        reason="The cardroom's chip inventory",
        witness=signed(supervisor),
        by=cashier,
    )
    services.cage_entry_add(
        cardroom=cardroom, kind="fill_sent", chips=RACK, cash=0, reference="impress", by=cashier
    )
    house = table_create(cardroom=cardroom, name="House", banking="house", by=supervisor)
    table_open(table=house, dealer=dealer, by=supervisor)
    services.inventory_count_record(
        table=house,
        kind="opening",
        chips=RACK,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    first, second = make_player("Cage Buyer"), make_player("Table Buyer")
    clock.at("08:00")
    services.cage_chips_sell(player=first, chips={"100": 8, "25": 8}, by=cashier)  # $1,000
    return {"house": house, "first": first, "second": second}


def test_the_days_chips_reconcile_to_the_chip(day, cardroom, cashier, dealer):
    house, first, second = day["house"], day["first"], day["second"]
    seat_player(table=house, seat=1, player=first, buy_in="500", tender="chips", by=dealer)
    seat_player(table=house, seat=2, player=second, buy_in="1000", by=dealer)
    play(house, dealer, {2: ("10", LOSER, "raise")})
    services.cage_chips_redeem(player=first, chips={"25": 8}, by=cashier)  # $200

    statement = circulation_statement(cardroom, DAY)
    stacks = sum(s.stack for s in Seating.objects.filter(table=house, left_at=None))
    carried = Decimal("1000") - Decimal("500") - Decimal("200")  # the first player's pocket
    assert stacks == Decimal("1480.00")
    assert statement.issued_total == Decimal("31000.00")
    assert statement.racks_total == Decimal("4600.00") - 1000 + 20
    assert statement.outstanding == stacks + carried == Decimal("1780.00")
    # By denomination, the cage: issued − the impress − the sale + the redemption.
    assert statement.cage["100.00"] == 100 - 20 - 8
    assert statement.cage["25.00"] == 400 - 80 - 8 + 8
    assert statement.cage["500.00"] == 10
    assert statement.cage_cash == Decimal("20000.00") + 1000 - 200
    assert statement.movements["chips_sold_for_cash"] == {
        "chips": Decimal("-1000.00"),
        "cash": Decimal("1000.00"),
    }


def test_a_closed_days_statement_is_its_end_not_what_came_after(day, cardroom, clock, cashier):
    clock.at("07:00", days=1)  # gaming day 2024-03-02
    services.cage_chips_sell(player=day["first"], chips={"500": 2}, by=cashier)
    closed = circulation_statement(cardroom, DAY)
    assert closed.final
    assert closed.cage["500.00"] == 10
    assert closed.outstanding == Decimal("1000.00")
    assert circulation_statement(cardroom, DAY.replace(day=2)).outstanding == Decimal("2000.00")


def test_the_statement_as_csv_lists_each_term(day, cardroom):
    rows = circulation_statement(cardroom, DAY).as_csv().splitlines()
    assert rows[0] == "term,denomination,pieces,amount"
    assert "issued,500.00,10,5000.00" in rows
    assert "rack House,,,4600.00" in rows
    assert rows[-1] == "outstanding,,,1000.00"
