"""The one way anything is written to the audit log (R17), and its checkpoints."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import DatabaseError, IntegrityError, models, transaction
from django.utils import timezone

from core import floor_push

from . import signing
from .actions import AuditAction
from .appends import append_at_head
from .chain import (
    LEGACY,
    canonical_json,
    chain_of,
    heads_hash,
    label_of,
)
from .databases import label
from .models import (
    AuditEvent,
    ChainHead,
    Checkpoint,
    CheckpointProblem,
    RefusalTally,
    SinkWrite,
)
from .sweep import sweep_found_broken
from .verification import verify_chains

logger = logging.getLogger(__name__)

#: Who acted: a signed-in user, or nobody (a failed login, a refused anonymous request).
Actor = AbstractBaseUser | AnonymousUser | None


def audit_record(
    *,
    actor: Actor,
    action: AuditAction,
    target: models.Model | None = None,
    payload: dict[str, Any] | None = None,
    chain: str | None = None,
) -> AuditEvent:
    """Append one event, inside the caller's transaction, after the caller's own locks.

    The event goes on its table's chain (``audit.chain.chain_of``; else its cardroom's, else
    the global one; ``chain`` names another). Locking that chain's head serialises the appends
    to it, and only to it: each event's ``prev_hash`` is the hash of the event before it in its
    chain, so no chain can fork however many writers there are, and tables never wait on each
    other. The event's number across chains comes from a sequence, without a lock.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record runs inside the transaction of the change it records")
    key = chain or chain_of(target)
    if key == LEGACY:
        raise ValueError("the legacy chain is closed")
    user = actor if actor is not None and actor.is_authenticated else None
    event = AuditEvent(
        chain=key,
        occurred_at=timezone.now(),
        actor_id=user.pk if user else None,
        actor_name=user.get_username() if user else "",
        action=action,
        object_type=label_of(target) if target is not None else "",
        object_id=str(target.pk) if target is not None else "",
        payload=canonical_json(payload or {}),
    )
    append_at_head(event)
    # The floor's open screens hear of it once the change commits (never before, never in it).
    floor_push.chain_changed(key)
    return event


def chain_heads() -> list[list[Any]]:
    """Every chain's head ``[chain, seq, hash]``, sorted by chain, read in one statement (one
    snapshot: every event up to each head is committed)."""
    return [
        list(row) for row in ChainHead.objects.order_by("chain").values_list("chain", "seq", "hash")
    ]


@transaction.atomic
def audit_checkpoint_record(*, full: bool = False) -> Checkpoint | None:
    """Verify every chain up to its head (from the last checkpoint on, or all of it with
    ``full``); if they hold, record their heads as a checkpoint signed with the key kept outside
    the database, and append it to the sink once committed. A broken chain records nothing and
    is reported by the caller (the periodic task logs an error; a day close refuses). A bad
    checkpoint is skipped, not a block: it is recorded as an alarm (``audit.alarms``)."""
    report = verify_chains(full=full, workers=1)
    if not report.chains_ok:
        return None
    # Nor over a chain the rolling re-hash (audit.sweep) found broken behind the last checkpoint,
    # which the verification since that checkpoint does not read.
    if sweep_found_broken():
        return None
    checkpoint_problems_record(report.checkpoint_problems)
    heads = [[h.chain, h.seq, h.hash] for h in report.heads]
    text = canonical_json(sorted(heads))
    verified_at = timezone.now()
    digest = heads_hash(heads)
    seq = report.max_seq
    signature, key = signing.sign(
        signing.message(seq=seq, hash=digest, verified_at=verified_at, events=report.events)
    )
    checkpoint = Checkpoint.objects.create(
        seq=seq,
        hash=digest,
        verified_at=verified_at,
        events=report.events,
        heads=text,
        signature=signature,
        key_id=key,
    )
    record = checkpoint_record(checkpoint)
    transaction.on_commit(lambda: checkpoint_sink_write(checkpoint.pk, record), robust=True)
    return checkpoint


def checkpoint_sink_write(checkpoint_id: int, record: dict[str, Any]) -> None:
    """Once the checkpoint is committed: its line appended to the sink, and what became of it
    recorded (``SinkWrite``: a failure is an alarm until a later line is written). Never
    raises: the checkpoint stands in the database either way."""
    if signing.sink_path() is None:
        return
    error = ""
    try:
        signing.sink_append(record)
    except OSError as failure:
        error = str(failure)
        logger.error("Audit checkpoint #%s is not in the sink: %s", record.get("seq"), error)
    try:
        with transaction.atomic():
            SinkWrite.objects.create(
                checkpoint_id=checkpoint_id, written=not error, error=error, at=timezone.now()
            )
    except DatabaseError:
        logger.exception("What became of checkpoint #%s's sink line is not recorded", record)


