"""A fill's or credit's signature chain (Nevada MICS, table games: fills and credits; 25 CFR
543.18; N.J.A.C. 13:69D-1.21): every step is signed by the person who did it, authenticating
at that moment with their own password or PIN (design.md 8), and kept as a ``SlipStep``.

A fill: requested by the floor → prepared by the cashier (the slip printed, original and
duplicate) → carried by a runner, where the cardroom sets ``runner_required`` → counted and
signed by the dealer on duty at the table → signed by a floor supervisor: the rack moves up.
A credit: requested by the floor → counted and signed by the dealer → signed by a floor
supervisor → carried by the runner (if set) → received and signed by the cashier: the rack
moves down. One person never signs two steps of one slip; a step out of turn is refused,
naming the step the slip waits for. The original goes into the table's drop box, the
duplicate stays at the cage (``slip_original_found``)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core.people import person_name
from core.permissions import require_role, require_table_staff
from core.roles import CASHIER, DEALER, FLOOR_SUPERVISOR
from tables import selectors as table_selectors
from tables.models import HouseBankEntry, Table
from tables.services.racks import rack_pieces_move
from tables.services.stacks import house_bank_entry_add
from tables.signatures import SignatureInput, Signed, signature_record, signature_verify, signing

from ..models import Slip, SlipDelivery, SlipStep
from ..slip_selectors import slip_next_step, slip_steps_done
from .common import now_span, require_open_period, signed_payload
from .slip_cage import slip_cage_receives, slip_cage_sends
from .slip_guards import (
    check_rack_holds,
    locked_slip,
    named_pieces,
    require_dealer_on_duty,
    require_open_table,
    require_step_due,
)

#: Who may carry the chips between the cage and the table, signing for them: a cashier or a
#: floor supervisor who is not otherwise on the slip.
RUNNERS = (CASHIER, FLOOR_SUPERVISOR)


def _open(slip: Slip, step: str) -> tuple[Slip, Table, list[SlipStep]]:
    """The slip locked, in an open period, waiting for ``step``."""
    slip, table = locked_slip(slip)
    span = now_span(table.cardroom)
    require_open_period(table.cardroom, span.day, span.shift)
    done = slip_steps_done(slip)
    require_step_due(slip, step, done)
    return slip, table, done


def _verify(
    entry: SignatureInput | None,
    step: str,
    done: list[SlipStep],
    *,
    roles: tuple[str, ...],
    signer: User | None = None,
) -> Signed:
    return signature_verify(
        entry,
        capacity=step,
        roles=roles,
        field="signature",
        signer=signer,
        signed_already=[s.person for s in done],
    )


def _record(slip: Slip, step: str, signed: Signed, by: User) -> SlipStep:
    """The step's row and its signature (kept on the slip), and its audit event."""
    signature = signature_record(slip, signed)
    row = SlipStep.objects.create(
        slip=slip, step=step, person=signed.signer, signature=signature, at=signed.at
    )
    audit_record(
        actor=by,
        action=AuditAction.SLIP_STEP_SIGNED,
        target=slip,
        payload={
            "number": slip.number,
            "step": step,
            "person": signed.signer.pk,
            "person_name": person_name(signed.signer),
            "signed": signed_payload(signed),
        },
    )
    return row


def _moved_if_done(slip: Slip, table: Table, row: SlipStep, by: User) -> SlipStep:
    """After the chain's last step the chips move: into the rack (a fill) or out of it (a
    credit), and the cage's side is booked."""
    if slip_next_step(slip) is not None:
        return row
    fill = slip.kind == Slip.Kind.FILL
    rack_pieces_move(
        table=table, pieces=named_pieces(slip.chips), sign=1 if fill else -1, field="chips"
    )
    entry = house_bank_entry_add(
        table=table,
        amount=slip.total if fill else -slip.total,
        reason=HouseBankEntry.Reason.FILL if fill else HouseBankEntry.Reason.CREDIT,
        reference=slip.number,
        by=by,
    )
    SlipDelivery.objects.create(
        slip=slip, delivered_by=row.person, delivered_at=row.at, bank_entry=entry
    )
    audit_record(
        actor=by,
        action=AuditAction.SLIP_DELIVERED,
        target=slip,
        payload={
            "number": slip.number,
            "total": slip.total,
            "bank_entry": entry.pk,
            "delivered_by": row.person_id,
            "delivered_by_name": person_name(row.person),
            "steps": [s.step for s in slip_steps_done(slip)],
        },
    )
    return row


