"""core.replica: only reads inside ``reporting()`` go to the replica; writes, reads inside a
transaction on the primary, and everything without a replica go where they went before. The
real replica is tests/faults/test_replica.py's."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import DEFAULT_DB_ALIAS, connections

from core import replica
from core.replica import REPLICA, ReadSource, ReplicaRouter, reporting
from wagers.models import Hand

router = ReplicaRouter()


@pytest.fixture
def replica_chosen(monkeypatch):
    """``reporting()`` as with a replica that answered, 0.25 s behind."""
    monkeypatch.setattr(
        replica, "_choose", lambda: ReadSource(REPLICA, timedelta(seconds=0.25), None, "", True)
    )


@pytest.fixture
def primary_in_a_transaction(monkeypatch):
    monkeypatch.setattr(connections[DEFAULT_DB_ALIAS], "in_atomic_block", True)


def test_without_a_replica_a_report_reads_the_primary_and_the_router_decides_nothing():
    with reporting() as source:
        assert source == ReadSource()
        assert router.db_for_read(Hand) is None
        assert router.db_for_write(Hand) is None
    assert source.as_dict() == {"database": "primary", "lag_seconds": None, "note": ""}


def test_inside_reporting_reads_go_to_the_replica_and_writes_to_the_primary(replica_chosen):
    assert router.db_for_read(Hand) is None  # outside: as before
    with reporting() as source:
        assert source.database == "replica"
        assert router.db_for_read(Hand) == REPLICA
        assert router.db_for_write(Hand) is None  # Django's default: the primary
        assert Hand.objects.all().db == REPLICA
        assert Hand.objects.all()._db is None
    assert router.db_for_read(Hand) is None
    assert source.lag_seconds == Decimal("0.250")
    assert source.as_dict() == {"database": "replica", "lag_seconds": "0.250", "note": ""}


def test_a_read_inside_a_transaction_on_the_primary_stays_on_the_primary(
    replica_chosen, primary_in_a_transaction
):
    with reporting():
        assert router.db_for_read(Hand) is None
        assert replica.current_read_alias() == DEFAULT_DB_ALIAS


def test_nested_reports_keep_the_outer_choice(replica_chosen, monkeypatch):
    with reporting() as outer:
        monkeypatch.setattr(replica, "_choose", lambda: pytest.fail("chosen twice"))
        with reporting() as inner:
            assert inner is outer


def test_an_object_read_from_the_replica_is_written_and_followed_on_the_primary():
    hand = Hand()
    hand._state.db = REPLICA
    assert router.db_for_write(Hand, instance=hand) == DEFAULT_DB_ALIAS
    assert router.db_for_read(Hand, instance=hand) == DEFAULT_DB_ALIAS
    other = Hand()
    other._state.db = DEFAULT_DB_ALIAS
    assert router.allow_relation(hand, other) is True
    assert router.db_for_write(Hand, instance=other) is None


def test_nothing_is_migrated_on_the_replica():
    assert router.allow_migrate(REPLICA, "wagers") is False
    assert router.allow_migrate(DEFAULT_DB_ALIAS, "wagers") is None
    assert router.allow_migrate("migrations", "wagers") is None
