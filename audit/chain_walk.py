"""Walking one audit chain: its rows streamed as tuples (no model instances), each checked to
follow its predecessor (its place + 1, ``prev_hash``) and to hash to its stored hash. One walk
is one task, run in any process (``verification``) or for a slice (``sweep``)."""

from __future__ import annotations

import hashlib
from collections.abc import Generator, Iterable
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC

from django.db import connections, transaction
from django.db.models import Count, Max, Min, QuerySet
from django.db.models.expressions import RawSQL

from core.replica import current_read_alias

from .chain import LEGACY, legacy_record_text, record_text
from .models import AuditEvent

CHUNK = 10_000


@dataclass(frozen=True)
class Job:
    chain: str
    start: int  # verified up to this place already (0: from the genesis)
    start_hash: str
    end: int | None  # the head's place, None when the head row is missing
    end_hash: str
    anchors: dict[int, str]  # place -> hash, from checkpoints
    risk_after: int  # events after this place are not yet under a signed checkpoint


@dataclass
class Result:
    chain: str
    ok: bool = True
    events: int = 0
    seq: int = 0  # place of the last good event
    hash: str = ""
    max_seq: int = 0  # highest event number read
    broken: int | None = None
    problem: str = ""
    at_risk: int = 0
    risk_first: int | None = None
    risk_last: int | None = None

    def fail(self, at: int, problem: str) -> Result:
        self.ok, self.broken, self.problem = False, at, problem
        return self


def verify_one(job: Job) -> Result:
    """Walk one chain from ``job.start`` to its head (one task; runs in any process), in a
    transaction: rows stream from a server-side cursor that need not outlive it. The
    transaction is on the database the walk reads (the replica inside ``reporting()``)."""
    with transaction.atomic(using=current_read_alias()):
        result = _verify_one(job)
        _count_at_risk_before_start(job, result)
        return result


def _count_at_risk_before_start(job: Job, result: Result) -> None:
    """Events before where the walk started but after the last checkpoint on the sink (the
    walk started from one only in the database) are at risk too."""
    if job.start <= job.risk_after:
        return
    place = "seq" if job.chain == LEGACY else "chain_seq"
    unwalked = AuditEvent.objects.filter(
        chain=job.chain, **{f"{place}__gt": job.risk_after, f"{place}__lte": job.start}
    ).aggregate(count=Count("id"), first=Min("seq"), last=Max("seq"))
    if not unwalked["count"]:
        return
    result.at_risk += unwalked["count"]
    result.risk_first = min(x for x in (result.risk_first, unwalked["first"]) if x is not None)
    result.risk_last = max(x for x in (result.risk_last, unwalked["last"]) if x is not None)


def _verify_one(job: Job) -> Result:
    result = Result(job.chain, seq=job.start, hash=job.start_hash)
    legacy = job.chain == LEGACY
    place = "seq" if legacy else "chain_seq"
    events = AuditEvent.objects.filter(chain=job.chain)
    if job.start:
        row = events.filter(**{place: job.start}).values_list("hash", "seq").first()
        if row is None or row[0] != job.start_hash:
            problem = "it is missing" if row is None else "it differs from the checkpoint"
            return result.fail(job.start, f"the event of the last checkpoint: {problem}")
        result.max_seq = row[1]
    after = events.filter(**{f"{place}__gt": job.start})
    if job.end is not None:
        after = after.filter(**{f"{place}__lte": job.end})
    # Closed here, inside the walk's transaction: a walk that stops at a broken event leaves
    # the server-side cursor open, and a cursor closed later by the garbage collector would
    # start a transaction of its own after the commit.
    with closing(event_rows(after.order_by(place))) as rows:
        if not walk(rows, job, result, legacy):
            return result
    if job.end is not None and result.seq < job.end:
        return result.fail(result.seq + 1, f"the chain ends before its head #{job.end}")
    if job.end is not None and result.seq == job.end and job.end and result.hash != job.end_hash:
        return result.fail(job.end, "it differs from the chain head")
    beyond = [s for s in job.anchors if s > result.seq]
    if beyond:
        return result.fail(result.seq + 1, f"the chain ends before checkpoint #{min(beyond)}")
    return result


