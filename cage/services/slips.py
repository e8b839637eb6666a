"""Fills and credits: a floor supervisor requests one; a second person — the dealer on duty at
the table, or a floor supervisor who did not request it — counts the chips and signs for them,
and the rack moves. A slip never delivered is voided by a floor supervisor and a witness who
signs; every printing is recorded."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.people import person_name
from core.permissions import require_role, require_supervisor, require_table_staff
from core.roles import (
    COMPLIANCE_AUDITOR,
    DEALER,
    FLOOR_SUPERVISOR,
    TABLE_STAFF,
    role_of,
)
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import HouseBankEntry, Table, TableSession
from tables.services.racks import rack_credit_check, rack_pieces_move
from tables.services.stacks import house_bank_entry_add
from tables.signatures import (
    SignatureInput,
    Signed,
    signature_record,
    signature_verify,
    signing,
)

from ..models import SerialCounter, Slip, SlipDelivery, SlipPrint, SlipVoid
from .common import (
    count_parse,
    locked_table,
    now_span,
    require_house_banked,
    require_open_period,
    signed_payload,
)


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
        rack_credit_check(table=table, pieces=_named(pieces), field="chips")
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


def _named(pieces: Mapping[str, int]) -> dict[str, int]:
    """The denominations a slip names (the others are 0)."""
    return {denomination: number for denomination, number in pieces.items() if number}


def _locked_slip(slip: Slip) -> tuple[Slip, Table]:
    """The slip, its table locked, refused once it is delivered or void: it takes no more
    signatures."""
    table = locked_table(slip.table)
    slip = Slip.objects.select_related("table__cardroom", "requested_by").get(pk=slip.pk)
    if SlipVoid.objects.filter(slip=slip).exists():
        raise Conflict(f"{slip.kind.capitalize()} {slip.number} is void.", field="slip")
    if SlipDelivery.objects.filter(slip=slip).exists():
        raise Conflict(
            f"{slip.kind.capitalize()} {slip.number} is delivered already.", field="slip"
        )
    return slip, table


@signing
@transaction.atomic
def slip_deliver(*, slip: Slip, signature: SignatureInput | None, by: User) -> SlipDelivery:
    """The second signature: the dealer on duty at the table (or a floor supervisor who did
    not request the slip) counts the chips and signs for them, on the device in use (``by``:
    who is signed in there, the table's staff), and they move: into the rack (a fill) or out
    of it (a credit)."""
    slip, table = _locked_slip(slip)
    session = table_selectors.open_session(table)
    require_table_staff(by, session, action=f"sign for a {slip.kind}")
    if session is None:
        raise Conflict(f"{table} is closed: no {slip.kind} goes to a closed table.", field="slip")
    span = now_span(table.cardroom)
    require_open_period(table.cardroom, span.day, span.shift)
    fill = slip.kind == Slip.Kind.FILL
    rack_pieces_move(table=table, pieces=_named(slip.chips), sign=1 if fill else -1, field="chips")
    signed = _receiver_signature(slip, session, signature)
    entry = house_bank_entry_add(
        table=table,
        amount=slip.total if fill else -slip.total,
        reason=HouseBankEntry.Reason.FILL if fill else HouseBankEntry.Reason.CREDIT,
        reference=slip.number,
        by=by,
    )
    delivery = SlipDelivery.objects.create(
        slip=slip, delivered_by=signed.signer, delivered_at=timezone.now(), bank_entry=entry
    )
    signature_record(slip, signed)
    audit_record(
        actor=by,
        action=AuditAction.SLIP_DELIVERED,
        target=slip,
        payload={
            "number": slip.number,
            "total": slip.total,
            "bank_entry": entry.pk,
            "delivered_by": signed.signer.pk,
            "delivered_by_name": person_name(signed.signer),
            "signed": signed_payload(signed),
        },
    )
    return delivery


def _receiver_signature(
    slip: Slip, session: TableSession, signature: SignatureInput | None
) -> Signed:
    """Whoever signs for the chips: the dealer on duty at the slip's table or a floor
    supervisor, never the person who requested the slip."""
    signed = signature_verify(
        signature,
        capacity="dealer",
        roles=TABLE_STAFF,
        field="signature",
        signed_already=(slip.requested_by,),
    )
    if role_of(signed.signer) == FLOOR_SUPERVISOR:
        return replace(signed, capacity="supervisor")
    if signed.signer.pk != session.dealer_id:
        raise DomainError(
            f"{person_name(signed.signer)} is not the dealer on duty at {slip.table}: the "
            "dealer at the table, or a floor supervisor, signs for the chips.",
            field="signature",
        )
    return signed


@signing
@transaction.atomic
def slip_void(*, slip: Slip, reason: str, witness: SignatureInput | None, by: User) -> SlipVoid:
    """A slip never delivered is voided by a floor supervisor and a witness (a dealer or
    another floor supervisor, who signs), with a reason; it stays, marked void, and its serial
    number is never used again. A delivered slip is not voided: chips delivered by mistake go
    back with a credit (or come with a fill)."""
    require_supervisor(by, action="void a slip")
    if not reason or not reason.strip():
        raise DomainError("Say why the slip is void.", field="reason")
    slip, _ = _locked_slip(slip)
    require_open_period(slip.cardroom, slip.gaming_day, slip.shift)
    signed = signature_verify(
        witness,
        capacity="witness",
        roles=(DEALER, FLOOR_SUPERVISOR),
        field="witness",
        signed_already=(by,),
    )
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
    require_role(by, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR, action="print a slip")
    # The slip is append-only: its table's row is the lock, as for a delivery or a void, so
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
