"""Exports through faults, on a real Redis of the test's own and real
Celery worker processes: Redis stopped while an export is asked for and hands settle, a
worker's pool process killed mid-export, a whole worker killed mid-export. Nothing is lost,
nothing is built twice, and the user sees "failed — retry" rather than a hang or a 500."""

from __future__ import annotations

import os
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis
from django.conf import settings as django_settings
from django.utils import timezone
from knox.models import AuthToken
from rest_framework.test import APIClient

from audit.models import AuditEvent
from cardroom.api.models import IdempotencyKey
from cardroom.celery import HEARTBEAT_KEY, heartbeat
from compliance.models import Export
from compliance.services import export_request
from compliance.tasks import requeue_stalled_exports_task
from wagers import services as wagers
from wagers.models import Hand

from .export_support import celery_on, many_audit_events, redis_server, wait_until, worker

pytestmark = [pytest.mark.faults, pytest.mark.django_db(transaction=True)]

postgres_only = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="a worker process shares the test's database: PostgreSQL (DATABASE_URL=postgres://…)",
)

V = "/api/v1"
PERIOD = {"start": "2000-01-01T00:00:00Z", "end": "2100-01-01T00:00:00Z"}


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(user)[1]}")
    return client


def test_with_redis_down_an_export_is_refused_in_seconds_marked_failed_and_retried_later(
    auditor, dealer, house_table, seat, settings
):
    """Redis down, and readiness without it: Redis stops; the export request answers at once (not
    after 19 s, not a 500), the export says why it failed, a retry of the request replays the
    answer (no idempotency record of a 5xx), hands still settle and the cardroom stays ready
    while /health/deps/ reports Redis. Redis back: the retry queues it."""
    for number in (1, 2):
        seat(house_table, number)
    api = client_for(auditor)
    with redis_server() as server, celery_on(server.url):
        settings.REDIS_URL = server.url  # /health/deps/ asks this Redis
        server.stop()
        started = time.monotonic()
        response = api.post(
            f"{V}/exports/", {"kind": "audit_log", **PERIOD}, format="json",
            headers={"Idempotency-Key": "export-while-redis-is-down"},
        )  # fmt: skip
        elapsed = time.monotonic() - started

        assert response.status_code == 202, response.content[:300]
        assert elapsed < 10, f"the request hung for {elapsed:.1f} s"
        export = Export.objects.get()
        assert export.status == Export.Status.FAILED
        assert "could not be queued" in export.error and "Retry" in export.error
        assert api.get(f"{V}/exports/{export.pk}/").json()["status"] == "failed"
        replay = api.post(
            f"{V}/exports/", {"kind": "audit_log", **PERIOD}, format="json",
            headers={"Idempotency-Key": "export-while-redis-is-down"},
        )  # fmt: skip
        assert replay.status_code == 202 and replay["Idempotent-Replayed"] == "true"
        assert Export.objects.count() == 1
        assert all(record.status_code < 500 for record in IdempotencyKey.objects.all())

        # The money path does not wait on Redis: a hand plays and settles.
        hand = _play_and_settle(house_table, dealer)
        assert hand.status == Hand.Status.SETTLED
        assert api.get("/health/ready/").status_code == 200
        deps = api.get("/health/deps/")
        assert deps.status_code == 503 and deps.json()["redis"] == "error"

        server.start()
        retried = api.post(f"{V}/exports/{export.pk}/retry/", format="json")
        assert retried.status_code == 202, retried.content[:300]
        export.refresh_from_db()
        assert (export.status, export.error) == (Export.Status.PENDING, "")
        queued = redis.Redis(port=server.port).llen("celery")
        assert queued == 1  # the build waits for a worker, once
        assert AuditEvent.objects.filter(action="export.retried").count() == 1


def _play_and_settle(table, dealer) -> Hand:
    hand = wagers.hand_start(table=table, by=dealer)
    for number in (1, 2):
        seating = table.seatings.get(seat=number, left_at=None)
        wagers.wager_place(hand=hand, seating=seating, ante="10", by=dealer)
    wagers.hand_cards_enter(
        hand=hand,
        dealer_cards="Ks 9s 4s 2c 7h 8c 3c",
        spot_cards={1: "Ah Th 6h 2h Jd 5c 9c", 2: "Qd 8d 5d As 6c 4h 3s"},
        by=dealer,
    )
    wagers.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="10", by=dealer)
    wagers.spot_decide(hand=hand, seat=2, decision="fold", by=dealer)
    wagers.hand_settle(hand=hand, by=dealer)
    hand.refresh_from_db()
    return hand


