"""Drop and count: two members of the count team count a table's drop box once its shift is
over — the one signed in, and a second who signs there as themselves; a variance is explained
and signed off by a floor supervisor, with their own signature."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.people import person_name
from core.permissions import require_role, require_supervisor
from core.roles import COUNT_TEAM, FLOOR_SUPERVISOR
from tables.models import Table
from tables.signatures import SignatureInput, Signed, signature_record, signature_verify, signing

from .. import selectors, shift_figures
from ..models import DropCount, VarianceSignOff
from .common import (
    count_parse,
    locked_table,
    require_open_period,
    require_shift_over,
    signed_payload,
)


@signing
@transaction.atomic
def drop_count_record(
    *,
    table: Table,
    gaming_day: date,
    shift: str,
    cash: Mapping[str, Any],
    chips: Mapping[str, Any],
    second_counter: SignatureInput | None,
    note: str = "",
    by: User,
) -> DropCount:
    """Two members of the count team enter what they found in a table's drop box for one
    shift: cash by bill, chips by denomination; the second counter signs. The system keeps
    the drop the books expect beside it, and the variance; a variance needs a floor
    supervisor's sign-off before the shift closes. A box is counted once its shift is over,
    and once."""
    require_role(by, COUNT_TEAM, action="enter a drop count")
    table = _box_to_count(table, gaming_day, shift)
    largest = table.cardroom.largest_cage_amount
    cash_pieces, cash_total = count_parse(
        cash, list(selectors.CASH_DENOMINATIONS), field="cash", largest=largest
    )
    chip_pieces, chips_total = count_parse(
        chips, table.cardroom.chip_denominations, field="chips", largest=largest
    )
    signed = signature_verify(
        second_counter,
        capacity="second_counter",
        roles=(COUNT_TEAM,),
        field="second_counter",
        signed_already=(by,),
    )
    expected = shift_figures.expected_drop(table, gaming_day, shift)
    total = cash_total + chips_total
    count = DropCount.objects.create(
        table=table,
        gaming_day=gaming_day,
        shift=shift,
        cash=cash_pieces,
        chips=chip_pieces,
        cash_total=cash_total,
        chips_total=chips_total,
        total=total,
        expected_cash=expected.cash,
        expected_chips=expected.chips,
        expected_total=expected.total,
        variance=total - expected.total,
        counted_by=by,
        second_counter=signed.signer,
        note=note.strip(),
        created_at=timezone.now(),
    )
    signature_record(count, signed)
    _audit_drop_count(count, signed, by)
    return count


def _box_to_count(table: Table, gaming_day: date, shift: str) -> Table:
    """The table locked, once its shift is over and before the box is counted."""
    table = locked_table(table)
    cardroom = table.cardroom
    require_shift_over(cardroom, gaming_day, shift, what="its drop box is counted")
    require_open_period(cardroom, gaming_day, shift)
    if DropCount.objects.filter(table=table, gaming_day=gaming_day, shift=shift).exists():
        raise Conflict(
            f"The drop box of {table} for the {shift} shift of {gaming_day} is counted already.",
            field="table",
        )
    return table


def _audit_drop_count(count: DropCount, signed: Signed, by: User) -> None:
    audit_record(
        actor=by,
        action=AuditAction.DROP_COUNTED,
        target=count,
        payload={
            "table": count.table.pk,
            "gaming_day": count.gaming_day,
            "shift": count.shift,
            "cash": count.cash,
            "chips": count.chips,
            "total": count.total,
            "expected": count.expected_total,
            "variance": count.variance,
            "second_counter": signed.signer.pk,
            "second_counter_name": person_name(signed.signer),
            "signed": signed_payload(signed),
        },
    )


@signing
@transaction.atomic
def drop_variance_sign_off(
    *, count: DropCount, reason: str, signature: SignatureInput | None, by: User
) -> VarianceSignOff:
    """A floor supervisor explains a drop count's variance and signs it off with their own
    password or PIN: the approval of a difference in the money, kept on the count."""
    require_supervisor(by, action="sign off a drop variance")
    if not reason or not reason.strip():
        raise DomainError("Explain the variance.", field="reason")
    table = locked_table(count.table)
    count = DropCount.objects.select_related("counted_by", "second_counter").get(pk=count.pk)
    if not count.variance:
        raise Conflict("This count matches the expected drop: it has no variance.", field="count")
    if VarianceSignOff.objects.filter(count=count).exists():
        raise Conflict("This variance is signed off already.", field="count")
    require_open_period(table.cardroom, count.gaming_day, count.shift)
    signed = signature_verify(
        signature,
        capacity="approver",
        roles=(FLOOR_SUPERVISOR,),
        field="signature",
        signer=by,
        signed_already=(count.counted_by, count.second_counter),
    )
    sign_off = VarianceSignOff.objects.create(
        count=count, reason=reason.strip(), signed_by=by, signed_at=timezone.now()
    )
    signature_record(count, signed)
    audit_record(
        actor=by,
        action=AuditAction.DROP_VARIANCE_SIGNED_OFF,
        target=count,
        payload={
            "variance": count.variance,
            "reason": sign_off.reason,
            "signed": signed_payload(signed),
        },
    )
    return sign_off
