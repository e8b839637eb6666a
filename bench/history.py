"""Do the reports stay flat as a year of a 250-table room piles up? Each report an auditor or a
supervisor reads, on one gaming day and on one month, timed against the history's size.

    nice -n 19 .venv/bin/python -m bench.history --hands 20000,200000,2000000 \
        [--database postgres://postgres@127.0.0.1:5432/hist] [--reuse]

For each size: makes the PostgreSQL database afresh (dropped first: give it one of its own),
migrates it, loads the demo (its users, its played day), and generates the history around the
demo's first house-banked hand (``bench.history_build``: ten audit events a hand, so 2 M hands
make 20 M events). What each report reads is the same size at every history size: the last
gaming day has 20 hands at each table, the measured table 20 hands every day, the measured
player seat 1 there every day; only the rest of the history grows. Then it times each report,
median of 3, and prints the table: report × history size → ms. ``--reuse`` times the database
as it is (one size). Needs PostgreSQL (the history is made in SQL).
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench.verification import fresh_database

RUNS = 3


def _setup(database: str) -> None:
    os.environ.update(
        DJANGO_SETTINGS_MODULE="cardroom.settings.local",
        DJANGO_DEBUG="false",
        DATABASE_URL=database,
        REDIS_URL="",
        AUDIT_CHECKPOINT_KEY="a-key-for-the-history-benchmark-only-0",
        AUDIT_CHECKPOINT_SINK=f"{tempfile.mkdtemp(prefix='bench-history-')}/checkpoints.jsonl",
        FIELD_ENCRYPTION_KEY="bmV2ZXItdXNlLXRoaXMtdGVzdC1rZXktYW55d2hlcmU=",
    )
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    settings.SECURE_SSL_REDIRECT = False
    settings.MEDIA_ROOT = tempfile.mkdtemp(prefix="bench-history-media-")


def template_hand() -> Any:
    """The demo's first settled hand at a house-banked table."""
    from wagers.models import Hand

    return Hand.objects.filter(table__banking="house", status="settled").order_by("id").first()


