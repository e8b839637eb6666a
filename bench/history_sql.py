"""The shape of ``bench.history_build``'s history and its SQL helpers: ids past the highest,
seeded numbers, and a bulk load without triggers or secondary indexes (built again after, as
``CREATE INDEX`` builds them)."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from typing import Any


@dataclass(frozen=True)
class Shape:
    hands: int
    tables: int = 250
    days: int = 365
    rate: int = 20  # hands a day at the measured table, and at every table on the last day
    spots: int = 3
    players: int = 2000

    def check(self) -> None:
        fixed = self.rate * (self.tables + self.days - 1)
        if self.hands < fixed:
            raise ValueError(f"--hands must be at least {fixed:,} for this shape (rate × days)")


@dataclass
class Built:
    """Where the generated history is: what the reports are timed on."""

    table_ids: list[int]  # the measured table first
    player_id: int  # the measured player: seat 1 of the measured table every day
    first_day: date
    last_day: date
    events: int


def next_id(cursor: Any, table: str, column: str = "id") -> int:
    cursor.execute(f'SELECT COALESCE(MAX("{column}"), 0) + 1 FROM "{table}"')
    return int(cursor.fetchone()[0])


def rand(key: str, salt: int) -> str:
    """A seeded pseudo-random non-negative integer of ``key`` (an SQL integer expression)."""
    return f"((({key})::bigint * 2654435761 + {salt * 40503 + 17}) % 4294967291)"


def reset_sequences(cursor: Any, tables: list[str]) -> None:
    """Each table's id sequence past the ids given explicitly."""
    for table in tables:
        cursor.execute(
            f"SELECT setval(pg_get_serial_sequence('\"{table}\"', 'id'), "
            f'(SELECT COALESCE(MAX(id), 1) FROM "{table}"))'
        )


def _definitions(cursor: Any, table: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The table's unique constraints (name, definition) and its other non-primary indexes."""
    cursor.execute(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = %s::regclass AND contype = 'u'",
        [f'"{table}"'],
    )
    constraints = list(cursor.fetchall())
    cursor.execute(
        "SELECT i.relname, pg_get_indexdef(x.indexrelid) FROM pg_index x "
        "JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = %s::regclass "
        "AND NOT x.indisprimary AND NOT EXISTS "
        "(SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)",
        [f'"{table}"'],
    )
    return constraints, list(cursor.fetchall())


@contextlib.contextmanager
def bulk_load(cursor: Any, tables: list[str], *, fast: bool = True) -> Iterator[None]:
    """Load with the triggers off (foreign keys and append-only: the rows are copies of valid
    ones) and the secondary indexes and unique constraints dropped, then build them again and
    vacuum and analyze, as autovacuum would have. The database backend is reniced: the
    machine stays usable. Not ``fast``: nothing of that, the rows are checked as they go."""
    if not fast:
        yield
        return
    cursor.execute("SELECT pg_backend_pid()")
    pid = cursor.fetchone()[0]
    subprocess.run(["renice", "-n", "19", "-p", str(pid)], check=False, capture_output=True)
    subprocess.run(["ionice", "-c", "2", "-n", "7", "-p", str(pid)], check=False)
    cursor.execute("SET session_replication_role = replica")
    cursor.execute("SET maintenance_work_mem = '1GB'")
    cursor.execute("SET max_parallel_maintenance_workers = 0")
    dropped: list[tuple[str, str, str]] = []
    for table in tables:
        constraints, indexes = _definitions(cursor, table)
        for name, definition in constraints:
            try:
                cursor.execute(f'ALTER TABLE "{table}" DROP CONSTRAINT "{name}"')
            except Exception:  # noqa: BLE001 - a key other tables reference: left in place
                continue
            dropped.append((table, name, definition))
        for name, definition in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
            dropped.append((table, "", definition))
    try:
        yield
    finally:
        for table, name, definition in dropped:
            if name:
                cursor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{name}" {definition}')
            else:
                cursor.execute(definition)
        cursor.execute("SET session_replication_role = DEFAULT")
    for table in tables:
        cursor.execute(f'VACUUM ANALYZE "{table}"')
