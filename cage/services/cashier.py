"""The cage's counts: a cashier opens the cage, hands it over to the next cashier, closes it.

Each is a count of the cage — chips by denomination, cash by bill — against the books (the last
count plus every cage entry since), signed by two people, each authenticating at that moment
(design.md 8): the outgoing and the incoming cashier at a handover; at opening the cashier and
the witness who hands over the closed cage, at closing the cashier and the witness who takes
it. A count that differs from the books is recorded only with the reason. (Nevada MICS cage
and vault: accountability counted and signed at each shift change; 25 CFR 543.18(c);
N.J.A.C. 13:69D-1.21 discrepancy reports.)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import ZERO, money_text
from core.permissions import require_role
from core.roles import CASHIER, COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons.models import Cardroom
from tables.signatures import SignatureInput, Signed, signature_record, signature_verify, signing

from .. import cashier_books
from ..models import CageCount, CageShift, Variance
from ..selectors import CASH_DENOMINATIONS
from .common import count_parse, locked_cardroom, now_span, require_open_period, signed_payload
from .variances import variance_escalate

#: Who may witness the cage opened from, or closed into, the vault besides a cashier.
WITNESSES = (CASHIER, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


@dataclass(frozen=True)
class CountGiven:
    """What the counters found: chips by denomination and cash by bill, and why it differs
    from the books when it does."""

    chips: Mapping[str, Any]
    cash: Mapping[str, Any]
    note: str = ""


@signing
@transaction.atomic
def cage_open(
    *,
    cardroom: Cardroom,
    count: CountGiven,
    signature: SignatureInput | None,
    witness: SignatureInput | None,
    by: User,
) -> CageShift:
    """The cashier (``by``, signing as themselves) opens the closed cage with its count; a
    witness (another cashier, a floor supervisor or compliance) signs the count with them."""
    require_role(by, CASHIER, action="open the cage")
    cardroom = locked_cardroom(cardroom)
    if cashier_books.open_cage_shift(cardroom) is not None:
        raise Conflict("The cage is open already: hand it over, or close it.", field="cardroom")
    own = signature_verify(
        signature, capacity="incoming", roles=(CASHIER,), field="signature", signer=by
    )
    other = signature_verify(
        witness, capacity="outgoing", roles=WITNESSES, field="witness", signed_already=(by,)
    )
    record = _count_record(cardroom, CageCount.Kind.OPENING, count, None, other, own)
    return _shift_open(cardroom, record, by)


@signing
@transaction.atomic
def cage_handover(
    *,
    cardroom: Cardroom,
    count: CountGiven,
    signature: SignatureInput | None,
    incoming: SignatureInput | None,
    by: User,
) -> CageShift:
    """The cashier holding the cage (``by``, the outgoing) hands it to the next cashier: both
    count it and sign, each as themselves; the incoming cashier's shift starts."""
    cardroom, shift = held_cage(cardroom, by, action="hand over the cage")
    own = signature_verify(
        signature, capacity="outgoing", roles=(CASHIER,), field="signature", signer=by
    )
    other = signature_verify(
        incoming, capacity="incoming", roles=(CASHIER,), field="incoming", signed_already=(by,)
    )
    record = _count_record(cardroom, CageCount.Kind.HANDOVER, count, shift, own, other)
    return _shift_open(cardroom, record, other.signer)


@signing
@transaction.atomic
def cage_close(
    *,
    cardroom: Cardroom,
    count: CountGiven,
    signature: SignatureInput | None,
    witness: SignatureInput | None,
    by: User,
) -> CageCount:
    """The cashier holding the cage closes it with its closing count, a witness signing; the
    cage takes no entries until it is opened again."""
    cardroom, shift = held_cage(cardroom, by, action="close the cage")
    own = signature_verify(
        signature, capacity="outgoing", roles=(CASHIER,), field="signature", signer=by
    )
    other = signature_verify(
        witness, capacity="incoming", roles=WITNESSES, field="witness", signed_already=(by,)
    )
    return _count_record(cardroom, CageCount.Kind.CLOSING, count, shift, own, other)


