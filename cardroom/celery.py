"""The Celery app. Its settings are the CELERY_* names in Django's settings."""

import os
import time

import redis
from celery import Celery
from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.local")

app = Celery("cardroom")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

#: Where the heartbeat task leaves the time it last ran (in Redis, read by /health/deps/).
HEARTBEAT_KEY = "cardroom:beat-heartbeat"


@app.task(name="cardroom.heartbeat", ignore_result=True)
def heartbeat() -> None:
    """Scheduled by beat every minute and run by a worker: a fresh value shows both alive."""
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2)
        client.set(HEARTBEAT_KEY, str(time.time()), ex=24 * 3600)
