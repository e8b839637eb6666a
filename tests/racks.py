"""Rack counts for the tests: a house-banked table plays only once its rack is counted (its
opening count, or the shift-change count of a new shift), and closes with its closing count.
Each count is the dealer on duty's, verified by a floor supervisor, both signing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from cage import services
from cage.models import InventoryCount
from core.roles import FLOOR_SUPERVISOR, role_of
from tables import selectors
from tables.models import Table
from tables.rack_selectors import rack_value_by_the_books
from tests.conftest import signed

#: The rack a test's house-banked table opens with: $100,000 in $100 chips, more than any
#: suite's hands pay out.
TEST_RACK = {"100.00": 1000}


def rack_opening_count(
    table: Table, chips: dict[str, int] | None = None, *, by: User | None = None
) -> InventoryCount:
    """The table's opening count (``chips``, default ``TEST_RACK``)."""
    return _count(table, "opening", chips or TEST_RACK, by)


def rack_shift_change_count(
    table: Table, chips: dict[str, int] | None = None, *, by: User | None = None
) -> InventoryCount:
    """The count of a new shift while the table stays open (default: what the books hold)."""
    return _count(table, "shift_change", chips, by)


def rack_closing_count(
    table: Table, chips: dict[str, int] | None = None, *, by: User | None = None
) -> InventoryCount:
    """The closing count, which closes the table (default: what the books hold)."""
    return _count(table, "closing", chips, by)


def _count(table: Table, kind: str, chips: dict[str, int] | None, by: User | None) -> Any:
    session = selectors.open_session(table)
    assert session is not None, f"{table} is closed"
    verifier = by or _a_supervisor(session.opened_by)
    counted = chips if chips is not None else _as_chips(table)
    return services.inventory_count_record(
        table=table,
        kind=kind,
        chips=counted,
        counted_by=signed(session.dealer),
        signature=signed(verifier),
        note="Counted as the test says",
        by=verifier,
    )


def _a_supervisor(opener: User) -> User:
    if role_of(opener) == FLOOR_SUPERVISOR:
        return opener
    found = User.objects.filter(groups__name=FLOOR_SUPERVISOR).order_by("pk").first()
    assert found is not None, "a rack count needs a floor supervisor to verify it"
    return found


def _as_chips(table: Table) -> dict[str, int]:
    """What the books hold, in the cardroom's largest chips first (a remainder under the
    smallest chip is left out: the count's note explains it)."""
    left = rack_value_by_the_books(table) or Decimal(0)
    chips: dict[str, int] = {}
    for denomination in sorted(table.cardroom.chip_denominations, key=Decimal, reverse=True):
        number = int(left // Decimal(denomination))
        if number:
            chips[denomination] = number
            left -= number * Decimal(denomination)
    return chips


def rack_counted_for_play(table: Table) -> None:
    """A house-banked table whose rack's count no longer covers the shift (a new shift began
    while it was open) gets its shift-change count, what the books hold, as the dealer and a
    floor supervisor take it before the next hand or sale."""
    session = selectors.open_session(table)
    if table.banking != "house" or session is None or session.rack_count_kind == "":
        return
    until = session.rack_counted_until
    if until is None or timezone.now() >= until:
        rack_shift_change_count(table)
