"""Checkpoints signed with a key kept outside the database, and their sink: a file
outside the database where every checkpoint is appended as one JSON line.

The key is ``AUDIT_CHECKPOINT_KEY`` (HMAC-SHA256; several keys separated by commas while one is
being rotated: the first signs, every one verifies). Someone who can write the database but
not read the key cannot make a checkpoint that verifies, so a tail cut off after the last
checkpoint, with the checkpoints rewritten to match, is still found against the sink.

A checkpoint's line is written whole or not at all; a partial line (a write cut short where
the sink could not be cut back) is reported and kept, and the next line starts after it."""

from __future__ import annotations

import errno
import fcntl
import hashlib
import hmac
import json
import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings

from .chain import canonical_json


def key_id(key: str) -> str:
    """Names a key without revealing it."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def message(*, seq: int, hash: str, verified_at: datetime, events: int) -> bytes:
    """What is signed: the hash over the heads (which covers them), the highest event number,
    the time and the count."""
    return canonical_json([seq, hash, verified_at, events]).encode()


def sign(text: bytes) -> tuple[str, str]:
    """The signature and the id of the key that made it."""
    key = settings.AUDIT_CHECKPOINT_KEYS[0]
    return hmac.new(key.encode(), text, hashlib.sha256).hexdigest(), key_id(key)


def signature_ok(text: bytes, signature: str, signed_by: str) -> bool:
    for key in settings.AUDIT_CHECKPOINT_KEYS:
        if key_id(key) == signed_by:
            expected = hmac.new(key.encode(), text, hashlib.sha256).hexdigest()
            return hmac.compare_digest(expected, signature)
    return False


def database_seal(signature: str, database: str) -> str:
    """Binds a checkpoint (by its signature) to the database it was taken of
    (``audit.databases``), with the signing key: a label a database writer cannot forge."""
    key = settings.AUDIT_CHECKPOINT_KEYS[0]
    text = canonical_json(["database", signature, database]).encode()
    return hmac.new(key.encode(), text, hashlib.sha256).hexdigest()


def database_seal_ok(signature: str, database: str, seal: str) -> bool:
    text = canonical_json(["database", signature, database]).encode()
    return any(
        hmac.compare_digest(hmac.new(key.encode(), text, hashlib.sha256).hexdigest(), seal)
        for key in settings.AUDIT_CHECKPOINT_KEYS
    )


def sink_path() -> Path | None:
    value = settings.AUDIT_CHECKPOINT_SINK
    return Path(value) if value else None


class SinkWriteError(OSError):
    """The checkpoint's line could not be written whole. The sink ends as it did before (cut
    back), or, where it cannot be cut (a write-once volume), with a partial line that the next
    append starts after, on a line of its own."""


def sink_append(record: dict[str, Any]) -> None:
    """Append one checkpoint to the sink as one whole line, durable before returning, or
    raise SinkWriteError. Writers take turns on the file (flock), so that a line written in
    several pieces is never interleaved with another."""
    path = sink_path()
    if path is None:
        return
    line = (json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n").encode()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o600)
    except OSError as error:
        raise SinkWriteError(f"cannot open the checkpoint sink {path}: {error}") from error
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        size = os.fstat(descriptor).st_size
        if size and os.pread(descriptor, 1, size - 1) != b"\n":
            line = b"\n" + line  # a partial line an earlier failure could not cut
        try:
            _write_whole(descriptor, line)
            os.fsync(descriptor)
        except OSError as error:
            _cut_back(descriptor, size)
            raise SinkWriteError(
                f"the checkpoint sink {path} did not take checkpoint #{record.get('seq')}: {error}"
            ) from error
    finally:
        os.close(descriptor)


def _write_whole(descriptor: int, data: bytes) -> None:
    """``os.write`` may write less than it was given (a full disk, a signal): write the rest
    until all is written or it fails."""
    view = memoryview(data)
    while view:
        written = os.write(descriptor, view)
        if written <= 0:
            raise OSError(errno.ENOSPC, "the sink took no more bytes")
        view = view[written:]


def _cut_back(descriptor: int, size: int) -> None:
    """Remove what a failed append wrote; where the sink refuses (write-once storage), the
    next append starts on a fresh line instead."""
    try:
        os.ftruncate(descriptor, size)
        os.fsync(descriptor)
    except OSError:
        pass


@dataclass(frozen=True)
class PartialLine:
    """A line of the sink that is not JSON: a write cut short (kept: the sink is never
    edited)."""

    number: int
    length: int


@dataclass(frozen=True)
class SinkContents:
    records: list[dict[str, Any]] = field(default_factory=list)
    partial: list[PartialLine] = field(default_factory=list)


def sink_scan(path: Path | None = None) -> SinkContents:
    """Every checkpoint in the sink, oldest first, and the partial lines between them (none
    when there is no sink yet). A line that is JSON but not a checkpoint raises ValueError
    naming its number: that is no write cut short."""
    path = path or sink_path()
    if path is None or not path.exists():
        return SinkContents()
    contents = SinkContents()
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            text = raw.decode("utf-8", errors="replace").strip()
            if not text:
                continue
            try:
                record = json.loads(text)
            except ValueError:
                contents.partial.append(PartialLine(number, len(raw.rstrip(b"\n"))))
                continue
            if not isinstance(record, dict) or "hash" not in record or "seq" not in record:
                raise ValueError(f"{path} line {number} is not a checkpoint (no seq and hash)")
            contents.records.append(record)
    return contents


def sink_read(path: Path | None = None) -> list[dict[str, Any]]:
    """Every checkpoint in the sink, oldest first (partial lines left out: ``sink_scan``)."""
    return sink_scan(path).records
