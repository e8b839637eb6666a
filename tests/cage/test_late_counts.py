"""No shift that cannot close: a house-banked table closed without its closing count (old data,
or a fault) kept its shift, and so its gaming day, from ever closing — reopening, counting and
closing again did not clear it. A late closing count by two floor supervisors does."""

from __future__ import annotations

from decimal import Decimal

import pytest

from cage import services
from cage.models import InventoryCount
from cage.selectors import rack_by_the_books
from core.errors import Conflict, DomainError
from tables.models import TableSession
from tables.services.sessions import table_close, table_open
from tests.conftest import signed
from tests.racks import rack_closing_count, rack_opening_count

from .conftest import RACK
from .support import DAY, Floor
from .test_refusals import refused

pytestmark = pytest.mark.django_db

NOTE = "Closed with the plain close before the closing count was required"


def closed_without_its_count(table, clock, supervisor) -> TableSession:
    """What the plain close did before it was refused: the session closed, no closing count.
    Written as old data is, straight to the row."""
    session = TableSession.objects.get(table=table, closed_at=None)
    TableSession.objects.filter(pk=session.pk).update(closed_at=clock.now, closed_by=supervisor)
    session.refresh_from_db()
    return session


def late_count(session, by, counter, **given):
    return services.inventory_late_closing_count_record(
        session=session,
        chips=given.get("chips", RACK),
        counted_by=given.get("counted_by", signed(counter)),
        signature=given.get("signature", signed(by)),
        note=given.get("note", NOTE),
        by=by,
    )


def test_a_table_closed_without_its_count_closes_its_shift_and_day_once_counted_late(
    floor, clock, people, supervisor, second_supervisor, dealer
):
    day = Floor(floor, clock, people)
    house = floor["house"]
    clock.at("09:00")
    old = closed_without_its_count(house, clock, supervisor)
    table_close(table=floor["dp"], by=supervisor)
    clock.at("06:30", days=1)
    for table in (house, floor["dp"]):
        day.count_box(table, signed(people["second_counter"]))
    with pytest.raises(Conflict) as refusal:
        day.close_shift("day")
    assert refusal.value.field == "shift"
    assert "House: no closing count" in refusal.value.message
    assert "record a late closing count" in refusal.value.message

    # Reopening the table, counting and closing it again does not clear the old session.
    table_open(table=house, dealer=dealer, by=supervisor)
    rack_opening_count(house, RACK)
    rack_closing_count(house)
    with pytest.raises(Conflict, match="House: no closing count"):
        day.close_shift("day")

    counted = late_count(old, supervisor, second_supervisor)
    assert (counted.late, counted.kind, counted.gaming_day, counted.shift) == (
        True,
        "closing",
        DAY,
        "day",
    )
    assert (counted.counted_by, counted.verified_by) == (second_supervisor, supervisor)
    assert counted.book_total == Decimal("4600.00")  # the books as they stood at the close
    assert rack_by_the_books(house)[0] == Decimal("4600.00")  # the later session's books
    for shift in ("day", "swing", "grave"):
        day.close_shift(shift)
    closed = day.close_day(signed(people["auditor"]))
    assert closed.gaming_day == DAY


def test_a_late_count_is_refused_for_an_open_session_or_one_counted_already(
    floor, clock, supervisor, second_supervisor
):
    house = floor["house"]
    session = TableSession.objects.get(table=house, closed_at=None)
    refused(
        lambda: late_count(session, supervisor, second_supervisor),
        Conflict,
        "session",
        "take its closing count, which closes the table",
    )
    clock.at("09:00")
    rack_closing_count(house)
    refused(
        lambda: late_count(session, supervisor, second_supervisor),
        Conflict,
        "session",
        "has its closing count already",
    )


def test_a_late_count_takes_two_floor_supervisors_and_a_note(
    floor, clock, supervisor, second_supervisor, dealer
):
    clock.at("09:00")
    old = closed_without_its_count(floor["house"], clock, supervisor)
    refused(
        lambda: late_count(old, supervisor, second_supervisor, note="  "),
        DomainError,
        "note",
        "Say why the closing count is late",
    )
    refused(
        lambda: late_count(old, supervisor, supervisor),
        DomainError,
        "counted_by",
        "is on this record already: another person signs",
    )
    refused(
        lambda: late_count(old, supervisor, dealer),
        DomainError,
        "counted_by",
        "is not a floor supervisor: cannot sign",
    )
    assert not InventoryCount.objects.filter(session=old, kind="closing").exists()
    late_count(old, supervisor, second_supervisor)
    assert InventoryCount.objects.get(session=old, kind="closing").late
