"""Checkpoints signed with a key kept outside the database (issue 11), and their sink: a file
outside the database where every checkpoint is appended as one JSON line.

The key is ``AUDIT_CHECKPOINT_KEY`` (HMAC-SHA256; several keys separated by commas while one is
being rotated: the first signs, every one verifies). Someone who can write the database but
not read the key cannot make a checkpoint that verifies, so a tail cut off after the last
checkpoint, with the checkpoints rewritten to match, is still found against the sink."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
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


def sink_path() -> Path | None:
    value = settings.AUDIT_CHECKPOINT_SINK
    return Path(value) if value else None


def sink_append(record: dict[str, Any]) -> None:
    """Append one checkpoint to the sink and make it durable before returning."""
    path = sink_path()
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n"
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(descriptor, line.encode())
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def sink_read(path: Path | None = None) -> list[dict[str, Any]]:
    """Every checkpoint in the sink, oldest first ([] when there is none yet). A line that is
    not a checkpoint raises ValueError naming its number."""
    path = path or sink_path()
    if path is None or not path.exists():
        return []
    records = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            if not isinstance(record, dict) or "hash" not in record or "seq" not in record:
                raise ValueError("no seq and hash")
        except ValueError as error:
            raise ValueError(f"{path} line {number} is not a checkpoint ({error})") from None
        records.append(record)
    return records
