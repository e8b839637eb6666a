"""A mistyped drop count corrected (4 CCR §12385(c)): never an edit — a new entry with the
figures as they should have been, initialled and signed by the member of the count team who
corrects it; the original and every earlier correction stay. A changed variance escalates
again, and a sign-off of the old amount no longer signs it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COUNT_TEAM
from tables.signatures import SignatureInput, signature_record, signature_verify, signing

from ..count_sheets import drop_count_now
from ..models import DropCount, DropCountCorrection, Variance
from .common import locked_table, require_open_period, signed_payload
from .drop_team import drop_pieces_parse
from .variances import variance_escalate


@signing
@transaction.atomic
def drop_count_correct(
    *,
    count: DropCount,
    cash: Mapping[str, Any],
    chips: Mapping[str, Any],
    reason: str,
    initials: str,
    signature: SignatureInput | None,
    by: User,
) -> DropCountCorrection:
    """The count's figures corrected by a member of the count team, who initials the entry
    and signs it with their own password or PIN."""
    require_role(by, COUNT_TEAM, action="correct a drop count")
    initials = _initialled(reason, initials)
    table = locked_table(count.table)
    count = DropCount.objects.get(pk=count.pk)
    require_open_period(table.cardroom, count.gaming_day, count.shift)
    (cash_pieces, cash_total), (chip_pieces, chips_total) = drop_pieces_parse(
        table.cardroom, cash, chips
    )
    now = drop_count_now(count)
    if (cash_pieces, chip_pieces) == (now.cash, now.chips):
        raise Conflict("These are the count's figures already: nothing to correct.", field="cash")
    signed = signature_verify(
        signature, capacity="corrector", roles=(COUNT_TEAM,), field="signature", signer=by
    )
    total = cash_total + chips_total
    correction = DropCountCorrection.objects.create(
        count=count,
        cash=cash_pieces,
        chips=chip_pieces,
        cash_total=cash_total,
        chips_total=chips_total,
        total=total,
        variance=total - count.expected_total,
        reason=reason.strip(),
        initials=initials,
        corrected_by=by,
        created_at=timezone.now(),
    )
    signature_record(correction, signed)
    audit_record(
        actor=by,
        action=AuditAction.DROP_COUNT_CORRECTED,
        target=count,
        payload={
            "correction": correction.pk,
            "before": now.total,
            "total": total,
            "variance": correction.variance,
            "initials": initials,
            "reason": correction.reason,
            "signed": signed_payload(signed),
        },
    )
    if correction.variance and correction.variance != now.variance:
        _escalate(correction, by)
    return correction


def _initialled(reason: str, initials: str) -> str:
    if not reason or not reason.strip():
        raise DomainError("Say what was mistyped.", field="reason")
    initials = (initials or "").strip().upper()
    if not initials or len(initials) > 5 or not initials.isalpha():
        raise DomainError("Initial the correction (up to five letters).", field="initials")
    return initials


def _escalate(correction: DropCountCorrection, by: User) -> None:
    count = correction.count
    variance_escalate(
        cardroom=count.table.cardroom,
        source=Variance.Source.DROP_CORRECTION,
        record=correction,
        amount=correction.variance,
        by=by,
        table=count.table,
        explanation=correction.reason,
        gaming_day=count.gaming_day,
        shift=count.shift,
    )
