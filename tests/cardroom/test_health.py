"""Health as three answers: liveness, readiness (the database: what a load
balancer asks) and dependencies (Redis, a worker, beat). Redis down leaves the cardroom ready;
tests/faults/test_export_faults.py stops a real Redis to show it."""

from __future__ import annotations

import pytest
from django.db import connection

pytestmark = pytest.mark.django_db


def test_liveness_answers_without_login_or_database(client, monkeypatch):
    monkeypatch.setattr(connection, "cursor", _broken)

    response = client.get("/health/live/")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


@pytest.mark.parametrize("path", ["/health/", "/health/ready/"])
def test_readiness_is_the_database(client, path):
    response = client.get(path)

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


@pytest.mark.parametrize("path", ["/health/", "/health/ready/"])
def test_readiness_is_503_when_the_database_does_not_answer(client, monkeypatch, path):
    monkeypatch.setattr(connection, "cursor", _broken)

    response = client.get(path)

    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "error"}


def test_without_redis_the_dependencies_are_inline(client, settings):
    settings.REDIS_URL = None

    response = client.get("/health/deps/")

    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "redis": "not used",
        "worker": "inline",
        "checkpoint_sink": "ok",
    }


@pytest.mark.parametrize("path", ["/health/live/", "/health/ready/", "/health/deps/"])
def test_health_refuses_writes(client, path):
    assert client.post(path).status_code == 405


def _broken(*args, **kwargs):
    raise ConnectionError("database unreachable")
