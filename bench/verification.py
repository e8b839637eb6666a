"""How fast the audit chains verify: full and incremental, one process and several,
against ``sha256`` over the same bytes.

    .venv/bin/python -m bench.verification [--events 300000] [--tables 50] [--workers 2]
        [--database postgres://postgres@127.0.0.1:5432/bench_verification]

Makes the PostgreSQL database named in ``--database`` afresh (it is dropped first if it
exists: give the bench a database of its own), migrates it, and seeds ``--events`` events
spread over ``--tables`` table chains, a cardroom chain and the global chain, hashed as
``audit.services.audit_record`` hashes them and written with ``COPY`` (the bench measures the
verification, not the appends). Then it times, best of three:

- a full verification in one process and in ``--workers`` processes (``verify_audit``);
- a checkpoint, 1% more events, and the incremental verification after it
  (``verify_audit --since-checkpoint``);
- one slice of beat's rolling re-hash (``audit.sweep``) at its largest, ``MAX_SLICE`` events;
- ``sha256`` alone over the same bytes as the full verification hashes (each event's canonical
  record), and the same with the records built and encoded too, in one process.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit, urlunsplit

SEED = 20261201
START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
ACTIONS = ("hand.started", "stack.wager", "hand.wager_placed", "hand.cards_entered", "hand.settled")
COLUMNS = (
    "seq",
    "chain",
    "chain_seq",
    "occurred_at",
    "actor_id",
    "actor_name",
    "action",
    "object_type",
    "object_id",
    "payload",
    "prev_hash",
    "hash",
)


def fresh_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.strip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def seed(events: int, tables: int, heads: dict[str, tuple[int, str]], first_seq: int) -> int:
    """Append ``events`` events over the chains, continuing from ``heads`` (updated), with COPY;
    return the next event number."""
    from django.db import connection

    from audit.chain import canonical_json, chain_event_hash, chain_genesis

    rng = random.Random(SEED + first_seq)
    chains = [f"table:{n}" for n in range(1, tables + 1)] + ["cardroom:1", "global"]
    weights = [10] * tables + [3, 1]
    buffer = io.StringIO()
    seq = first_seq
    for chain in rng.choices(chains, weights, k=events):
        place, previous = heads.get(chain, (0, chain_genesis(chain)))
        occurred_at = START + timedelta(milliseconds=seq * 250)
        fields: dict[str, Any] = {
            "chain": chain,
            "chain_seq": place + 1,
            "seq": seq,
            "occurred_at": occurred_at,
            "actor_id": None,
            "actor_name": f"dealer{rng.randint(1, 40)}",
            "action": rng.choice(ACTIONS),
            "object_type": "wagers.hand",
            "object_id": str(seq // 7),
            "payload": canonical_json(
                {"amount": f"{rng.randint(5, 500)}.00", "seat": rng.randint(1, 6)}
            ),
            "prev_hash": previous,
        }
        digest = chain_event_hash(**fields)
        heads[chain] = (place + 1, digest)
        row = [str(fields[c]) if c in fields else "" for c in COLUMNS[:-1]] + [digest]
        row[COLUMNS.index("occurred_at")] = occurred_at.isoformat()
        row[COLUMNS.index("actor_id")] = "\\N"
        buffer.write("\t".join(row) + "\n")
        seq += 1
    buffer.seek(0)
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's own cursor, for COPY
        with raw.copy(f"COPY audit_auditevent ({', '.join(COLUMNS)}) FROM STDIN") as copy:
            while chunk := buffer.read(1 << 20):
                copy.write(chunk)
        cursor.execute("SELECT setval('audit_event_seq', %s)", [seq - 1])
        cursor.execute("ANALYZE audit_auditevent")
    from audit.models import ChainHead

    for chain, (place, digest) in heads.items():
        ChainHead.objects.update_or_create(chain=chain, defaults={"seq": place, "hash": digest})
    return seq


def best(run: Callable[[], object], repeats: int = 3) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        started = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - started)
    return min(times), result


def same_rows() -> list[tuple]:
    """Every event's fields as the verification reads them (the time as ISO 8601 text)."""
    from django.db import transaction

    from audit.chain_walk import event_rows
    from audit.models import AuditEvent

    with transaction.atomic():
        return list(event_rows(AuditEvent.objects.order_by("chain", "chain_seq")))


