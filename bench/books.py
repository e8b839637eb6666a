"""How long the books and the compliance state take to verify on a played room.

``.venv/bin/python -m bench.books --hands 2000 --database postgres://…/<a database of its own>``
drops and makes that database, migrates it, loads the demo (its users, a played day, two open
tables), plays ``--hands`` more hands through the services (half at each table, a minute
apart, every tenth corrected), then times ``verify_books`` and ``verify_state``, best of three.
The database is left for a rerun with other code (``--reuse``: time it as it is).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import random
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.verification import best, fresh_database

#: The hands are played from here on, a minute apart (the demo's day is before it).
START = datetime(2030, 1, 7, 20, 0, tzinfo=UTC)


def play(hands: int) -> None:
    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from core.errors import DomainError
    from tables.demo import DEMO_CARDROOM
    from tables.models import Table

    # The tests' own way of playing a hand through the services (rotation, draws, game stops).
    support: Any = importlib.import_module("tests.audit.support")
    clock = support.Clock(START)
    real_now = timezone.now
    timezone.now = lambda: clock.now
    try:
        rng = random.Random(7)
        dealer = User.objects.get(username="dealer")
        floor = User.objects.get(username="floor")
        tables = list(Table.objects.filter(cardroom__name=DEMO_CARDROOM).order_by("pk"))
        for number in range(hands):
            table = tables[number % len(tables)]
            with transaction.atomic():
                at = START + timedelta(minutes=number)
                hand = support.play_hand(table, rng=rng, by=dealer, clock=clock, settle_at=at)
                # A correction the stacks cannot take leaves the hand as settled.
                if number % 10 == 9:
                    with contextlib.suppress(DomainError):
                        support.correct_hand(hand, rng=rng, by=floor)
    finally:
        timezone.now = real_now


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/bench_books")
    parser.add_argument("--reuse", action="store_true", help="time the database as it is")
    options = parser.parse_args()
    if not options.reuse:
        fresh_database(options.database)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="cardroom.settings.local",
        DJANGO_DEBUG="false",
        DATABASE_URL=options.database,
        REDIS_URL="",
        AUDIT_CHECKPOINT_KEY="a-key-for-the-books-benchmark-only-000",
        AUDIT_CHECKPOINT_SINK=f"{tempfile.mkdtemp(prefix='bench-books-')}/checkpoints.jsonl",
        FIELD_ENCRYPTION_KEY="bmV2ZXItdXNlLXRoaXMtdGVzdC1rZXktYW55d2hlcmU=",
    )
    import django

    django.setup()
    from django.core.management import call_command

    if not options.reuse:
        call_command("migrate", verbosity=0)
        call_command("load_demo", stdout=io.StringIO())
        started = time.perf_counter()
        play(options.hands)
        print(f"played {options.hands} hands in {time.perf_counter() - started:.0f} s")
    from audit.models import AuditEvent
    from compliance.books import verify_books
    from tables.models import StackEntry
    from wagers.models import Settlement

    counts = (Settlement.objects.count(), StackEntry.objects.count(), AuditEvent.objects.count())
    print(f"{counts[0]:,} settlement entries, {counts[1]:,} stack entries, {counts[2]:,} events")
    runs: list[tuple[str, Callable[[], object]]] = [("verify_books", verify_books)]
    try:
        from compliance.state import verify_state

        runs.append(("verify_state", verify_state))
    except ImportError:
        pass  # code from before verify_state
    for name, run in runs:
        seconds, report = best(run)
        ok = getattr(report, "ok", None)
        rate = counts[0] / seconds
        print(f"| {name} | {seconds:.2f} s | {rate:,.0f} settlement entries/s | ok {ok} |")


if __name__ == "__main__":
    main()
