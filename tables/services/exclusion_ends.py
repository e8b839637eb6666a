"""A house bar's end, one kind of two-person change (``tables.two_person``): a floor
supervisor proposes it with the reason and the day the bar ends; a second floor supervisor,
off the proposer's maker's line, approves and signs, and the bar ends
(``patrons.exclusion_ends.house_bar_end``); a floor supervisor rejects it, or its proposer
withdraws it. One end per bar waits at a time; neither person may be the one who recorded
the bar that same day."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from core.errors import Conflict
from core.roles import FLOOR_SUPERVISOR
from patrons.exclusion_ends import house_bar_end, house_bar_end_check
from patrons.models import Exclusion

from .. import two_person
from ..signatures import SignatureInput, Signed
from ..staff_models import ExclusionEndChange, TwoPersonChange, TwoPersonDecision

KIND = TwoPersonChange.Kind.EXCLUSION_END


@transaction.atomic
def exclusion_end_propose(
    *, exclusion: Exclusion, ends_on: date, reason: str, by: User
) -> ExclusionEndChange:
    """A floor supervisor proposes ending a house bar on ``ends_on``."""
    two_person.require_proposer(KIND, by, reason)
    exclusion = Exclusion.objects.select_for_update().get(pk=exclusion.pk)
    house_bar_end_check(exclusion=exclusion, ends_on=ends_on, reason=reason, by=by)
    if exclusion_end_pending(exclusion).exists():
        raise Conflict(
            f"The end of exclusion #{exclusion.pk} waits for a decision already.",
            field="exclusion",
        )
    change = two_person.change_propose(
        kind=KIND,
        values={"exclusion": exclusion.pk, "ends_on": ends_on.isoformat()},
        reason=reason,
        by=by,
        cardroom_id=exclusion.cardroom_id,
    )
    assert isinstance(change, ExclusionEndChange)
    return change


def exclusion_end_decide(
    *,
    change: ExclusionEndChange,
    approve: bool,
    by: User,
    reason: str = "",
    signature: SignatureInput | None = None,
) -> TwoPersonDecision:
    """A second floor supervisor approves and signs, and the bar ends; or one rejects it."""
    if approve:
        return two_person.change_approve(change=change, signature=signature, by=by, reason=reason)
    return two_person.change_reject(change=change, reason=reason, by=by)


def exclusion_end_withdraw(*, change: ExclusionEndChange, by: User) -> TwoPersonDecision:
    return two_person.change_withdraw(change=change, by=by)


def exclusion_end_pending(exclusion: Exclusion) -> Any:
    return ExclusionEndChange.objects.filter(values__exclusion=exclusion.pk, decision__isnull=True)


# --- the kind --------------------------------------------------------------------------------


def _apply(change: TwoPersonChange, approver: User) -> dict[str, Any]:
    row = house_bar_end(
        exclusion_id=int(change.values["exclusion"]),
        ends_on=date.fromisoformat(change.values["ends_on"]),
        reason=change.reason,
        by=approver,
        reference=f"two-person change #{change.pk}",
    )
    return {"exclusion": row.pk}


def _payload(
    change: TwoPersonChange, decision: TwoPersonDecision | None, signed: Signed | None
) -> dict[str, Any]:
    said = {"exclusion": change.values["exclusion"], "ends_on": change.values["ends_on"]}
    if decision is None:
        return said | {"reason": change.reason}
    return said | {
        "proposed_by": change.proposed_by_id,
        "reason": decision.reason,
        "signed_with": signed.method if signed else None,
    }


two_person.register(
    KIND,
    two_person.ChangeKind(
        "The end of a house bar",
        (FLOOR_SUPERVISOR,),
        (FLOOR_SUPERVISOR,),
        _apply,
        model=ExclusionEndChange,
        called="the end of a house bar",
        why="Say why the bar ends.",
        own_approval_refused="A house bar's end needs a second floor supervisor: not its proposer.",
        proposer_called="floor supervisor",
        withdraw_checks_role=True,
        actions={
            "proposed": AuditAction.EXCLUSION_END_PROPOSED,
            TwoPersonDecision.Outcome.APPROVED: AuditAction.EXCLUSION_END_APPROVED,
            TwoPersonDecision.Outcome.REJECTED: AuditAction.EXCLUSION_END_REJECTED,
            TwoPersonDecision.Outcome.WITHDRAWN: AuditAction.EXCLUSION_END_WITHDRAWN,
        },
        payload=_payload,
    ),
)