def checkpoint_problems_record(problems: Iterable[str]) -> list[CheckpointProblem]:
    """Each problem with the checkpoints a verification found, recorded the first time it is
    found (an audit event with it), inside the caller's transaction: the new ones."""
    found = []
    for text in problems:
        fingerprint = CheckpointProblem.fingerprint_of(text)
        if CheckpointProblem.objects.filter(fingerprint=fingerprint).exists():
            continue
        try:
            with transaction.atomic():
                problem = CheckpointProblem.objects.create(
                    fingerprint=fingerprint, text=text, found_at=timezone.now()
                )
        except IntegrityError:  # recorded by a verification running at the same moment
            continue
        audit_record(
            actor=None,
            action=AuditAction.CHECKPOINT_PROBLEM_FOUND,
            target=problem,
            payload={"problem": text},
        )
        logger.error("Audit checkpoint problem: %s", text)
        found.append(problem)
    return found


def checkpoint_record(checkpoint: Checkpoint) -> dict[str, Any]:
    """A checkpoint as the sink and ``export_checkpoints`` write it (one JSON line), naming
    the database it was taken of (``audit.databases``: a sink outlives its database)."""
    return {
        "seq": checkpoint.seq,
        "hash": checkpoint.hash,
        "verified_at": checkpoint.verified_at.isoformat(),
        "events": checkpoint.events,
        "heads": checkpoint.heads,
        "signature": checkpoint.signature,
        "key_id": checkpoint.key_id,
    } | label(checkpoint.signature)


#: An account's refusals are written to the log at most this often; the event carries how
#: many it stands for (a client looping on a refused call would otherwise fill the log).
REFUSALS_EVERY = timedelta(minutes=1)


def audit_refusal(
    *, actor: Actor, attempted: str, message: str, target: models.Model | None = None
) -> AuditEvent | None:
    """Record a refused permission. Called after the refused change rolled back, in a
    transaction of its own, so the refusal itself is kept. At most one event per account and
    minute: the first refusal after a quiet minute is written, with ``count``, itself and the
    refusals of the account since its previous event; the ones between are tallied (and
    written by ``audit_refusals_flush`` once their minute is over). None when tallied."""
    user = actor if actor is not None and actor.is_authenticated else None
    now = timezone.now()
    with transaction.atomic():
        tally = _locked_tally(user)
        if tally.recorded_at is not None and now - tally.recorded_at < REFUSALS_EVERY:
            tally.unrecorded += 1
            tally.last_attempted, tally.last_message = attempted, message
            tally.save(update_fields=["unrecorded", "last_attempted", "last_message"])
            return None
        event = audit_record(
            actor=user,
            action=AuditAction.PERMISSION_REFUSED,
            target=target,
            payload={"attempted": attempted, "message": message, "count": tally.unrecorded + 1},
        )
        tally.recorded_at, tally.unrecorded = now, 0
        tally.save(update_fields=["recorded_at", "unrecorded"])
        return event


def audit_refusals_flush() -> int:
    """Periodic (beat): the refusals tallied in a minute that is over, written as one event
    per account with their count, so that a burst that stopped is in the log within a
    minute or two. How many events were written."""
    written = 0
    cutoff = timezone.now() - REFUSALS_EVERY
    for key in RefusalTally.objects.filter(unrecorded__gt=0, recorded_at__lt=cutoff).values_list(
        "key", flat=True
    ):
        with transaction.atomic():
            tally = (
                RefusalTally.objects.select_for_update(of=("self",))
                .select_related("actor")
                .get(key=key)
            )
            if not tally.unrecorded or tally.recorded_at is None or tally.recorded_at >= cutoff:
                continue  # written meanwhile by a new refusal
            audit_record(
                actor=tally.actor,
                action=AuditAction.PERMISSION_REFUSED,
                payload={
                    "attempted": tally.last_attempted,
                    "message": tally.last_message,
                    "count": tally.unrecorded,
                },
            )
            tally.recorded_at, tally.unrecorded = timezone.now(), 0
            tally.save(update_fields=["recorded_at", "unrecorded"])
            written += 1
    return written


def _locked_tally(user: AbstractBaseUser | None) -> RefusalTally:
    key = f"user:{user.pk}" if user is not None else "anonymous"
    found = RefusalTally.objects.select_for_update().filter(key=key).first()
    if found is None:
        # Two first refusals at once: one inserts, the other waits for it and inserts nothing.
        RefusalTally.objects.bulk_create(
            [RefusalTally(key=key, actor_id=user.pk if user else None)], ignore_conflicts=True
        )
        found = RefusalTally.objects.select_for_update().get(key=key)
    return found