def held_cage(cardroom: Cardroom, by: User, *, action: str) -> tuple[Cardroom, CageShift]:
    """The cardroom locked, and the open cage shift, which ``by`` must hold."""
    require_role(by, CASHIER, action=action)
    cardroom = locked_cardroom(cardroom)
    shift = cashier_books.open_cage_shift(cardroom)
    if shift is None:
        raise Conflict("The cage is closed: open it with its count first.", field="cardroom")
    if shift.cashier_id != by.pk:
        raise DomainError(
            f"The cage is held by {shift.cashier.get_full_name() or shift.cashier}: only the "
            f"cashier holding it may {action}.",
            field="cashier",
        )
    return cardroom, shift


def _count_record(
    cardroom: Cardroom,
    kind: str,
    count: CountGiven,
    ends: CageShift | None,
    outgoing: Signed,
    incoming: Signed,
) -> CageCount:
    span = now_span(cardroom)
    require_open_period(cardroom, span.day, span.shift)
    chips, chips_total = count_parse(
        count.chips, cardroom.chip_denominations, field="chips", largest=None
    )
    cash, cash_total = count_parse(count.cash, list(CASH_DENOMINATIONS), field="cash")
    books = cashier_books.cage_books(cardroom)
    variance = (chips_total + cash_total - books.total) if books.counted else ZERO
    note = count.note.strip()
    if books.counted and _differs(books, chips, cash_total) and not note:
        raise DomainError(
            f"The cage holds ${money_text(books.chips_total)} in chips and "
            f"${money_text(books.cash)} in cash by the books, and ${money_text(chips_total)} "
            f"and ${money_text(cash_total)} by this count: recount, or give the reason.",
            field="note",
        )
    record = CageCount.objects.create(
        cardroom=cardroom,
        kind=kind,
        ends=ends,
        gaming_day=span.day,
        chips=chips,
        chips_total=chips_total,
        cash=cash,
        cash_total=cash_total,
        expected_chips=books.chips if books.counted else None,
        expected_cash=books.cash if books.counted else None,
        variance=variance,
        entries_through=books.through,
        outgoing=outgoing.signer,
        incoming=incoming.signer,
        note=note,
        created_at=timezone.now(),
    )
    signature_record(record, outgoing)
    signature_record(record, incoming)
    _audit_count(record, outgoing, incoming)
    if variance:
        variance_escalate(
            cardroom=cardroom,
            source=Variance.Source.CAGE_COUNT,
            record=record,
            amount=variance,
            by=outgoing.signer,
            explanation=note,
            gaming_day=span.day,
            shift=span.shift,
        )
    return record


def _differs(books: cashier_books.CageBooks, chips: dict[str, int], cash: Decimal) -> bool:
    """Any denomination or the cash off the books: a $25 chip short and a $25 bill over is a
    difference too, though the totals agree."""
    return cash != books.cash or any(books.chips.get(d, 0) != n for d, n in chips.items())


def _shift_open(cardroom: Cardroom, count: CageCount, cashier: User) -> CageShift:
    return CageShift.objects.create(
        cardroom=cardroom, cashier=cashier, opening_count=count, opened_at=count.created_at
    )


def _audit_count(record: CageCount, outgoing: Signed, incoming: Signed) -> None:
    actions = {
        CageCount.Kind.OPENING: AuditAction.CAGE_OPENED,
        CageCount.Kind.HANDOVER: AuditAction.CAGE_HANDED_OVER,
        CageCount.Kind.CLOSING: AuditAction.CAGE_CLOSED,
    }
    actor = incoming.signer if record.kind == CageCount.Kind.OPENING else outgoing.signer
    audit_record(
        actor=actor,
        action=actions[CageCount.Kind(record.kind)],
        target=record,
        payload={
            "cardroom": record.cardroom_id,
            "gaming_day": record.gaming_day,
            "chips": record.chips,
            "chips_total": record.chips_total,
            "cash": record.cash,
            "cash_total": record.cash_total,
            "expected_chips": record.expected_chips,
            "expected_cash": record.expected_cash,
            "variance": record.variance,
            "note": record.note,
            "signed": signed_payload(outgoing, incoming),
        },
    )
