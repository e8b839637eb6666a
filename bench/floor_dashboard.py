"""What the floor dashboard costs the server for a room of open tables.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/NAME \\
        .venv/bin/python -m bench.floor_dashboard [--tables 25,100,250] [--runs 30] [--profile]

On a database with no tables yet (bench.floor_push keeps its room: use another), in one
transaction rolled back at the end (nothing is kept): a cardroom, and for each size
in ``--tables`` the open tables up to it, made through the services (three players seated at
each, a pending setting change at every tenth) and their hands in bulk (one in play at every
other table, one settled within the hour at the rest). For each size a signed-in floor
supervisor gets the dashboard's rows (``/floor/dashboard/``, what the page fetches when
polling or told to), the rows of two changed tables (``?tables=``, what a pushed change
fetches) and the whole page (``/floor/``) ``--runs`` times through the Django test client,
after two warm-up requests; a row gives the median and p95 milliseconds, the median CPU
milliseconds of this process (the database's are apart: a loaded machine stretches the
former, hardly the latter), the queries of one request and its bytes. ``--profile`` prints
cProfile's top functions of the rows' fragment at the largest size, and its queries.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import time
from datetime import timedelta
from typing import Any

from bench.api_load import setup_django
from bench.members import everyone_works_everywhere


class _Rollback(Exception):
    pass


def build(upto: int, made: list[Any], people: dict[str, Any]) -> None:
    """Open tables up to ``upto`` (``made`` holds those made so far)."""
    from django.utils import timezone

    from tables.services.configuration import table_create
    from tables.services.seating import player_create, seat_player
    from tables.services.sessions import table_open
    from tables.services.setting_changes import setting_change_propose
    from wagers.models import Hand

    room, floor, dealer = people["room"], people["floor"], people["dealer"]
    for n in range(len(made) + 1, upto + 1):
        table = table_create(cardroom=room, name=f"Table {n:03}", banking="house", by=floor)
        table_open(table=table, dealer=dealer, by=floor)
        for seat in (1, 3, 5):
            player = player_create(cardroom=room, name=f"Player {n}-{seat}", by=dealer)
            seat_player(table=table, seat=seat, player=player, by=dealer)
        # The hands in bulk: playing one takes a counted rack and wagers, and the dashboard
        # reads only the row (in play, or settled within the hour).
        session = table.sessions.get(closed_at=None)
        settled = None if n % 2 else timezone.now() - timedelta(minutes=10)
        Hand.objects.create(
            table=table,
            session=session,
            number=1,
            settings=table.settings_versions.latest("version"),
            status=Hand.Status.SETTLED if settled else Hand.Status.OPEN,
            started_by=dealer,
            started_at=timezone.now() - timedelta(minutes=12),
            settled_at=settled,
        )
        if n % 10 == 0:
            setting_change_propose(
                table=table, values={"ante_min": "10"}, reason="Busy night", by=floor
            )
        made.append(table)


def measure(client: Any, path: str, runs: int) -> dict[str, Any]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for _ in range(2):
        client.get(path)
    times, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
        assert response.status_code == 200, response.status_code
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    times.sort()
    return {
        "median": statistics.median(times),
        "cpu": statistics.median(cpu),
        "p95": times[min(len(times) - 1, round(len(times) * 0.95) - 1)],
        "queries": len(queries),
        "bytes": len(response.content),
    }


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", default="25,100,250")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--profile", action="store_true")
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    os.environ.setdefault("DJANGO_DEBUG", "false")  # as served: no query log kept
    setup_django()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from django.db import transaction
    from django.test import Client

    from core.roles import ADMINISTRATOR, DEALER, FLOOR_SUPERVISOR
    from tables.services.cardrooms import cardroom_create

    call_command("migrate", verbosity=0)
    from tables.models import Table

    if Table.objects.exists():  # the dashboard shows every table: the sizes would be off
        raise SystemExit("bench.floor_dashboard wants a database with no tables yet")
    sizes = sorted(int(n) for n in args.tables.split(","))
    rows = []
    try:
        with transaction.atomic():

            def user(name: str, role: str) -> User:
                found = User.objects.create(username=name, first_name=name.title(), last_name="B")
                found.groups.add(Group.objects.get_or_create(name=role)[0])
                return found

            admin, floor = user("bench-admin", ADMINISTRATOR), user("bench-floor", FLOOR_SUPERVISOR)
            people = {
                "floor": floor,
                "dealer": user("bench-dealer", DEALER),
                "room": cardroom_create(name="Bench room", by=admin),
            }
            everyone_works_everywhere()
            client = Client(SERVER_NAME="localhost")
            client.force_login(floor)
            made: list[Any] = []
            for size in sizes:
                started = time.monotonic()
                build(size, made, people)
                print(f"{size} tables built in {time.monotonic() - started:.0f} s", flush=True)
                two = f"/floor/dashboard/?tables={made[0].pk},{made[-1].pk}"
                paths = (
                    ("rows", "/floor/dashboard/"),
                    ("two tables' rows", two),
                    ("page", "/floor/"),
                )
                for name, path in paths:
                    rows.append(
                        {"tables": size, "request": name} | measure(client, path, args.runs)
                    )
            if args.profile:
                profile(client)
            raise _Rollback
    except _Rollback:
        pass
    report(rows, args.runs)


def profile(client: Any) -> None:
    """cProfile's top functions of five fetches of the rows, then one fetch's queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(5):
        client.get("/floor/dashboard/")
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
    with CaptureQueriesContext(connection) as queries:
        client.get("/floor/dashboard/")
    for query in queries:
        print(query["time"], query["sql"][:300])


def report(rows: list[dict[str, Any]], runs: int) -> None:
    load = os.getloadavg()[0]
    print(f"{runs} requests a row; load average {load:.1f} when done")
    print("| open tables | request | median | p95 | CPU (median) | queries | bytes |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        print(
            f"| {row['tables']} | {row['request']} | {row['median']:.1f} ms | {row['p95']:.1f} ms"
            f" | {row['cpu']:.1f} ms | {row['queries']} | {row['bytes']:,} |"
        )


if __name__ == "__main__":
    main()
