"""A checkpoint sink outlives its database (``audit.databases``): a newcomer who deletes
``db.sqlite3`` to start over keeps ``var/checkpoints.jsonl``. Each checkpoint written out names
its database — its first event's hash, sealed with the checkpoint key — so that a new database
is not taken for the old one cut to nothing, while a cut-off tail (which keeps the first event),
a history rewritten from its first event (which keeps its dates) and a relabelled checkpoint
are still found."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from audit import signing
from audit.models import (
    AuditEvent,
    ChainHead,
    ChainSweep,
    Checkpoint,
    CheckpointProblem,
    CheckpointProblemAcknowledgement,
    SinkWrite,
)
from audit.verification import verify_chains

from .support import T0, past_append_only, verify_audit

pytestmark = pytest.mark.django_db


def sink_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def start_over() -> None:
    """The database as a new one is: no audit log at all (what deleting db.sqlite3 and
    migrating again gives), the sink left as it was."""
    with past_append_only():
        for model in (
            CheckpointProblemAcknowledgement,
            CheckpointProblem,
            SinkWrite,
            Checkpoint,
            ChainSweep,
            AuditEvent,
            ChainHead,
        ):
            model.objects.all().delete()


def test_each_checkpoint_on_the_sink_names_its_database_by_its_first_event_sealed(
    events, checkpoint, checkpoint_sink
):
    taken = checkpoint()
    [line] = sink_lines(checkpoint_sink)
    assert line["database"] == events[0].hash
    assert signing.database_seal_ok(taken.signature, events[0].hash, line["database_seal"])
    assert not signing.database_seal_ok(taken.signature, "another", line["database_seal"])


def test_a_new_database_beside_an_old_sink_verifies_and_takes_checkpoints(
    events, checkpoint, checkpoint_sink, make_player, clock
):
    checkpoint()
    start_over()
    clock.advance(minutes=5)
    make_player()  # the new database's first event, after the old one's last checkpoint

    report = verify_chains(full=True)

    assert report.ok, report.problem
    assert any("of an earlier database" in note for note in report.notes), report.notes
    assert checkpoint() is not None  # and its own checkpoints go on the same sink
    assert sink_lines(checkpoint_sink)[-1]["database"] == AuditEvent.objects.earliest("seq").hash
    assert verify_audit()[0] == 0


def test_a_tail_cut_keeps_the_first_event_so_the_sink_still_finds_it(
    events, checkpoint, checkpoint_sink
):
    checkpoint()
    keep = events[2]
    with past_append_only():
        AuditEvent.objects.filter(chain=keep.chain, chain_seq__gt=keep.chain_seq).delete()
        Checkpoint.objects.all().delete()
    ChainHead.objects.filter(chain=keep.chain).update(seq=keep.chain_seq, hash=keep.hash)

    status, out = verify_audit()

    assert status == 1, out
    assert out.startswith(f"BROKEN at #{keep.chain_seq + 1}"), out


def test_an_emptied_log_is_not_a_new_database(events, checkpoint, checkpoint_sink):
    checkpoint()
    start_over()
    report = verify_chains(full=True)
    assert not report.ok
    assert "the chain ends before checkpoint" in report.problem


def test_a_history_rewritten_from_its_first_event_is_not_a_new_database(
    events, checkpoint, checkpoint_sink, make_player, clock
):
    """Whoever rewrites the log from its first event (a new first hash) but keeps its dates
    starts before the sink's last checkpoint: that is no new database."""
    checkpoint()
    start_over()
    clock.set(T0 + timedelta(seconds=30))  # the history's own dates, before the checkpoint
    make_player()

    report = verify_chains(full=True)

    assert not report.ok
    assert "not a new database" in " ".join(report.checkpoint_problems)


def test_a_checkpoint_relabelled_as_another_databases_is_counted_as_this_ones(
    events, checkpoint, checkpoint_sink, make_player, clock
):
    checkpoint()
    [line] = sink_lines(checkpoint_sink)
    checkpoint_sink.write_text(json.dumps(line | {"database": "f" * 64}) + "\n")
    start_over()
    clock.advance(minutes=5)
    make_player()

    report = verify_chains(full=True)

    assert not report.ok
    problems = " ".join(report.checkpoint_problems)
    assert "its label does not verify" in problems
    assert "outside the database but missing from it" in problems
