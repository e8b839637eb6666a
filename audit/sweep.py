"""Beat's rolling re-hash of the older events: every event is checked again at least daily.

Every minute beat verifies what was added since the last signed checkpoint (cheap: a minute's
events). On its own that never reads an event again once a checkpoint covers it, so an event
rewritten behind the last checkpoint would pass, and the next checkpoint would be signed over
it. So each run also re-hashes one *slice* of the older events: the chains in name order, each
from its first event to its head, taken up where the last run stopped (``ChainSweep``) and
begun again from the first chain once the last is done (a *pass*). A slice re-hashes each of
its events and checks that each follows the one before it (the first, the stored hash of the
event before the slice, itself re-hashed by the slice before): a rewritten event is found by
its hash, or, its hash recomputed, by the link from the event after it.

The arithmetic. The log holds ``total`` events (every chain up to its head). A run re-hashes
``slice_size(total) = ceil(total / PASS_RUNS)`` events, at least ``MIN_SLICE`` and at most
``MAX_SLICE``. At one run a minute a pass takes at most ``PASS_RUNS`` = 600 runs = 10 hours
(fewer when the slices are ``MIN_SLICE``). An event first covered just behind the cursor waits
for the next pass, so two re-hashes of one event are at most two passes apart: 20 hours, four
to spare for missed or late runs. ``MAX_SLICE`` bounds a minute's work: 400,000 events is about
2.7 s at the 148,000 events/s of one process (docs/benchmarks.md); it holds the daily promise up
to ``PASS_RUNS × MAX_SLICE`` = 240 million events (a 50-table room writes about 180 million a
year). Past that a pass takes longer than 10 hours: the run says so (``behind``) and beat logs
a warning, the cue to raise ``MAX_SLICE``.

The cursor is a row the application may write: moving it only delays a slice (``verify_audit``,
which re-hashes everything, is the auditors' check); when the last whole pass ended is on the
compliance screen.
"""

from __future__ import annotations

from contextlib import closing
from dataclasses import asdict, dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from .chain import LEGACY, chain_genesis
from .chain_walk import Job, Result, event_rows, walk
from .models import AuditEvent, ChainHead, ChainSweep

#: Runs a pass may take (one a minute: 10 hours), so that every event is re-hashed within
#: two passes, 20 hours.
PASS_RUNS = 600
#: The least a run re-hashes (a small log is swept in a few minutes), and the most (a bound on
#: a minute's work).
MIN_SLICE = 1_000
MAX_SLICE = 400_000


