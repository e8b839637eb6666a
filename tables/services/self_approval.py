"""R17's self-approval switch of a cardroom: a change of its own, which a second administrator
decides."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError, PermissionDenied
from core.permissions import require_role
from core.roles import ADMINISTRATOR

from .. import selectors
from ..lineage import require_independent
from ..models import (
    Cardroom,
    SelfApprovalChange,
    SelfApprovalDecision,
)
from ..signatures import SignatureInput, signature_record, signature_verify, signing


@transaction.atomic
def self_approval_change_propose(
    *, cardroom: Cardroom, allowed: bool, reason: str, by: User
) -> SelfApprovalChange:
    """R17 dual control of dual control: an administrator proposes switching a cardroom's
    self-approval on or off, with a reason; another administrator decides. One pending
    change per cardroom at a time."""
    require_role(by, ADMINISTRATOR, action="propose a change to a cardroom's self-approval")
    if not reason or not reason.strip():
        raise DomainError("Say why self-approval should change.", field="reason")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    if cardroom.self_approval_allowed == allowed:
        state = "on" if allowed else "off"
        raise DomainError(f"Self-approval is {state} already in {cardroom}.", field="allowed")
    if selectors.self_approval_pending(cardroom).exists():
        raise Conflict(
            f"{cardroom} has a self-approval change waiting for a decision.", field="cardroom"
        )
    change = SelfApprovalChange.objects.create(
        cardroom=cardroom,
        allowed=allowed,
        reason=reason.strip(),
        proposed_by=by,
        proposed_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.SELF_APPROVAL_CHANGE_PROPOSED,
        target=change,
        payload={"cardroom": cardroom.pk, "allowed": allowed, "reason": change.reason},
    )
    return change


@signing
@transaction.atomic
def self_approval_change_decide(
    *,
    change: SelfApprovalChange,
    approve: bool,
    by: User,
    reason: str = "",
    signature: SignatureInput | None = None,
) -> SelfApprovalDecision:
    """A second administrator, off the proposer's maker's line, approves and signs, and the
    cardroom's switch changes; or an administrator rejects it (the proposer: withdraws)."""
    require_role(by, ADMINISTRATOR, action="decide a change to a cardroom's self-approval")
    cardroom = Cardroom.objects.select_for_update().get(pk=change.cardroom_id)
    change = SelfApprovalChange.objects.select_related("decision").get(pk=change.pk)
    if hasattr(change, "decision"):
        raise Conflict("This change was decided already.", field="status")
    if approve and change.proposed_by_id == by.pk:
        raise PermissionDenied(
            "A change to self-approval needs a second administrator: not its proposer."
        )
    signed = None
    if approve:
        require_independent(
            approver=by, proposer=change.proposed_by, what="A change to self-approval"
        )
        signed = signature_verify(
            signature, capacity="approver", roles=(ADMINISTRATOR,), field="signature", signer=by
        )
    decision = SelfApprovalDecision.objects.create(
        change=change, approved=approve, reason=reason.strip(), decided_by=by,
        decided_at=timezone.now(),
    )  # fmt: skip
    if signed is not None:
        cardroom.self_approval_allowed = change.allowed
        cardroom.save(update_fields=["self_approval_allowed"])
        signature_record(change, signed)
    audit_record(
        actor=by,
        action=AuditAction.SELF_APPROVAL_CHANGE_APPROVED
        if approve
        else AuditAction.SELF_APPROVAL_CHANGE_REJECTED,
        target=change,
        payload={
            "cardroom": cardroom.pk,
            "allowed": change.allowed,
            "proposed_by": change.proposed_by_id,
            "reason": decision.reason,
        },
    )
    return decision
