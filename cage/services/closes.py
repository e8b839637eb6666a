"""Shift and gaming-day close: a floor supervisor closes a shift once every count is in, and
compliance signs the gaming day off; each signs with their own password or PIN, for a close
locks the books it names."""

from __future__ import annotations

from datetime import date

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.alarms import checkpoint_problems_outstanding
from audit.services import audit_checkpoint_record, audit_record
from core.errors import Conflict
from core.permissions import require_role, require_supervisor
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.signatures import SignatureInput, signature_record, signature_verify, signing

from .. import selectors
from ..models import DayClose, ShiftClose
from .common import locked_cardroom, require_open_period, require_shift_over, signed_payload


@signing
@transaction.atomic
def shift_close(
    *,
    cardroom: Cardroom,
    gaming_day: date,
    shift: str,
    signature: SignatureInput | None,
    by: User,
) -> ShiftClose:
    """A floor supervisor closes a shift once it is over and every count is in: every
    house-banked table's rack counted at the start and end of its play in the shift, every
    drop box counted, every variance signed off, every slip delivered or voided. Its
    statistics are kept as closed, with the supervisor's signature."""
    require_supervisor(by, action="close a shift")
    cardroom = locked_cardroom(cardroom)
    require_shift_over(cardroom, gaming_day, shift, what="it closes")
    require_open_period(cardroom, gaming_day, shift)
    outstanding = selectors.shift_outstanding(cardroom, gaming_day, shift)
    if outstanding:
        raise Conflict(
            f"The {shift} shift of {gaming_day} cannot close yet: " + "; ".join(outstanding) + ".",
            field="shift",
        )
    signed = signature_verify(
        signature, capacity="closer", roles=(FLOOR_SUPERVISOR,), field="signature", signer=by
    )
    figures = selectors.shift_statistics(cardroom, gaming_day, shift).as_json()
    closed = ShiftClose.objects.create(
        cardroom=cardroom,
        gaming_day=gaming_day,
        shift=shift,
        closed_by=by,
        closed_at=timezone.now(),
        figures=figures,
    )
    signature_record(closed, signed)
    audit_record(
        actor=by,
        action=AuditAction.SHIFT_CLOSED,
        target=closed,
        payload={
            "gaming_day": gaming_day,
            "shift": shift,
            "totals": figures["totals"],
            "signed": signed_payload(signed),
        },
    )
    return closed


@signing
def gaming_day_close(
    *, cardroom: Cardroom, gaming_day: date, signature: SignatureInput | None, by: User
) -> DayClose:
    """Compliance signs a gaming day off once it is over and every shift of it is closed:
    the audit chain is verified and a checkpoint of it recorded, the day's figures are kept,
    and the day is locked (a later correction of one of its hands lands on the current day,
    naming this one). A checkpoint problem not yet acknowledged by compliance refuses the
    close, after the checkpoint and the problems it found are committed, to be acknowledged."""
    closed = _gaming_day_close(cardroom=cardroom, gaming_day=gaming_day, signature=signature, by=by)
    if isinstance(closed, Conflict):
        raise closed
    return closed


@transaction.atomic
def _gaming_day_close(
    *, cardroom: Cardroom, gaming_day: date, signature: SignatureInput | None, by: User
) -> DayClose | Conflict:
    require_role(by, COMPLIANCE_AUDITOR, action="close a gaming day")
    cardroom = locked_cardroom(cardroom)
    _, end = table_selectors.gaming_day_bounds(cardroom, gaming_day)
    if timezone.now() < end:
        raise Conflict(f"The gaming day {gaming_day} is not over.", field="gaming_day")
    if selectors.day_closed(cardroom, gaming_day):
        raise Conflict(f"The gaming day {gaming_day} is closed already.", field="gaming_day")
    open_shifts = [
        span.shift
        for span in table_selectors.day_shifts(cardroom, gaming_day)
        if not selectors.shift_closed(cardroom, gaming_day, span.shift)
    ]
    if open_shifts:
        raise Conflict(
            f"The gaming day {gaming_day} cannot close: shift {', '.join(open_shifts)} is "
            "not closed.",
            field="gaming_day",
        )
    signed = signature_verify(
        signature, capacity="closer", roles=(COMPLIANCE_AUDITOR,), field="signature", signer=by
    )
    checkpoint = audit_checkpoint_record()
    if checkpoint is None:
        raise Conflict(
            "The audit chain does not verify: the day cannot be signed off.", field="gaming_day"
        )
    if outstanding := checkpoint_problems_outstanding():
        return Conflict(
            "The audit log has checkpoint problems that compliance has not acknowledged: "
            + "; ".join(problem.text for problem in outstanding)
            + ". Acknowledge each on the audit log screen, then close the day.",
            field="gaming_day",
        )
    figures = selectors.day_statistics(cardroom, gaming_day).as_json()
    closed = DayClose.objects.create(
        cardroom=cardroom,
        gaming_day=gaming_day,
        closed_by=by,
        closed_at=timezone.now(),
        figures=figures,
        checkpoint=checkpoint,
    )
    signature_record(closed, signed)
    audit_record(
        actor=by,
        action=AuditAction.GAMING_DAY_CLOSED,
        target=closed,
        payload={
            "gaming_day": gaming_day,
            "totals": figures["totals"],
            "checkpoint": checkpoint.seq,
            "signed": signed_payload(signed),
        },
    )
    return closed
