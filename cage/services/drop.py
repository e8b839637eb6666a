"""Drop and count (4 CCR §12385): at least ``cardroom.count_team_size`` members of the count
team (two, or three where the regulator asks) count a table's drop box once its shift is over —
the one signed in, and the others each signing there as themselves; the originals of the slips
found in the box are recorded on the count; a variance escalates (``variances``) and is
explained and signed off by a floor supervisor, with their own signature, for its amount."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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

from .. import shift_figures
from ..count_sheets import drop_count_now, drop_signed_off
from ..models import DropCount, Variance, VarianceSignOff
from .common import (
    locked_table,
    require_open_period,
    require_shift_over,
    signed_payload,
)
from .drop_boxes import require_box_opened
from .drop_team import (
    drop_pieces_parse,
    further_counters_record,
    further_counters_verify,
    slip_originals_record,
)
from .variances import variance_escalate


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
    further_counters: Sequence[SignatureInput] = (),
    slip_originals: Sequence[str] = (),
    note: str = "",
    by: User,
) -> DropCount:
    """The count team enters what it found in a table's drop box for one shift: cash by
    bill, chips by denomination, the serials of the slip originals in it; the second counter
    and ``further_counters`` sign, to the cardroom's ``count_team_size`` at least. The system
    keeps the drop the books expect beside it, and the variance, which escalates; a variance
    needs a floor supervisor's sign-off before the shift closes. A box is counted once its
    shift is over (and, if it was issued, opened in the count room), and once."""
    require_role(by, COUNT_TEAM, action="enter a drop count")
    table = _box_to_count(table, gaming_day, shift)
    (cash_pieces, cash_total), (chip_pieces, chips_total) = drop_pieces_parse(
        table.cardroom, cash, chips
    )
    signatures = _team_signatures(table, second_counter, further_counters, by)
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
        second_counter=signatures[0].signer,
        note=note.strip(),
        created_at=timezone.now(),
    )
    for one in signatures:
        signature_record(count, one)
    further_counters_record(count, signatures[1:])
    serials = slip_originals_record(count, slip_originals)
    _audit_drop_count(count, signatures, serials, by)
    if count.variance:
        _escalate(count, by)
    return count


def _escalate(count: DropCount, by: User) -> None:
    variance_escalate(
        cardroom=count.table.cardroom,
        source=Variance.Source.DROP_COUNT,
        record=count,
        amount=count.variance,
        by=by,
        table=count.table,
        explanation=count.note,
    )


def _team_signatures(
    table: Table,
    second_counter: SignatureInput | None,
    further_counters: Sequence[SignatureInput],
    by: User,
) -> tuple[Signed, ...]:
    """The second counter's signature, then each further counter's (4 CCR §12385)."""
    second = signature_verify(
        second_counter,
        capacity="second_counter",
        roles=(COUNT_TEAM,),
        field="second_counter",
        signed_already=(by,),
    )
    further = further_counters_verify(
        table.cardroom, further_counters, signed_already=(by, second.signer)
    )
    return (second, *further)


def _box_to_count(table: Table, gaming_day: date, shift: str) -> Table:
    """The table locked, once its shift is over and before the box is counted."""
    table = locked_table(table)
    cardroom = table.cardroom
    require_shift_over(cardroom, gaming_day, shift, what="its drop box is counted")
    require_open_period(cardroom, gaming_day, shift)
    require_box_opened(table, gaming_day, shift)
    if DropCount.objects.filter(table=table, gaming_day=gaming_day, shift=shift).exists():
        raise Conflict(
            f"The drop box of {table} for the {shift} shift of {gaming_day} is counted already.",
            field="table",
        )
    return table


def _audit_drop_count(
    count: DropCount, signatures: tuple[Signed, ...], serials: list[str], by: User
) -> None:
    signed = signatures[0]
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
            "counters": [s.signer.pk for s in signatures],
            "slip_originals": serials,
            "signed": signed_payload(*signatures),
        },
    )


@signing
@transaction.atomic
def drop_variance_sign_off(
    *, count: DropCount, reason: str, signature: SignatureInput | None, by: User
) -> VarianceSignOff:
    """A floor supervisor explains a drop count's variance and signs it off with their own
    password or PIN: the approval of a difference in the money, bound to its amount (a
    correction that changes the variance needs a new sign-off)."""
    require_supervisor(by, action="sign off a drop variance")
    if not reason or not reason.strip():
        raise DomainError("Explain the variance.", field="reason")
    table = locked_table(count.table)
    count = DropCount.objects.select_related("counted_by", "second_counter").get(pk=count.pk)
    variance = drop_count_now(count).variance
    if not variance:
        raise Conflict("This count matches the expected drop: it has no variance.", field="count")
    if drop_signed_off(count):
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
        count=count, amount=variance, reason=reason.strip(), signed_by=by, signed_at=timezone.now()
    )
    # On the sign-off: a supervisor may sign off a corrected count's new variance too.
    signature_record(sign_off, signed)
    audit_record(
        actor=by,
        action=AuditAction.DROP_VARIANCE_SIGNED_OFF,
        target=sign_off,  # the record signed: it keeps the amount, and the signature
        payload={
            "count": count.pk,
            "variance": variance,
            "reason": sign_off.reason,
            "signed": signed_payload(signed),
        },
    )
    return sign_off
