"""What floor screens watching a big room cost, pushed and polled.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python -m bench.floor_push [--screens 20] [--tables 250] [--seconds 15]

It builds a cardroom of ``--tables`` open tables (kept for later runs), starts the stream
server (``gunicorn_stream.conf.py``, gthread) and the application server (``gunicorn.conf.py``,
two sync workers) with the production settings, signs ``--screens`` floor supervisors in, and
for ``--seconds`` each measures: the screens polling the dashboard every second; the screens
holding the stream while nothing changes; and while every table plays — a notice for each
table every 12 s through the real publisher (``core.floor_push``: a hand is about five commits
and a table deals about 60 an hour), each screen fetching what the event names when told, as
the page does (the changed tables' rows, ``?tables=``; the whole dashboard for more). The
hands themselves are not played (their cost is the hand path's, push or not). A row: the
servers' CPU seconds and memory, the Redis messages, the events and bytes the screens got, the
dashboard fetches and their bytes; and how long one change takes to be on every screen.
"""

from __future__ import annotations

import argparse
import http.client
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.api_load import free_port, setup_django

ROOT = Path(__file__).resolve().parents[1]
BENCH_KEY = "bench-floor-push-" + "k" * 50
NOTICE_EVERY = 12.0  # seconds between two notices of one table while it plays
CHANGED_TABLES_MAX = 20  # cardroom/screens/floor.py's


@dataclass
class Tally:
    events: int = 0
    stream_bytes: int = 0
    fetches: int = 0
    fetch_bytes: int = 0
    fetched_at: list[float] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)
    failed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def build(tables: int, screens: int) -> tuple[list[str], list[int]]:
    """The room (made once, reused), and a session cookie for each screen."""
    from django.conf import settings
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.test import Client

    from bench.members import everyone_works_everywhere
    from core.roles import ADMINISTRATOR, DEALER, FLOOR_SUPERVISOR
    from patrons.models import Cardroom
    from tables.models import Table
    from tables.services.cardrooms import cardroom_create
    from tables.services.configuration import table_create
    from tables.services.sessions import table_open

    call_command("migrate", verbosity=0)
    settings.SECRET_KEY = BENCH_KEY  # the servers' too: the sessions made here are theirs

    def user(name: str, role: str) -> User:
        found, _ = User.objects.get_or_create(username=name)
        found.groups.add(Group.objects.get_or_create(name=role)[0])
        return found

    admin, floor = user("push-admin", ADMINISTRATOR), user("push-floor", FLOOR_SUPERVISOR)
    room = Cardroom.objects.filter(name="Push room").first() or cardroom_create(
        name="Push room", by=admin
    )
    for n in range(Table.objects.filter(cardroom=room).count() + 1, tables + 1):
        table = table_create(cardroom=room, name=f"Push {n}", banking="house", by=floor)
        table_open(table=table, dealer=user(f"push-dealer-{n}", DEALER), by=floor)
    ids = list(Table.objects.filter(cardroom=room).values_list("pk", flat=True)[:tables])
    everyone_works_everywhere()
    cookies = []
    for _ in range(screens):
        client = Client()
        client.force_login(floor)
        cookies.append(client.cookies["sessionid"].value)
    return cookies, ids


def start(config: str, workers: int) -> tuple[subprocess.Popen, int]:
    from django.conf import settings

    port = free_port()
    key = settings.FIELD_ENCRYPTION_KEYS[0]
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardroom.settings.production",
        "DJANGO_SECRET_KEY": settings.SECRET_KEY,  # the sessions' (build)
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_TRUSTED_PROXY_COUNT": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "FIELD_ENCRYPTION_KEY": key if isinstance(key, str) else key.decode(),
        "ID_LOOKUP_KEY": settings.ID_LOOKUP_KEY or "bench-id-lookup-key",
        "AUDIT_CHECKPOINT_KEY": ",".join(settings.AUDIT_CHECKPOINT_KEYS),
    }
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / config)]
    command += ["-w", str(workers), "-b", f"127.0.0.1:{port}", "cardroom.wsgi"]
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/health/live/")
            if conn.getresponse().status == 200:
                return proc, port
        except OSError:
            time.sleep(0.3)
    proc.kill()
    raise SystemExit(f"gunicorn ({config}) did not start")


