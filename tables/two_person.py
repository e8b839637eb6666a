"""One two-person change (design.md 7): a proposal, and an append-only decision by a second
person who signs it. Each kind says who may propose and approve it, what an approval does,
whether its proposer may approve it where the cardroom allows self-approval (R17), and its
audit events; this module holds what every kind shares — the locks, the maker's line, the
signature, the decision and the messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
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
from .signatures import SignatureInput, Signed, signature_record, signature_verify, signing
from .staff_models import TwoPersonChange, TwoPersonDecision

#: What an approval made: the account it created or changed, or what to keep in its
#: decision's ``values`` (a settings change: the version it made).
Applied = User | dict[str, Any] | None
#: The audit payload of a kind's event: the change, its decision (None: the proposal) and
#: the approver's signature (None unless approved).
Payload = Callable[[TwoPersonChange, TwoPersonDecision | None, Signed | None], dict[str, Any]]

_GENERIC_ACTIONS = {
    "proposed": AuditAction.TWO_PERSON_CHANGE_PROPOSED,
    TwoPersonDecision.Outcome.APPROVED: AuditAction.TWO_PERSON_CHANGE_APPROVED,
    TwoPersonDecision.Outcome.REJECTED: AuditAction.TWO_PERSON_CHANGE_REJECTED,
    TwoPersonDecision.Outcome.WITHDRAWN: AuditAction.TWO_PERSON_CHANGE_WITHDRAWN,
}


def generic_payload(
    change: TwoPersonChange, decision: TwoPersonDecision | None, signed: Signed | None
) -> dict[str, Any]:
    """A staff change's events: its kind and values, and what the decision made."""
    if decision is None:
        subject = change.subject_id
        return {"kind": change.kind, "subject": subject, **change.values}
    if not decision.approved:
        return {"kind": change.kind, "reason": decision.reason}
    return {
        "kind": change.kind,
        "proposed_by": change.proposed_by_id,
        "result": decision.result_id,
        "signed_with": signed.method if signed else None,
        **change.values,
    }


@dataclass(frozen=True)
class ChangeKind:
    """What a kind of change is: its words, who proposes and approves it, and what its
    approval does (inside the approving transaction, after the signature)."""

    what: str  # "A staff account", as the messages say it
    proposers: tuple[str, ...]
    approvers: tuple[str, ...]
    apply: Callable[[TwoPersonChange, User], Applied]
    #: The model its changes are read as (a proxy of ``TwoPersonChange``).
    model: type[TwoPersonChange] = TwoPersonChange
    #: What the role checks say is refused: "approve a change to a table's settings".
    called: str = ""
    #: Said when a proposal has no reason.
    why: str = "Say why."
    #: The rows every decision locks first (a table, a cardroom), before the change's own.
    lock: Callable[[TwoPersonChange], None] | None = None
    #: Whether its proposer may approve it now (R17's self-approval), and the refusal when not;
    #: None: never, and the maker's line says why.
    self_approval: Callable[[TwoPersonChange], bool] | None = None
    own_approval_refused: str = ""
    #: Whether its proposer may reject it too (not only withdraw it), and whether a rejection
    #: needs a reason.
    proposer_rejects: bool = False
    reject_needs_reason: bool = True
    #: Who proposes it, as the refusal of someone else's withdrawal says it.
    proposer_called: str = "person"
    #: Whether a withdrawal checks its proposer's role still (the floor's changes do).
    withdraw_checks_role: bool = False
    #: Its audit events, by "proposed" and by outcome, and their payloads.
    actions: dict[str, AuditAction] = field(default_factory=lambda: dict(_GENERIC_ACTIONS))
    payload: Payload = generic_payload

    def doing(self, verb: str) -> str:
        return f"{verb} {self.called}" if self.called else f"{verb}: {self.what.lower()}"


KINDS: dict[str, ChangeKind] = {}


def cardroom_id(change: TwoPersonChange) -> int:
    """The cardroom a change of a cardroom's kind is in (every kind but the staff's)."""
    assert change.cardroom_id is not None, f"{change} is of no cardroom"
    return change.cardroom_id


def table_id(change: TwoPersonChange) -> int:
    """The table a change of a table's settings is of."""
    assert change.table_id is not None, f"{change} is of no table"
    return change.table_id


def register(kind: str, spec: ChangeKind) -> None:
    KINDS[kind] = spec


def _spec(change: TwoPersonChange) -> ChangeKind:
    return KINDS[change.kind]


def require_role_to(kind: str, verb: str, by: User) -> None:
    """``by`` holds a role that may ``verb`` ("propose", "approve") a change of ``kind``."""
    spec = KINDS[kind]
    roles = spec.proposers if verb in ("propose", "withdraw") else spec.approvers
    require_role(by, *roles, action=spec.doing(verb))


def require_proposer(kind: str, by: User, reason: str) -> None:
    """The checks every proposal of ``kind`` meets first: its proposer's role, a reason."""
    spec = KINDS[kind]
    require_role_to(kind, "propose", by)
    if not reason or not reason.strip():
        raise DomainError(spec.why, field="reason")


