"""The settings as this run's environment configured them: embedded defaults or real services.

CI runs the suite twice, with and without DATABASE_URL/REDIS_URL, so each test below is checked
in the environment it describes.
"""

import os
import uuid
from urllib.parse import urlsplit

import pytest
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.core.cache import cache
from django.db import connection

from cardroom import celery_app
from cardroom.settings import base as base_settings

without_redis = pytest.mark.skipif(bool(os.environ.get("REDIS_URL")), reason="REDIS_URL is set")
with_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="REDIS_URL is not set")
with_postgres = pytest.mark.skipif(
    not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
    reason="DATABASE_URL is not PostgreSQL",
)


@celery_app.task
def double(number: int) -> int:
    return number * 2


@without_redis
def test_without_redis_url_celery_runs_tasks_inline_and_raises_their_errors():
    assert celery_app.conf.task_always_eager is True
    assert celery_app.conf.task_eager_propagates is True
    assert celery_app.conf.broker_url == "memory://"
    assert double.delay(21).get() == 42


@without_redis
def test_without_redis_url_the_cache_is_in_process_memory():
    assert settings.CACHES["default"]["BACKEND"].endswith("LocMemCache")


@with_redis
def test_with_redis_url_celery_queues_tasks_on_redis_and_a_real_worker_runs_them():
    # The deployed settings queue tasks; the test settings run them inline, except here.
    assert base_settings.CELERY_TASK_ALWAYS_EAGER is False
    assert celery_app.conf.broker_url == os.environ["REDIS_URL"]
    assert celery_app.conf.result_backend == os.environ["REDIS_URL"]
    celery_app.conf.task_always_eager = False
    try:
        with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            assert double.delay(21).get(timeout=20) == 42
    finally:
        celery_app.conf.task_always_eager = True


@with_redis
def test_with_redis_url_the_cache_round_trips_a_value_through_redis():
    assert settings.CACHES["default"]["BACKEND"] == "core.redis_cache.RedisCache"
    key, value = f"test:{uuid.uuid4().hex}", {"chips": "125.50"}
    cache.set(key, value, timeout=30)
    try:
        assert cache.get(key) == value
    finally:
        cache.delete(key)
    assert cache.get(key) is None


@with_postgres
@pytest.mark.django_db
def test_with_a_postgres_database_url_the_tests_run_on_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_database()")
        # Django derives the test database from the configured one.
        configured = urlsplit(os.environ["DATABASE_URL"]).path.lstrip("/")
        assert cursor.fetchone()[0] == f"test_{configured}"