EVENTS = 60_000  # enough rows that the build is still running when its worker is killed


def _export(auditor) -> Export:
    now = timezone.now()
    return export_request(
        kind=Export.Kind.AUDIT_LOG, start=now - timedelta(days=1), end=now, by=auditor
    )


def _running(export: Export) -> bool:
    export.refresh_from_db()
    return export.status == Export.Status.RUNNING and export.progress >= 5


def _finished(export: Export) -> bool:
    export.refresh_from_db()
    return export.status in (Export.Status.DONE, Export.Status.FAILED)


def _assert_built_once(export: Export) -> None:
    assert export.status == Export.Status.DONE, export.error
    head = export.chain_seq  # the newest event when the build began
    expected = AuditEvent.objects.filter(
        occurred_at__gte=export.start, occurred_at__lt=export.end, seq__lte=head
    ).count()
    path = Path(export.file.path)
    with path.open() as csv:
        lines = sum(1 for _ in csv)
    assert export.rows == expected == lines - 1 >= EVENTS  # every row, once, and the header
    leftovers = [p.name for p in path.parent.glob(f".building-{export.pk}-*")]
    assert leftovers == []


@postgres_only
def test_a_pool_process_killed_mid_export_is_delivered_again_and_finishes_once(auditor):
    """A killed build: SIGKILL the process building the export; the task, acknowledged late, goes
    back to the queue and the same worker's next pool process builds it from the start."""
    many_audit_events(EVENTS)
    with redis_server() as server, celery_on(server.url), worker(server.url) as running:
        export = _export(auditor)
        wait_until(lambda: _running(export), timeout=60, what="the build to make progress")
        running.kill_child()
        wait_until(lambda: _finished(export), timeout=120, what="the build to finish")

    _assert_built_once(export)
    assert export.attempts == 2


@postgres_only
def test_a_whole_worker_killed_mid_export_is_found_stalled_sent_again_and_finishes_once(
    auditor,
):
    """A dead worker: SIGKILL the whole worker; its export stays "running" with no progress until
    beat's sweep finds it stalled and sends it again, and a new worker builds it."""
    many_audit_events(EVENTS)
    with redis_server() as server, celery_on(server.url):
        with worker(server.url) as first:
            export = _export(auditor)
            wait_until(lambda: _running(export), timeout=60, what="the build to make progress")
            first.kill()
        export.refresh_from_db()
        assert export.status == Export.Status.RUNNING  # nobody is building it
        assert requeue_stalled_exports_task.run() == {"sent": []}  # not stalled long enough yet
        # Five minutes and more without progress.
        Export.objects.filter(pk=export.pk).update(
            progress_at=timezone.now() - timedelta(minutes=6)
        )
        assert requeue_stalled_exports_task.run() == {"sent": [export.pk]}
        with worker(server.url):
            wait_until(lambda: _finished(export), timeout=120, what="the build to finish")

    _assert_built_once(export)
    assert export.attempts == 2
    assert django_settings.CELERY_TASK_ACKS_LATE
    assert django_settings.CELERY_TASK_REJECT_ON_WORKER_LOST


@postgres_only
def test_dependencies_are_healthy_with_redis_a_worker_and_beats_heartbeat_and_not_without(
    auditor, settings
):
    """Dependencies' health: /health/deps/ asks Redis, pings a worker and reads the heartbeat a
    worker leaves when beat schedules it; a worker gone is reported, readiness is not affected."""
    api = client_for(auditor)
    with redis_server() as server, celery_on(server.url):
        settings.REDIS_URL = server.url
        assert api.get("/health/deps/").json()["beat"] == "error"  # no heartbeat yet
        with worker(server.url):
            heartbeat.delay()  # as beat sends it every minute
            client = redis.Redis(port=server.port)
            wait_until(lambda: client.get(HEARTBEAT_KEY), timeout=30, what="the heartbeat")
            healthy = api.get("/health/deps/")
            assert healthy.status_code == 200, healthy.json()
            assert healthy.json()["worker"] == healthy.json()["beat"] == "ok"
        gone = api.get("/health/deps/")
        assert gone.status_code == 503 and gone.json()["worker"] == "error"
        assert api.get("/health/ready/").status_code == 200
