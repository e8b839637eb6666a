"""Health for load balancers and monitors, as three separate answers:

- ``/health/live/``: the process answers (a supervisor restarts it when this fails);
- ``/health/ready/`` (and ``/health/``): the database answers — what a load balancer asks
  before sending traffic. Hands settle without Redis or a worker (the money path never waits
  on them), so neither takes a working cardroom off line;
- ``/health/deps/``: Redis, a worker answering a ping, beat's heartbeat (a task beat
  schedules every minute and a worker runs, so a fresh heartbeat shows both alive), and the
  audit checkpoint sink (the latest checkpoint's line was written: ``audit.alarms``). A
  monitor pages someone on it; a load balancer must not use it.

No login, no details beyond ok/error and, for the heartbeat, its age.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from audit.alarms import sink_alarm

from .celery import HEARTBEAT_KEY, app

logger = logging.getLogger(__name__)

#: Beat schedules the heartbeat every minute; older than this, beat or every worker is gone.
HEARTBEAT_STALE_AFTER = 180  # seconds
#: How long a dependency may take to answer before it counts as down.
TIMEOUT = 1.0


@require_safe
@never_cache
def live(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


@require_safe
@never_cache
def ready(request: HttpRequest) -> JsonResponse:
    checks = {"database": _check_database()}
    return _answer(checks)


@require_safe
@never_cache
def deps(request: HttpRequest) -> JsonResponse:
    sink = _check_sink()
    if not settings.REDIS_URL:  # tasks run inline: nothing else to depend on
        return _answer({"redis": "not used", "worker": "inline", "checkpoint_sink": sink})
    client = redis.Redis.from_url(
        settings.REDIS_URL, socket_connect_timeout=TIMEOUT, socket_timeout=TIMEOUT
    )
    checks: dict[str, Any] = {"redis": _check_redis(client)}
    if checks["redis"] == "ok":
        checks["worker"] = _check_worker()
        checks["beat"], checks["beat_heartbeat_age"] = _check_heartbeat(client)
    else:
        checks["worker"] = checks["beat"] = "unknown"
    checks["checkpoint_sink"] = sink
    return _answer(checks)


#: Values that are no failure: a part not used in this set-up.
_NOT_USED = {"ok", "not used", "inline"}


def _answer(checks: dict[str, Any]) -> JsonResponse:
    healthy = all(value in _NOT_USED for key, value in checks.items() if not key.endswith("_age"))
    return JsonResponse(
        {"status": "ok" if healthy else "error", **checks}, status=200 if healthy else 503
    )


def _check_database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any failure means "down"; the log keeps the reason
        logger.exception("Health check: database unavailable")
        return "error"
    return "ok"


def _check_sink() -> str:
    """``error`` while the sink is not taking checkpoints (the log says why)."""
    try:
        alarm = sink_alarm()
    except Exception:  # the database down: reported by /health/ready/, unknown here
        logger.exception("Health check: the checkpoint sink's state could not be read")
        return "unknown"
    if alarm is not None:
        logger.error(
            "Health check: the checkpoint sink has taken no checkpoint since %s (%s)",
            alarm.since.isoformat(),
            alarm.error,
        )
        return "error"
    return "ok" if settings.AUDIT_CHECKPOINT_SINK else "not used"


def _check_redis(client: redis.Redis) -> str:
    try:
        client.ping()
    except Exception:  # any failure means "down"; the log keeps the reason
        logger.exception("Health check: Redis unavailable")
        return "error"
    return "ok"


def _check_worker() -> str:
    try:
        replies = app.control.ping(timeout=TIMEOUT)
    except Exception:  # any failure means "down"; the log keeps the reason
        logger.exception("Health check: worker ping failed")
        return "error"
    if not replies:
        logger.error("Health check: no worker answered a ping")
        return "error"
    return "ok"


def _check_heartbeat(client: redis.Redis) -> tuple[str, int | None]:
    try:
        beat = client.get(HEARTBEAT_KEY)
    except Exception:  # any failure means "down"; the log keeps the reason
        logger.exception("Health check: the heartbeat could not be read")
        return "error", None
    if beat is None:
        return "error", None
    age = int(time.time() - float(beat))
    return ("ok" if age <= HEARTBEAT_STALE_AFTER else "error"), age
