"""The audit chains' hashing: how an event is written down and hashed. Pure functions, shared by
the append (``audit.services``) and the verification (``audit.verification``).

There is one chain per table, one per cardroom for its events that belong to no table, and one
global chain for events of no cardroom (logins, refusals with no target): an append
locks only its own chain's head. The events written before chains were per table form the
``legacy`` chain, closed and hashed as they always were (``event_hash``); the events of every
other chain are hashed by ``chain_event_hash``, which also covers the chain's name and the
event's place in it, and each chain starts from its own genesis (``chain_genesis``)."""

from __future__ import annotations

import functools
import hashlib
import json
from datetime import UTC, datetime
from decimal import Decimal
from json.encoder import encode_basestring_ascii
from typing import Any

from django.apps import apps
from django.db import models

from core.money import money_text

GENESIS_HASH = "0" * 64

#: The single chain of the events written before chains were per table (format 1).
LEGACY = "legacy"
#: The chain of events that belong to no cardroom.
GLOBAL = "global"


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


def chain_genesis(chain: str) -> str:
    """The ``prev_hash`` of a chain's first event: bound to its name, so that one chain's
    events cannot pass as another's."""
    if chain == LEGACY:
        return GENESIS_HASH
    return hashlib.sha256(f"cardroom audit chain {chain}".encode()).hexdigest()


def chain_event_hash(
    *,
    chain: str,
    chain_seq: int,
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
    """Format 2: every chain but the legacy one. The canonical JSON of ``[chain, chain_seq,
    seq, occurred_at, actor_id, actor_name, action, object_type, object_id, payload,
    prev_hash]`` (``record_text``), hashed."""
    text = record_text(
        chain,
        chain_seq,
        seq,
        occurred_at.astimezone(UTC).isoformat(),
        actor_id,
        actor_name,
        action,
        object_type,
        object_id,
        payload,
        prev_hash,
    )
    return hashlib.sha256(text.encode()).hexdigest()


_quote = encode_basestring_ascii  # what json.dumps does to a string (ensure_ascii)


def record_text(
    chain: str,
    chain_seq: int,
    seq: int,
    when: str,
    actor_id: int | None,
    actor_name: str,
    action: str,
    object_type: str,
    object_id: str,
    payload: str,
    prev_hash: str,
) -> str:
    """``canonical_json`` of a format 2 record, written directly: the verification's hot path
    (several times faster than the encoder, the same text; tests/audit prove it)."""
    actor = "null" if actor_id is None else str(int(actor_id))
    return (
        f"[{_quote(chain)},{int(chain_seq)},{int(seq)},{_quote(when)},{actor},"
        f"{_quote(actor_name)},{_quote(action)},{_quote(object_type)},{_quote(object_id)},"
        f"{_quote(payload)},{_quote(prev_hash)}]"
    )


def legacy_record_text(
    seq: int,
    when: str,
    actor_id: int | None,
    actor_name: str,
    action: str,
    object_type: str,
    object_id: str,
    payload: str,
    prev_hash: str,
) -> str:
    """``canonical_json`` of a format 1 (legacy) record, written directly, as ``event_hash``
    hashes it."""
    actor = "null" if actor_id is None else str(int(actor_id))
    return (
        f"[{int(seq)},{_quote(when)},{actor},{_quote(actor_name)},{_quote(action)},"
        f"{_quote(object_type)},{_quote(object_id)},{_quote(payload)},{_quote(prev_hash)}]"
    )


def label_of(target: models.Model | type[models.Model]) -> str:
    """The name events give their target's kind: its model's label, or the label it had when
    the log began naming it (``audit_label``), should the model have moved app since: an
    event is never rewritten, so the name stays."""
    label = getattr(target, "audit_label", None)
    return label if isinstance(label, str) else target._meta.label_lower


@functools.cache
def model_of(label: str) -> type[models.Model]:
    """The model whose events name it ``label`` (``label_of``)."""
    for model in apps.get_models():
        if label_of(model) == label:
            return model
    return apps.get_model(label)


def chain_of(target: models.Model | None) -> str:
    """The chain an event about ``target`` goes on, read from the target's own fields (no
    query): its table's chain, else its cardroom's, else the global chain."""
    if target is None:
        return GLOBAL
    label = label_of(target)
    if label == "tables.table":
        return f"table:{target.pk}"
    if label == "tables.cardroom":
        return f"cardroom:{target.pk}"
    table_id = getattr(target, "table_id", None)
    if isinstance(table_id, int):
        return f"table:{table_id}"
    cardroom_id = getattr(target, "cardroom_id", None)
    if isinstance(cardroom_id, int):
        return f"cardroom:{cardroom_id}"
    return GLOBAL


def heads_hash(heads: list[list[Any]]) -> str:
    """The hash over every chain's head ``[chain, seq, hash]`` (sorted by chain) that a
    checkpoint records: a chain removed whole no longer matches it."""
    return hashlib.sha256(canonical_json(sorted(heads)).encode()).hexdigest()


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
