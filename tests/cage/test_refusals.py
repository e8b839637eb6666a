"""Every refusal of the cage: out of order (a fill to a closed table, a second opening count, a
count for a day already closed…), the wrong person, bad input. Each one names its field and
says why, and writes nothing: no record, no house bank entry, no audit event, no serial."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, time
from decimal import Decimal
from typing import Any

import pytest

from audit.models import AuditEvent
from cage import services
from cage.models import (
    DayClose,
    DropCount,
    InventoryCount,
    SerialCounter,
    ShiftClose,
    Slip,
    SlipDelivery,
    SlipOriginal,
    SlipStep,
    SlipVoid,
    VarianceSignOff,
)
from core.errors import Conflict, DomainError, PermissionDenied
from tables.models import HouseBankEntry, StackEntry
from tables.services.cardrooms import cardroom_shifts_set
from tables.services.seating import player_seat_new
from tables.services.sessions import table_close, table_open
from tables.services.stacks import stack_add
from tests.cage_books import slip_prepared
from tests.conftest import signed

from .conftest import RACK
from .support import seating

pytestmark = pytest.mark.django_db

DAY = date(2024, 3, 1)


def written() -> tuple[Any, ...]:
    return (
        *(
            model.objects.count()
            for model in (
                InventoryCount,
                Slip,
                SlipStep,
                SlipDelivery,
                SlipVoid,
                SlipOriginal,
                DropCount,
                VarianceSignOff,
                ShiftClose,
                DayClose,
                HouseBankEntry,
                StackEntry,
            )
        ),
        sum(SerialCounter.objects.values_list("last", flat=True)),
        AuditEvent.objects.filter(action__startswith="cage.").count(),
    )


def refused(
    call: Callable[[], Any], kind: type[DomainError], field: str | None, says: str
) -> DomainError:
    """The call is refused with exactly that kind of error, naming ``field``, with ``says`` in
    its message; nothing is written."""
    before = written()
    with pytest.raises(DomainError) as caught:
        call()
    assert type(caught.value) is kind, caught.value
    assert caught.value.field == field, caught.value.message
    assert says in caught.value.message, caught.value.message
    assert written() == before
    return caught.value


# --- inventory counts -------------------------------------------------------------------------


def test_it_refuses_a_second_opening_count(floor, supervisor, dealer):
    refused(
        lambda: services.inventory_count_record(
            table=floor["house"],
            kind="opening",
            chips=RACK,
            counted_by=signed(dealer),
            signature=signed(supervisor),
            by=supervisor,
        ),
        Conflict,
        "kind",
        "opening count is recorded already",
    )


def test_it_refuses_a_shift_change_count_in_the_shift_of_the_last_count(floor, supervisor, dealer):
    refused(
        lambda: services.inventory_count_record(
            table=floor["house"],
            kind="shift_change",
            chips=RACK,
            counted_by=signed(dealer),
            signature=signed(supervisor),
            by=supervisor,
        ),
        Conflict,
        "kind",
        "counted in the day shift already",
    )


def test_it_refuses_a_count_at_a_closed_table_and_a_closing_before_an_opening(
    floor, supervisor, dealer
):
    refused(
        lambda: services.inventory_count_record(
            table=floor["closed"],
            kind="opening",
            chips=RACK,
            counted_by=signed(dealer),
            signature=signed(supervisor),
            by=supervisor,
        ),
        Conflict,
        "table",
        "is closed",
    )
    table_open(table=floor["closed"], dealer=dealer, by=supervisor)
    refused(
        lambda: services.inventory_count_record(
            table=floor["closed"],
            kind="closing",
            chips=RACK,
            counted_by=signed(dealer),
            signature=signed(supervisor),
            by=supervisor,
        ),
        Conflict,
        "kind",
        "Count the rack at opening first",
    )


def test_a_designated_player_table_has_no_rack_to_count(floor, supervisor, dealer):
    refused(
        lambda: services.inventory_count_record(
            table=floor["dp"],
            kind="opening",
            chips=RACK,
            counted_by=signed(dealer),
            signature=signed(supervisor),
            by=supervisor,
        ),
        Conflict,
        "table",
        "no house bank",
    )


def test_a_count_needs_two_signatures_of_table_staff(floor, supervisor, dealer, auditor):
    def count(by, counted_by):
        return lambda: services.inventory_count_record(
            table=floor["house"],
            kind="closing",
            chips=RACK,
            counted_by=signed(counted_by),
            signature=signed(by),
            by=by,
        )

    refused(count(supervisor, supervisor), DomainError, "counted_by", "on this record already")
    refused(count(supervisor, auditor), DomainError, "counted_by", "is not a dealer")
    refused(count(dealer, supervisor), PermissionDenied, None, "Only a floor supervisor")


@pytest.mark.parametrize(
    ("chips", "field", "says"),
    [
        ({"3": 1}, "chips.3", "not a denomination"),
        ({"25": -1}, "chips.25", "whole number"),
        ({"25": 1.5}, "chips.25", "whole number"),
        ({"25": True}, "chips.25", "whole number"),
        ({"abc": 1}, "chips", "amount"),
    ],
)
def test_a_count_is_whole_chips_of_the_cardrooms_denominations(
    floor, supervisor, dealer, chips, field, says
):
    error = refused(
        lambda: services.inventory_count_record(
            table=floor["house"],
            kind="closing",
            chips=chips,
            counted_by=signed(dealer),
            signature=signed(supervisor),
            by=supervisor,
        ),
        DomainError,
        field,
        "",
    )
    assert says.lower() in error.message.lower()


# --- fills and credits -----------------------------------------------------------------------


def test_it_refuses_a_fill_to_a_closed_table_or_a_table_without_a_rack(floor, supervisor):
    refused(
        lambda: services.slip_request(
            table=floor["closed"], kind="fill", chips={"100": 1}, by=supervisor
        ),
        Conflict,
        "table",
        "no fill goes to a closed table",
    )
    refused(
        lambda: services.slip_request(
            table=floor["dp"], kind="fill", chips={"100": 1}, by=supervisor
        ),
        Conflict,
        "table",
        "no house bank",
    )


def test_it_refuses_an_empty_slip_and_a_credit_beyond_the_rack(floor, supervisor):
    refused(
        lambda: services.slip_request(table=floor["house"], kind="fill", chips={}, by=supervisor),
        DomainError,
        "chips",
        "every count is 0",
    )
    refused(
        lambda: services.slip_request(
            table=floor["house"], kind="credit", chips={"500": 10}, by=supervisor
        ),
        Conflict,
        "chips.500.00",
        "The rack holds 0 × $500.00 by the books",
    )


def test_only_a_floor_supervisor_requests_a_slip(floor, dealer):
    refused(
        lambda: services.slip_request(table=floor["house"], kind="fill", chips={"1": 1}, by=dealer),
        PermissionDenied,
        None,
        "Only a floor supervisor",
    )


def test_a_void_needs_a_reason_and_a_witness_and_is_final(floor, supervisor, dealer, cashier):
    slip = services.slip_request(table=floor["house"], kind="fill", chips={"5": 4}, by=supervisor)
    refused(
        lambda: services.slip_void(slip=slip, reason="  ", witness=signed(dealer), by=supervisor),
        DomainError,
        "reason",
        "Say why",
    )
    refused(
        lambda: services.slip_void(
            slip=slip, reason="Wrong", witness=signed(supervisor), by=supervisor
        ),
        DomainError,
        "witness",
        "on this record already",
    )
    services.slip_void(slip=slip, reason="Wrong table", witness=signed(dealer), by=supervisor)
    refused(
        lambda: services.slip_prepare(slip=slip, signature=signed(cashier), by=cashier),
        Conflict,
        "slip",
        "F-000001 is void",
    )
    refused(
        lambda: services.slip_void(
            slip=slip, reason="Again", witness=signed(dealer), by=supervisor
        ),
        Conflict,
        "slip",
        "is void",
    )


def test_a_slip_is_never_delivered_to_a_table_closed_since(floor, supervisor, dealer, cashier):
    slip = services.slip_request(table=floor["house"], kind="fill", chips={"5": 4}, by=supervisor)
    slip_prepared(slip, cashier)
    services.slip_dealer_sign(slip=slip, signature=signed(dealer), by=dealer)
    services.inventory_count_record(
        table=floor["house"],
        kind="closing",
        chips=RACK,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    refused(
        lambda: services.slip_supervisor_sign(
            slip=slip, signature=signed(supervisor), by=supervisor
        ),
        Conflict,
        "slip",
        "no fill goes to a closed table",
    )


# --- drop counts, sign-offs, closes ---------------------------------------------------------------


def count_drop(table, by, second, *, day=DAY, shift="day", chips=None):
    return lambda: services.drop_count_record(
        table=table,
        gaming_day=day,
        shift=shift,
        cash={},
        chips=chips or {},
        second_counter=signed(second),
        by=by,
    )


def test_a_drop_box_is_counted_after_its_shift_once_by_two_counters(
    floor, clock, counter, second_counter, supervisor, dealer
):
    dp = floor["dp"]
    refused(count_drop(dp, counter, second_counter), Conflict, "shift", "is not over")
    clock.at("14:05")
    refused(count_drop(dp, supervisor, counter), PermissionDenied, None, "Only a count team")
    refused(
        count_drop(dp, counter, counter), DomainError, "second_counter", "on this record already"
    )
    refused(count_drop(dp, counter, dealer), DomainError, "second_counter", "not a count team")
    refused(
        count_drop(dp, counter, second_counter, shift="brunch"), DomainError, "shift", "no shift"
    )
    count_drop(dp, counter, second_counter)()
    refused(count_drop(dp, counter, second_counter), Conflict, "table", "counted already")


def test_a_variance_is_signed_off_by_a_supervisor_once_with_a_reason(
    floor, clock, counter, second_counter, supervisor, dealer
):
    clock.at("14:05")
    exact = count_drop(floor["dp"], counter, second_counter)()
    over = count_drop(floor["house"], counter, second_counter, chips={"1": 1})()
    assert (exact.variance, over.variance) == (Decimal("0.00"), Decimal("1.00"))
    refused(
        lambda: services.drop_variance_sign_off(
            count=exact, reason="x", signature=signed(supervisor), by=supervisor
        ),
        Conflict,
        "count",
        "no variance",
    )
    refused(
        lambda: services.drop_variance_sign_off(
            count=over, reason="", signature=signed(supervisor), by=supervisor
        ),
        DomainError,
        "reason",
        "Explain",
    )
    refused(
        lambda: services.drop_variance_sign_off(
            count=over, reason="Tip", signature=signed(dealer), by=dealer
        ),
        PermissionDenied,
        None,
        "Only a floor supervisor",
    )
    services.drop_variance_sign_off(
        count=over, reason="A tip dropped", signature=signed(supervisor), by=supervisor
    )
    refused(
        lambda: services.drop_variance_sign_off(
            count=over, reason="Tip", signature=signed(supervisor), by=supervisor
        ),
        Conflict,
        "count",
        "signed off already",
    )


def test_a_shift_closes_only_when_it_is_over_and_every_count_is_in(
    floor, clock, counter, second_counter, supervisor, dealer, auditor
):
    def close(by=supervisor, shift="day"):
        return lambda: services.shift_close(
            cardroom=floor["house"].cardroom,
            gaming_day=DAY,
            shift=shift,
            signature=signed(by),
            by=by,
        )

    pending = services.slip_request(
        table=floor["house"], kind="fill", chips={"5": 4}, by=supervisor
    )
    refused(close(), Conflict, "shift", "is not over")
    clock.at("14:05")
    error = refused(close(), Conflict, "shift", "cannot close yet")
    for missing in (
        "House: no drop count",
        "House: no closing count",
        "DP: no drop count",
        "F-000001 is neither delivered nor voided",
    ):
        assert missing in error.message
    refused(close(by=auditor), PermissionDenied, None, "Only a floor supervisor")
    services.slip_void(slip=pending, reason="Not needed", witness=signed(dealer), by=supervisor)
    services.inventory_count_record(
        table=floor["house"],
        kind="shift_change",
        chips=RACK,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    count_drop(floor["dp"], counter, second_counter)()
    over = count_drop(floor["house"], counter, second_counter, chips={"1": 1})()
    refused(close(), Conflict, "shift", "variance of $1.00 is not signed off")
    services.drop_variance_sign_off(
        count=over, reason="A tip dropped", signature=signed(supervisor), by=supervisor
    )
    services.shift_close(
        cardroom=floor["house"].cardroom,
        gaming_day=DAY,
        shift="day",
        signature=signed(supervisor),
        by=supervisor,
    )
    refused(close(), Conflict, "shift", "shift of 2024-03-01 is closed")
    refused(
        count_drop(floor["house"], counter, second_counter, shift="day"),
        Conflict,
        "shift",
        "is closed",
    )


def test_a_day_closes_when_every_shift_is_closed_and_is_then_locked(
    floor, clock, counter, second_counter, supervisor, dealer, auditor
):
    cardroom = floor["house"].cardroom

    def close_day(by=auditor):
        return lambda: services.gaming_day_close(
            cardroom=cardroom, gaming_day=DAY, signature=signed(by), by=by
        )

    refused(close_day(), Conflict, "gaming_day", "is not over")
    services.inventory_count_record(
        table=floor["house"],
        kind="closing",
        chips=RACK,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    table_close(table=floor["dp"], by=supervisor)
    clock.at("06:30", days=1)
    for table in (floor["house"], floor["dp"]):
        count_drop(table, counter, second_counter)()
    refused(close_day(), Conflict, "gaming_day", "shift day, swing, grave is not closed")
    for shift in ("day", "swing", "grave"):
        services.shift_close(
            cardroom=cardroom,
            gaming_day=DAY,
            shift=shift,
            signature=signed(supervisor),
            by=supervisor,
        )
    refused(close_day(by=supervisor), PermissionDenied, None, "Only a compliance auditor")
    close_day()()
    refused(close_day(), Conflict, "gaming_day", "is closed already")
    refused(
        lambda: services.drop_variance_sign_off(
            count=DropCount.objects.first(),
            reason="late",
            signature=signed(supervisor),
            by=supervisor,
        ),
        Conflict,
        "count",
        "no variance",
    )
    refused(
        count_drop(floor["closed"], counter, second_counter),
        Conflict,
        "gaming_day",
        "The gaming day 2024-03-01 is closed",
    )


# --- tender and configuration ------------------------------------------------------------------


def test_a_designated_player_table_sells_no_chips_for_cash(floor, dealer):
    refused(
        lambda: player_seat_new(
            table=floor["dp"], seat=1, name="Ana", buy_in="100", tender="cash", by=dealer
        ),
        DomainError,
        "tender",
        "Buy chips at the cage",
    )
    player_seat_new(table=floor["house"], seat=1, name="Bo", buy_in="100", by=dealer)
    refused(
        lambda: stack_add(
            seating=seating(floor["house"], 1), amount="100", tender="card", by=dealer
        ),
        DomainError,
        "tender",
        "'cash' or 'chips'",
    )


def test_shifts_start_with_the_gaming_day_and_are_distinct(cardroom, supervisor, dealer):
    def set_shifts(shifts, by=supervisor):
        return lambda: cardroom_shifts_set(cardroom=cardroom, shifts=shifts, by=by)

    refused(set_shifts([("late", time(10))]), DomainError, "shifts", "starts when the gaming day")
    refused(
        set_shifts([("day", time(6)), ("day", time(14))]), DomainError, "shifts", "share a name"
    )
    refused(set_shifts([]), DomainError, "shifts", "at least one")
    refused(set_shifts([("day", time(6))], by=dealer), PermissionDenied, None, "floor supervisor")
