"""Checkpoints: Celery beat runs ``audit.verify_chain`` at least every
minute, and each day close takes one; a checkpoint records the verified heads of every chain,
is signed with a key kept outside the database and appended to a sink outside it, so that a
cut-off tail, a removed chain or a removed or forged checkpoint is found, and ``verify_audit``
says how many events are at risk since the last signed checkpoint."""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.management import CommandError, call_command

from audit import signing
from audit.chain import heads_hash
from audit.models import AuditEvent, ChainHead, Checkpoint
from audit.services import audit_checkpoint_record, checkpoint_record
from audit.tasks import verify_chain_task
from audit.verification import verify_chains
from cardroom import celery_app

from .support import T0, past_append_only, verify_audit

with_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")


def heads() -> list[list]:
    return [
        list(h) for h in ChainHead.objects.order_by("chain").values_list("chain", "seq", "hash")
    ]


def sink_lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_the_beat_schedule_runs_the_verification_task_at_least_every_minute():
    [entry] = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "audit.verify_chain"
    ]
    assert isinstance(entry["schedule"], timedelta)
    assert timedelta(0) < entry["schedule"] <= timedelta(minutes=1)
    assert celery_app.conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE


def test_the_verification_task_is_registered_with_the_celery_app():
    celery_app.loader.import_default_modules()  # what a worker does: autodiscover the tasks
    assert "audit.verify_chain" in celery_app.tasks
    assert celery_app.tasks["audit.verify_chain"].name == verify_chain_task.name


def test_the_task_records_a_signed_checkpoint_of_every_head_and_appends_it_to_the_sink(
    events, clock, checkpoint_sink, django_capture_on_commit_callbacks
):
    clock.set(T0 + timedelta(hours=1))
    with django_capture_on_commit_callbacks(execute=True):
        result = verify_chain_task.delay().get(timeout=10)
    [recorded] = Checkpoint.objects.all()
    assert (result["ok"], result["seq"], result["hash"]) == (True, events[-1].seq, recorded.hash)
    assert result["swept"]["ok"] is True
    assert recorded.seq == events[-1].seq
    assert json.loads(recorded.heads) == heads()
    assert recorded.hash == heads_hash(heads())
    assert recorded.events == len(events)
    assert recorded.verified_at == T0 + timedelta(hours=1)
    text = signing.message(
        seq=recorded.seq, hash=recorded.hash, verified_at=recorded.verified_at, events=len(events)
    )
    assert signing.signature_ok(text, recorded.signature, recorded.key_id)
    assert not signing.signature_ok(text + b" ", recorded.signature, recorded.key_id)
    assert sink_lines(checkpoint_sink) == [checkpoint_record(recorded)]


def test_a_rolled_back_checkpoint_is_not_written_to_the_sink(events, checkpoint_sink):
    assert audit_checkpoint_record() is not None  # the test's transaction never commits
    assert sink_lines(checkpoint_sink) == []


def test_each_run_verifies_only_what_was_added_since_the_last_checkpoint(
    events, make_player, checkpoint
):
    first = checkpoint()
    make_player()
    second = checkpoint()
    assert (first.events, second.events) == (len(events), 1)
    assert second.seq == events[-1].seq + 1


def test_a_broken_chain_records_no_checkpoint_and_logs_an_error(events, caplog):
    with past_append_only():
        AuditEvent.objects.filter(seq=events[3].seq).update(action="tampered")
    result = verify_chain_task.delay().get(timeout=10)
    assert result["ok"] is False
    assert not Checkpoint.objects.exists()
    assert "audit chain is broken" in caplog.text


def cut_and_move_the_head(keep: AuditEvent) -> None:
    """The attacker with the database: delete the events after ``keep`` in its chain and move
    the chain's head back to it."""
    with past_append_only():
        AuditEvent.objects.filter(chain=keep.chain, chain_seq__gt=keep.chain_seq).delete()
    ChainHead.objects.filter(chain=keep.chain).update(seq=keep.chain_seq, hash=keep.hash)


def test_a_tail_cut_with_the_checkpoints_deleted_too_is_found_against_the_sink(
    events, checkpoint, checkpoint_sink
):
    checkpoint()
    keep = events[2]
    cut_and_move_the_head(keep)
    with past_append_only():
        Checkpoint.objects.all().delete()
    status, out = verify_audit()
    assert status == 1, out
    assert out.startswith(f"BROKEN at #{keep.chain_seq + 1}: chain {keep.chain}:"), out
    # Without the sink, the database alone is self-consistent: the sink is what remembers.
    report = verify_chains(full=True, sink=checkpoint_sink.parent / "none.jsonl")
    assert report.ok
    assert verify_audit("--full", "--sink", str(checkpoint_sink))[0] == 1


def test_a_checkpoint_missing_from_the_database_is_reported(events, checkpoint):
    checkpoint()
    taken = checkpoint()
    with past_append_only():
        Checkpoint.objects.filter(pk=taken.pk).delete()
    status, out = verify_audit()
    assert status == 1
    assert "is outside the database but missing from it" in out, out


def test_a_checkpoint_changed_in_the_database_is_reported(events, checkpoint):
    taken = checkpoint()
    with past_append_only():
        Checkpoint.objects.filter(pk=taken.pk).update(events=taken.events + 1)
    status, out = verify_audit()
    assert status == 1
    assert "its signature does not verify" in out or "differs in the database" in out, out


