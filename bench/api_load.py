"""Complete hands through the API against a running production server, with pgbench TPC-B and
a minimal DRF insert view on the same PostgreSQL in the same run.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME REDIS_URL=redis://127.0.0.1:6379/N \\
        .venv/bin/python -m bench.api_load [--seconds 10] [--workers 4] [--runs 3] \\
        [--kinds house,dp] [--cards deal,entered] [--spots 1,6] [--tables 1,4,8]

It migrates the database, builds a cardroom with 8 house-banked tables (six players seated)
and 8 designated-player tables (seven: the rotation names one the DP at each start, R16, and
the six others play), a dealer on duty at each; starts gunicorn with the production settings
and the project's ``gunicorn.conf.py`` (``--workers``, default 2 per core); and then for each
kind of table, each way of dealing (``deal``: the system's shuffle; ``entered``: cards the
client draws itself and enters, as a dealer or a card-reading shuffler does), each number of
spots and of tables at once, plays complete hands for ``--seconds``: one thread per table, each
hand in five requests (start, all wagers, the deal or the cards, all decisions, settle), each
thread with its table's dealer token (``bench.api_load_hands``). Each row runs ``--runs`` times
and prints the run with the median hands/s (and that run's p50/p95/p99 of a request).

In the same run: ``pgbench -i`` and ``pgbench -T 10`` (8 clients, 2 threads) on the same
PostgreSQL server, before the rows and between them (a shared machine's speed drifts); and a
minimal DRF view (one INSERT a request, no authentication: ``bench.minimal_urls``) served by
gunicorn with the same settings, loaded by 8 threads. Every row's hands/s is given as a ratio
to both medians.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench.api_load_hands import (
    Stats,
    insert_requests,
    percentile,
    play_table,
    run_threads,
)

ROOT = Path(__file__).resolve().parents[1]
TABLES = 8
BUY_IN = "5000"  # under the $10,000 a day that asks for an ID (patrons.cash)
PASSWORD = "bench-signing-password"
RACK = {"100.00": 1000}  # a house-banked table's rack: $100,000, more than a run pays out
KINDS = {"house": ("house", (1, 2, 3, 4, 5, 6)), "dp": ("designated_player", tuple(range(1, 8)))}


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.local")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def build() -> dict[str, list[dict]]:
    """The tables of each kind (made once, reused later): ``[{"table", "token", "seatings"}]``;
    and the minimal view's table."""
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import connection

    from bench.members import everyone_works_everywhere
    from bench.minimal_urls import TABLE
    from core.roles import ADMINISTRATOR, DEALER, FLOOR_SUPERVISOR
    from patrons.models import Cardroom
    from tables.services.cardrooms import cardroom_create

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id bigserial PRIMARY KEY, note text)")

    def user(name: str, role: str) -> User:
        found, made = User.objects.get_or_create(username=name)
        if made:  # who counts a rack or verifies it signs with a password
            found.set_password(PASSWORD)
            found.save(update_fields=["password"])
        found.groups.add(Group.objects.get_or_create(name=role)[0])
        return found

    admin = user("bench-admin", ADMINISTRATOR)
    floor = user("bench-floor", FLOOR_SUPERVISOR)
    room = Cardroom.objects.filter(name="Bench room").first() or cardroom_create(
        name="Bench room", by=admin
    )
    made: dict[str, list[dict]] = {}
    for kind, (banking, seats) in KINDS.items():
        made[kind] = []
        for n in range(1, TABLES + 1):
            name = f"Bench {n}" if kind == "house" else f"Bench {kind} {n}"
            dealer = user(f"bench-dealer-{n}" if kind == "house" else f"bench-{kind}-{n}", DEALER)
            made[kind].append(build_table(room, name, banking, seats, dealer, floor))
    everyone_works_everywhere()  # before the first request: tokens cache their cardrooms
    return made


def build_table(room: Any, name: str, banking: str, seats: tuple, dealer: Any, floor: Any) -> dict:
    from knox.models import AuthToken

    from cage.services import inventory_count_record
    from tables.models import Seating, Table
    from tables.services.configuration import table_create
    from tables.services.seating import player_create, seat_player, seating_leave
    from tables.services.sessions import table_open
    from tables.signatures import SignatureInput
    from wagers import services as hands
    from wagers.models import Hand

    table = Table.objects.filter(cardroom=room, name=name).first()
    if table is None:
        table = table_create(cardroom=room, name=name, banking=banking, by=floor)
        table_open(table=table, dealer=dealer, by=floor)
        if banking == "house":  # its rack counted before anyone buys chips there
            inventory_count_record(
                table=table,
                kind="opening",
                chips=RACK,
                counted_by=SignatureInput(dealer.get_username(), PASSWORD),
                signature=SignatureInput(floor.get_username(), PASSWORD),
                by=floor,
            )
    # A hand an earlier run left unfinished (its thread stopped on an error) ends first.
    for unfinished in Hand.objects.filter(table=table, status__in=Hand.IN_PROGRESS):
        if unfinished.status == Hand.Status.OPEN:
            hands.hand_cancel(hand=unfinished, by=floor)
        else:
            hands.hand_declare_misdeal(hand=unfinished, reason="shuffler_fault", by=floor)
    for seat in seats:
        sat = Seating.objects.filter(table=table, seat=seat, left_at=None).first()
        # A stack earlier runs have worn down buys in again: a whole run (three of each row)
        # moves a seat's stack by a thousand or two, and a seat that runs dry stops its table.
        if sat is not None and sat.stack < int(BUY_IN) * 4 // 5:
            seating_leave(seating=sat, by=floor)
            sat = None
        if sat is None:
            player = player_create(cardroom=room, name=f"{name} P{seat}", by=floor)
            seat_player(table=table, seat=seat, player=player, buy_in=BUY_IN, by=floor)
    seatings = dict(Seating.objects.filter(table=table, left_at=None).values_list("seat", "id"))
    return {"table": table.pk, "token": AuthToken.objects.create(dealer)[1], "seatings": seatings}


