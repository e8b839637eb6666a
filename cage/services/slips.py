"""Fills and credits: a floor supervisor requests one, with the cardroom's next serial number;
its signature chain is ``slip_chain``'s. A slip not yet delivered is voided by a floor
supervisor and a witness who signs, with a reason; every printing is recorded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.people import person_name
from core.permissions import require_role, require_supervisor
from core.roles import CASHIER, COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import Table
from tables.signatures import SignatureInput, signature_record, signature_verify, signing

from ..models import SerialCounter, Slip, SlipPrint, SlipStep, SlipVoid
from .common import (
    count_parse,
    locked_table,
    now_span,
    require_house_banked,
    require_open_period,
    signed_payload,
)
from .slip_cage import slip_cage_takes_back
from .slip_guards import check_rack_holds, locked_slip


def _next_serial(cardroom: Cardroom, kind: str) -> int:
    """The next serial number of a kind of slip in the cardroom: the counter row, locked, so
    that two slips requested at once get two numbers."""
    counter = SerialCounter.objects.select_for_update().filter(cardroom=cardroom, kind=kind)
    row = counter.first()
    if row is None:
        try:
            with transaction.atomic():
                SerialCounter.objects.create(cardroom=cardroom, kind=kind)
        except IntegrityError:  # made by a concurrent request: lock it below
            pass
        row = counter.get()
    row.last += 1
    row.save(update_fields=["last"])
    return row.last


@transaction.atomic
def slip_request(*, table: Table, kind: str, chips: Mapping[str, Any], by: User) -> Slip:
    """A floor supervisor asks for chips to a table's rack (a fill) or for chips to go back
    to the cage (a credit), by denomination. The slip gets the cardroom's next serial number;
    the chips move when another person signs its delivery."""
    require_supervisor(by, action="request a fill or a credit")
    if kind not in Slip.Kind.values:
        raise DomainError("A slip is a fill or a credit.", field="kind")
    table = locked_table(table)
    require_house_banked(table, "fill or credit")
    if table_selectors.open_session(table) is None:
        raise Conflict(f"{table} is closed: no {kind} goes to a closed table.", field="table")
    span = now_span(table.cardroom)
    require_open_period(table.cardroom, span.day, span.shift)
    pieces, total = count_parse(
        chips,
        table.cardroom.chip_denominations,
        field="chips",
        largest=table.cardroom.largest_cage_amount,
    )
    if not total:
        raise DomainError(f"A {kind} is for some chips: every count is 0.", field="chips")
    if kind == Slip.Kind.CREDIT:
        check_rack_holds(table, pieces)
    slip = Slip.objects.create(
        cardroom=table.cardroom,
        table=table,
        kind=kind,
        serial=_next_serial(table.cardroom, kind),
        gaming_day=span.day,
        shift=span.shift,
        chips=pieces,
        total=total,
        requested_by=by,
        requested_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.SLIP_REQUESTED,
        target=slip,
        payload={
            "table": table.pk,
            "kind": kind,
            "number": slip.number,
            "chips": pieces,
            "total": total,
            "gaming_day": span.day,
            "shift": span.shift,
        },
    )
    return slip


@signing
@transaction.atomic
def slip_void(*, slip: Slip, reason: str, witness: SignatureInput | None, by: User) -> SlipVoid:
    """A slip never delivered is voided by a floor supervisor and a witness (a dealer, a
    cashier or another floor supervisor, who signs and has signed no step of it), with a
    reason; it stays, marked void, and its serial number is never used again (both copies
    stay at the cage). A delivered slip is not voided: chips delivered by mistake go back with
    a credit (or come with a fill)."""
    require_supervisor(by, action="void a slip")
    if not reason or not reason.strip():
        raise DomainError("Say why the slip is void.", field="reason")
    slip, _ = locked_slip(slip)
    require_open_period(slip.cardroom, slip.gaming_day, slip.shift)
    signed = signature_verify(
        witness,
        capacity="witness",
        roles=(DEALER, FLOOR_SUPERVISOR, CASHIER),
        field="witness",
        signed_already=(by, *(step.person for step in SlipStep.objects.filter(slip=slip))),
    )
    slip_cage_takes_back(slip)
    void = SlipVoid.objects.create(
        slip=slip,
        reason=reason.strip(),
        voided_by=by,
        witness=signed.signer,
        voided_at=timezone.now(),
    )
    signature_record(slip, signed)
    audit_record(
        actor=by,
        action=AuditAction.SLIP_VOIDED,
        target=slip,
        payload={
            "number": slip.number,
            "reason": void.reason,
            "witness": signed.signer.pk,
            "witness_name": person_name(signed.signer),
            "signed": signed_payload(signed),
        },
    )
    return void


@transaction.atomic
def slip_print(*, slip: Slip, by: User) -> SlipPrint:
    """Record a printing of the slip: the first is the original, every later one is marked
    as a reprint on the paper."""
    require_role(by, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR, CASHIER, action="print a slip")
    # The slip is append-only: its table's row is the lock, as for a signature or a void, so
    # that two printings at once cannot both be the original.
    locked_table(slip.table)
    slip = Slip.objects.get(pk=slip.pk)
    printed = SlipPrint.objects.create(
        slip=slip,
        reprint=SlipPrint.objects.filter(slip=slip).exists(),
        printed_by=by,
        printed_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.SLIP_PRINTED,
        target=slip,
        payload={"number": slip.number, "reprint": printed.reprint},
    )
    return printed