def median_ms(run: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        began = time.perf_counter()
        run()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def reports(built: Any) -> list[tuple[str, Callable[[], object]]]:
    """Each report, on the last gaming day and on the month before it."""
    from compliance.hold import day_period, hold_report, month_to_date_period
    from compliance.ratings import player_ratings
    from compliance.reports import player_report, table_day_report
    from patrons.models import Player
    from tables.models import Table

    table = Table.objects.select_related("cardroom").get(pk=built.table_ids[0])
    cardroom = table.cardroom
    player = Player.objects.select_related("cardroom").get(pk=built.player_id)
    p = _Periods(built, cardroom)
    day, month = day_period(cardroom, p.day), month_to_date_period(cardroom, p.month_end)
    return [
        ("hold, day (one table)", lambda: hold_report(table, day)),
        ("hold, month (one table)", lambda: hold_report(table, month)),
        ("gaming-day report (one table)", lambda: table_day_report(table, p.day)),
        ("player report, day", lambda: player_report(player, p.day_start, p.day_end)),
        ("player report, month", lambda: player_report(player, p.month_from, p.month_to)),
        ("ratings, day", lambda: player_ratings(player, p.day, p.day)),
        ("ratings, month", lambda: player_ratings(player, p.month_start, p.month_end)),
        *_api_and_exports(p, table.sessions.values_list("dealer_id", flat=True)[0]),
    ]


class _Periods:
    """The timed day (the last) and month (the last whole one), their bounds, and a day
    mid-year."""

    def __init__(self, built: Any, cardroom: Any) -> None:
        from tables.selectors import gaming_day_bounds

        self.day = built.last_day
        self.month_end = self.day.replace(day=1) - timedelta(days=1)
        self.month_start = max(self.month_end.replace(day=1), built.first_day)
        self.day_start, self.day_end = gaming_day_bounds(cardroom, self.day)
        self.month_from, _ = gaming_day_bounds(cardroom, self.month_start)
        _, self.month_to = gaming_day_bounds(cardroom, self.month_end)
        middle = built.first_day + timedelta(days=180)
        self.mid_start, self.mid_end = gaming_day_bounds(cardroom, middle)


def _api_and_exports(p: _Periods, dealer: int) -> list[tuple[str, Callable[[], object]]]:
    from django.contrib.auth.models import User
    from knox.models import AuthToken
    from rest_framework.test import APIClient

    from compliance.exports import export_build
    from compliance.models import Export

    auditor = User.objects.get(username="compliance")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {AuthToken.objects.create(auditor)[1]}")

    def get(query: str) -> Callable[[], object]:
        def run() -> object:
            response = client.get(f"/api/v1/audit/events/{query}", secure=True)
            assert response.status_code == 200, response.content[:300]
            return response

        return run

    def export(kind: str, start: Any, end: Any) -> Callable[[], object]:
        def run() -> object:
            made = Export.objects.create(
                kind=kind, start=start, end=end, requested_by=auditor, requested_at=end
            )
            return export_build(made.pk)

        return run

    def between(start: Any, end: Any) -> str:
        return "&".join(
            f"occurred_{name}={moment.isoformat().replace('+', '%2B')}"
            for name, moment in (("after", start), ("before", end))
        )

    return [
        ("audit log API, first page", get("")),
        ("audit log API, hand.settled on the day",
         get(f"?action=hand.settled&{between(p.day_start, p.day_end)}")),
        ("audit log API, hand.settled on a day mid-year",
         get(f"?action=hand.settled&{between(p.mid_start, p.mid_end)}")),
        ("audit log API, the dealer's events in the month",
         get(f"?actor={dealer}&{between(p.month_from, p.month_to)}")),
        ("export: settlements, day (room)",
         export(Export.Kind.SETTLEMENTS, p.day_start, p.day_end)),
        ("export: audit log, day (room)", export(Export.Kind.AUDIT_LOG, p.day_start, p.day_end)),
        ("export: hold, day (room)", export(Export.Kind.HOLD, p.day_start, p.day_end)),
        ("export: hold, month (room)", export(Export.Kind.HOLD, p.month_from, p.month_to)),
    ]  # fmt: skip


def run_size(
    hands: int, database: str, reuse: bool, template: str = ""
) -> tuple[str, dict[str, float]]:
    from django.core.management import call_command
    from django.db import connection

    from bench.history_build import Shape, build

    if not reuse:
        connection.close()
        if template:
            _from_template(database, template)
        else:
            fresh_database(database)
            call_command("migrate", verbosity=0)
            call_command("load_demo", stdout=io.StringIO())
        began = time.perf_counter()
        built = build(template_hand(), Shape(hands=hands))
        print(f"built {hands:,} hands, {built.events:,} events in "
              f"{time.perf_counter() - began:.0f} s", flush=True)  # fmt: skip
    else:
        built = _found()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM wagers_hand")
        count = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM audit_auditevent")
        events = cursor.fetchone()[0]
        cursor.execute("SELECT pg_size_pretty(pg_database_size(current_database()))")
        size = cursor.fetchone()[0]
    label = f"{count:,} hands / {events:,} events ({size})"
    print(label, flush=True)
    times = {}
    for name, run in reports(built):
        times[name] = median_ms(run)
        print(f"  {name}: {times[name]:,.0f} ms", flush=True)
    return label, times


def _from_template(database: str, template: str) -> None:
    """The database afresh as a copy of ``template`` (migrated, the demo loaded)."""
    import psycopg

    parts = urlsplit(database)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        name = parts.path.strip("/")
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')


def _found() -> Any:
    """Where a history built before is (``--reuse``)."""
    from bench.history_sql import Built
    from tables.models import Seating
    from wagers.models import Hand, Settlement

    template = template_hand()
    table = template.table
    ids = [table.pk, *table.cardroom.tables.filter(banking="house").exclude(pk=table.pk)
           .order_by("pk").values_list("pk", flat=True)]  # fmt: skip
    before = template.settlements.get(kind="original").gaming_day
    days = Settlement.objects.filter(hand__table=table, gaming_day__lt=before)
    first = days.order_by("gaming_day").values_list("gaming_day", flat=True)[0]
    last = days.order_by("-gaming_day").values_list("gaming_day", flat=True)[0]
    assert first is not None and last is not None, "no history before the demo's day"
    seat_1 = Seating.objects.filter(table=table, seat=1, sat_at__date__gte=first).order_by("pk")
    player = seat_1.values_list("player_id", flat=True)[0]
    return Built(ids, player, first, last, Hand.objects.count() * 10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", default="20000", help="history sizes, comma-separated")
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/hist")
    parser.add_argument("--reuse", action="store_true", help="time the database as it is")
    parser.add_argument(
        "--template", default="", help="a database migrated with the demo loaded, to copy"
    )
    options = parser.parse_args()
    _setup(options.database)
    columns = []
    for hands in [int(n) for n in options.hands.split(",")]:
        columns.append(run_size(hands, options.database, options.reuse, options.template))
    names = list(columns[0][1])
    print("\n| report | " + " | ".join(label for label, _ in columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for name in names:
        print(f"| {name} | " + " | ".join(f"{t[name]:,.0f}" for _, t in columns) + " |")


if __name__ == "__main__":
    main()
