"""Recompute the audit chains and say where, if anywhere, one breaks.

Every chain (``audit.chain``) is walked from its start, or from the last verified checkpoint on
(incremental, the default of ``verify_chains``), up to the head read at the start: each event
must follow its predecessor (its place + 1, ``prev_hash``) and hash to its stored hash
(``chain_walk``). Chains are independent, so they are verified in parallel processes, one chain
per task. Checkpoints make removals detectable (``checkpoint_anchors``): every checkpoint
records the heads of all chains, so a chain cut short or removed whole no longer reaches the
heads of the latest checkpoint; checkpoints are signed with a key kept outside the database and
appended to a sink outside it, so a checkpoint removed, changed or forged in the database is
found too.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from django.db import connection, connections

from .chain import LEGACY, chain_genesis, heads_hash
from .chain_walk import Job, Result, verify_one
from .checkpoint_anchors import Anchors, read_anchors
from .models import AuditEvent, ChainHead


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


def verify_chain(
    *,
    checkpoints: Iterable[tuple[int, str]] = (),
    full: bool = True,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    as_of: datetime | None = None,
) -> ChainReport:
    """Verify every chain from its start (``full``) against the checkpoints (those recorded,
    the sink's, and any exported ``(seq, hash)`` pairs given). The name and arguments of the
    single-chain verification, kept for its callers (the API, the screen, the task).
    ``as_of``: read from a replica up to date to that moment (``read_anchors``)."""
    return verify_chains(
        full=full, checkpoints=checkpoints, workers=workers, progress=progress, as_of=as_of
    )


def verify_chains(
    *,
    full: bool = False,
    checkpoints: Iterable[tuple[int, str]] = (),
    exported: Iterable[dict[str, Any]] = (),
    workers: int = 1,
    sink: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    as_of: datetime | None = None,
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
    anchors = read_anchors(checkpoints, list(exported), sink, as_of)
    jobs = _jobs(heads, anchors, full)
    results = _run(jobs, workers, progress)
    report = _report(results, anchors, heads)
    report = _check_pairs(report, anchors.legacy_pairs)
    return replace(report, incremental=not full)


# --- the chains ------------------------------------------------------------------------------


def _jobs(heads: dict[str, tuple[int, str]], anchors: Anchors, full: bool) -> list[Job]:
    jobs = []
    for chain in sorted(set(heads) | set(anchors.must_reach)):
        end, end_hash = heads.get(chain, (None, ""))
        start, start_hash = (0, chain_genesis(chain))
        if not full and chain in anchors.start and (end is None or anchors.start[chain][0] <= end):
            start, start_hash = anchors.start[chain]
        reach = {s: h for s, h in anchors.must_reach.get(chain, {}).items() if s > start}
        risk_after = anchors.signed.get(chain, 0)
        jobs.append(Job(chain, start, start_hash, end, end_hash, reach, risk_after))
    # The longest first, so that parallel workers finish together.
    return sorted(jobs, key=lambda j: -((j.end or 0) - j.start))


def _run(
    jobs: list[Job], workers: int, progress: Callable[[int, int], None] | None
) -> list[Result]:
    results: list[Result] = []
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


# --- the answer ------------------------------------------------------------------------------


def _report(
    results: list[Result], anchors: Anchors, heads: dict[str, tuple[int, str]]
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
