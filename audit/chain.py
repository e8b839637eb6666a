"""The audit chain's hashing: how an event is written down and hashed. Pure functions, shared by
the append (``audit.services``) and the verification (``audit.verification``)."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from django.db import models

from cardroom.kernel.money import money_text

GENESIS_HASH = "0" * 64


def canonical_json(value: Any) -> str:
    """Sorted keys, no spaces, money as two-decimal strings, times as ISO 8601 UTC."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=_jsonable)


def event_hash(
    *,
    seq: int,
    occurred_at: datetime,
    actor_id: int | None,
    actor_name: str,
    action: str,
    object_type: str,
    object_id: str,
    payload: str,
    prev_hash: str,
) -> str:
    record = [
        seq,
        occurred_at.astimezone(UTC).isoformat(),
        actor_id,
        actor_name,
        action,
        object_type,
        object_id,
        payload,
        prev_hash,
    ]
    return hashlib.sha256(canonical_json(record).encode()).hexdigest()


def _jsonable(value: Any) -> Any:
    if isinstance(value, Decimal):
        return money_text(value)
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, models.Model):
        return value.pk
    if hasattr(value, "isoformat"):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable in an audit payload")
