"""A real primary and a real streaming replica: reports are read from the replica, and a hand
still settles when the replica is down.

Two PostgreSQL clusters of the test's own on free ports: a primary (``pg_createcluster``), and
a replica made from it with ``pg_basebackup -R`` (which writes ``standby.signal`` and the
``primary_conninfo`` to stream from it) and started. Then a pytest of its own runs
tests/faults/replica_checks.py with DATABASE_URL on the primary and DATABASE_REPLICA_URL on
the replica. Both clusters are dropped after, whatever happened; the machine's PostgreSQL is
never touched."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.faults,
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")),
        reason="runs PostgreSQL clusters of its own: the PostgreSQL run's",
    ),
    pytest.mark.skipif(
        shutil.which("pg_createcluster") is None
        or os.geteuid() != 0
        or not os.path.isdir("/etc/postgresql"),
        reason="needs PostgreSQL's cluster tools (pg_createcluster, pg_basebackup) and root",
    ),
]

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    version: str
    name: str
    port: int

    @property
    def data(self) -> Path:
        return Path(f"/var/lib/postgresql/{self.version}/{self.name}")

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"


def run(*command: str, timeout: float = 180) -> None:
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)}: {done.stderr[-2000:]}"


def as_postgres(*command: str) -> list[str]:
    """The cluster's files belong to the postgres user: its tools run as it."""
    return ["runuser", "-u", "postgres", "--", *command]


def create(cluster: Cluster, *, start: bool) -> None:
    run(
        "pg_createcluster", cluster.version, cluster.name, "-p", str(cluster.port),
        *(["--start"] if start else []),
        "--", "--auth-host=trust", "--auth-local=trust",
    )  # fmt: skip


def drop(cluster: Cluster) -> None:
    subprocess.run(
        ["pg_dropcluster", "--stop", cluster.version, cluster.name],
        check=False,
        capture_output=True,
        timeout=120,
    )


@pytest.fixture
def primary_and_replica() -> Iterator[tuple[Cluster, Cluster]]:
    version = sorted(os.listdir("/etc/postgresql"))[-1]
    primary = Cluster(version, f"cardroom_primary_{os.getpid()}", free_port())
    replica = Cluster(version, f"cardroom_replica_{os.getpid()}", free_port())
    try:
        create(primary, start=True)  # wal_level=replica and wal senders are the defaults
        create(replica, start=False)
        for made in replica.data.iterdir():  # its configuration in /etc stays; its data: a copy
            shutil.rmtree(made) if made.is_dir() else made.unlink()
        run(*as_postgres(
            "pg_basebackup", "-h", "127.0.0.1", "-p", str(primary.port), "-U", "postgres",
            "-D", str(replica.data), "-R", "-X", "stream", "--checkpoint=fast",
        ))  # fmt: skip
        run("pg_ctlcluster", version, replica.name, "start")
        yield primary, replica
    finally:
        drop(replica)
        drop(primary)


def test_a_report_is_served_from_the_replica_and_a_hand_settles_with_the_replica_down(
    primary_and_replica,
):
    primary, replica = primary_and_replica
    env = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    env.update(
        DATABASE_URL=primary.url("cardroom_replica"),
        DATABASE_REPLICA_URL=replica.url("cardroom_replica"),
        CARDROOM_REPLICA_CLUSTER=f"{replica.version}/{replica.name}",
        DJANGO_SETTINGS_MODULE="cardroom.settings.test",
    )
    env.pop("MIGRATION_DATABASE_URL", None)
    checks = subprocess.run(
        [
            sys.executable, "-m", "pytest", "tests/faults/replica_checks.py",
            "-p", "no:randomly", "-p", "no:cacheprovider", "-q", "-rA", "--create-db",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )  # fmt: skip
    output = checks.stdout[-6000:] + checks.stderr[-2000:]
    assert checks.returncode == 0, output
    assert "3 passed" in checks.stdout, output
