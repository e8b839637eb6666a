"""A read compiled once (core.prepared) gives exactly what the ORM gives: the row,
its fields converted, its select_related objects, and None for a key no row has."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.db.models import Q
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from core.prepared import PreparedRead
from tables.models import TableSettings
from tests.wagers.support import start
from wagers.models import Hand

pytestmark = pytest.mark.django_db

RELATED = ("table__cardroom", "settings", "session", "dp_seating")


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


@pytest.fixture
def read():
    return PreparedRead(
        lambda key: (
            Hand.objects.select_for_update(of=("self",)).select_related(*RELATED).filter(pk=key)
        )
    )


def test_a_prepared_read_gives_what_the_orm_gives(read, dp_table, seat, dealer):
    for number in (1, 2, 4):
        seat(dp_table, number)
    hand = start(dp_table, dealer, dp=4, bank="300")
    with transaction.atomic():
        expected = Hand.objects.select_related(*RELATED).get(pk=hand.pk)
        first, again = read.first(hand.pk), read.first(hand.pk)

    for found in (first, again):
        assert fields(found) == fields(expected)
        assert fields(found.table) == fields(expected.table)
        assert fields(found.table.cardroom) == fields(expected.table.cardroom)
        assert fields(found.settings) == fields(expected.settings)  # JSON paytables, decimals
        assert isinstance(found.settings, TableSettings)
        assert fields(found.session) == fields(expected.session)
        assert fields(found.dp_seating) == fields(expected.dp_seating)
        assert found._state.adding is False and found._state.db == "default"


def test_it_runs_one_statement_and_reads_the_related_rows_with_it(read, house_table, dealer):
    hand = start(house_table, dealer)
    with transaction.atomic():
        read.first(hand.pk)  # compiled
        with CaptureQueriesContext(connection) as queries:
            found = read.first(hand.pk)
            assert found.dp_seating is None
            assert found.table.cardroom.name == house_table.cardroom.name
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 1
    if connection.vendor == "postgresql":
        assert "FOR UPDATE OF" in statements[0]


def test_a_key_no_row_has_reads_none(read, house_table, dealer):
    start(house_table, dealer)
    with transaction.atomic():
        assert read.first(987654) is None


def test_a_queryset_it_cannot_prepare_is_an_error_never_a_silent_fallback(house_table, dealer):
    hand = start(house_table, dealer)
    twice = PreparedRead(lambda key: Hand.objects.filter(Q(pk=key) | Q(table_id=key)))

    with pytest.raises(ValueError, match="exactly one parameter"):
        twice.first(hand.pk)  # the key appears twice: it cannot be prepared


@pytest.mark.django_db(transaction=True)
def test_a_locking_read_outside_a_transaction_raises_as_django_does(read, house_table, dealer):
    """PostgreSQL refuses it (TransactionManagementError); SQLite, which has no row locks,
    runs it, as Django does."""
    hand = start(house_table, dealer)

    def refusal(run) -> str | None:
        try:
            run()
        except TransactionManagementError as error:
            return str(error)
        return None

    ours = refusal(lambda: read.first(hand.pk))
    djangos = refusal(lambda: Hand.objects.select_for_update().filter(pk=hand.pk).first())
    assert ours == djangos
    assert (djangos is not None) == connection.features.has_select_for_update


def test_all_rows_come_in_the_querysets_order_and_first_as_queryset_first(
    house_table, seat, dealer
):
    from tables.models import Seating

    for number in (5, 2, 3):
        seat(house_table, number)
    by_seat = PreparedRead(
        lambda key: Seating.objects.filter(table_id=key).select_related("player").order_by("-seat")
    )
    unordered = PreparedRead(lambda key: Seating.objects.filter(table_id=key))

    found = by_seat.all(house_table.pk)

    expected = list(Seating.objects.filter(table=house_table).order_by("-seat"))
    assert [s.seat for s in found] == [s.seat for s in expected] == [5, 3, 2]
    assert [s.player.name for s in found] == [s.player.name for s in expected]
    assert unordered.first(house_table.pk) == Seating.objects.filter(table=house_table).first()
    assert by_seat.all(987654) == [] and unordered.first(987654) is None


def test_first_asks_the_database_for_one_row_only(house_table, seat, dealer):
    from tables.models import Seating

    for number in (5, 2, 3):
        seat(house_table, number)
    by_seat = PreparedRead(lambda key: Seating.objects.filter(table_id=key).order_by("-seat"))

    with CaptureQueriesContext(connection) as captured:
        found = by_seat.first(house_table.pk)

    assert found is not None and found.seat == 5
    assert captured.captured_queries[0]["sql"].rstrip().endswith("LIMIT 1")
