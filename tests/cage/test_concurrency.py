"""Two fills requested at the same moment on real concurrent PostgreSQL connections both land,
with distinct serial numbers: the cardroom's serial counter is locked, never read and bumped
by two at once. Among the first slips of a cardroom too, when the counter row does not exist
yet and both requests would make it. Two signatures of a slip's last step at once move the
rack once."""

from __future__ import annotations

import os

import pytest

from cage import services
from cage.models import SerialCounter, Slip, SlipPrint, SlipStep
from core.errors import Conflict
from tables.models import HouseBankEntry
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tests.cage_books import slip_prepared
from tests.conftest import signed

from ..tables.test_concurrency import at_once

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="real concurrent transactions need PostgreSQL (set DATABASE_URL)",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_two_fills_at_once_both_land_with_distinct_serials(
    cardroom, supervisor, second_supervisor, dealer
):
    tables = []
    for name in ("House 1", "House 2"):
        table = table_create(cardroom=cardroom, name=name, banking="house", by=supervisor)
        table_open(table=table, dealer=dealer, by=supervisor)
        tables.append(table)
    serials: list[int] = []
    for attempt in range(4):  # the first round races on making the counter row itself
        answers = at_once(
            *(
                lambda table=table, who=who, n=attempt: services.slip_request(
                    table=table, kind="fill", chips={"100": 1 + n}, by=who
                )
                for table, who in zip(tables, (supervisor, second_supervisor), strict=True)
            )
        )
        assert all(isinstance(a, Slip) for a in answers), answers
        serials += [a.serial for a in answers]
    assert sorted(serials) == list(range(1, 9))
    assert SerialCounter.objects.get(cardroom=cardroom, kind="fill").last == 8
    assert Slip.objects.filter(cardroom=cardroom).count() == 8


def test_two_printings_of_a_slip_at_once_make_one_original_and_one_reprint(
    cardroom, supervisor, auditor, dealer
):
    """A slip is append-only, so the runtime role cannot lock its row: its table's row is the
    lock. Without one, both printings could read "never printed" and both be the original."""
    table = table_create(cardroom=cardroom, name="House 1", banking="house", by=supervisor)
    table_open(table=table, dealer=dealer, by=supervisor)
    for attempt in range(3):
        slip = services.slip_request(
            table=table, kind="fill", chips={"100": 1 + attempt}, by=supervisor
        )
        answers = at_once(
            lambda slip=slip: services.slip_print(slip=slip, by=supervisor),
            lambda slip=slip: services.slip_print(slip=slip, by=auditor),
        )
        assert all(isinstance(a, SlipPrint) for a in answers), answers
        assert sorted(a.reprint for a in answers) == [False, True]


def test_two_floor_supervisors_signing_one_fill_at_once_move_the_rack_once(
    cardroom, supervisor, second_supervisor, dealer, cashier
):
    """The last step races: both read "waits for the floor"; the table's row is the lock, so
    the second sees the slip delivered and is refused — the rack moves once."""
    table = table_create(cardroom=cardroom, name="House 1", banking="house", by=supervisor)
    table_open(table=table, dealer=dealer, by=supervisor)
    for attempt in range(3):
        fill = services.slip_request(
            table=table, kind="fill", chips={"100": 1 + attempt}, by=supervisor
        )
        slip_prepared(fill, cashier)
        services.slip_dealer_sign(slip=fill, signature=signed(dealer), by=dealer)
        answers = at_once(
            *(
                lambda who=who, fill=fill: services.slip_supervisor_sign(
                    slip=fill, signature=signed(who), by=who
                )
                for who in (supervisor, second_supervisor)
            )
        )
        signed_steps = [a for a in answers if isinstance(a, SlipStep)]
        refusals = [a for a in answers if isinstance(a, Conflict)]
        assert (len(signed_steps), len(refusals)) == (1, 1), answers
        assert refusals[0].field == "slip" and "delivered already" in refusals[0].message
        moved = HouseBankEntry.objects.filter(reference=fill.number)
        assert list(moved.values_list("amount", flat=True)) == [100 * (1 + attempt)]
