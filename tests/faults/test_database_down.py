"""The database down is answered 503 with Retry-After — by the API in its error shape, by the
screens with a plain page, by the readiness check — never a 500.

On a PostgreSQL cluster of the test's own (``pg_createcluster`` on a free port): the
application is pointed at it, a request shows it answering, then the cluster is stopped. The
machine's PostgreSQL is never touched; the cluster is dropped after."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from django.db import connections
from django.test import Client

from cardroom.api.errors import DATABASE_RETRY_AFTER

pytestmark = [
    pytest.mark.faults,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="stops a PostgreSQL cluster of its own: the PostgreSQL run's",
    ),
    pytest.mark.skipif(
        shutil.which("pg_createcluster") is None or os.geteuid() != 0,
        reason="needs PostgreSQL's cluster tools (pg_createcluster) and root",
    ),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    version: str
    name: str
    port: int

    def stop(self) -> None:
        subprocess.run(
            ["pg_ctlcluster", self.version, self.name, "stop", "-m", "fast"],
            check=True,
            capture_output=True,
        )


@pytest.fixture
def own_cluster() -> Iterator[Cluster]:
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    cluster = Cluster(version, f"cardroom_down_{os.getpid()}", free_port())
    subprocess.run(
        ["pg_createcluster", version, cluster.name, "-p", str(cluster.port), "--start", "--"]
        + ["--auth-host=trust", "--auth-local=trust"],
        check=True,
        capture_output=True,
        timeout=120,
    )
    try:
        yield cluster
    finally:
        subprocess.run(
            ["pg_dropcluster", "--stop", version, cluster.name], check=False, capture_output=True
        )


@contextmanager
def pointed_at(cluster: Cluster) -> Iterator[None]:
    """The application's connections go to the cluster for the block."""
    settings_dict = connections["default"].settings_dict
    saved = dict(settings_dict)
    connections.close_all()
    settings_dict.update(HOST="127.0.0.1", PORT=str(cluster.port), NAME="postgres", USER="postgres")
    try:
        yield
    finally:
        connections.close_all()
        settings_dict.clear()
        settings_dict.update(saved)


def test_with_the_database_stopped_the_api_and_the_screens_answer_503_with_retry_after(
    own_cluster, django_db_blocker
):
    client = Client(raise_request_exception=False)
    with django_db_blocker.unblock(), pointed_at(own_cluster):
        assert client.get("/health/ready/").status_code == 200  # a real server answers

        own_cluster.stop()

        api = client.get("/api/v1/tables/", HTTP_AUTHORIZATION="Token " + "a" * 64)
        client.cookies["sessionid"] = "a" * 32  # the session is read from the database
        screen = client.get("/floor/")
        ready = client.get("/health/ready/")

    assert api.status_code == 503, api.content
    assert api["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert api.json()["error"]["code"] == "database_unavailable"
    assert api["X-Request-ID"]
    assert screen.status_code == 503, screen.content
    assert screen["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert screen["Content-Type"].startswith("text/html")
    assert b"database is not answering" in screen.content
    assert ready.status_code == 503