@signing
@transaction.atomic
def slip_prepare(*, slip: Slip, signature: SignatureInput | None, by: User) -> SlipStep:
    """The cashier signed in at the cage prepares a fill's chips, by the slip's denominations,
    and signs as themselves; the slip is printed next (original and duplicate)."""
    require_role(by, CASHIER, action="prepare a fill")
    slip, _, done = _open(slip, SlipStep.Name.PREPARED)
    signed = _verify(signature, SlipStep.Name.PREPARED, done, roles=(CASHIER,), signer=by)
    slip_cage_sends(slip, by)
    return _record(slip, SlipStep.Name.PREPARED, signed, by)


@signing
@transaction.atomic
def slip_carry(*, slip: Slip, signature: SignatureInput | None, by: User) -> SlipStep:
    """The runner takes the chips (a fill from the cage, a credit from the table) and signs
    for them on the device in use (``by``: the cashier or floor supervisor signed in there).
    Only where the cardroom sets ``runner_required``."""
    require_role(by, *RUNNERS, action="hand chips to a runner")
    slip, _, done = _open(slip, SlipStep.Name.CARRIED)
    signed = _verify(signature, SlipStep.Name.CARRIED, done, roles=RUNNERS)
    return _record(slip, SlipStep.Name.CARRIED, signed, by)


@signing
@transaction.atomic
def slip_dealer_sign(*, slip: Slip, signature: SignatureInput | None, by: User) -> SlipStep:
    """The dealer on duty at the slip's table counts the chips and signs, as themselves, on
    the dealer screen (``by``: who is signed in at the table, its staff)."""
    slip, table, done = _open(slip, SlipStep.Name.DEALER)
    session = table_selectors.open_session(table)
    require_table_staff(by, session, action=f"sign for a {slip.kind}")
    session = require_open_table(slip, session)
    if slip.kind == Slip.Kind.CREDIT:
        check_rack_holds(table, slip.chips)
    signed = _verify(signature, SlipStep.Name.DEALER, done, roles=(DEALER,))
    require_dealer_on_duty(slip, session, signed)
    return _record(slip, SlipStep.Name.DEALER, signed, by)


@signing
@transaction.atomic
def slip_supervisor_sign(*, slip: Slip, signature: SignatureInput | None, by: User) -> SlipStep:
    """A floor supervisor, signed in, signs as themselves: for a fill the last step (the chips
    go into the rack), for a credit the one before the runner and the cage."""
    require_role(by, FLOOR_SUPERVISOR, action="sign a fill or a credit")
    slip, table, done = _open(slip, SlipStep.Name.SUPERVISOR)
    if slip.kind == Slip.Kind.FILL:
        require_open_table(slip, table_selectors.open_session(table))
    signed = _verify(
        signature, SlipStep.Name.SUPERVISOR, done, roles=(FLOOR_SUPERVISOR,), signer=by
    )
    return _moved_if_done(slip, table, _record(slip, SlipStep.Name.SUPERVISOR, signed, by), by)


@signing
@transaction.atomic
def slip_cage_receive(*, slip: Slip, signature: SignatureInput | None, by: User) -> SlipStep:
    """The cashier signed in at the cage receives a credit's chips, counts them and signs as
    themselves: the last step, the chips leave the rack by the books."""
    require_role(by, CASHIER, action="receive a credit at the cage")
    slip, table, done = _open(slip, SlipStep.Name.CAGE_RECEIVED)
    signed = _verify(signature, SlipStep.Name.CAGE_RECEIVED, done, roles=(CASHIER,), signer=by)
    slip_cage_receives(slip, by)
    return _moved_if_done(slip, table, _record(slip, SlipStep.Name.CAGE_RECEIVED, signed, by), by)