def family(pid: int) -> list[int]:
    """The server's master and its workers."""
    pids = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                pids.append(int(entry.name))
    return pids


def cpu_and_memory(pid: int) -> tuple[float, float]:
    """CPU seconds so far and resident MB of the server's processes."""
    ticks, rss = 0, 0
    page = os.sysconf("SC_PAGE_SIZE")
    for member in family(pid):
        try:
            stat = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
            rss += int(Path(f"/proc/{member}/statm").read_text().split()[1]) * page
        except OSError:
            continue
        ticks += int(stat[11]) + int(stat[12])
    return ticks / os.sysconf("SC_CLK_TCK"), rss / 2**20


def fetch(port: int, cookie: str, tally: Tally, query: str = "") -> None:
    """One fetch of the dashboard's rows (``query``: only some tables'), as the page makes it;
    one that takes over 30 s (the servers overrun) counts as failed."""
    started = time.monotonic()
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        path = f"/floor/dashboard/{query}"
        conn.request("GET", path, headers={"Cookie": f"sessionid={cookie}"})
        body = conn.getresponse().read()
        conn.close()
    except OSError:
        with tally.lock:
            tally.failed += 1
        return
    with tally.lock:
        tally.fetches += 1
        tally.fetch_bytes += len(body)
        tally.fetched_at.append(time.monotonic())
        tally.waits.append(tally.fetched_at[-1] - started)


def poll(port: int, cookie: str, tally: Tally, stop: threading.Event) -> None:
    while not stop.is_set():
        fetch(port, cookie, tally)
        stop.wait(1.0)


def watch(ports: tuple[int, int], cookie: str, tally: Tally, stop: threading.Event) -> None:
    """One screen on the push: the stream open, the dashboard fetched at each event."""
    stream_port, app_port = ports
    conn = http.client.HTTPConnection("127.0.0.1", stream_port, timeout=30)
    conn.request("GET", "/floor/stream/", headers={"Cookie": f"sessionid={cookie}"})
    response = conn.getresponse()
    assert response.status == 200, f"the stream answered {response.status}"
    while not stop.is_set():
        line = response.fp.readline()
        if not line:
            break
        with tally.lock:
            tally.stream_bytes += len(line)
        if line.startswith(b"event: changed"):
            with tally.lock:
                tally.events += 1
        elif line.startswith(b"data: "):
            fetch(app_port, cookie, tally, changed_rows(line[6:].decode()))
    conn.close()


def changed_rows(data: str) -> str:
    """What the page fetches for an event (``static/floor_push.js``): the named tables' rows,
    or the whole dashboard for anything but a few tables (every table is on the screen)."""
    chains = data.split()
    ids = [chain.split(":", 1)[1] for chain in chains if chain.startswith("table:")]
    if not chains or len(ids) != len(chains) or len(ids) > CHANGED_TABLES_MAX:
        return ""
    return "?tables=" + ",".join(ids)


def play(table_ids: list[int], stop: threading.Event) -> int:
    """Every table plays: a notice for each table every ``NOTICE_EVERY`` seconds, round the
    room, through the application's own publisher. Returns the notices handed over."""
    from core import floor_push

    gap, sent = NOTICE_EVERY / len(table_ids), 0
    while not stop.is_set():
        floor_push.chain_changed(f"table:{table_ids[sent % len(table_ids)]}")
        sent += 1
        stop.wait(gap)
    return sent


def count_messages(stop: threading.Event, counted: list[int]) -> None:
    from core import floor_push

    subscription = floor_push.client().pubsub(ignore_subscribe_messages=True)
    subscription.subscribe(floor_push.channel())
    while not stop.is_set():
        if subscription.get_message(timeout=0.2) is not None:
            counted[0] += 1
    subscription.close()