Lines = list[tuple[str, float, float]]  # what, seconds, events per second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=300_000)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2)
    parser.add_argument(
        "--database", default="postgres://postgres@127.0.0.1:5432/bench_verification"
    )
    options = parser.parse_args()
    fresh_database(options.database)
    folder = tempfile.mkdtemp(prefix="bench-verification-")
    os.environ.update(
        DJANGO_SETTINGS_MODULE="cardroom.settings.local",
        DJANGO_DEBUG="false",
        DATABASE_URL=options.database,
        REDIS_URL="",
        AUDIT_CHECKPOINT_KEY="a-key-for-the-verification-benchmark-only",
        AUDIT_CHECKPOINT_SINK=f"{folder}/checkpoints.jsonl",
    )
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    heads: dict[str, tuple[int, str]] = {}
    started = time.perf_counter()
    next_seq = seed(options.events, options.tables, heads, 1)
    seeded = time.perf_counter() - started
    events, chains = options.events, len(heads)
    lines: Lines = []
    time_full(lines, events, options.workers)
    sha_rate = time_hashing(lines, events)
    time_incremental(lines, events, options, heads, next_seq)
    time_sweep(lines, events)
    print(
        f"\n{events:,} events in {chains} chains on PostgreSQL "
        f"(seeded in {seeded:.1f} s); best of 3\n"
    )
    print("| verification | time | events/s | ÷ sha256 alone |")
    print("| --- | ---: | ---: | ---: |")
    for what, seconds, rate in lines:
        print(f"| {what} | {seconds:.2f} s | {rate:,.0f} | {rate / sha_rate:.1%} |")
    print(json.dumps({"events": events, "chains": chains}))


def line(lines: Lines, what: str, seconds: float, count: int) -> None:
    lines.append((what, seconds, count / seconds))


def time_full(lines: Lines, events: int, workers: int) -> None:
    """A full verification in one process and in ``workers`` (``verify_audit``)."""
    from django.db import connection

    from audit.verification import verify_chains

    def full(workers: int) -> Callable[[], object]:
        def run() -> object:
            report = verify_chains(full=True, workers=workers)
            assert report.ok and report.events == events, report
            connection.close()
            return report

        return run

    seconds, _ = best(full(1))
    line(lines, "full, 1 process", seconds, events)
    seconds, _ = best(full(workers))
    line(lines, f"full, {workers} processes", seconds, events)


def time_hashing(lines: Lines, events: int) -> float:
    """``sha256`` alone over the same bytes, and with the records built too; its rate."""
    from audit.chain import record_text
    from audit.models import AuditEvent

    chain_of = dict(AuditEvent.objects.values_list("seq", "chain"))
    rows = [(chain_of[r[0]], *r) for r in same_rows()]
    del chain_of
    records = [record_text(r[0], r[2], *r[1:2], *r[3:11]).encode() for r in rows]
    total = sum(len(r) for r in records)
    seconds, _ = best(lambda: [hashlib.sha256(r).hexdigest() for r in records])
    sha_rate = events / seconds
    line(lines, f"sha256 alone over the same {total / 1e6:.0f} MB, 1 process", seconds, events)
    seconds, _ = best(
        lambda: [
            hashlib.sha256(record_text(r[0], r[2], *r[1:2], *r[3:11]).encode()).hexdigest()
            for r in rows
        ]
    )
    line(lines, "records written and hashed (rows in memory), 1 process", seconds, events)
    return sha_rate


def time_incremental(
    lines: Lines,
    events: int,
    options: argparse.Namespace,
    heads: dict[str, tuple[int, str]],
    next_seq: int,
) -> None:
    """A checkpoint, 1% more events, and the incremental verification after it."""
    from django.db import connection

    from audit.services import audit_checkpoint_record
    from audit.verification import verify_chains

    checkpoint_started = time.perf_counter()
    checkpoint = audit_checkpoint_record()
    assert checkpoint is not None
    line(
        lines,
        "first checkpoint (verifies all, in its transaction)",
        time.perf_counter() - checkpoint_started,
        events,
    )
    more = max(1, events // 100)
    seed(more, options.tables, heads, next_seq)

    def incremental() -> object:
        report = verify_chains(workers=options.workers)
        assert report.ok and report.events == more, report
        connection.close()
        return report

    seconds, _ = best(incremental)
    line(
        lines,
        f"incremental after a checkpoint (+{more:,} events), {options.workers} processes",
        seconds,
        more,
    )


def time_sweep(lines: Lines, events: int) -> None:
    """What beat adds every minute: one slice of its rolling re-hash, at its largest."""
    from audit import sweep
    from audit.models import ChainSweep

    size = min(sweep.MAX_SLICE, events)
    sweep.MIN_SLICE = size

    def rehash_slice() -> object:
        ChainSweep.objects.all().delete()
        report = sweep.sweep_step()
        assert report.ok and report.events == size, report
        return report

    seconds, _ = best(rehash_slice)
    line(lines, f"one slice of beat's rolling re-hash ({size:,} events), 1 process", seconds, size)


if __name__ == "__main__":
    main()
