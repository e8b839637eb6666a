"""One read snapshot for a verification that reads many tables one after another.

Under PostgreSQL's default READ COMMITTED each statement sees what was committed when it
began, so a hand settled between reading the settlements and reading the stack entries would
show its payouts with no settlement: a false alarm in a room at play. Inside
``read_snapshot()`` every statement sees the same moment (a read-only transaction at
REPEATABLE READ). A read-only transaction cannot write a run's progress, and what it wrote
would not show until it ends: ``side_progress`` writes it through a connection of its own.
Inside a transaction already (a test) and on SQLite (one writer), reads are left as they are.
Inside ``core.replica.reporting()`` the snapshot is the replica's (a hot standby runs
read-only transactions at REPEATABLE READ).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

from core.replica import current_read_alias

from .models import VerificationRun


@contextmanager
def read_snapshot() -> Iterator[bool]:
    """Yields whether the reads inside share one snapshot."""
    alias = current_read_alias()
    connection = connections[alias]
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        yield False
        return
    with transaction.atomic(using=alias):
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield True


@contextmanager
def side_progress(run_id: int) -> Iterator[Callable[[int], None]]:
    """``progress(percent)`` for a run, written at once through a connection of its own."""
    side = connections.create_connection(DEFAULT_DB_ALIAS)
    table = VerificationRun._meta.db_table

    def progress(percent: int) -> None:
        with side.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} SET progress = %s, progress_at = %s WHERE id = %s",
                [percent, timezone.now(), run_id],
            )

    try:
        yield progress
    finally:
        side.close()