def slice_size(total: int) -> int:
    """How many events one run re-hashes when the log holds ``total``."""
    return min(MAX_SLICE, max(MIN_SLICE, -(-total // PASS_RUNS)))


@dataclass(frozen=True)
class SweepReport:
    ok: bool
    events: int  # re-hashed by this run
    slices: tuple[tuple[str, int, int], ...]  # (chain, first place, last place) re-hashed
    problem: str = ""
    chain: str = ""
    broken_place: int | None = None
    passed: bool = False  # this run finished a pass
    passed_at: str = ""  # when the last whole pass ended (ISO 8601), if one has
    behind: bool = False  # the log is too large for a pass within PASS_RUNS runs

    def as_dict(self) -> dict:
        return asdict(self)


def sweep_found_broken() -> bool:
    """Whether the rolling re-hash last found a chain broken (no checkpoint is signed then)."""
    return ChainSweep.objects.exclude(broken="").exists()


def sweep_state() -> ChainSweep | None:
    return ChainSweep.objects.order_by("pk").first()


@transaction.atomic
def sweep_step(*, now: datetime | None = None) -> SweepReport:
    """Re-hash the next slice of the older events and move the cursor past it; a broken slice
    leaves the cursor where it is and records what it found."""
    now = now or timezone.now()
    state = ChainSweep.objects.select_for_update().order_by("pk").first()
    if state is None:
        state = ChainSweep.objects.create(pass_started_at=now)
    heads = dict(ChainHead.objects.values_list("chain", "seq"))
    hashes = dict(ChainHead.objects.values_list("chain", "hash"))
    total = sum(heads.values())
    budget = slice_size(total)
    chains = sorted(heads)
    index, start = _resume(chains, state)
    slices: list[tuple[str, int, int]] = []
    passed = False
    while chains and budget > 0:
        chain = chains[index]
        end = min(heads[chain], start + budget - 1)
        if start <= end:
            result = _slice(chain, start, end, hashes[chain] if end == heads[chain] else None)
            if not result.ok:
                return _broken(state, now, chain, result, tuple(slices), total)
            slices.append((chain, start, end))
            budget -= end - start + 1
        if end < heads[chain]:
            state.chain, state.place = chain, end
            break
        if index + 1 == len(chains):  # the pass is done: the next run begins another
            state.chain, state.place = "", 0
            state.passed_at, state.pass_started_at = now, now
            passed = True
            break
        index, start = index + 1, 1
        state.chain, state.place = chains[index], 0
    state.checked_at = now
    state.broken, state.broken_chain, state.broken_place = "", "", None
    state.save()
    return SweepReport(
        ok=True,
        events=sum(last - first + 1 for _, first, last in slices),
        slices=tuple(slices),
        passed=passed,
        passed_at=state.passed_at.isoformat() if state.passed_at else "",
        behind=-(-total // MAX_SLICE) > PASS_RUNS,
    )


def _resume(chains: list[str], state: ChainSweep) -> tuple[int, int]:
    """Where the slice starts: (index of the chain, first place)."""
    for index, chain in enumerate(chains):
        if chain == state.chain:
            return index, state.place + 1
        if chain > state.chain:  # the cursor's chain is gone (or none yet): the next one
            return index, 1
    return 0, 1


def _slice(chain: str, first: int, last: int, head_hash: str | None) -> Result:
    """Re-hash the events ``first``..``last`` of one chain; ``head_hash``: the slice ends at the
    chain's head, whose hash it must reach."""
    legacy = chain == LEGACY
    place = "seq" if legacy else "chain_seq"
    events = AuditEvent.objects.filter(chain=chain)
    anchor = chain_genesis(chain)
    if first > 1:
        before = events.filter(**{place: first - 1}).values_list("hash", flat=True).first()
        if before is None:
            return Result(chain, seq=first - 2).fail(first - 1, f"event {first - 1} is missing")
        anchor = before
    job = Job(chain, first - 1, anchor, last, "", {}, risk_after=last)
    result = Result(chain, seq=first - 1, hash=anchor)
    slice_events = events.filter(**{f"{place}__gte": first, f"{place}__lte": last})
    with closing(event_rows(slice_events.order_by(place))) as rows:  # closed in the transaction
        if not walk(rows, job, result, legacy):
            return result
    if result.seq < last:
        return result.fail(result.seq + 1, f"event {result.seq + 1} is missing")
    if head_hash is not None and result.hash != head_hash:
        return result.fail(last, "it differs from the chain head")
    return result


def _broken(
    state: ChainSweep,
    now: datetime,
    chain: str,
    result: Result,
    slices: tuple[tuple[str, int, int], ...],
    total: int,
) -> SweepReport:
    where = f"chain {chain}" if chain != LEGACY else "the legacy chain"
    problem = f"{where}: {result.problem} (place {result.broken})"
    # The cursor stays at the start of this run's slices: the next run re-hashes them again.
    state.checked_at, state.broken = now, problem
    state.broken_chain, state.broken_place = chain, result.broken
    state.save()
    return SweepReport(
        ok=False,
        events=sum(last - first + 1 for _, first, last in slices) + result.events,
        slices=slices,
        problem=problem,
        chain=chain,
        broken_place=result.broken,
        passed_at=state.passed_at.isoformat() if state.passed_at else "",
        behind=-(-total // MAX_SLICE) > PASS_RUNS,
    )
