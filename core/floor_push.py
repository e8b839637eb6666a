"""Tells the floor's open screens that something changed, through Redis's publish/subscribe.

A change is named by its audit chain (``table:7``, ``cardroom:1``): every state change writes
its audit event in its own transaction (``audit.services.audit_record``), so that is the one
place every change passes. The chains are handed over after the transaction commits
(``transaction.on_commit``: a rolled-back change tells no one) to a thread of this process's
own, which publishes what one commit (or several close together) touched as one message. The
request that made the change never waits on Redis; a Redis that is down or slow only loses
the notices (the screens poll then), never the change, nor its time.

Redis's channels are shared by all its numbered databases, so the channel carries the
database's number: two deployments (or test runs) on one Redis do not hear each other.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Iterable
from typing import Any

import redis
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)

#: Notices waiting for the publishing thread; when Redis is away this many are kept at most
#: (the rest dropped: a screen needs one notice, not all of them).
_BACKLOG = 1_000
#: A Redis that does not answer within this is taken as down (seconds).
_TIMEOUT = 0.5
#: The publisher waits this long after a notice for the rest of its transaction's (a hand's
#: step writes several events at a commit): one message for them all.
_GATHER = 0.005
#: After a failure, notices are dropped (not tried) this long: one stall per second at most.
_PAUSE = 1.0

_queue: queue.Queue[str] = queue.Queue(maxsize=_BACKLOG)
_lock = threading.Lock()
_thread: threading.Thread | None = None


def enabled() -> bool:
    """The push runs where Redis does; without it the floor's screens poll."""
    return bool(getattr(settings, "REDIS_URL", None))


def channel() -> str:
    url = settings.REDIS_URL or ""
    database = redis.connection.parse_url(url).get("db", 0) if url else 0
    return f"cardroom-floor:{database}"


def client() -> redis.Redis:
    """A client with short timeouts, for the publisher and for each stream."""
    return redis.Redis.from_url(
        settings.REDIS_URL or "", socket_connect_timeout=_TIMEOUT, socket_timeout=_TIMEOUT
    )


def chain_changed(chain: str) -> None:
    """Called by each audit event, inside its transaction: ``chain`` is handed to the
    publisher when the transaction commits (at once outside one)."""
    if enabled() and chain.startswith(("table:", "cardroom:")):
        transaction.on_commit(_Notice(chain))


class _Notice:
    """One changed chain, handed to the publishing thread at its transaction's commit."""

    def __init__(self, chain: str) -> None:
        self.chain = chain

    def __call__(self) -> None:
        _start_thread()
        # Full: Redis has been away a while, and the screens poll meanwhile.
        with contextlib.suppress(queue.Full):
            _queue.put_nowait(self.chain)


def encode(chains: Iterable[str]) -> str:
    return " ".join(sorted(chains))


def decode(message: bytes | str) -> set[str]:
    text = message.decode() if isinstance(message, bytes) else message
    return set(text.split())


def wait_published(timeout: float = 2.0) -> bool:
    """Whether every notice handed over so far was published or dropped within ``timeout``
    (for tests and the benchmark: the application never waits on it)."""
    deadline = time.monotonic() + timeout
    while _queue.unfinished_tasks:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def _start_thread() -> None:
    global _thread
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_publish_forever, name="floor-push", daemon=True)
            _thread.start()


def _publish_forever() -> None:
    publishers: dict[str, Any] = {}  # by URL: a test may point the settings elsewhere
    paused_until = 0.0
    while True:
        chains = {_queue.get()}
        taken = 1
        time.sleep(_GATHER)
        while True:  # what piled up meanwhile goes in the same message
            try:
                chains.add(_queue.get_nowait())
            except queue.Empty:
                break
            taken += 1
        try:
            if time.monotonic() >= paused_until:
                url = settings.REDIS_URL or ""
                publisher = publishers.get(url) or publishers.setdefault(url, client())
                publisher.publish(channel(), encode(chains))
        except (redis.RedisError, OSError) as error:
            paused_until = time.monotonic() + _PAUSE
            logger.warning("floor push: Redis did not take a notice (%s); screens poll", error)
        finally:
            for _ in range(taken):
                _queue.task_done()
