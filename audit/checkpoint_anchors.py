"""What the checkpoints say to a verification: where each chain may start, the heads each must
still reach, which events are not yet under a signed checkpoint, and what is wrong with the
checkpoints themselves (forged, changed or missing in the database, or not on the sink)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from django.utils import timezone

from . import signing
from .chain import heads_hash
from .databases import of_this_database
from .models import Checkpoint

#: A checkpoint is appended to the sink right after it commits: one younger than this and not
#: there yet is on its way, not missing.
SINK_GRACE = timedelta(seconds=10)


@dataclass
class Anchors:
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


def read_anchors(
    pairs: Iterable[tuple[int, str]],
    exported: list[dict[str, Any]],
    sink: Path | None,
    as_of: datetime | None = None,
) -> Anchors:
    """Read the checkpoints of the database and of the sink; check their signatures and each
    side against the other; choose the latest signed one as the start and the heads to reach.
    ``as_of``: the database read is a replica's, up to date to that moment; a checkpoint outside
    it taken later (or just before) may not have reached it, and is left to the next run."""
    found = Anchors()
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
    # A sink that outlived its database (a new db.sqlite3) holds another database's checkpoints.
    outside = of_this_database(outside, found.notes, found.problems)
    if as_of is not None:
        outside = _replayed(outside, as_of, found.notes)
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


def _replayed(records: list[dict[str, Any]], as_of: datetime, notes: list[str]) -> list[dict]:
    """The checkpoints outside the database that a replica up to date to ``as_of`` holds (one
    taken within SINK_GRACE of it may still be committing)."""
    cutoff = as_of - SINK_GRACE
    kept = [r for r in records if "verified_at" not in r or _when(r["verified_at"]) <= cutoff]
    if len(kept) < len(records):
        notes.append(
            f"{len(records) - len(kept)} checkpoint(s) outside the database are newer than the "
            f"replica read ({as_of.isoformat()}): left to the next verification"
        )
    return kept


def _at_risk_from_outside(
    in_db: list[dict[str, Any]], outside: list[dict[str, Any]], found: Anchors
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


def _trust(trusted: list[dict[str, Any]], found: Anchors) -> None:
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


def _compare(db: list[dict[str, Any]], outside: list[dict[str, Any]], found: Anchors) -> None:
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