@transaction.atomic
def change_propose(
    *,
    kind: str,
    values: dict[str, Any],
    reason: str,
    by: User,
    subject: User | None = None,
    cardroom_id: int | None = None,
    table_id: int | None = None,
) -> TwoPersonChange:
    """A proposal, checked by its kind's module before it comes here."""
    spec = KINDS[kind]
    require_proposer(kind, by, reason)
    change = spec.model.objects.create(
        kind=kind,
        subject=subject,
        cardroom_id=cardroom_id,
        table_id=table_id,
        values=values,
        reason=reason.strip(),
        proposed_by=by,
        proposed_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=spec.actions["proposed"],
        target=change,
        payload=spec.payload(change, None, None),
    )
    return change


def _locked_pending(change: TwoPersonChange) -> TwoPersonChange:
    spec = _spec(change)
    if spec.lock is not None:
        spec.lock(change)
    # A change is append-only (no row lock for the runtime role): its decisions queue on a
    # lock of their own, so that it is decided once.
    lock_until_commit("tables.twopersonchange", change.pk)
    change = spec.model.objects.get(pk=change.pk)
    decision = TwoPersonDecision.objects.filter(change=change).first()
    if decision is not None:
        raise Conflict(f"This change was {decision.outcome} already.", field="status")
    return change


def _approver_check(spec: ChangeKind, change: TwoPersonChange, by: User) -> bool:
    """Whether the approval is the proposer's own (allowed by the kind); refused otherwise
    when the approver is not independent of the proposer."""
    own = change.proposed_by_id is not None and change.proposed_by_id == by.pk
    if own and spec.self_approval is not None:
        if spec.self_approval(change):
            return True
        raise PermissionDenied(spec.own_approval_refused)
    if own and spec.own_approval_refused:
        raise PermissionDenied(spec.own_approval_refused)
    require_independent(approver=by, proposer=change.proposed_by, what=spec.what)
    return False


@signing
@transaction.atomic
def change_approve(
    *, change: TwoPersonChange, signature: SignatureInput | None, by: User, reason: str = ""
) -> TwoPersonDecision:
    """A second person approves, signing as themselves; the change applies at once."""
    change = _locked_pending(change)
    spec = _spec(change)
    require_role(by, *spec.approvers, action=spec.doing("approve"))
    self_approved = _approver_check(spec, change, by)
    signed = signature_verify(
        signature, capacity="approver", roles=spec.approvers, field="signature", signer=by
    )
    applied = spec.apply(change, by)
    decision = TwoPersonDecision.objects.create(
        change=change,
        outcome=TwoPersonDecision.Outcome.APPROVED,
        decided_by=by,
        decided_at=timezone.now(),
        self_approved=self_approved,
        reason=reason.strip(),
        result=applied if isinstance(applied, User) else None,
        values=applied if isinstance(applied, dict) else {},
    )
    change.decision = decision
    signature_record(change, signed)
    _audit(spec, change, decision, signed)
    return decision


@transaction.atomic
def change_reject(*, change: TwoPersonChange, reason: str, by: User) -> TwoPersonDecision:
    """Another approver turns the change down, with a reason."""
    change = _locked_pending(change)
    spec = _spec(change)
    require_role(by, *spec.approvers, action=spec.doing("reject"))
    if by.pk == change.proposed_by_id and not spec.proposer_rejects:
        raise PermissionDenied("Withdraw your own proposal instead of rejecting it.")
    if spec.reject_needs_reason and not reason.strip():
        raise DomainError("Say why the change is rejected.", field="reason")
    return _decide(spec, change, TwoPersonDecision.Outcome.REJECTED, by, reason.strip())


@transaction.atomic
def change_withdraw(*, change: TwoPersonChange, by: User) -> TwoPersonDecision:
    """Its proposer takes the change back."""
    change = _locked_pending(change)
    spec = _spec(change)
    if spec.withdraw_checks_role:
        require_role(by, *spec.proposers, action=spec.doing("withdraw"))
    if by.pk != change.proposed_by_id:
        raise PermissionDenied(
            f"Only the {spec.proposer_called} who proposed a change may withdraw it."
        )
    return _decide(spec, change, TwoPersonDecision.Outcome.WITHDRAWN, by, "")


def _decide(
    spec: ChangeKind, change: TwoPersonChange, outcome: str, by: User, reason: str
) -> TwoPersonDecision:
    decision = TwoPersonDecision.objects.create(
        change=change, outcome=outcome, decided_by=by, decided_at=timezone.now(), reason=reason
    )
    change.decision = decision
    _audit(spec, change, decision, None)
    return decision


def _audit(
    spec: ChangeKind, change: TwoPersonChange, decision: TwoPersonDecision, signed: Signed | None
) -> None:
    audit_record(
        actor=decision.decided_by,
        action=spec.actions[decision.outcome],
        target=change,
        payload=spec.payload(change, decision, signed),
    )