def test_a_forged_checkpoint_with_a_wrong_signature_is_refused(events, checkpoint, clock):
    checkpoint()
    # The attacker cuts a tail and writes a checkpoint of the shorter heads, signed with a key
    # of their own (they cannot read AUDIT_CHECKPOINT_KEY).
    keep = events[2]
    cut_and_move_the_head(keep)
    forged_heads = heads()
    when = clock.advance(minutes=5)
    digest = heads_hash(forged_heads)
    text = signing.message(seq=keep.seq, hash=digest, verified_at=when, events=keep.chain_seq)
    signature = hmac.new(b"the attacker's own key, not ours", text, hashlib.sha256).hexdigest()
    with past_append_only():
        Checkpoint.objects.create(
            seq=keep.seq,
            hash=digest,
            verified_at=when,
            events=keep.chain_seq,
            heads=json.dumps(forged_heads, separators=(",", ":")),
            signature=signature,
            key_id=signing.key_id(settings.AUDIT_CHECKPOINT_KEYS[0]),
        )
    status, out = verify_audit()
    assert status == 1
    assert f"BROKEN at #{keep.chain_seq + 1}: chain {keep.chain}:" in out, out
    assert "is refused: its signature does not verify" in out, out
    assert not verify_chains(full=True).ok


def test_a_forged_checkpoint_alone_is_refused(events, checkpoint, clock):
    taken = checkpoint()
    with past_append_only():
        Checkpoint.objects.create(
            seq=taken.seq,
            hash=taken.hash,
            verified_at=clock.advance(minutes=1),
            events=taken.events,
            heads=taken.heads,
            signature="0" * 64,
            key_id=taken.key_id,
        )
    status, out = verify_audit()
    assert status == 1
    assert "is refused: its signature does not verify" in out, out


def test_verify_audit_reports_the_events_at_risk_since_the_last_signed_checkpoint(
    events, checkpoint, make_player
):
    status, out = verify_audit()
    assert f"At risk: {len(events)} events" in out
    taken = checkpoint()
    status, out = verify_audit()
    assert status == 0 and "At risk: 0 events" in out, out
    for _ in range(3):
        make_player()
    new = list(AuditEvent.objects.filter(seq__gt=taken.seq).order_by("seq"))
    assert len(new) == 3
    status, out = verify_audit()
    assert status == 0, out
    assert (
        f"At risk: 3 events after the last signed checkpoint ({taken.verified_at.isoformat()}): "
        f"#{new[0].seq} to #{new[-1].seq}."
    ) in out, out


def test_verify_audit_rehashes_every_event_unless_told_since_checkpoint(
    events, checkpoint, make_player
):
    checkpoint()
    make_player()
    status, out = verify_audit()
    assert status == 0 and out.startswith(f"OK: {len(events) + 1} events in "), out
    status, out = verify_audit("--since-checkpoint")
    assert status == 0 and out.startswith("OK: 1 events in "), out
    assert "since the last checkpoint" in out.splitlines()[0]
    # --full was the way to ask for every event: still accepted, and the same as the default.
    status, out = verify_audit("--full")
    assert status == 0 and out.startswith(f"OK: {len(events) + 1} events in "), out


def test_an_old_event_rewritten_behind_the_last_checkpoint_fails_the_default_verify_audit(
    events, checkpoint, make_player
):
    checkpoint()
    make_player()
    with past_append_only():
        AuditEvent.objects.filter(pk=events[1].pk).update(actor_name="someone")
    status, out = verify_audit()
    assert status == 1 and out.startswith(f"BROKEN at #{events[1].chain_seq}:"), out
    assert "its content does not match its hash" in out
    # Only the events since the checkpoint: the checkpoint's own event of each chain is read,
    # not the one rewritten before it.
    assert verify_audit("--since-checkpoint")[0] == 0


def test_since_checkpoint_and_full_together_are_refused():
    with pytest.raises(CommandError):
        verify_audit("--since-checkpoint", "--full")


@with_redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_redis_runs_the_task_and_records_the_checkpoint(
    make_player, checkpoint_sink
):
    for _ in range(3):
        make_player()  # committed: the worker thread reads through its own connection
    celery_app.conf.task_always_eager = False
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            result = verify_chain_task.delay().get(timeout=30)
    finally:
        celery_app.conf.task_always_eager = True
    [recorded] = Checkpoint.objects.all()
    assert (result["ok"], result["seq"], result["hash"]) == (
        True,
        recorded.seq,
        heads_hash(heads()),
    )
    assert sink_lines(checkpoint_sink) == [checkpoint_record(recorded)]


def test_exported_checkpoints_round_trip_and_catch_a_cut_off_tail(events, checkpoint, tmp_path):
    taken = checkpoint()
    out = io.StringIO()
    call_command("export_checkpoints", stdout=out)
    exported = tmp_path / "checkpoints.jsonl"
    exported.write_text(out.getvalue())
    [line] = [json.loads(text) for text in out.getvalue().splitlines()]
    assert line == checkpoint_record(taken)
    empty_sink = str(tmp_path / "no-sink.jsonl")
    assert verify_audit("--checkpoints", str(exported), "--sink", empty_sink)[0] == 0
    # The tail and every copy of the heads inside the system go; the exported file remembers.
    keep = events[2]
    cut_and_move_the_head(keep)
    with past_append_only():
        Checkpoint.objects.all().delete()
    assert verify_audit("--full", "--sink", empty_sink)[0] == 0
    status, printed = verify_audit("--checkpoints", str(exported), "--sink", empty_sink)
    assert status == 1
    assert f"BROKEN at #{keep.chain_seq + 1}" in printed
