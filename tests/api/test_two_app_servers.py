"""Two application servers behind a load balancer share one PostgreSQL: the app
keeps nothing between requests in its process, so a hand's five requests may land on either.
Two gunicorn processes (production settings) on two ports against the test database; each
hand alternates between them request by request, and a token's role changed through one is
seen by the other (the role cache is Redis, shared)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from core.roles import DEALER
from tables.models import Seating
from tests.wagers.support import SEVEN_HANDS
from wagers.models import Hand

from .conftest import token_for

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not os.environ.get("REDIS_URL"),
        reason="two servers share PostgreSQL and Redis (DATABASE_URL, REDIS_URL)",
    ),
]

ROOT = Path(__file__).resolve().parents[2]
SEATS = (1, 2, 3, 4, 5, 6)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_env() -> dict[str, str]:
    db = settings.DATABASES["default"]
    url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardroom.settings.production",
        "DATABASE_URL": url,  # the test database this test committed its world to
        "DJANGO_SECRET_KEY": "two-servers-test-secret-key-" + "x" * 40,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_TRUSTED_PROXY_COUNT": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "FIELD_ENCRYPTION_KEY": settings.FIELD_ENCRYPTION_KEYS[0]
        if isinstance(settings.FIELD_ENCRYPTION_KEYS[0], str)
        else settings.FIELD_ENCRYPTION_KEYS[0].decode(),
        # the test process's keys, which production requires from the environment
        "ID_LOOKUP_KEY": settings.ID_LOOKUP_KEY,
        "AUDIT_CHECKPOINT_KEY": ",".join(settings.AUDIT_CHECKPOINT_KEYS),
    }


@pytest.fixture
def servers():
    """Two gunicorn servers (one sync worker each); their base URLs."""
    procs, urls = [], []
    env = server_env()
    for _ in range(2):
        port = free_port()
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "-c",
                    str(ROOT / "gunicorn.conf.py"),
                    "-w",
                    "1",
                    "-b",
                    f"127.0.0.1:{port}",
                    "cardroom.wsgi",
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
            )
        )
        urls.append(f"http://127.0.0.1:{port}")
    try:
        for url, proc in zip(urls, procs, strict=True):
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/health/live/", timeout=10):
                        break
                except OSError:  # refused, reset or timed out while it starts
                    if proc.poll() is not None:
                        raise RuntimeError(proc.stderr.read().decode()[-2000:]) from None
                    assert time.monotonic() < deadline, "the server did not start"
                    time.sleep(0.3)
        yield urls
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def call(base: str, token: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        f"{base}/api/v1{path}",
        data=None if body is None else json.dumps(body).encode(),
        method="GET" if body is None else "POST",
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": uuid.uuid4().hex,  # a device's, for each POST
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def test_hands_settle_through_two_servers_sharing_one_database(world, servers):
    token = token_for(world.dealer)
    tables = [world.table(f"Two servers {n}", banking="house", seats=SEATS) for n in (1, 2)]
    a, b = servers
    settled = []
    for round_number in range(2):
        for index, table in enumerate(tables):
            first, second = (a, b) if (index + round_number) % 2 == 0 else (b, a)
            seatings = dict(
                Seating.objects.filter(table=table, left_at=None).values_list("seat", "id")
            )
            status, hand = call(first, token, f"/tables/{table.pk}/hands/", {})
            assert status == 201, hand
            url = f"/hands/{hand['id']}"
            wagers = [{"seating": seatings[n], "ante": "10"} for n in SEATS]
            assert call(second, token, f"{url}/wagers/batch/", {"spots": wagers})[0] == 200
            cards = {str(n): SEVEN_HANDS[n] for n in SEATS}
            body = {"dealer_cards": SEVEN_HANDS[0], "spot_cards": cards}
            assert call(first, token, f"{url}/cards/", body)[0] == 200
            decisions = [{"seat": n, "decision": "fold"} for n in SEATS]
            assert call(second, token, f"{url}/decisions/batch/", {"spots": decisions})[0] == 200
            status, settlement = call(first, token, f"{url}/settle/", {})
            assert status == 200, settlement
            settled.append(hand["id"])

    assert Hand.objects.filter(pk__in=settled, status=Hand.Status.SETTLED).count() == 4
    # A role taken away is seen by both servers at once (the cache is shared, and forgotten).
    for base in servers:
        assert call(base, token, "/auth/me/")[0] == 200
    # Changed by a third process with the servers' settings (an administrator's shell).
    change = (
        "from django.contrib.auth.models import Group, User; "
        f"User.objects.get(pk={world.dealer.pk}).groups.remove(Group.objects.get(name={DEALER!r}))"
    )
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", change], cwd=ROOT, env=server_env(), check=True
    )
    for base in servers:
        assert call(base, token, "/hands/")[0] == 403