#: PostgreSQL writes the time as Python's ``isoformat()`` of it in UTC (microseconds only when
#: there are some), so that the hot loop does not have to.
_PG_ISOFORMAT = (
    "to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS') || "
    "CASE WHEN date_part('microseconds', occurred_at)::bigint %% 1000000 = 0 THEN '' "
    "ELSE to_char(occurred_at AT TIME ZONE 'UTC', '.US') END || '+00:00'"
)


def event_rows(events: QuerySet[AuditEvent]) -> Generator[tuple, None, None]:
    """The rows as tuples, streamed: ``seq, chain_seq, when (ISO 8601 UTC text), actor_id,
    actor_name, action, object_type, object_id, payload, prev_hash, hash``. On PostgreSQL
    through psycopg's own server-side cursor: the query Django compiles, without its per-row
    work (the verification's cost is in reading rows)."""
    fields = ("actor_id", "actor_name", "action", "object_type", "object_id", "payload")
    if connections[events.db].vendor == "postgresql":
        query = events.annotate(when=RawSQL(_PG_ISOFORMAT, ())).values_list(
            "seq", "chain_seq", "when", *fields, "prev_hash", "hash"
        )
        return _pg_stream(events.db, *query.query.sql_with_params())
    plain = events.values_list("seq", "chain_seq", "occurred_at", *fields, "prev_hash", "hash")
    return (
        (r[0], r[1], r[2].astimezone(UTC).isoformat(), *r[3:])
        for r in plain.iterator(chunk_size=CHUNK)
    )


def _pg_stream(alias: str, sql: str, params: tuple) -> Generator[tuple, None, None]:
    connection = connections[alias]
    connection.ensure_connection()
    with connection.connection.cursor(name="audit_verify") as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(CHUNK):
            yield from rows


def walk(rows: Iterable[tuple], job: Job, result: Result, legacy: bool) -> bool:
    """The hot loop: each row follows the one before and hashes to its hash. What it keeps is
    in locals, told to ``result`` once (``_tally``); why a row fails is worked out only for the
    row that does (``_problem``)."""
    sha256, chain = hashlib.sha256, job.chain
    anchors, risk_after = job.anchors, job.risk_after
    position, previous, count = result.seq, result.hash, 0
    at_risk, first, last, max_seq = 0, _NONE_YET, -1, result.max_seq
    for row in rows:
        seq, chain_seq, when, actor_id, actor_name, action, kind, ident, payload = row[:9]
        prev_hash, stored = row[9], row[10]
        number = seq if legacy else chain_seq
        if number != position + 1:
            _tally(result, position, previous, count, at_risk, first, last, max_seq)
            return not result.fail(position + 1, f"event {position + 1} is missing")
        if legacy:
            text = legacy_record_text(
                seq, when, actor_id, actor_name, action, kind, ident, payload, prev_hash
            )
        else:
            text = record_text(
                chain, chain_seq, seq, when, actor_id, actor_name, action, kind, ident, payload,
                prev_hash,
            )  # fmt: skip
        if (
            prev_hash != previous
            or sha256(text.encode()).hexdigest() != stored
            or (anchors and anchors.get(number, stored) != stored)
        ):
            _tally(result, position, previous, count, at_risk, first, last, max_seq)
            return not result.fail(number, _problem(text, prev_hash, previous, stored))
        if number > risk_after:
            at_risk += 1
            first = min(first, seq)
            last = max(last, seq)
        max_seq = max(max_seq, seq)
        position, previous, count = number, stored, count + 1
    _tally(result, position, previous, count, at_risk, first, last, max_seq)
    return True


#: Above every event number: no event at risk has been seen yet.
_NONE_YET = 1 << 63


def _problem(text: str, prev_hash: str, previous: str, stored: str) -> str:
    """Why a row the walk refused fails, in the order the walk checks."""
    if prev_hash != previous:
        return "it does not follow the event before"
    if hashlib.sha256(text.encode()).hexdigest() != stored:
        return "its content does not match its hash"
    return "it differs from a checkpoint"


def _tally(
    result: Result,
    position: int,
    previous: str,
    count: int,
    at_risk: int,
    first: int,
    last: int,
    max_seq: int,
) -> None:
    """What a walk kept, told to its result: where it stopped, and the events at risk."""
    result.seq, result.hash, result.events = position, previous, result.events + count
    result.max_seq = max_seq
    if at_risk:
        result.at_risk += at_risk
        result.risk_first = first if result.risk_first is None else min(result.risk_first, first)
        result.risk_last = last if result.risk_last is None else max(result.risk_last, last)
