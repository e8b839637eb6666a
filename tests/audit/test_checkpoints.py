"""The periodic verification (issue 5): Celery beat runs ``audit.verify_chain``, which records
a checkpoint of the verified head — eagerly in tests, and by a real worker on Redis in CI."""

from __future__ import annotations

import io
import json
import os
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.management import call_command

from audit.models import AuditEvent, ChainHead, Checkpoint
from audit.tasks import verify_chain_task
from cardroom import celery_app

from .support import T0, past_append_only, verify_audit

with_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")


@pytest.fixture
def events(make_player, clock):
    """A few events: players registered by the dealer, a minute apart."""
    for _ in range(6):
        clock.advance(minutes=1)
        make_player()
    return list(AuditEvent.objects.order_by("seq"))


def test_the_beat_schedule_runs_the_verification_task_periodically():
    [entry] = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "audit.verify_chain"
    ]
    assert isinstance(entry["schedule"], timedelta)
    assert timedelta(0) < entry["schedule"] <= timedelta(days=1)
    assert celery_app.conf.beat_schedule == settings.CELERY_BEAT_SCHEDULE


def test_the_verification_task_is_registered_with_the_celery_app():
    celery_app.loader.import_default_modules()  # what a worker does: autodiscover the tasks
    assert "audit.verify_chain" in celery_app.tasks
    assert celery_app.tasks["audit.verify_chain"].name == verify_chain_task.name


def test_running_the_task_records_a_checkpoint_equal_to_the_head(events, clock):
    clock.set(T0 + timedelta(hours=1))
    result = verify_chain_task.delay().get(timeout=10)
    head = ChainHead.objects.get(pk=1)
    assert result == {"ok": True, "seq": head.seq, "hash": head.hash}
    [checkpoint] = Checkpoint.objects.all()
    assert (
        (checkpoint.seq, checkpoint.hash)
        == (head.seq, head.hash)
        == (
            events[-1].seq,
            events[-1].hash,
        )
    )
    assert checkpoint.events == len(events)
    assert checkpoint.verified_at == T0 + timedelta(hours=1)


def test_each_run_records_the_head_it_verified(events, make_player):
    verify_chain_task.delay().get(timeout=10)
    make_player()
    verify_chain_task.delay().get(timeout=10)
    seqs = sorted(Checkpoint.objects.values_list("seq", flat=True))
    assert seqs == [events[-1].seq, events[-1].seq + 1]


def test_a_broken_chain_records_no_checkpoint_and_logs_an_error(events, caplog):
    with past_append_only():
        AuditEvent.objects.filter(seq=3).update(action="tampered")
    result = verify_chain_task.delay().get(timeout=10)
    assert result == {"ok": False}
    assert not Checkpoint.objects.exists()
    assert "audit chain is broken" in caplog.text


def test_an_earlier_checkpoint_catches_a_cut_off_tail_with_a_rewritten_head(events):
    verify_chain_task.delay().get(timeout=10)
    with past_append_only():
        AuditEvent.objects.filter(seq__gt=3).delete()
    ChainHead.objects.filter(pk=1).update(seq=3, hash=events[2].hash)
    assert verify_chain_task.delay().get(timeout=10) == {"ok": False}
    assert Checkpoint.objects.count() == 1


@with_redis
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_on_redis_runs_the_task_and_records_the_checkpoint(make_player):
    for _ in range(3):
        make_player()  # committed: the worker thread reads through its own connection
    head = ChainHead.objects.get(pk=1)
    celery_app.conf.task_always_eager = False
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            result = verify_chain_task.delay().get(timeout=30)
    finally:
        celery_app.conf.task_always_eager = True
    assert result == {"ok": True, "seq": head.seq, "hash": head.hash}
    [checkpoint] = Checkpoint.objects.all()
    assert (checkpoint.seq, checkpoint.hash) == (head.seq, head.hash)


def test_exported_checkpoints_round_trip_and_catch_a_cut_off_tail(events, tmp_path):
    verify_chain_task.delay().get(timeout=10)
    out = io.StringIO()
    call_command("export_checkpoints", stdout=out)
    exported = tmp_path / "checkpoints.jsonl"
    exported.write_text(out.getvalue())
    [line] = [json.loads(text) for text in out.getvalue().splitlines()]
    assert (line["seq"], line["hash"]) == (events[-1].seq, events[-1].hash)
    assert verify_audit("--checkpoints", str(exported))[0] == 0
    # The tail and every copy of the head inside the system go; the exported file remembers.
    with past_append_only():
        AuditEvent.objects.filter(seq__gt=3).delete()
        Checkpoint.objects.all().delete()
    ChainHead.objects.filter(pk=1).update(seq=3, hash=events[2].hash)
    status, printed = verify_audit("--checkpoints", str(exported))
    assert status == 1
    assert "BROKEN at #4" in printed
