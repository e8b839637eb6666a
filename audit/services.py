"""The one way anything is written to the audit log (R17)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models, transaction
from django.utils import timezone

from .actions import AuditAction
from .chain import canonical_json, event_hash
from .models import AuditEvent, ChainHead, Checkpoint
from .verification import verify_chain

#: Who acted: a signed-in user, or nobody (a failed login, a refused anonymous request).
Actor = AbstractBaseUser | AnonymousUser | None


def audit_record(
    *,
    actor: Actor,
    action: AuditAction,
    target: models.Model | None = None,
    payload: dict[str, Any] | None = None,
) -> AuditEvent:
    """Append one event, inside the caller's transaction, after the caller's own locks.

    Locking the chain head serialises appends: each event's ``prev_hash`` is the hash of the
    event before it, so the chain cannot fork however many writers there are.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record runs inside the transaction of the change it records")
    head = _locked_head()
    user = actor if actor is not None and actor.is_authenticated else None
    event = AuditEvent(
        seq=head.seq + 1,
        occurred_at=timezone.now(),
        actor_id=user.pk if user else None,
        actor_name=user.get_username() if user else "",
        action=action,
        object_type=target._meta.label_lower if target is not None else "",
        object_id=str(target.pk) if target is not None else "",
        payload=canonical_json(payload or {}),
        prev_hash=head.hash,
    )
    event.hash = event_hash(
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
    event.save(force_insert=True)
    ChainHead.objects.filter(pk=1).update(seq=event.seq, hash=event.hash)
    return event


def _locked_head() -> ChainHead:
    """The chain head, locked. Rebuilt from the last event if its row is missing (a restore
    of the events alone), so that the chain carries on instead of starting again."""
    head = ChainHead.objects.select_for_update().filter(pk=1).first()
    if head is None:
        last = AuditEvent.objects.order_by("-seq").first()
        ChainHead.objects.get_or_create(
            pk=1, defaults={"seq": last.seq, "hash": last.hash} if last else {}
        )
        head = ChainHead.objects.select_for_update().get(pk=1)
    return head


@transaction.atomic
def audit_checkpoint_record() -> Checkpoint | None:
    """Verify the whole chain; if it holds, record its head as a checkpoint. A broken chain
    records nothing and is reported by the caller (the periodic task logs an error)."""
    report = verify_chain(checkpoints=Checkpoint.objects.values_list("seq", "hash").order_by("seq"))
    if not report.ok:
        return None
    return Checkpoint.objects.create(
        seq=report.head_seq, hash=report.head_hash, verified_at=timezone.now(), events=report.events
    )


def audit_refusal(
    *, actor: Actor, attempted: str, message: str, target: models.Model | None = None
) -> AuditEvent:
    """Record a refused permission. Called after the refused change rolled back, in a
    transaction of its own, so the refusal itself is kept."""
    with transaction.atomic():
        return audit_record(
            actor=actor,
            action=AuditAction.PERMISSION_REFUSED,
            target=target,
            payload={"attempted": attempted, "message": message},
        )
