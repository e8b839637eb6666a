"""A chain verification read from a replica (``as_of``: the moment the replica is up to date to)
leaves aside the checkpoints outside the database taken after that moment, or just before it
(still committing): the replica cannot hold them yet, and they are not "missing" from it. An
older checkpoint is kept, so one deleted from the database is still found."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from audit.checkpoint_anchors import SINK_GRACE, _replayed

AS_OF = datetime(2024, 3, 1, 23, 0, tzinfo=UTC)


def checkpoint(seq: int, at: datetime) -> dict:
    return {"seq": seq, "verified_at": at.isoformat(), "signature": f"s{seq}"}


def test_checkpoints_newer_than_the_replica_read_are_left_to_the_next_verification():
    old = checkpoint(1, AS_OF - timedelta(minutes=1))
    committing = checkpoint(2, AS_OF - SINK_GRACE / 2)
    newer = checkpoint(3, AS_OF + timedelta(seconds=5))
    notes: list[str] = []

    kept = _replayed([old, committing, newer], AS_OF, notes)

    assert kept == [old]
    assert len(notes) == 1
    assert notes[0].startswith("2 checkpoint(s) outside the database are newer than the replica")


def test_with_every_checkpoint_older_than_the_replica_read_nothing_is_left_aside():
    records = [checkpoint(1, AS_OF - timedelta(hours=1)), {"seq": 7, "hash": "ab"}]
    notes: list[str] = []
    assert _replayed(records, AS_OF, notes) == records
    assert notes == []
