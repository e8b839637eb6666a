"""Reads that stay flat: with 100,000 audit events and 20,000 hands and their
settlements, the lists, the gaming-day report and the exports read through an index — no
sequential scan of the table and no sort of it (PostgreSQL's EXPLAIN; SQLite's planner is
another matter, so this runs on PostgreSQL only).

The rows are copied in SQL (``generate_series``) from one real row each, column by column, so
the seeding stays right whatever columns the models gain. Audit events are append-only: they
are only inserted."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.models import Model
from django.test.utils import CaptureQueriesContext

from audit.models import AuditEvent
from compliance.reports import table_day_report
from tests import runtime_role
from wagers.models import Hand, Settlement

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="EXPLAIN plans are PostgreSQL's (DATABASE_URL)"
    ),
]

V = "/api/v1"
EVENTS = 100_000
HANDS = 20_000


def copy_rows(model: type[Model], template_pk: int, n: int, overrides: dict[str, str]) -> None:
    """``n`` copies of a row, each column the template's unless ``overrides`` gives an SQL
    expression for it (``i`` runs 1..n)."""
    table = model._meta.db_table
    columns = [f.column for f in model._meta.concrete_fields if f.column != "id"]
    select = [overrides.get(column, f't."{column}"') for column in columns]
    names = ", ".join(f'"{c}"' for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f'INSERT INTO "{table}" ({names}) SELECT {", ".join(select)} '
            f'FROM "{table}" t CROSS JOIN generate_series(1, %s) AS i WHERE t.id = %s',
            [n, template_pk],
        )
    with runtime_role.as_owner(), connection.cursor() as cursor:  # autovacuum's, as the owner
        cursor.execute(f'ANALYZE "{table}"')


def plan(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN {sql}")
        return "\n".join(row[0] for row in cursor.fetchall())


def plans_of(client, url: str, table: str) -> list[str]:
    """The plans of the statements a request runs on ``table``."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    statements = [q["sql"] for q in captured.captured_queries if f'FROM "{table}"' in q["sql"]]
    assert statements, f"{url} read nothing from {table}"
    return [plan(sql) for sql in statements]


def flat(text: str, *, sorted_ok: bool = False) -> None:
    # The deployment's cardrooms (a handful: whether the reader reaches them all, once a
    # statement) are read whole; no table that grows with play is.
    grows = "\n".join(
        line for line in text.splitlines() if "Seq Scan on tables_cardroom " not in line
    )
    assert "Seq Scan" not in grows, text
    assert "Index" in text, text
    if not sorted_ok:
        assert "Sort" not in text, text


@pytest.fixture
def history(world):
    hand = world.hand_settled
    settlement = Settlement.objects.get(hand=hand)
    event = AuditEvent.objects.order_by("-seq").first()
    copy_rows(
        AuditEvent,
        event.pk,
        EVENTS,
        {
            "seq": "t.seq + i",
            "chain_seq": "t.chain_seq + i",  # unique in its chain
            "occurred_at": "t.occurred_at + i * interval '1 second'",
            "actor_id": (
                f"CASE WHEN i %% 200 = 0 THEN {world.dealer.pk} ELSE {world.supervisor.pk} END"
            ),
            "hash": "md5(i::text) || md5('h' || i::text)",
            "prev_hash": "md5(i::text) || md5('p' || i::text)",
        },
    )
    copy_rows(
        Hand,
        hand.pk,
        HANDS,
        {
            "number": "t.number + i",
            "started_at": "t.started_at + i * interval '30 seconds'",
            "settled_at": "t.started_at + i * interval '30 seconds' + interval '10 seconds'",
            "rotation_id": "NULL",
        },
    )
    table = Settlement._meta.db_table
    columns = [f.column for f in Settlement._meta.concrete_fields if f.column != "id"]
    values = {
        "hand_id": "h.id",
        "created_at": "h.settled_at",
        "gaming_day": "(h.settled_at AT TIME ZONE 'UTC')::date",
    }
    select = ", ".join(values.get(c, f't."{c}"') for c in columns)
    with connection.cursor() as cursor:
        cursor.execute(
            f'INSERT INTO "{table}" ({", ".join(chr(34) + c + chr(34) for c in columns)}) '
            f'SELECT {select} FROM "{table}" t JOIN "{Hand._meta.db_table}" h '
            "ON h.table_id = %s AND h.number > %s WHERE t.id = %s",
            [hand.table_id, hand.number, settlement.pk],
        )
    with runtime_role.as_owner(), connection.cursor() as cursor:  # autovacuum's, as the owner
        cursor.execute(f'ANALYZE "{table}"')
    assert AuditEvent.objects.count() > EVENTS
    return hand


def test_the_audit_log_reads_a_page_through_the_index(api, world, history):
    client = api(world.auditor)
    first = client.get(f"{V}/audit/events/").json()

    for text in plans_of(client, f"{V}/audit/events/", "audit_auditevent"):
        flat(text)
    for text in plans_of(client, first["next"], "audit_auditevent"):
        flat(text)
    for text in plans_of(client, f"{V}/audit/events/?actor={world.dealer.pk}", "audit_auditevent"):
        flat(text)
        assert "audit_actor_seq_idx" in text, text


def test_the_hands_list_reads_a_page_through_the_index(api, world, history):
    client = api(world.auditor)
    first = client.get(f"{V}/hands/").json()

    for text in plans_of(client, f"{V}/hands/", "wagers_hand"):
        flat(text)
    for text in plans_of(client, first["next"], "wagers_hand"):
        flat(text)


def test_a_gaming_day_report_reads_one_day_through_indexes(world, history):
    hand = history
    day = hand.settled_at.date() + timedelta(days=2)
    with CaptureQueriesContext(connection) as captured:
        table_day_report(hand.table, day)
    reads = [q["sql"] for q in captured.captured_queries if 'FROM "wagers_hand"' in q["sql"]]
    assert reads
    for sql in reads:
        text = plan(sql)
        assert "Seq Scan on wagers_hand" not in text, text


def test_the_exports_read_one_period_through_indexes(world, history):
    hand = history
    start = hand.settled_at + timedelta(days=2)
    end = start + timedelta(days=1)
    settlements = Settlement.objects.filter(created_at__gte=start, created_at__lt=end).order_by(
        "created_at", "id"
    )
    flat(str(settlements.explain()))
    by_day = Settlement.objects.filter(gaming_day=start.date()).order_by()
    assert "Seq Scan" not in by_day.explain()
    events = AuditEvent.objects.filter(occurred_at__gte=start, occurred_at__lt=end).order_by("seq")
    text = events.explain()
    assert "Seq Scan" not in text, text  # one day's events, sorted if at all: not the table's
