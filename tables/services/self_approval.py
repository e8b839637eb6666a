"""R17's self-approval switch of a cardroom, one kind of two-person change
(``tables.two_person``): dual control of dual control. An administrator proposes switching it
on or off, with a reason; a second administrator, off the proposer's maker's line, approves and
signs, and the switch changes; an administrator rejects it, or its proposer withdraws it. One
change per cardroom waits at a time.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from core.errors import Conflict, DomainError
from core.roles import ADMINISTRATOR
from patrons.models import Cardroom

from .. import selectors, two_person
from ..signatures import SignatureInput, Signed
from ..staff_models import SelfApprovalChange, TwoPersonChange, TwoPersonDecision

KIND = TwoPersonChange.Kind.SELF_APPROVAL


@transaction.atomic
def self_approval_change_propose(
    *, cardroom: Cardroom, allowed: bool, reason: str, by: User
) -> SelfApprovalChange:
    """An administrator proposes switching a cardroom's self-approval on or off."""
    two_person.require_proposer(KIND, by, reason)
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    if cardroom.self_approval_allowed == allowed:
        state = "on" if allowed else "off"
        raise DomainError(f"Self-approval is {state} already in {cardroom}.", field="allowed")
    if selectors.self_approval_pending(cardroom).exists():
        raise Conflict(
            f"{cardroom} has a self-approval change waiting for a decision.", field="cardroom"
        )
    change = two_person.change_propose(
        kind=KIND,
        values={"cardroom": cardroom.pk, "allowed": allowed},
        reason=reason,
        by=by,
        cardroom_id=cardroom.pk,
    )
    assert isinstance(change, SelfApprovalChange)
    return change


def self_approval_change_decide(
    *,
    change: SelfApprovalChange,
    approve: bool,
    by: User,
    reason: str = "",
    signature: SignatureInput | None = None,
) -> TwoPersonDecision:
    """A second administrator approves and signs, and the cardroom's switch changes; or an
    administrator (the proposer too) rejects it."""
    if approve:
        return two_person.change_approve(change=change, signature=signature, by=by, reason=reason)
    return two_person.change_reject(change=change, reason=reason, by=by)


def self_approval_change_withdraw(*, change: SelfApprovalChange, by: User) -> TwoPersonDecision:
    """Its proposer takes the change back."""
    return two_person.change_withdraw(change=change, by=by)


# --- the kind --------------------------------------------------------------------------------


def _lock(change: TwoPersonChange) -> None:
    Cardroom.objects.select_for_update().get(pk=two_person.cardroom_id(change))


def _apply(change: TwoPersonChange, approver: User) -> dict[str, Any]:
    cardroom = Cardroom.objects.get(pk=two_person.cardroom_id(change))
    cardroom.self_approval_allowed = bool(change.values["allowed"])
    cardroom.save(update_fields=["self_approval_allowed"])
    return {}


def _payload(
    change: TwoPersonChange, decision: TwoPersonDecision | None, signed: Signed | None
) -> dict[str, Any]:
    said = {"cardroom": change.cardroom_id, "allowed": change.values["allowed"]}
    if decision is None:
        return said | {"reason": change.reason}
    return said | {"proposed_by": change.proposed_by_id, "reason": decision.reason}


two_person.register(
    KIND,
    two_person.ChangeKind(
        "A change to self-approval",
        (ADMINISTRATOR,),
        (ADMINISTRATOR,),
        _apply,
        model=SelfApprovalChange,
        called="a change to a cardroom's self-approval",
        why="Say why self-approval should change.",
        lock=_lock,
        own_approval_refused=(
            "A change to self-approval needs a second administrator: not its proposer."
        ),
        proposer_rejects=True,
        reject_needs_reason=False,
        proposer_called="administrator",
        actions={
            "proposed": AuditAction.SELF_APPROVAL_CHANGE_PROPOSED,
            TwoPersonDecision.Outcome.APPROVED: AuditAction.SELF_APPROVAL_CHANGE_APPROVED,
            TwoPersonDecision.Outcome.REJECTED: AuditAction.SELF_APPROVAL_CHANGE_REJECTED,
            TwoPersonDecision.Outcome.WITHDRAWN: AuditAction.SELF_APPROVAL_CHANGE_WITHDRAWN,
        },
        payload=_payload,
    ),
)
