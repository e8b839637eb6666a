"""One two-person change (design.md 7): a proposal, and an append-only decision by a second
person who signs it. Each kind says who may propose and approve it and what an approval does;
this module holds what every kind shares — the locks, the maker's line, the signature, the
audit events and the messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.db import lock_until_commit
from core.errors import Conflict, DomainError, PermissionDenied
from core.permissions import require_role

from .lineage import require_independent
from .signatures import SignatureInput, signature_record, signature_verify, signing
from .staff_models import TwoPersonChange, TwoPersonDecision


@dataclass(frozen=True)
class ChangeKind:
    """What a kind of change is: its words, who proposes and approves it, and what its
    approval does (inside the approving transaction; it answers what it made, if anything)."""

    what: str  # "A staff account", as the messages say it
    proposers: tuple[str, ...]
    approvers: tuple[str, ...]
    apply: Callable[[TwoPersonChange, User], User | None]


KINDS: dict[str, ChangeKind] = {}


def register(kind: str, spec: ChangeKind) -> None:
    KINDS[kind] = spec


def _spec(change: TwoPersonChange) -> ChangeKind:
    return KINDS[change.kind]


@transaction.atomic
def change_propose(
    *,
    kind: str,
    values: dict[str, Any],
    reason: str,
    by: User,
    subject: User | None = None,
) -> TwoPersonChange:
    """A proposal, checked by its kind's module before it comes here."""
    spec = KINDS[kind]
    require_role(by, *spec.proposers, action=f"propose: {spec.what.lower()}")
    if not reason.strip():
        raise DomainError("Say why.", field="reason")
    change = TwoPersonChange.objects.create(
        kind=kind,
        subject=subject,
        values=values,
        reason=reason.strip(),
        proposed_by=by,
        proposed_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.TWO_PERSON_CHANGE_PROPOSED,
        target=change,
        payload={"kind": kind, "subject": subject.pk if subject else None, **values},
    )
    return change


def _locked_pending(change: TwoPersonChange) -> TwoPersonChange:
    # A change is append-only (no row lock for the runtime role): its decisions queue on a
    # lock of their own, so that it is decided once.
    lock_until_commit("tables.twopersonchange", change.pk)
    change = TwoPersonChange.objects.get(pk=change.pk)
    if TwoPersonDecision.objects.filter(change=change).exists():
        decision = TwoPersonDecision.objects.get(change=change)
        raise Conflict(f"This change was {decision.outcome} already.", field="status")
    return change


@signing
@transaction.atomic
def change_approve(
    *, change: TwoPersonChange, signature: SignatureInput | None, by: User
) -> TwoPersonDecision:
    """A second person approves, signing as themselves; the change applies at once."""
    change = _locked_pending(change)
    spec = _spec(change)
    require_role(by, *spec.approvers, action=f"approve: {spec.what.lower()}")
    require_independent(approver=by, proposer=change.proposed_by, what=spec.what)
    signed = signature_verify(
        signature, capacity="approver", roles=spec.approvers, field="signature", signer=by
    )
    result = spec.apply(change, by)
    decision = TwoPersonDecision.objects.create(
        change=change,
        outcome=TwoPersonDecision.Outcome.APPROVED,
        decided_by=by,
        decided_at=timezone.now(),
        result=result,
    )
    signature_record(change, signed)
    audit_record(
        actor=by,
        action=AuditAction.TWO_PERSON_CHANGE_APPROVED,
        target=change,
        payload={
            "kind": change.kind,
            "proposed_by": change.proposed_by_id,
            "result": result.pk if result else None,
            "signed_with": signed.method,
            **change.values,
        },
    )
    return decision


@transaction.atomic
def change_reject(*, change: TwoPersonChange, reason: str, by: User) -> TwoPersonDecision:
    """Another approver turns the change down, with a reason."""
    change = _locked_pending(change)
    spec = _spec(change)
    require_role(by, *spec.approvers, action=f"reject: {spec.what.lower()}")
    if by.pk == change.proposed_by_id:
        raise PermissionDenied("Withdraw your own proposal instead of rejecting it.")
    if not reason.strip():
        raise DomainError("Say why the change is rejected.", field="reason")
    return _decide(change, TwoPersonDecision.Outcome.REJECTED, by, reason.strip())


@transaction.atomic
def change_withdraw(*, change: TwoPersonChange, by: User) -> TwoPersonDecision:
    """Its proposer takes the change back."""
    change = _locked_pending(change)
    if by.pk != change.proposed_by_id:
        raise PermissionDenied("Only the person who proposed a change may withdraw it.")
    return _decide(change, TwoPersonDecision.Outcome.WITHDRAWN, by, "")


def _decide(change: TwoPersonChange, outcome: str, by: User, reason: str) -> TwoPersonDecision:
    decision = TwoPersonDecision.objects.create(
        change=change, outcome=outcome, decided_by=by, decided_at=timezone.now(), reason=reason
    )
    action = {
        TwoPersonDecision.Outcome.REJECTED: AuditAction.TWO_PERSON_CHANGE_REJECTED,
        TwoPersonDecision.Outcome.WITHDRAWN: AuditAction.TWO_PERSON_CHANGE_WITHDRAWN,
    }[TwoPersonDecision.Outcome(outcome)]
    audit_record(
        actor=by,
        action=action,
        target=change,
        payload={"kind": change.kind, "reason": reason},
    )
    return decision
