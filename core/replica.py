"""Reports, exports and verifications read from a PostgreSQL streaming replica, when one is
configured (``DATABASE_REPLICA_URL``: the ``replica`` database alias); everything else reads and
writes the primary.

The choice is explicit: only code inside ``reporting()`` reads from the replica — the
compliance reports, exports and verifications open it — and the router sends nothing else
there. Inside it, every write still goes to the primary, and so does every read while the
primary's connection is inside a transaction (a money-moving service, a lock): what such a
transaction reads must be what it changes. A replica that does not answer is left aside for
that report, which is read from the primary and says so. ``reporting()`` yields where the
report was read from and, for the replica, how far it was behind (the report shows it).

Without a replica, ``reporting()`` reads the primary and the router decides nothing: every
query goes where it went before.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections

logger = logging.getLogger(__name__)

REPLICA = "replica"

#: How far the replica is behind: none when it has replayed all it received; else the time
#: since the last transaction it replayed (an idle primary sends nothing, so this alone would
#: grow while the replica is up to date).
_LAG_SQL = """
SELECT pg_is_in_recovery(), now(),
       CASE WHEN NOT pg_is_in_recovery()
                 OR pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
            ELSE COALESCE(EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()), 0)
       END
"""


@dataclass(frozen=True)
class ReadSource:
    """Where a report was read from: the database alias, and for the replica its lag and the
    moment its data is as of (its clock less the lag)."""

    alias: str = DEFAULT_DB_ALIAS
    lag: timedelta | None = None
    as_of: datetime | None = None
    note: str = ""
    #: A replica is configured (a report read from the primary without one says nothing).
    replica_configured: bool = False

    @property
    def database(self) -> str:
        return "replica" if self.alias == REPLICA else "primary"

    @property
    def lag_seconds(self) -> Decimal | None:
        if self.lag is None:
            return None
        return Decimal(self.lag.total_seconds()).quantize(Decimal("0.001"))

    def as_dict(self) -> dict[str, Any]:
        lag = self.lag_seconds
        return {
            "database": self.database,
            "lag_seconds": None if lag is None else str(lag),
            "note": self.note,
        }


_current: ContextVar[ReadSource | None] = ContextVar("cardroom_read_source", default=None)


def replica_configured() -> bool:
    return REPLICA in connections.settings


def primary_in_transaction() -> bool:
    return connections[DEFAULT_DB_ALIAS].in_atomic_block


@contextmanager
def reporting() -> Iterator[ReadSource]:
    """The reads inside go to the replica when one is configured and answers (and the
    primary's connection is in no transaction); yields where they go. Nested: the outer
    block's choice holds."""
    current = _current.get()
    if current is not None:
        yield current
        return
    source = _choose()
    token = _current.set(source)
    try:
        yield source
    finally:
        _current.reset(token)


def current_read_alias() -> str:
    """The alias a report's reads go to now (the primary outside ``reporting()``)."""
    source = _current.get()
    if source is None or source.alias != REPLICA or primary_in_transaction():
        return DEFAULT_DB_ALIAS
    return REPLICA


def _choose() -> ReadSource:
    if not replica_configured():
        return ReadSource()
    if primary_in_transaction():
        return ReadSource(note="inside a transaction on the primary", replica_configured=True)
    replica = connections[REPLICA]
    try:
        with replica.cursor() as cursor:
            cursor.execute(_LAG_SQL)
            in_recovery, now, seconds = cursor.fetchone()
    except DatabaseError as error:
        logger.warning("The replica is not answering (%s); reading from the primary", error)
        replica.close()
        return ReadSource(note="the replica is not answering", replica_configured=True)
    lag = timedelta(seconds=float(seconds))
    note = "" if in_recovery else "the replica is not in recovery (promoted to a primary?)"
    return ReadSource(REPLICA, lag, now - lag, note, replica_configured=True)


class ReplicaRouter:
    """Reads inside ``reporting()`` to the replica (unless the primary is in a transaction);
    every write, and every other read, to the primary — including the related rows of an
    object a report read from the replica."""

    def db_for_read(self, model: type, **hints: Any) -> str | None:
        if current_read_alias() == REPLICA:
            return REPLICA
        return _off_the_replica(hints)

    def db_for_write(self, model: type, **hints: Any) -> str | None:
        return _off_the_replica(hints)

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool | None:
        # The replica is a copy of the primary: a row read from either relates to the other's.
        if {_db(obj1), _db(obj2)} == {REPLICA, DEFAULT_DB_ALIAS}:
            return True
        return None

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool | None:
        # The replica replays the primary's migrations; it cannot run its own.
        return False if db == REPLICA else None


def _db(obj: Any) -> str | None:
    state = getattr(obj, "_state", None)
    return getattr(state, "db", None)


def _off_the_replica(hints: dict[str, Any]) -> str | None:
    """An object read from the replica is written, and its related rows read, on the primary;
    anything else goes where Django sends it (None: the object's own database, or default)."""
    instance = hints.get("instance")
    return DEFAULT_DB_ALIAS if instance is not None and _db(instance) == REPLICA else None
