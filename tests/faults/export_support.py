"""Real services for the export fault tests: a Redis server of the test's own on a free port
(stopped and started by the test; the machine's Redis on 6379 is never touched), a real Celery
worker process on it, and many audit events to export."""

from __future__ import annotations

import hashlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

import redis
from django.db import connection
from django.db.models import Max
from django.utils import timezone

from audit.models import AuditEvent
from cardroom.celery import app as celery_app
from tests import runtime_role

ROOT = Path(__file__).resolve().parents[2]


def wait_until(check: Callable[[], object], *, timeout: float, what: str) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """``redis-server`` on a port of its own, in memory only."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        wait_until(lambda: _pings(client), timeout=10, what=f"redis-server on {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


def _pings(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


@contextmanager
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def celery_on(url: str) -> Iterator[None]:
    """This process's Celery app sends to ``url`` for real (not inline) for the block."""
    conf = celery_app.conf
    saved = (conf.broker_url, conf.result_backend, conf.task_always_eager)
    _forget_connections()
    conf.broker_url, conf.result_backend, conf.task_always_eager = url, url, False
    try:
        yield
    finally:
        _forget_connections()
        conf.broker_url, conf.result_backend, conf.task_always_eager = saved


def _forget_connections() -> None:
    """The app's connection and producer pools are made for the broker URL of their day: drop
    them (not close: kombu keeps them in its registry by URL, to be found again)."""
    celery_app._pool = None
    celery_app.amqp._producer_pool = None
    # The result backend, made for the URL of its day too (kept per thread, or shared).
    celery_app._backend_cache = None
    if hasattr(celery_app._local, "backend"):
        del celery_app._local.backend


class Worker:
    """``celery -A cardroom worker`` in its own process (prefork, one child), on the test's
    database and the given Redis."""

    def __init__(self, redis_url: str) -> None:
        database = connection.settings_dict
        url = (
            f"postgres://{database['USER']}:{database['PASSWORD'] or ''}@{database['HOST']}:"
            f"{database['PORT'] or 5432}/{database['NAME']}"
        )
        environ = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
        self.environ = {
            **environ,
            "DJANGO_SETTINGS_MODULE": "cardroom.settings.test",
            "DATABASE_URL": url,
            "REDIS_URL": redis_url,
        }
        self.process: subprocess.Popen | None = None
        self.log = ROOT / "artifacts" / f"fault-worker-{os.getpid()}-{time.time_ns()}.log"

    def start(self) -> None:
        self.log.parent.mkdir(exist_ok=True)
        command = [
            sys.executable, "-m", "celery", "-A", "cardroom", "worker", "--pool=prefork",
            "--concurrency=1", "--loglevel=INFO", "--without-gossip", "--without-mingle",
            "--without-heartbeat", "-n", f"faults-{time.time_ns()}@localhost",
        ]  # fmt: skip
        with self.log.open("w") as out:
            self.process = subprocess.Popen(
                command, cwd=ROOT, env=self.environ, stdout=out, stderr=subprocess.STDOUT
            )
        wait_until(self.children, timeout=60, what="the worker's pool process")

    def children(self) -> list[int]:
        if self.process is None or self.process.poll() is not None:
            return []
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill_child(self) -> int:
        """SIGKILL the pool process running the task, as the OOM killer would."""
        (child,) = self.children()
        os.kill(child, signal.SIGKILL)
        return child

    def kill(self) -> None:
        """SIGKILL the whole worker: its pool process and itself, with no goodbye."""
        if self.process is None:
            return
        for child in self.children():
            os.kill(child, signal.SIGKILL)
        self.process.kill()
        self.process.wait(timeout=10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        self.process = None


@contextmanager
def worker(redis_url: str) -> Iterator[Worker]:
    running = Worker(redis_url)
    running.start()
    try:
        yield running
    finally:
        running.stop()


def many_audit_events(count: int) -> None:
    """``count`` events numbered after the newest, on a chain of their own (bulk: their hashes
    are distinct stand-ins, not a verifiable chain; an export copies whatever the log holds)."""
    now = timezone.now() - timedelta(minutes=5)
    first = (AuditEvent.objects.aggregate(last=Max("seq"))["last"] or 0) + 1
    events = [
        AuditEvent(
            seq=seq,
            chain="fault-test-bulk",
            chain_seq=seq - first + 1,
            occurred_at=now,
            actor_name="fault-test",
            action="export.requested",
            object_type="bulk",
            object_id=str(seq),
            payload='{"filler":"' + "x" * 200 + '"}',
            prev_hash="0" * 64,
            hash=hashlib.sha256(str(seq).encode()).hexdigest(),
        )
        for seq in range(first, first + count)
    ]
    AuditEvent.objects.bulk_create(events, batch_size=5000)
    if connection.vendor == "postgresql":  # the next event is numbered after these
        with runtime_role.as_owner(), connection.cursor() as cursor:  # the sequence's owner
            cursor.execute("SELECT setval('audit_event_seq', %s)", [first + count - 1])
