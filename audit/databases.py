"""Which database a checkpoint outside it was taken of.

A checkpoint on the sink (or exported) proves that a chain it names was not cut short. The sink
outlives its database: a developer who deletes ``db.sqlite3`` to start over keeps ``var/``, and
the new database would be taken for the old one cut to nothing. So each checkpoint written out
names its database — the hash of the database's first audit event, which a new database
changes and a cut-off tail keeps — with a seal signed by the checkpoint key (a database writer
cannot relabel a checkpoint as another database's).

A checkpoint of another database is left aside only when that is plainly what it is: its label
verifies, and this database began after it (its first event is later than the latest such
checkpoint: a new database starts after the old one's last checkpoint, while a history
rewritten from its first event keeps its dates). Otherwise it counts as this database's, as
every checkpoint without a label does (those written before labels), and a chain that no
longer reaches it is found.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from . import signing
from .models import AuditEvent


@dataclass(frozen=True)
class Database:
    """A database as its audit log began: its first event's hash, and when that was."""

    identity: str
    began_at: datetime


def this_database() -> Database | None:
    """This database, by its first audit event; None while the log is empty (then every
    checkpoint outside counts as this database's: an emptied log is not a new one)."""
    first = AuditEvent.objects.order_by("seq").values_list("hash", "occurred_at").first()
    return Database(first[0], first[1].astimezone(UTC)) if first else None


def label(signature: str) -> dict[str, str]:
    """The fields that name this database on a checkpoint written out (``signature``: the
    checkpoint's own)."""
    database = this_database()
    if database is None:
        return {}
    return {
        "database": database.identity,
        "database_seal": signing.database_seal(signature, database.identity),
    }


def of_this_database(
    records: list[dict[str, Any]], notes: list[str], problems: list[str]
) -> list[dict[str, Any]]:
    """The checkpoints outside the database that are this database's (``records`` less those
    plainly of another database), saying in ``notes`` what was left aside, and in
    ``problems`` a label that does not verify or another database older than this one's."""
    here = this_database()
    if here is None:
        return records
    mine: list[dict[str, Any]] = []
    others: list[dict[str, Any]] = []
    for record in records:
        named = record.get("database")
        if not named or named == here.identity:
            mine.append(record)
        elif not signing.database_seal_ok(
            str(record.get("signature", "")), str(named), str(record.get("database_seal", ""))
        ):
            problems.append(
                f"checkpoint #{record['seq']} outside the database names another database, "
                "but its label does not verify: it is counted as this database's"
            )
            mine.append(record)
        else:
            others.append(record)
    if not others:
        return mine
    latest = max(others, key=lambda r: _when(r["verified_at"]))
    latest_at = _when(latest["verified_at"])
    if here.began_at <= latest_at:
        problems.append(
            f"{len(others)} checkpoint(s) outside the database name another database, the "
            f"latest #{latest['seq']} of {latest_at.isoformat()}, but this database's first "
            f"event is older ({here.began_at.isoformat()}): not a new database; they are "
            "counted as this database's"
        )
        return mine + others
    notes.append(
        f"{len(others)} checkpoint(s) outside the database are of an earlier database, the "
        f"latest #{latest['seq']} of {latest_at.isoformat()}; this database began at "
        f"{here.began_at.isoformat()}: they are left aside"
    )
    return mine


def _when(value: Any) -> datetime:
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.astimezone(UTC)
