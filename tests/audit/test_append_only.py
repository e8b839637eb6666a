"""Append-only in the database (R17): the audit log and every other record the rules
say is never edited refuse UPDATE, DELETE and (on PostgreSQL) TRUNCATE, even as raw SQL through
the application's own connection — on PostgreSQL the runtime role has no such privilege, and
the tables' owner, who has, meets the append-only trigger."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection

from audit.models import AuditEvent
from audit.services import audit_checkpoint_record
from tests.runtime_role import assert_append_only

from .support import play_hand, raw, verify_audit

APPEND_ONLY = (
    "audit_auditevent",
    "audit_checkpoint",
    "rake_feeentry",
    "tables_tablesettings",
    "tables_stackentry",
    "tables_rotationrecord",
    "wagers_settlement",
    "wagers_spotsettlement",
    "wagers_wagersettlement",
)


@pytest.fixture
def books(dp_table, dp_players, dealer, clock):
    """A settled hand (a settlement, its spot and wager lines, fees, stack entries, a rotation
    record) and a checkpoint: a row in every append-only table."""
    play_hand(
        dp_table,
        rng=random.Random(1),
        by=dealer,
        clock=clock,
        settle_at=clock.now + timedelta(minutes=1),
    )
    assert audit_checkpoint_record() is not None
    for table in APPEND_ONLY:
        assert raw(f'SELECT COUNT(*) FROM "{table}"')[0][0] > 0, table


def refused(sql: str, params=()) -> None:
    assert_append_only(lambda: raw(sql, params))


def snapshot(table: str) -> list[tuple]:
    return raw(f'SELECT * FROM "{table}" ORDER BY id')


@pytest.mark.parametrize("table", APPEND_ONLY)
def test_raw_sql_cannot_update_a_row(books, table):
    before = snapshot(table)
    first = before[0][0]
    refused(f'UPDATE "{table}" SET id = id + 1000000 WHERE id = %s', [first])
    refused(f'UPDATE "{table}" SET id = id + 1000000')
    assert snapshot(table) == before


@pytest.mark.parametrize("table", APPEND_ONLY)
def test_raw_sql_cannot_delete_a_row(books, table):
    before = snapshot(table)
    refused(f'DELETE FROM "{table}" WHERE id = %s', [before[-1][0]])
    refused(f'DELETE FROM "{table}"')
    assert snapshot(table) == before


@pytest.mark.skipif(connection.vendor != "postgresql", reason="TRUNCATE is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("table", APPEND_ONLY)
def test_raw_sql_cannot_truncate_the_table(books, table):
    """On committed rows, in autocommit, as an attacker would run it."""
    before = snapshot(table)
    assert not connection.in_atomic_block
    # CASCADE, so that no foreign key refuses it first: the trigger is what says no.
    refused(f'TRUNCATE "{table}" CASCADE')
    if table == "audit_auditevent":  # nothing refers to the log: plain TRUNCATE too
        refused(f'TRUNCATE "{table}"')
    assert snapshot(table) == before


def test_an_audit_event_cannot_be_changed_or_removed_through_the_orm_either(books):
    event = AuditEvent.objects.order_by("seq").first()
    assert_append_only(lambda: AuditEvent.objects.filter(pk=event.pk).update(actor_name="x"))
    event.payload = "{}"
    assert_append_only(event.save)
    assert_append_only(event.delete)
    assert_append_only(lambda: AuditEvent.objects.all().delete())
    assert verify_audit()[0] == 0
    assert AuditEvent.objects.get(pk=event.pk).actor_name == "administrator"  # the cardroom


def test_the_audit_log_keeps_accepting_new_events(books, make_player):
    before = AuditEvent.objects.count()
    make_player()
    assert AuditEvent.objects.count() == before + 1
    assert verify_audit()[0] == 0
