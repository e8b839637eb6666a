"""Recompute the audit chains and say where, if anywhere, one breaks (issues 5, 11 and 16).

Every chain (``audit.chain``) is walked from its start, or from the last verified checkpoint on
(incremental, the default of ``verify_chains``), up to the head read at the start: each event
must follow its predecessor (its place + 1, ``prev_hash``) and hash to its stored hash. Chains
are independent, so they are verified in parallel processes, one chain per task, streaming rows
as tuples (no model instances). Checkpoints make removals detectable: every checkpoint records
the heads of all chains, so a chain cut short or removed whole no longer reaches the heads of the
latest checkpoint; checkpoints are signed with a key kept outside the database and appended to a
sink outside it, so a checkpoint removed, changed or forged in the database is found too.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from django.db import connection, connections, transaction
from django.db.models import Count, Max, Min, QuerySet
from django.db.models.expressions import RawSQL
from django.utils import timezone

from . import signing
from .chain import LEGACY, chain_genesis, heads_hash, legacy_record_text, record_text
from .models import AuditEvent, ChainHead, Checkpoint

CHUNK = 10_000
#: A checkpoint is appended to the sink right after it commits: one younger than this and not
#: there yet is on its way, not missing.
SINK_GRACE = timedelta(seconds=10)


@dataclass(frozen=True)
class Head:
    chain: str
    seq: int  # the place of the chain's last event
    hash: str


@dataclass(frozen=True)
class ChainReport:
    """The verification's answer. ``head_seq``/``head_hash``: when it holds, the highest event
    number verified and the hash over the heads of every chain; when it does not, the last good
    event (its place) and hash in the broken ``chain``, and ``broken_seq`` the place where it
    breaks (the event number in the legacy chain)."""

    ok: bool
    events: int
    head_seq: int
    head_hash: str
    broken_seq: int | None = None
    problem: str = ""
    chain: str = ""
    chains: int = 0
    heads: tuple[Head, ...] = ()
    max_seq: int = 0
    #: Events after the last signed checkpoint (on the sink when there is one): how many, and
    #: the lowest and highest event numbers among them.
    at_risk: int = 0
    at_risk_first: int | None = None
    at_risk_last: int | None = None
    signed_checkpoint: str = ""  # the time of that checkpoint, ISO 8601
    notes: tuple[str, ...] = ()
    #: Every problem found with the checkpoints (forged, missing or changed in the database).
    checkpoint_problems: tuple[str, ...] = ()
    incremental: bool = False
    #: Every chain holds, whatever the checkpoint or sink problems (``ok`` is all of them): a
    #: checkpoint may be taken, skipping a bad one, but never over a broken chain.
    chains_ok: bool = False
    #: The sink lacks checkpoints the database has: it is not being written.
    sink_problems: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Job:
    chain: str
    start: int  # verified up to this place already (0: from the genesis)
    start_hash: str
    end: int | None  # the head's place, None when the head row is missing
    end_hash: str
    anchors: dict[int, str]  # place -> hash, from checkpoints
    risk_after: int  # events after this place are not yet under a signed checkpoint


@dataclass
class _Result:
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

    def fail(self, at: int, problem: str) -> _Result:
        self.ok, self.broken, self.problem = False, at, problem
        return self


@dataclass
class _Anchors:
    """What the checkpoints say: where each chain's verification may start, which heads each
    chain must still reach, and which problems the checkpoints themselves have."""

    start: dict[str, tuple[int, str]] = field(default_factory=dict)
    must_reach: dict[str, dict[int, str]] = field(default_factory=dict)
    signed: dict[str, int] = field(default_factory=dict)
    signed_at: str = ""
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    legacy_pairs: list[tuple[int, str]] = field(default_factory=list)
    sink_problems: list[str] = field(default_factory=list)


def verify_chain(
    *,
    checkpoints: Iterable[tuple[int, str]] = (),
    full: bool = True,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
) -> ChainReport:
    """Verify every chain from its start (``full``) against the checkpoints (those recorded,
    the sink's, and any exported ``(seq, hash)`` pairs given). The name and arguments of the
    single-chain verification, kept for its callers (the API, the screen, the task)."""
    return verify_chains(full=full, checkpoints=checkpoints, workers=workers, progress=progress)


def verify_chains(
    *,
    full: bool = False,
    checkpoints: Iterable[tuple[int, str]] = (),
    exported: Iterable[dict[str, Any]] = (),
    workers: int = 1,
    sink: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ChainReport:
    """Verify every chain; ``full`` from the start, else from the last signed checkpoint.
    ``exported`` are checkpoints kept elsewhere (the sink's format); ``workers`` > 1 verifies
    chains in that many processes (outside a transaction only: a process has its own
    connection and sees only what is committed)."""
    # The heads first, in one statement: every event up to each was committed before.
    heads = {
        chain: (seq, digest)
        for chain, seq, digest in ChainHead.objects.values_list("chain", "seq", "hash")
    }
    anchors = _anchors(checkpoints, list(exported), sink)
    jobs = _jobs(heads, anchors, full)
    results = _run(jobs, workers, progress)
    report = _report(results, anchors, heads)
    report = _check_pairs(report, anchors.legacy_pairs)
    return replace(report, incremental=not full)


# --- checkpoints -----------------------------------------------------------------------------


def _anchors(
    pairs: Iterable[tuple[int, str]], exported: list[dict[str, Any]], sink: Path | None
) -> _Anchors:
    """Read the checkpoints of the database and of the sink; check their signatures and each
    side against the other; choose the latest signed one as the start and the heads to reach."""
    found = _Anchors()
    rows: list[dict[str, Any]] = [
        dict(row)
        for row in Checkpoint.objects.order_by("verified_at", "id").values(
            "seq", "hash", "verified_at", "events", "signature", "key_id", "heads"
        )
    ]
    new_style = [r for r in rows if r["signature"] or r["heads"] != "[]"]
    signed_hashes = {r["hash"] for r in new_style}
    found.legacy_pairs = [
        (r["seq"], r["hash"]) for r in rows if not (r["signature"] or r["heads"] != "[]")
    ]
    found.legacy_pairs += [(s, h) for s, h in pairs if h not in signed_hashes]
    trusted: list[dict[str, Any]] = []
    for row in new_style:
        if _genuine(row, found.problems, "in the database"):
            trusted.append(row)
    in_db = list(trusted)
    try:
        scanned = signing.sink_scan(sink)
        outside = scanned.records + exported
        found.notes += [
            f"line {line.number} of the checkpoint sink is a partial checkpoint ({line.length} "
            "bytes: a write cut short), kept as it is"
            for line in scanned.partial
        ]
    except (OSError, ValueError) as error:
        found.problems.append(f"the checkpoint sink cannot be read: {error}")
        outside = list(exported)
    _compare(new_style, outside, found)
    for record in outside:
        if "heads" not in record:  # an exported pair from before signed checkpoints
            found.legacy_pairs.append((int(record["seq"]), str(record["hash"])))
        elif _genuine(record, found.problems, "outside the database"):
            trusted.append(record)
    _trust(trusted, found)
    if exported or (sink or signing.sink_path()) is not None:
        _at_risk_from_outside(in_db, trusted[len(in_db) :], found)
    return found


def _at_risk_from_outside(
    in_db: list[dict[str, Any]], outside: list[dict[str, Any]], found: _Anchors
) -> None:
    """With a sink, what is at risk is what no checkpoint outside the database covers: one
    only in the database protects nothing from whoever rewrites the database. If the sink
    lacks the database's latest, the sink is not being written: a problem."""
    found.signed, found.signed_at = {}, ""
    newest = max(outside, key=lambda r: (_when(r["verified_at"]), r["seq"]), default=None)
    if newest is not None:
        found.signed = {chain: seq for chain, seq, _ in _heads(newest)}
        found.signed_at = _when(newest["verified_at"]).isoformat()
    since = _when(newest["verified_at"]) if newest is not None else None
    missing = [r for r in in_db if since is None or _when(r["verified_at"]) > since]
    due = [r for r in missing if _when(r["verified_at"]) < timezone.now() - SINK_GRACE]
    if due:
        latest = max(due, key=lambda r: _when(r["verified_at"]))
        found.sink_problems.append(
            f"the checkpoint sink lacks {len(missing)} checkpoint(s) of the database, the "
            f"latest #{latest['seq']} of {_when(latest['verified_at']).isoformat()}: it is not "
            "being written"
        )


def _trust(trusted: list[dict[str, Any]], found: _Anchors) -> None:
    """The latest genuine checkpoint is where verification may start and what is at risk
    after; every genuine checkpoint's heads must still be in their chains."""
    if not trusted:
        return
    latest = max(trusted, key=lambda r: (_when(r["verified_at"]), r["seq"]))
    found.signed_at = _when(latest["verified_at"]).isoformat()
    for chain, seq, digest in _heads(latest):
        found.start[chain] = (seq, digest)
        found.signed[chain] = seq
    for record in trusted:
        for chain, seq, digest in _heads(record):
            found.must_reach.setdefault(chain, {})[seq] = digest


def _genuine(record: dict[str, Any], problems: list[str], where: str) -> bool:
    when = _when(record["verified_at"])
    text = signing.message(
        seq=int(record["seq"]), hash=record["hash"], verified_at=when, events=int(record["events"])
    )
    name = f"checkpoint #{record['seq']} of {when.isoformat()} {where}"
    if not signing.signature_ok(text, record.get("signature", ""), record.get("key_id", "")):
        problems.append(f"{name} is refused: its signature does not verify")
        return False
    if heads_hash(_heads(record)) != record["hash"]:
        problems.append(f"{name} is refused: its heads do not match its hash")
        return False
    return True


def _compare(db: list[dict[str, Any]], outside: list[dict[str, Any]], found: _Anchors) -> None:
    """Every signed checkpoint outside the database must be in it, the same."""
    in_db = {r["signature"]: r for r in db if r["signature"]}
    by_time = {_when(r["verified_at"]): r for r in db}
    for record in outside:
        if "signature" not in record:
            continue
        when = _when(record["verified_at"])
        if record["signature"] in in_db:
            continue
        if when in by_time:
            found.problems.append(
                f"checkpoint #{record['seq']} of {when.isoformat()} differs in the database "
                "from the one outside it"
            )
        else:
            found.problems.append(
                f"checkpoint #{record['seq']} of {when.isoformat()} is outside the database "
                "but missing from it"
            )
    signatures = {r.get("signature") for r in outside}
    if outside and any(r["signature"] not in signatures for r in db if r["signature"]):
        found.notes.append("a checkpoint in the database is not in the sink")


def _heads(record: dict[str, Any]) -> list[list[Any]]:
    heads = record["heads"]
    return json.loads(heads) if isinstance(heads, str) else heads


def _when(value: Any) -> datetime:
    moment = datetime.fromisoformat(value) if isinstance(value, str) else value
    return moment.astimezone(UTC)


# --- the chains ------------------------------------------------------------------------------


def _jobs(heads: dict[str, tuple[int, str]], anchors: _Anchors, full: bool) -> list[_Job]:
    jobs = []
    for chain in sorted(set(heads) | set(anchors.must_reach)):
        end, end_hash = heads.get(chain, (None, ""))
        start, start_hash = (0, chain_genesis(chain))
        if not full and chain in anchors.start and (end is None or anchors.start[chain][0] <= end):
            start, start_hash = anchors.start[chain]
        reach = {s: h for s, h in anchors.must_reach.get(chain, {}).items() if s > start}
        risk_after = anchors.signed.get(chain, 0)
        jobs.append(_Job(chain, start, start_hash, end, end_hash, reach, risk_after))
    # The longest first, so that parallel workers finish together.
    return sorted(jobs, key=lambda j: -((j.end or 0) - j.start))


def _run(
    jobs: list[_Job], workers: int, progress: Callable[[int, int], None] | None
) -> list[_Result]:
    results: list[_Result] = []
    parallel = workers > 1 and len(jobs) > 1 and not connection.in_atomic_block
    if connection.vendor == "sqlite" and connection.is_in_memory_db():  # type: ignore[attr-defined]
        parallel = False  # another process would not see this database
    if not parallel:
        for job in jobs:
            results.append(verify_one(job))
            if progress:
                progress(len(results), len(jobs))
        return results
    connections.close_all()  # each process opens its own connection
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        for future in as_completed([pool.submit(verify_one, job) for job in jobs]):
            results.append(future.result())
            if progress:
                progress(len(results), len(jobs))
    return results


def verify_one(job: _Job) -> _Result:
    """Walk one chain from ``job.start`` to its head (one task; runs in any process), in a
    transaction: rows stream from a server-side cursor that need not outlive it."""
    with transaction.atomic():
        result = _verify_one(job)
        _count_at_risk_before_start(job, result)
        return result


def _count_at_risk_before_start(job: _Job, result: _Result) -> None:
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


def _verify_one(job: _Job) -> _Result:
    result = _Result(job.chain, seq=job.start, hash=job.start_hash)
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
    rows = _rows(after.order_by(place))
    if not _walk(rows, job, result, legacy):
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


def _rows(events: QuerySet[AuditEvent]) -> Iterator[tuple]:
    """The rows as tuples, streamed: ``seq, chain_seq, when (ISO 8601 UTC text), actor_id,
    actor_name, action, object_type, object_id, payload, prev_hash, hash``. On PostgreSQL
    through psycopg's own server-side cursor: the query Django compiles, without its per-row
    work (the verification's cost is in reading rows)."""
    fields = ("actor_id", "actor_name", "action", "object_type", "object_id", "payload")
    if connection.vendor == "postgresql":
        query = events.annotate(when=RawSQL(_PG_ISOFORMAT, ())).values_list(
            "seq", "chain_seq", "when", *fields, "prev_hash", "hash"
        )
        return _pg_stream(*query.query.sql_with_params())
    plain = events.values_list("seq", "chain_seq", "occurred_at", *fields, "prev_hash", "hash")
    return (
        (r[0], r[1], r[2].astimezone(UTC).isoformat(), *r[3:])
        for r in plain.iterator(chunk_size=CHUNK)
    )


def _pg_stream(sql: str, params: tuple) -> Iterator[tuple]:
    connection.ensure_connection()
    with connection.connection.cursor(name="audit_verify") as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(CHUNK):
            yield from rows


def _walk(rows: Iterable[tuple], job: _Job, result: _Result, legacy: bool) -> bool:  # noqa: C901
    """The hot loop: each row follows the one before and hashes to its hash."""
    sha256, chain = hashlib.sha256, job.chain
    anchors, risk_after = job.anchors, job.risk_after
    position, previous, count = result.seq, result.hash, 0
    for row in rows:
        seq, chain_seq, when, actor_id, actor_name, action, kind, ident, payload = row[:9]
        prev_hash, stored = row[9], row[10]
        number = seq if legacy else chain_seq
        if number != position + 1:
            result.seq, result.hash, result.events = position, previous, result.events + count
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
        problem = ""
        if prev_hash != previous:
            problem = "it does not follow the event before"
        elif sha256(text.encode()).hexdigest() != stored:
            problem = "its content does not match its hash"
        elif anchors and number in anchors and anchors[number] != stored:
            problem = "it differs from a checkpoint"
        if problem:
            result.seq, result.hash, result.events = position, previous, result.events + count
            return not result.fail(number, problem)
        if number > risk_after:
            result.at_risk += 1
            result.risk_first = seq if result.risk_first is None else min(result.risk_first, seq)
            result.risk_last = seq if result.risk_last is None else max(result.risk_last, seq)
        result.max_seq = max(result.max_seq, seq)
        position, previous, count = number, stored, count + 1
    result.seq, result.hash, result.events = position, previous, result.events + count
    return True


# --- the answer ------------------------------------------------------------------------------


def _report(
    results: list[_Result], anchors: _Anchors, heads: dict[str, tuple[int, str]]
) -> ChainReport:
    results = sorted(results, key=lambda r: r.chain)
    events = sum(r.events for r in results)
    risk = [r for r in results if r.at_risk]
    common: dict[str, Any] = {
        "events": events,
        "chains": len(results),
        "at_risk": sum(r.at_risk for r in risk),
        "at_risk_first": min((r.risk_first for r in risk if r.risk_first), default=None),
        "at_risk_last": max((r.risk_last for r in risk if r.risk_last), default=None),
        "signed_checkpoint": anchors.signed_at,
        "notes": tuple(anchors.notes),
        "checkpoint_problems": tuple(anchors.problems),
        "sink_problems": tuple(anchors.sink_problems),
    }
    broken = [r for r in results if not r.ok]
    if broken:
        first = broken[0]
        where = f"chain {first.chain}" if first.chain != LEGACY else "the legacy chain"
        return ChainReport(
            ok=False,
            head_seq=first.seq,
            head_hash=first.hash,
            broken_seq=first.broken,
            problem=f"{where}: {first.problem}",
            chain=first.chain,
            **common,
        )
    verified = tuple(Head(r.chain, r.seq, r.hash) for r in results if r.chain in heads or r.seq)
    digest = heads_hash([[h.chain, h.seq, h.hash] for h in verified])
    max_seq = max((r.max_seq for r in results), default=0)
    if anchors.problems or anchors.sink_problems:
        return ChainReport(
            ok=False,
            head_seq=max_seq,
            head_hash=digest,
            problem=[*anchors.problems, *anchors.sink_problems][0],
            heads=verified,
            max_seq=max_seq,
            chains_ok=True,
            **common,
        )
    return ChainReport(
        ok=True,
        head_seq=max_seq,
        head_hash=digest,
        heads=verified,
        max_seq=max_seq,
        chains_ok=True,
        **common,
    )


def _check_pairs(report: ChainReport, pairs: list[tuple[int, str]]) -> ChainReport:
    """Checkpoints from before per-table chains, or exported as ``(seq, hash)``: the event with
    that number must still be there with that hash."""
    if not report.chains_ok or not pairs:
        return report
    wanted = dict(pairs)
    found: dict[int, str] = {}
    numbers = sorted(wanted)
    for i in range(0, len(numbers), 1000):
        found.update(
            AuditEvent.objects.filter(seq__in=numbers[i : i + 1000]).values_list("seq", "hash")
        )
    for number in numbers:
        if number not in found:
            problem = f"event #{number} of an exported checkpoint is missing"
            return replace(report, ok=False, chains_ok=False, broken_seq=number, problem=problem)
        if found[number] != wanted[number]:
            problem = f"event #{number} differs from an exported checkpoint"
            return replace(report, ok=False, chains_ok=False, broken_seq=number, problem=problem)
    return report
