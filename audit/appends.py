"""An event written onto its chain's head: on PostgreSQL in one statement that locks the head,
numbers the event, hashes it and moves the head (one round trip on every write of the room);
elsewhere, and for a chain's first event, the head is locked first and the event written after
it (two or more)."""

from __future__ import annotations

from datetime import UTC

from django.db import connection

from .chain import _quote, chain_event_hash, chain_genesis
from .models import AuditEvent, ChainHead

# The event's fields set by the statement itself; the rest come from the caller.
_PLACED = ("seq", "chain_seq", "prev_hash", "hash")


def append_at_head(event: AuditEvent) -> None:
    """Number, hash and insert ``event`` (``chain``, ``occurred_at``, the actor, action, target
    and payload set) at the head of its chain, inside the caller's transaction."""
    if connection.vendor == "postgresql" and _append_in_one(event):
        return
    head, seq = _locked_head(event.chain)
    event.seq, event.chain_seq, event.prev_hash = seq, head.seq + 1, head.hash
    event.hash = _hash(event)
    _append(event, head)


def _hash(event: AuditEvent) -> str:
    assert event.chain_seq is not None  # every chain's event has its place (the legacy: none)
    return chain_event_hash(
        chain=event.chain,
        chain_seq=event.chain_seq,
        seq=event.seq,
        occurred_at=event.occurred_at,
        actor_id=event.actor_id,
        actor_name=event.actor_name,
        action=event.action,
        object_type=event.object_type,
        object_id=event.object_id,
        payload=event.payload,
        prev_hash=event.prev_hash,
    )


def _append_in_one(event: AuditEvent) -> bool:
    """The head locked, the event numbered (its place in the chain, and the next number across
    chains), hashed by PostgreSQL over the same text ``chain.record_text`` writes (every part
    but the two numbers and the previous hash is written here; those are digits and hex, which
    JSON writes as they are), inserted, and the head moved to it: one statement. False, and
    nothing done, when the chain has no head row yet. The hash is checked against Python's
    before the event is taken: a difference raises, and the caller's transaction rolls back."""
    fields = [f for f in AuditEvent._meta.concrete_fields if f.attname not in ("id", *_PLACED)]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    values = [f.get_db_prep_save(getattr(event, f.attname), connection) for f in fields]
    actor = "null" if event.actor_id is None else str(int(event.actor_id))
    when = event.occurred_at.astimezone(UTC).isoformat()
    before = f"[{_quote(event.chain)},"
    after = (
        f",{_quote(when)},{actor},{_quote(event.actor_name)},{_quote(event.action)},"
        f'{_quote(event.object_type)},{_quote(event.object_id)},{_quote(event.payload)},"'
    )
    heads, events = ChainHead._meta.db_table, AuditEvent._meta.db_table
    placeholders = ", ".join(["%s"] * len(fields))
    with connection.cursor() as cursor:
        cursor.execute(
            "WITH head AS ("
            f"SELECT id, seq + 1 AS place, hash AS prev, nextval('audit_event_seq') AS number "
            f"FROM {heads} WHERE chain = %s FOR UPDATE), "
            f"event AS (INSERT INTO {events} ({columns}, seq, chain_seq, prev_hash, hash) "
            f"SELECT {placeholders}, number, place, prev, "
            "encode(sha256(convert_to("
            "%s || place::text || ',' || number::text || %s || prev || '\"]', 'UTF8')), 'hex') "
            "FROM head RETURNING id, seq, chain_seq, prev_hash, hash), "
            f"moved AS (UPDATE {heads} SET seq = event.chain_seq, hash = event.hash "
            f"FROM event, head WHERE {heads}.id = head.id RETURNING {heads}.id) "
            "SELECT event.id, event.seq, event.chain_seq, event.prev_hash, event.hash "
            "FROM event, moved",
            [event.chain, *values, before, after],
        )
        row = cursor.fetchone()
    if row is None:
        return False
    event.pk, event.seq, event.chain_seq, event.prev_hash, event.hash = row
    if event.hash != _hash(event):
        raise RuntimeError(f"chain {event.chain}: PostgreSQL hashed event {event.seq} otherwise")
    event._state.adding = False
    event._state.db = connection.alias
    return True


def _append(event: AuditEvent, head: ChainHead) -> None:
    """Insert the event and move its chain's head to it. On PostgreSQL in one statement (a
    data-modifying CTE); SQLite has no such statement, so two there."""
    if connection.vendor != "postgresql":
        event.save(force_insert=True)
        ChainHead.objects.filter(pk=head.pk).update(seq=event.chain_seq, hash=event.hash)
        return
    fields = [f for f in AuditEvent._meta.concrete_fields if not f.primary_key]
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    values = [f.get_db_prep_save(getattr(event, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH event AS (INSERT INTO {AuditEvent._meta.db_table} ({columns}) "
            f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING id) "
            f"UPDATE {ChainHead._meta.db_table} SET seq = %s, hash = %s WHERE id = %s "
            "RETURNING (SELECT id FROM event)",
            [*values, event.chain_seq, event.hash, head.pk],
        )
        row = cursor.fetchone()
    if row is None:  # the head row is locked by this transaction: it cannot have gone
        raise RuntimeError(f"the head of chain {event.chain} vanished")
    event.pk = row[0]
    event._state.adding = False
    event._state.db = connection.alias


def _head_sql() -> str:
    """The chain's head, locked, with the next event number: one fixed statement."""
    heads, events = ChainHead._meta.db_table, AuditEvent._meta.db_table
    if connection.vendor == "postgresql":
        return (
            f"SELECT id, chain, seq, hash, nextval('audit_event_seq') FROM {heads} "
            "WHERE chain = %s FOR UPDATE"
        )
    # SQLite serialises writers (no row locks): the highest number plus one is free.
    return (
        f"SELECT id, chain, seq, hash, (SELECT COALESCE(MAX(seq), 0) + 1 FROM {events}) "
        f"FROM {heads} WHERE chain = %s"
    )


def _locked_head(key: str) -> tuple[ChainHead, int]:
    """The chain's head, locked, with the next event number, in one query. A chain's head row
    is made by its first event, or rebuilt from its last event if missing (a restore of the
    events alone), so that the chain carries on instead of starting again."""
    found = _read_head(key)
    if found is None:
        last = AuditEvent.objects.filter(chain=key).order_by("-chain_seq").first()
        start = (last.chain_seq or 0, last.hash) if last else (0, chain_genesis(key))
        # Two first appends at once: one inserts, the other waits for it, then inserts nothing.
        ChainHead.objects.bulk_create(
            [ChainHead(chain=key, seq=start[0], hash=start[1])], ignore_conflicts=True
        )
        found = _read_head(key)
        assert found is not None
    return found


def _read_head(key: str) -> tuple[ChainHead, int] | None:
    with connection.cursor() as cursor:
        cursor.execute(_head_sql(), [key])
        row = cursor.fetchone()
    if row is None:
        return None
    head = ChainHead.from_db(connection.alias, ["id", "chain", "seq", "hash"], row[:4])
    return head, int(row[4])
