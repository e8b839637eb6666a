"""How long a state exclusion list of 100,000 rows takes to import (target: under a minute).

    .venv/bin/python -m bench.exclusion_import [--rows 100000]
        [--database postgres://postgres@127.0.0.1:5432/bench_exclusions]

On a fresh SQLite database in a temporary folder by default; with ``--database``, on the
PostgreSQL database named there, made afresh (dropped first if it exists: give the bench a
database of its own). Writes a seeded list of ``--rows`` rows (a third with an ID number,
all with a date of birth, a reference each), then times the import the way a worker runs it:
the request's checks and queueing (``state_list_import_request``) and the task
(``state_list_import_run``: reading, checking, the rows added in batches, the audit event).
Then the same list again, which finds every row on file. Prints lines for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Django is set up in main(), before the models are imported
    from patrons.models import ExclusionListImport

SEED = 20261202
KINDS = ("barred", "self_excluded", "self_restricted")


def state_list(rows: int) -> str:
    rng = random.Random(SEED)
    lines = ["kind,name,date_of_birth,id_type,id_number,id_issuer,starts_on,ends_on,reference"]
    for n in range(rows):
        born = date(1940, 1, 1) + timedelta(days=rng.randrange(60 * 365))
        starts = date(2015, 1, 1) + timedelta(days=rng.randrange(10 * 365))
        ends = "" if rng.random() < 0.5 else (starts + timedelta(days=365 * 5)).isoformat()
        has_id = n % 3 == 0
        lines.append(
            ",".join(
                (
                    rng.choice(KINDS),
                    f"Person {n:06d} Listed",
                    born.isoformat(),
                    "driver_licence" if has_id else "",
                    f"D{rng.randrange(10**7):07d}" if has_id else "",
                    "California" if has_id else "",
                    starts.isoformat(),
                    ends,
                    f"CA-{n:07d}",
                )
            )
        )
    return "\n".join(lines) + "\n"


def fresh_database(url: str) -> None:
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    parts = urlsplit(url)
    name = parts.path.strip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def timed_import(text: str, by: Any) -> tuple[float, ExclusionListImport]:
    from patrons.state_list_imports import state_list_import_request
    from patrons.state_list_runs import state_list_import_run

    began = time.perf_counter()
    job = state_list_import_request(text=text, source_name="bench.csv", by=by)
    job = state_list_import_run(job.pk)
    return time.perf_counter() - began, job


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--database", help="a PostgreSQL URL (made afresh); default SQLite")
    args = parser.parse_args()
    if args.database:
        fresh_database(args.database)
        os.environ["DATABASE_URL"] = args.database
    else:
        folder = tempfile.mkdtemp(prefix="cardroom-bench-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)
    # The task is run here, in this process, as a worker would run it (not on commit).
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.test")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from unittest import mock

    from django.contrib.auth.models import Group, User

    from core.roles import COMPLIANCE_AUDITOR
    from patrons.models import Exclusion

    auditor = User.objects.create_user("compliance")
    auditor.groups.add(Group.objects.get_or_create(name=COMPLIANCE_AUDITOR)[0])
    text = state_list(args.rows)
    where = "PostgreSQL" if args.database else "SQLite"
    with mock.patch("patrons.state_list_imports.state_list_import_enqueue"):
        first, job = timed_import(text, auditor)
        assert job.status == "done" and job.added == args.rows, (job.status, job.error)
        again, repeat = timed_import(text, auditor)
        assert repeat.added == 0 and repeat.on_file == args.rows
    assert Exclusion.objects.count() == args.rows
    size = len(text.encode()) / 1e6
    print(
        f"| {where}: {args.rows:,} rows ({size:.1f} MB), all new | {first:.1f} s | "
        f"{args.rows / first:,.0f} rows/s |"
    )
    print(
        f"| {where}: the same list again, every row on file | {again:.1f} s | "
        f"{args.rows / again:,.0f} rows/s |"
    )


if __name__ == "__main__":
    main()