def phase(name: str, servers: dict, cookies: list[str], seconds: float, **load: Any) -> dict:
    """One row: the screens (``poll`` or ``watch``) and optionally ``play`` for ``seconds``."""
    tally, stop, counted = Tally(), threading.Event(), [0]
    target, ports = load["screens"], load["ports"]
    threads = [
        threading.Thread(target=target, args=(ports, c, tally, stop), daemon=True) for c in cookies
    ]
    threads.append(threading.Thread(target=count_messages, args=(stop, counted), daemon=True))
    for thread in threads:
        thread.start()
    time.sleep(1.0)  # the streams open
    before = {k: cpu_and_memory(pid)[0] for k, pid in servers.items()}
    with tally.lock:
        tally.fetches = tally.fetch_bytes = tally.events = tally.stream_bytes = 0
        tally.failed, tally.waits = 0, []
    counted[0] = 0
    player = None
    if load.get("table_ids"):
        player = threading.Thread(target=play, args=(load["table_ids"], stop), daemon=True)
        player.start()
    time.sleep(seconds)
    row = {"phase": name, "messages": counted[0], "events": tally.events}
    for key, pid in servers.items():
        cpu, rss = cpu_and_memory(pid)
        row[f"{key} CPU s"], row[f"{key} MB"] = round(cpu - before[key], 2), round(rss)
    row |= {"stream bytes": tally.stream_bytes, "fetches": tally.fetches}
    row["fetch KB"] = tally.fetch_bytes // 1024
    waits = sorted(tally.waits) or [0.0]
    row["fetch p50 ms"] = round(waits[len(waits) // 2] * 1000)
    row["fetch max ms"] = round(waits[-1] * 1000)
    row["failed"] = tally.failed
    stop.set()
    return row


def reach(servers: dict, cookies: list[str], table_id: int) -> float:
    """Seconds from one change (the publisher's hand-over) to its fetch done on every
    screen, the screens quiet before it."""
    from core import floor_push

    tally, stop = Tally(), threading.Event()
    ports = (servers["stream"], servers["app"])
    for cookie in cookies:
        threading.Thread(target=watch, args=(ports, cookie, tally, stop), daemon=True).start()
    time.sleep(2.0)
    started = time.monotonic()
    floor_push.chain_changed(f"table:{table_id}")
    while len(tally.fetched_at) < len(cookies) and time.monotonic() - started < 10:
        time.sleep(0.01)
    stop.set()
    return max(tally.fetched_at, default=started + 10) - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--screens", type=int, default=20)
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seconds", type=float, default=15.0)
    args = parser.parse_args()
    setup_django()
    cookies, table_ids = build(args.tables, args.screens)
    stream, stream_port = start("gunicorn_stream.conf.py", 1)
    app, app_port = start("gunicorn.conf.py", 2)
    pids = {"stream": stream.pid, "app": app.pid}
    ports = (stream_port, app_port)
    try:
        rows = [
            phase(
                "pushed, nothing changes", pids, cookies, args.seconds, screens=watch, ports=ports
            ),
            phase(
                "pushed, every table plays",
                pids,
                cookies,
                args.seconds,
                screens=watch,
                ports=ports,
                table_ids=table_ids,
            ),
        ]
        took = reach({"stream": stream_port, "app": app_port}, cookies, table_ids[0])
        # Last: polling may leave the sync workers a queue that would weigh on the next row.
        polled = phase(
            "polled every 1 s",
            pids,
            cookies,
            args.seconds,
            ports=ports,
            screens=lambda p, c, t, s: poll(p[1], c, t, s),
        )
        rows.append(polled)
    finally:
        stream.terminate()
        app.terminate()
    print(f"{args.screens} screens, {len(table_ids)} tables, {args.seconds:g} s a row")
    print(" | ".join(rows[0]))
    for row in rows:
        print(" | ".join(str(v) for v in row.values()))
    print(f"one change on all {args.screens} screens (fetch done) in {took * 1000:.0f} ms")


if __name__ == "__main__":
    main()
