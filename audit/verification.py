"""Recompute the audit chain and say where, if anywhere, it breaks."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .chain import GENESIS_HASH, event_hash
from .models import AuditEvent, ChainHead


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    events: int
    head_seq: int  # the last good event (0 for an empty chain)
    head_hash: str
    broken_seq: int | None = None
    problem: str = ""


def verify_chain(*, checkpoints: Iterable[tuple[int, str]] = ()) -> ChainReport:
    """Walk every event in order: each must follow its predecessor (seq + 1, prev_hash) and
    hash to its stored hash. The stored head and any exported ``(seq, hash)`` checkpoints must
    still be in the chain, so that removing the newest events is detected too."""
    expected = dict(checkpoints)
    # The head is read first: every event up to it was committed before this read, so each must
    # be found below, while events a writer commits during the walk are read as the newer part
    # of the chain they are, never as a break.
    head = ChainHead.objects.filter(pk=1).first()
    head_seq, head_hash = (head.seq, head.hash) if head is not None else (0, GENESIS_HASH)
    seq, previous, count = 0, GENESIS_HASH, 0
    events = AuditEvent.objects.order_by("seq").values_list(
        "seq",
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
    for row in events.iterator(chunk_size=2000):
        number, occurred_at, actor_id, actor_name, action, object_type, object_id = row[:7]
        payload, prev_hash, stored = row[7:]
        if number != seq + 1:
            return _broken(count, seq, previous, seq + 1, f"event {seq + 1} is missing")
        if prev_hash != previous:
            return _broken(count, seq, previous, number, "it does not follow the event before")
        computed = event_hash(
            seq=number,
            occurred_at=occurred_at,
            actor_id=actor_id,
            actor_name=actor_name,
            action=action,
            object_type=object_type,
            object_id=object_id,
            payload=payload,
            prev_hash=prev_hash,
        )
        if computed != stored:
            return _broken(count, seq, previous, number, "its content does not match its hash")
        if number in expected and expected.pop(number) != stored:
            return _broken(count, seq, previous, number, "it differs from an exported checkpoint")
        if number == head_seq and stored != head_hash:
            return _broken(count, seq, previous, number, "it differs from the chain head")
        seq, previous, count = number, stored, count + 1
    if seq < head_seq:
        return _broken(count, seq, previous, seq + 1, f"the chain ends before its head #{head_seq}")
    if expected:  # every checkpoint left is beyond the last event: the first missing is next
        problem = f"the chain ends before exported checkpoint #{min(expected)}"
        return _broken(count, seq, previous, seq + 1, problem)
    return ChainReport(ok=True, events=count, head_seq=seq, head_hash=previous)


def _broken(count: int, seq: int, previous: str, at: int, problem: str) -> ChainReport:
    return ChainReport(
        ok=False, events=count, head_seq=seq, head_hash=previous, broken_seq=at, problem=problem
    )
