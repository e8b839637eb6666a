"""Every cage transaction moves the cage's books: ``cage_entry_add`` records one, by the
cashier holding the cage, and refuses any that would take a denomination of the cage's chips,
or its cash, below zero. Cash to and from the vault and drop deposits (``cage_cash_move``),
and chips brought into or taken out of circulation (``chip_issue_record``, two people), are
entries too. (Nevada MICS cage and vault; 25 CFR 543.18: the cage's accountability moves only
by a recorded transaction.)
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import ZERO, money, money_text
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons.models import Cardroom, CashTransaction
from tables.signatures import SignatureInput, signature_record, signature_verify, signing

from .. import cashier_books
from ..models import CageEntry, CageShift, ChipIssue, Slip
from .cashier import held_cage
from .common import count_parse, now_span, require_open_period, signed_payload

Kind = CageEntry.Kind

#: Which way each kind moves the cage's chips and cash: +1 in, −1 out, 0 not at all.
DIRECTIONS: dict[str, tuple[int, int]] = {
    Kind.CHIPS_SOLD_FOR_CASH: (-1, 1),
    Kind.CHIPS_REDEEMED: (1, -1),
    Kind.FILL_SENT: (-1, 0),
    Kind.FILL_RETURNED: (1, 0),
    Kind.CREDIT_RECEIVED: (1, 0),
    Kind.CASH_TO_VAULT: (0, -1),
    Kind.CASH_FROM_VAULT: (0, 1),
    Kind.DROP_DEPOSITED: (1, 1),
}
#: Kinds recorded only by their own service (a player's cash goes on the cash log; chips
#: issued need their witness).
OWN_SERVICE: dict[str, str] = {
    Kind.CHIPS_SOLD_FOR_CASH: "cage_chips_sell",
    Kind.CHIPS_REDEEMED: "cage_chips_redeem",
    Kind.CHIPS_ISSUED: "chip_issue_record",
    Kind.FILL_RETURNED: "slip_void",
    Kind.FRONT_MONEY: "player_account_move",
    Kind.SAFEKEEPING: "player_account_move",
    Kind.MARKER_ISSUED: "marker_issue",
    Kind.MARKER_PAID: "marker_pay",
    Kind.CURRENCY_EXCHANGE: "currency_exchange",
}


@transaction.atomic
def cage_entry_add(
    *,
    cardroom: Cardroom,
    kind: str,
    chips: Mapping[str, Any],
    cash: object,
    reference: str,
    by: User,
) -> CageEntry:
    """One cage transaction by the cashier holding the cage: ``chips`` the pieces of each
    denomination that move and ``cash`` the amount, the way ``kind`` moves them (out for a
    fill sent, in for a credit received; what goes out may be given negative as well). Fills
    sent and credits received name their slip in ``reference``."""
    if kind not in Kind.values:
        raise DomainError(f"The kind is one of {', '.join(DIRECTIONS)}.", field="kind")
    if kind in OWN_SERVICE:
        raise DomainError(
            f"A {kind.replace('_', ' ')} entry is recorded by {OWN_SERVICE[kind]}.",
            field="kind",
        )
    _require_not_a_slips(cardroom, kind, reference)
    cardroom, shift = held_cage(cardroom, by, action="record a cage transaction")
    chip_sign, cash_sign = DIRECTIONS[kind]
    pieces, _ = count_parse(_unsigned(chips, chip_sign), cardroom.chip_denominations, field="chips")
    amount = money(cash, field="cash")
    if amount < ZERO and cash_sign < 0:
        amount = -amount  # an outflow given signed: the kind says the same
    if amount < ZERO:
        raise DomainError("The cash is $0.00 or more: the kind says which way.", field="cash")
    if (chip_sign == 0 and any(pieces.values())) or (cash_sign == 0 and amount):
        moved = "chips" if chip_sign == 0 else "cash"
        raise DomainError(f"A {kind.replace('_', ' ')} moves no {moved}.", field=moved)
    signed = {d: chip_sign * n for d, n in pieces.items() if n}
    return entry_write(
        cardroom, shift, kind, signed, cash_sign * amount, reference=reference, by=by
    )


def _require_not_a_slips(cardroom: Cardroom, kind: str, reference: str) -> None:
    """A fill or a credit with a slip books its own cage entry (when the cashier prepares or
    receives it): a plain entry naming a slip would book it twice. Chips sent to a table
    without a slip (its impress) name something else."""
    if kind not in (Kind.FILL_SENT, Kind.CREDIT_RECEIVED):
        return
    named = (reference or "").strip()
    for slip_kind, prefix in Slip.PREFIX.items():
        serial = named.removeprefix(f"{prefix}-")
        if (
            serial != named
            and serial.isdigit()
            and Slip.objects.filter(cardroom=cardroom, kind=slip_kind, serial=int(serial)).exists()
        ):
            raise DomainError(
                f"{named} books its own cage entry when the cashier prepares or receives it.",
                field="reference",
            )


def _unsigned(chips: Mapping[str, Any], sign: int) -> Mapping[str, Any]:
    """Pieces going out may be given as negative numbers (the way the books see them) or as
    positive ones (the way the kind says): either reads the same."""
    if sign >= 0 or not isinstance(chips, Mapping):
        return chips
    return {
        d: -n if isinstance(n, int) and not isinstance(n, bool) and n < 0 else n
        for d, n in chips.items()
    }


def entry_write(
    cardroom: Cardroom,
    shift: CageShift,
    kind: str,
    chips: dict[str, int],
    cash: Decimal,
    *,
    reference: str,
    by: User,
    cash_transaction: CashTransaction | None = None,
) -> CageEntry:
    """Write one entry (the cardroom locked, ``by`` holding the cage): refused if it moves
    nothing, or takes any denomination or the cash below zero by the books."""
    if not any(chips.values()) and not cash:
        raise DomainError("The entry moves no chips and no cash.", field="chips")
    span = now_span(cardroom)
    require_open_period(cardroom, span.day, span.shift)
    require_covered(cardroom, chips, cash)
    entry = CageEntry.objects.create(
        cardroom=cardroom,
        shift=shift,
        kind=kind,
        gaming_day=span.day,
        chips=chips,
        chips_total=cashier_books.pieces_total(chips),
        cash=cash,
        reference=reference.strip()[:60],
        cash_transaction=cash_transaction,
        by=by,
        created_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.CAGE_ENTRY_RECORDED,
        target=entry,
        payload={
            "cardroom": cardroom.pk,
            "kind": kind,
            "chips": chips,
            "chips_total": entry.chips_total,
            "cash": cash,
            "reference": entry.reference,
            "cash_transaction": cash_transaction.pk if cash_transaction else None,
        },
    )
    return entry


def require_covered(cardroom: Cardroom, chips: dict[str, int], cash: Decimal) -> None:
    """Refused if the move takes any denomination of the cage's chips, or its cash, below zero
    by the books."""
    books = cashier_books.cage_books(cardroom)
    for denomination, pieces in chips.items():
        if books.chips.get(denomination, 0) + pieces < 0:
            raise Conflict(
                f"The cage holds {books.chips.get(denomination, 0)} × ${denomination} by the "
                f"books: it cannot give {-pieces}.",
                field=f"chips.{denomination}",
            )
    if books.cash + cash < ZERO:
        raise Conflict(
            f"The cage holds ${money_text(books.cash)} in cash by the books: it cannot pay "
            f"${money_text(-cash)}.",
            field="cash",
        )


#: What ``cage_cash_move`` moves: cash only, except a drop box's chips, which come in too.
CASH_MOVES = (Kind.CASH_TO_VAULT, Kind.CASH_FROM_VAULT, Kind.DROP_DEPOSITED)


def cage_cash_move(
    *,
    cardroom: Cardroom,
    kind: str,
    amount: object,
    reference: str = "",
    chips: Mapping[str, Any] | None = None,
    by: User,
) -> CageEntry:
    """Cash to the vault, cash from the vault, or a counted drop deposited at the cage (its
    cash, and its chips by denomination)."""
    if kind not in CASH_MOVES:
        raise DomainError(f"The kind is one of {', '.join(CASH_MOVES)}.", field="kind")
    if kind != Kind.DROP_DEPOSITED and chips:
        raise DomainError("Cash to or from the vault moves no chips.", field="chips")
    value = money(amount, field="amount")
    if value < ZERO or (value == ZERO and kind != Kind.DROP_DEPOSITED):
        raise DomainError("The amount is above $0.00.", field="amount")
    return cage_entry_add(
        cardroom=cardroom,
        kind=kind,
        chips=chips or {},
        cash=value,
        reference=reference,
        by=by,
    )


@signing
@transaction.atomic
def chip_issue_record(
    *,
    cardroom: Cardroom,
    direction: str,
    chips: Mapping[str, Any],
    reason: str,
    witness: SignatureInput | None,
    by: User,
) -> ChipIssue:
    """Chips brought into circulation (``issue``: into the cage) or taken out of it
    (``withdrawal``: out of the cage), by the cashier holding the cage, witnessed by a floor
    supervisor or compliance signing as themselves."""
    if direction not in ChipIssue.Direction.values:
        raise DomainError("The direction is 'issue' or 'withdrawal'.", field="direction")
    cardroom, shift = held_cage(cardroom, by, action="issue or withdraw chips")
    pieces, total = count_parse(chips, cardroom.chip_denominations, field="chips")
    if not reason.strip():
        raise DomainError("Say why the chips are issued or withdrawn.", field="reason")
    signed = signature_verify(
        witness,
        capacity="witness",
        roles=(FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR),
        field="witness",
        signed_already=(by,),
    )
    sign = 1 if direction == ChipIssue.Direction.ISSUE else -1
    moved = {d: sign * n for d, n in pieces.items() if n}
    issue = ChipIssue.objects.create(
        cardroom=cardroom,
        direction=direction,
        gaming_day=now_span(cardroom).day,
        chips={d: n for d, n in pieces.items() if n},
        total=total,
        reason=reason.strip(),
        by=by,
        witness=signed.signer,
        created_at=timezone.now(),
    )
    reference = f"chip {direction} {issue.pk}"
    entry_write(cardroom, shift, Kind.CHIPS_ISSUED, moved, ZERO, reference=reference, by=by)
    signature_record(issue, signed)
    audit_record(
        actor=by,
        action=AuditAction.CHIPS_ISSUED,
        target=issue,
        payload={
            "direction": direction,
            "chips": issue.chips,
            "total": total,
            "reason": issue.reason,
            "signed": signed_payload(signed),
        },
    )
    return issue
