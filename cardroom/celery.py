"""The Celery app. Its settings are the CELERY_* names in Django's settings."""

import os
import time

import redis
from celery import Celery
from celery.signals import task_postrun, task_prerun
from django.conf import settings

from core import scoping

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.local")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# A task acts for the system, in every cardroom, even when run eagerly inside a request.
_scopes: dict[str, object] = {}


@task_prerun.connect
def _enter_system_scope(task_id: str, **kwargs: object) -> None:
    _scopes[task_id] = scoping.enter(None)


@task_postrun.connect
def _leave_system_scope(task_id: str, **kwargs: object) -> None:
    token = _scopes.pop(task_id, None)
    if token is not None:
        scoping.leave(token)  # type: ignore[arg-type]


#: Where the heartbeat task leaves the time it last ran (in Redis, read by /health/deps/).
HEARTBEAT_KEY = "cardroom:beat-heartbeat"


@app.task(name="cardroom.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Scheduled by beat every minute and run by a worker: a fresh value shows both alive."""
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        client.set(HEARTBEAT_KEY, str(time.time()), ex=24 * 3600)
