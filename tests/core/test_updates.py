"""Several rows changed in one UPDATE, each its own values (core.updates), on
whichever database the run uses: what is stored is exactly what a row-by-row save stores."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core.updates import add_by_pk, set_by_pk
from tables.models import Seating
from tests.wagers.support import start, wager
from wagers.models import Hand, Spot

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_spots(house_table, seat, dealer):
    for number in (1, 2, 3):
        seat(house_table, number, buy_in="500")
    hand = start(house_table, dealer)
    for number in (1, 2, 3):
        wager(hand, house_table, number, "10", by=dealer)
    return list(Spot.objects.filter(hand=hand).order_by("seat"))


def test_each_row_gets_its_own_values_in_one_statement(three_spots):
    one, two, three = three_spots
    with CaptureQueriesContext(connection) as queries:
        changed = set_by_pk(
            Spot,
            ["decision", "raise_amount"],
            {one.pk: ["raise", Decimal("20")], two.pk: ["fold", Decimal("0")]},
        )

    assert changed == 2
    assert len(queries.captured_queries) == 1
    stored = {s.seat: (s.decision, s.raise_amount) for s in Spot.objects.filter(hand=one.hand)}
    assert stored == {
        1: ("raise", Decimal("20.00")),
        2: ("fold", Decimal("0.00")),
        3: ("", Decimal("0.00")),
    }


def test_a_column_of_nulls_only_is_stored_as_null(three_spots):
    hand = three_spots[0].hand
    set_by_pk(Hand, ["dp_bank"], {hand.pk: [Decimal("5")]})
    assert Hand.objects.get(pk=hand.pk).dp_bank == Decimal("5.00")

    set_by_pk(Hand, ["dp_bank", "settled_at"], {hand.pk: [None, None]})

    assert Hand.objects.filter(pk=hand.pk).values_list("dp_bank", "settled_at").get() == (
        None,
        None,
    )


def test_amounts_are_added_to_what_is_stored_to_the_cent(three_spots):
    seatings = sorted({spot.seating_id for spot in three_spots})
    before = dict(Seating.objects.filter(pk__in=seatings).values_list("pk", "stack"))
    Seating.objects.filter(pk=seatings[0]).update(stack=Decimal("490.10"))  # moved meanwhile

    changed = add_by_pk(
        Seating, "stack", {seatings[0]: Decimal("-0.30"), seatings[1]: Decimal("12.05")}
    )

    assert changed == 2
    after = dict(Seating.objects.filter(pk__in=seatings).values_list("pk", "stack"))
    assert after[seatings[0]] == Decimal("489.80")  # the stored value's sum, not a stale read
    assert after[seatings[1]] == before[seatings[1]] + Decimal("12.05")
    assert after[seatings[2]] == before[seatings[2]]


def test_no_rows_run_nothing_and_missing_rows_are_left_alone(three_spots):
    with CaptureQueriesContext(connection) as queries:
        assert set_by_pk(Spot, ["cards"], {}) == 0
        assert add_by_pk(Seating, "stack", {}) == 0
    assert queries.captured_queries == []

    assert set_by_pk(Spot, ["cards"], {987654: ["As Ks Qs Js Ts 9s 8s"]}) == 0
