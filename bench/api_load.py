"""Complete hands through the API against a running production server, and pgbench TPC-B on
the same PostgreSQL in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python -m bench.api_load [--seconds 10] [--workers 4] [--runs 3]

It migrates the database, builds a cardroom with 8 house-banked tables (a dealer on duty at
each, six players seated), starts gunicorn with the production settings and the project's
``gunicorn.conf.py`` (``--workers``, default 2 per core), and then for 1 and 6 spots and 1, 4
and 8 tables at once plays complete hands for ``--seconds``: one thread per table, each hand
in five requests (start, all wagers, the system's deal, all decisions, settle), each thread
with its table's dealer token. Each row runs ``--runs`` times and prints the run with the
median hands/s (and that run's p50/p95/p99 of a request). ``pgbench -i`` and ``pgbench -T 10``
(8 clients, 2 threads) run on the same PostgreSQL server as many times — before the rows and
between them, since a shared machine's speed drifts — and the 6-spot hands/s at 8 tables is
divided by the median tps.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import os
import re
import socket
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
TABLES = 8
SEATS = (1, 2, 3, 4, 5, 6)
BUY_IN = "5000"  # under the $10,000 a day that asks for an ID (patrons.cash)
ANTE = "5"


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.local")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def build() -> list[dict]:
    """The tables (made once, reused later): ``[{"table", "token", "seatings"}]``."""
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from knox.models import AuthToken

    from core.roles import ADMINISTRATOR, DEALER, FLOOR_SUPERVISOR
    from patrons.models import Cardroom
    from tables.models import Seating, Table
    from tables.services.cardrooms import cardroom_create
    from tables.services.configuration import table_create
    from tables.services.seating import player_create, seat_player, seating_leave
    from tables.services.sessions import table_open
    from wagers import services as hands
    from wagers.models import Hand

    call_command("migrate", verbosity=0)

    def user(name: str, role: str) -> User:
        found, _ = User.objects.get_or_create(username=name)
        found.groups.add(Group.objects.get_or_create(name=role)[0])
        return found

    admin = user("bench-admin", ADMINISTRATOR)
    floor = user("bench-floor", FLOOR_SUPERVISOR)
    room = Cardroom.objects.filter(name="Bench room").first() or cardroom_create(
        name="Bench room", by=admin
    )
    out = []
    for n in range(1, TABLES + 1):
        dealer = user(f"bench-dealer-{n}", DEALER)
        table = Table.objects.filter(cardroom=room, name=f"Bench {n}").first()
        if table is None:
            table = table_create(cardroom=room, name=f"Bench {n}", banking="house", by=floor)
            table_open(table=table, dealer=dealer, by=floor)
        # A hand an earlier run left unfinished (its thread stopped on an error) ends first.
        for unfinished in Hand.objects.filter(table=table, status__in=Hand.IN_PROGRESS):
            if unfinished.status == Hand.Status.OPEN:
                hands.hand_cancel(hand=unfinished, by=floor)
            else:
                hands.hand_declare_misdeal(hand=unfinished, reason="shuffler_fault", by=floor)
        for seat in SEATS:
            sat = Seating.objects.filter(table=table, seat=seat, left_at=None).first()
            # A stack earlier runs have worn down buys in again: a whole run (three of each row)
            # moves a seat's stack by a thousand or two, and a seat that runs dry stops its table.
            if sat is not None and sat.stack < int(BUY_IN) * 4 // 5:
                seating_leave(seating=sat, by=floor)
                sat = None
            if sat is None:
                player = player_create(cardroom=room, name=f"B{n}-{seat}", by=floor)
                seat_player(table=table, seat=seat, player=player, buy_in=BUY_IN, by=floor)
        seatings = dict(Seating.objects.filter(table=table, left_at=None).values_list("seat", "id"))
        token = AuthToken.objects.create(dealer)[1]
        out.append({"table": table.pk, "token": token, "seatings": seatings})
    return out


# --- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(workers: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardroom.settings.production",
        "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY", "bench-" + "k" * 50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "DJANGO_TRUSTED_PROXY_COUNT": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
    }
    from django.conf import settings

    key = settings.FIELD_ENCRYPTION_KEYS[0]
    env.setdefault("FIELD_ENCRYPTION_KEY", key if isinstance(key, str) else key.decode())
    # production requires these too; the bench's are the local settings' (key files under var/)
    env.setdefault("ID_LOOKUP_KEY", settings.ID_LOOKUP_KEY or "bench-id-lookup-key")
    env.setdefault("AUDIT_CHECKPOINT_KEY", ",".join(settings.AUDIT_CHECKPOINT_KEYS))
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
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
    raise SystemExit("gunicorn did not start")


# --- the load -----------------------------------------------------------------------------------


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    hands: int = 0
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def play_table(port: int, table: dict, spots: int, until: float, stats: Stats) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Token {table['token']}", "Content-Type": "application/json"}
    seats = SEATS[:spots]
    mine: list[float] = []
    hands = 0

    def post(path: str, body: object) -> dict:
        started = time.perf_counter()
        # Each request its own Idempotency-Key, as a device sends (money-moving POSTs need one).
        keyed = {**headers, "Idempotency-Key": uuid.uuid4().hex}
        conn.request("POST", f"/api/v1{path}", json.dumps(body), keyed)
        response = conn.getresponse()
        data = response.read()
        mine.append(time.perf_counter() - started)
        if response.status >= 300:
            raise RuntimeError(f"{path}: {response.status} {data[:300]!r}")
        return json.loads(data)

    try:
        while time.perf_counter() < until:
            hand = post(f"/tables/{table['table']}/hands/", {})
            url = f"/hands/{hand['id']}"
            wagers = [{"seating": table["seatings"][s], "ante": ANTE} for s in seats]
            post(f"{url}/wagers/batch/", {"spots": wagers})
            post(f"{url}/deal/", {})
            decisions = [
                {"seat": s, "decision": "raise", "raise_amount": ANTE}
                if i % 2 == 0
                else {"seat": s, "decision": "fold"}
                for i, s in enumerate(seats)
            ]
            post(f"{url}/decisions/batch/", {"spots": decisions})
            post(f"{url}/settle/", {})
            hands += 1
    except Exception as error:  # noqa: BLE001 - reported with the figures
        with stats.lock:
            stats.errors.append(repr(error))
    with stats.lock:
        stats.latencies.extend(mine)
        stats.hands += hands


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def run(port: int, tables: list[dict], spots: int, concurrency: int, seconds: float) -> dict:
    stats = Stats()
    started = time.perf_counter()
    until = started + seconds
    threads = [
        threading.Thread(target=play_table, args=(port, tables[i], spots, until, stats))
        for i in range(concurrency)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    ms = [x * 1000 for x in stats.latencies]
    return {
        "spots": spots,
        "tables": concurrency,
        "hands_per_s": stats.hands / elapsed,
        "requests": len(ms),
        "p50": percentile(ms, 50),
        "p95": percentile(ms, 95),
        "p99": percentile(ms, 99),
        "errors": stats.errors,
    }


def pgbench_tps(url: str) -> float:
    parts = urlsplit(url)
    args = ["-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432)]
    args += ["-U", parts.username or "postgres"]
    db = parts.path.lstrip("/")
    subprocess.run(["pgbench", "-i", "-q", *args, db], check=True, capture_output=True)
    result = subprocess.run(
        ["pgbench", "-T", "10", "-c", "8", "-j", "2", *args, db],
        check=True,
        capture_output=True,
        text=True,
    )
    match = re.search(r"tps = ([0-9.]+)", result.stdout)
    if match is None:
        raise SystemExit(f"pgbench said: {result.stdout}")
    subprocess.run(
        [
            "psql",
            *args,
            "-q",
            "-c",
            "DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, "
            "pgbench_tellers",
            db,
        ],
        check=False,
        capture_output=True,
    )
    return float(match.group(1))


def median_row(rows: list[dict]) -> dict:
    """The run with the median hands/s (its request percentiles are that run's)."""
    ordered = sorted(rows, key=lambda row: row["hands_per_s"])
    return {**ordered[len(ordered) // 2], "runs": [row["hands_per_s"] for row in rows]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=2 * multiprocessing.cpu_count())
    parser.add_argument("--spots", default="1,6")
    parser.add_argument("--tables", default="1,4,8")
    parser.add_argument(
        "--runs", type=int, default=3, help="runs of each row and of pgbench; the median counts"
    )
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        raise SystemExit("Set DATABASE_URL to a PostgreSQL database (and REDIS_URL).")
    setup_django()
    tables = build()
    from django.db import connections

    connections.close_all()
    # pgbench runs between the rows too: the machine's speed drifts, and the ratio compares
    # like with like.
    tps_runs = [pgbench_tps(url)]
    proc, port = start_server(args.workers)
    results = []
    try:
        for spots in (int(s) for s in args.spots.split(",")):
            for concurrency in (int(c) for c in args.tables.split(",")):
                results.append(measure_row(port, tables, spots, concurrency, args))
            if len(tps_runs) < args.runs:
                tps_runs.append(pgbench_tps(url))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    while len(tps_runs) < args.runs:
        tps_runs.append(pgbench_tps(url))
    print_report(results, tps_runs)


def measure_row(
    port: int, tables: list[dict], spots: int, concurrency: int, args: argparse.Namespace
) -> dict:
    """One row: warm the workers, then ``--runs`` runs; the median run counts."""
    run(port, tables, spots, concurrency, 1.0)  # warm the workers
    runs = [run(port, tables, spots, concurrency, args.seconds)]
    runs += [run(port, tables, spots, concurrency, args.seconds) for _ in range(args.runs - 1)]
    row = median_row(runs)
    errors = [e for r in runs for e in r["errors"]]
    print(
        f"{spots} spot(s), {concurrency} table(s): {row['hands_per_s']:.2f} hands/s "
        f"(runs: {', '.join(f'{x:.2f}' for x in row['runs'])}), "
        f"request p50 {row['p50']:.1f} ms, p95 {row['p95']:.1f} ms, "
        f"p99 {row['p99']:.1f} ms ({row['requests']} requests)"
        + (f", errors: {errors[:2]}" if errors else ""),
        flush=True,
    )
    return row


def print_report(results: list[dict], tps_runs: list[float]) -> None:
    tps = sorted(tps_runs)[len(tps_runs) // 2]
    print(
        f"pgbench TPC-B (-c 8 -j 2 -T 10): {tps:.0f} tps, the median of "
        f"{', '.join(f'{x:.0f}' for x in tps_runs)}"
    )
    six_at_8 = [r for r in results if r["spots"] == 6 and r["tables"] == 8]
    if six_at_8:
        ratio = six_at_8[0]["hands_per_s"] / tps
        print(f"6 spots, 8 tables: {six_at_8[0]['hands_per_s']:.2f} hands/s = {ratio:.2%} of tps")
    print("\n| spots | tables | hands/s | p50 ms | p95 ms | p99 ms |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        print(
            f"| {r['spots']} | {r['tables']} | {r['hands_per_s']:.2f} | {r['p50']:.1f} | "
            f"{r['p95']:.1f} | {r['p99']:.1f} |"
        )


if __name__ == "__main__":
    main()
