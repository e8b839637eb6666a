"""The one stack-bounds guard (``tables.services.stacks.stack_bounds_check``) that a
settlement's stack moves and every single ledger entry go through: a stack never goes below
zero, nor reaches the most a stack holds ($9999999999.99, ``MONEY_LIMIT``)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.errors import DomainError
from core.money import MONEY_LIMIT
from tables.services.stacks import stack_bounds_check

from .support import seating_at

pytestmark = pytest.mark.django_db

D = Decimal


def test_every_stack_that_would_go_negative_is_named_under_the_callers_field(dp_table, dp_players):
    one, two, four = (seating_at(dp_table, number) for number in (1, 2, 4))
    with pytest.raises(DomainError) as refused:
        stack_bounds_check(
            [(one, D("-1000.01")), (two, D("5")), (four, D("-2000"))],
            field="stack",
            remedy="Settle the difference at the cage first.",
        )
    error = refused.value
    assert error.field == "stack"
    assert "at seat 1 has $1000.00 on the table, and $1000.01 would come off it" in error.message
    assert "at seat 4 has $1000.00 on the table, and $2000.00 would come off it" in error.message
    assert "seat 2" not in error.message
    assert error.message.endswith(
        "a stack never goes negative. Settle the difference at the cage first."
    )


def test_a_stack_may_go_to_zero_and_to_a_cent_below_the_most_it_holds(dp_table, dp_players):
    one = seating_at(dp_table, 1)
    stack_bounds_check([(one, D("-1000"))], field="amount")
    stack_bounds_check([(one, MONEY_LIMIT - D("1000.01"))], field="amount")
    with pytest.raises(DomainError) as refused:
        stack_bounds_check([(one, MONEY_LIMIT - D("1000"))], field="amount")
    assert refused.value.field == "amount"
    assert "$9999999999.99" in refused.value.message and "seat 1" in refused.value.message