# --- the servers --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(workers: int, settings_module: str) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings_module,
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
    command += ["-w", str(workers), "-b", f"127.0.0.1:{port}", "cardroom.wsgi:application"]
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


def run(
    port: int, tables: list[dict], spots: int, concurrency: int, cards: str, seconds: float
) -> dict:
    targets = [(play_table, port, tables[i], spots, cards) for i in range(concurrency)]
    stats, elapsed = run_threads(targets, seconds)
    return summary(stats, elapsed) | {"spots": spots, "tables": concurrency}


def summary(stats: Stats, elapsed: float) -> dict:
    ms = [x * 1000 for x in stats.latencies]
    return {
        "hands_per_s": stats.hands / elapsed,
        "requests": len(ms),
        "p50": percentile(ms, 50),
        "p95": percentile(ms, 95),
        "p99": percentile(ms, 99),
        "errors": stats.errors,
    }


def minimal_view_rps(workers: int, seconds: float, runs: int) -> list[float]:
    """Requests/s of the minimal DRF insert view (8 threads), on its own gunicorn."""
    proc, port = start_server(workers, "bench.minimal_settings")
    try:
        run_threads([(insert_requests, port)] * TABLES, 1.0)  # warm the workers
        measured = [run_threads([(insert_requests, port)] * TABLES, seconds) for _ in range(runs)]
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    errors = [e for stats, _ in measured for e in stats.errors]
    if errors:
        raise SystemExit(f"the minimal view failed: {errors[:2]}")
    return [stats.hands / elapsed for stats, elapsed in measured]


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


def arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--workers", type=int, default=2 * multiprocessing.cpu_count())
    parser.add_argument("--kinds", default="house,dp", help="house, dp (designated player)")
    parser.add_argument("--cards", default="deal,entered", help="deal (the system's), entered")
    parser.add_argument("--spots", default="1,6")
    parser.add_argument("--tables", default="1,4,8")
    parser.add_argument(
        "--runs", type=int, default=3, help="runs of each row and of pgbench; the median counts"
    )
    return parser.parse_args()


def main() -> None:
    args = arguments()
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
    rps_runs = minimal_view_rps(args.workers, args.seconds, args.runs)
    proc, port = start_server(args.workers, "cardroom.settings.production")
    results = []
    try:
        for kind in args.kinds.split(","):
            for cards in args.cards.split(","):
                for spots in (int(s) for s in args.spots.split(",")):
                    for concurrency in (int(c) for c in args.tables.split(",")):
                        row = measure_row(port, tables[kind], spots, concurrency, cards, args)
                        results.append(row | {"kind": kind, "cards": cards})
                if len(tps_runs) < args.runs:
                    tps_runs.append(pgbench_tps(url))
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    while len(tps_runs) < args.runs:
        tps_runs.append(pgbench_tps(url))
    print_report(results, tps_runs, rps_runs)


def measure_row(
    port: int,
    tables: list[dict],
    spots: int,
    concurrency: int,
    cards: str,
    args: argparse.Namespace,
) -> dict:
    """One row: warm the workers, then ``--runs`` runs; the median run counts."""
    run(port, tables, spots, concurrency, cards, 1.0)  # warm the workers
    runs = [run(port, tables, spots, concurrency, cards, args.seconds) for _ in range(args.runs)]
    row = median_row(runs)
    errors = [e for r in runs for e in r["errors"]]
    print(
        f"{spots} spot(s), {concurrency} table(s), {cards}: {row['hands_per_s']:.2f} hands/s "
        f"(runs: {', '.join(f'{x:.2f}' for x in row['runs'])}), "
        f"request p50 {row['p50']:.1f} ms, p95 {row['p95']:.1f} ms, "
        f"p99 {row['p99']:.1f} ms ({row['requests']} requests)"
        + (f", errors: {errors[:2]}" if errors else ""),
        flush=True,
    )
    return row


def print_report(results: list[dict], tps_runs: list[float], rps_runs: list[float]) -> None:
    tps = sorted(tps_runs)[len(tps_runs) // 2]
    rps = sorted(rps_runs)[len(rps_runs) // 2]
    print(
        f"pgbench TPC-B (-c 8 -j 2 -T 10): {tps:.0f} tps, the median of "
        f"{', '.join(f'{x:.0f}' for x in tps_runs)}"
    )
    print(
        f"minimal DRF insert view (8 threads): {rps:.0f} requests/s, the median of "
        f"{', '.join(f'{x:.0f}' for x in rps_runs)}"
    )
    print(
        "\n| tables | cards | spots | at once | hands/s | p50 ms | p95 ms | p99 ms "
        "| ÷ minimal view | ÷ pgbench tps |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in results:
        print(
            f"| {r['kind']} | {r['cards']} | {r['spots']} | {r['tables']} | "
            f"{r['hands_per_s']:.2f} | {r['p50']:.1f} | {r['p95']:.1f} | {r['p99']:.1f} | "
            f"{r['hands_per_s'] / rps:.3f} | {r['hands_per_s'] / tps:.4f} |"
        )


if __name__ == "__main__":
    main()
