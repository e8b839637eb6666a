"""Table stacks and a house-banked table's rack: each movement one ledger entry, in bounds."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import MONEY_LIMIT, MoneyInput, money, money_text
from core.transactions import change_atomic
from engine.table import Banking
from patrons.age import player_age_screen
from patrons.cash import cash_transaction_record
from patrons.exclusions import player_screen
from patrons.models import CashTransaction, Player

from .. import selectors
from ..holds import hold_refusal
from ..models import HouseBankEntry, Seating, StackEntry, Table, TableCash, Tender
from .incidents import alerting
from .locks import seating_lock_for_change
from .racks import rack_require_counted, rack_value_move


def stack_add(
    *, seating: Seating, amount: MoneyInput, tender: str | None = None, by: User
) -> Seating:
    """More chips onto a seated player's stack, bought with cash or brought as chips; the
    player is screened against the exclusion lists as at a buy-in."""
    with alerting(by):
        return _stack_add(seating=seating, amount=amount, tender=tender, by=by)


@change_atomic()
def _stack_add(*, seating: Seating, amount: MoneyInput, tender: str | None, by: User) -> Seating:
    seating = seating_lock_for_change(seating, by, "add chips")
    if seating.exclusion_hold_id is not None:  # a held player buys no chips, whoever asks
        raise hold_refusal(seating, by=by, action="buy chips")
    stakes_fixed_check(seating)
    value = money(amount, field="amount")
    if not value:
        raise DomainError("Add an amount above $0.00.", field="amount")
    check_chips(seating.table, value, "amount")
    paid_with = tender_for(seating.table, tender)
    if paid_with == Tender.CASH:
        session = selectors.open_session(seating.table)
        assert session is not None  # seating_lock_for_change refuses a closed table
        rack_require_counted(seating.table, session, field="tender", action="sell chips for cash")
    player_screen(action="buy chips", player=seating.player, table=seating.table, by=by)
    player_age_screen(action="buy chips", player=seating.player, table=seating.table, by=by)
    stack_entry_add(
        seating=seating, amount=value, reason=StackEntry.Reason.ADD_ON, tender=paid_with, by=by
    )
    return seating


def stakes_fixed_check(seating: Seating) -> None:
    """Table stakes: what a player has in play is fixed once a hand starts, so chips are added
    between hands only — to any seat, in the hand or not (one waiting to wager would play
    them in this hand). Refused, naming the amount, until the hand settles."""
    number = selectors.hand_number_in_progress(seating.table)
    if number is not None:
        raise Conflict(
            f"Chips are added between hands only (table stakes): hand {number} is in progress "
            f"at {seating.table}. Add them to seat {seating.seat} ({seating.player}) once it "
            "settles.",
            field="amount",
        )


def tender_for(table: Table, tender: str | None) -> Tender:
    """How a buy-in or add-on is paid. By default: cash at a house-banked table (the dealer
    sells chips out of the rack and drops the cash), chips at a designated-player table,
    whose players buy their chips at the cage: it has no house bank to sell them from, so a
    cash buy-in there is refused."""
    if tender is None or tender == "":
        return Tender.CASH if table.banking == Banking.HOUSE else Tender.CHIPS
    if tender not in Tender.values:
        raise DomainError("Tender is 'cash' or 'chips'.", field="tender")
    if tender == Tender.CASH and table.banking != Banking.HOUSE:
        raise DomainError(
            f"{table} is a designated-player table: it has no house bank to sell chips for "
            "cash. Buy chips at the cage and bring them (tender 'chips').",
            field="tender",
        )
    return Tender(tender)


@change_atomic()
def stack_cash_out(*, seating: Seating, amount: MoneyInput | None = None, by: User) -> Seating:
    """Colour up: chips off the table stack — all of them unless an amount is given."""
    seating = seating_lock_for_change(seating, by, "cash out chips")
    if selectors.hand_in_progress(seating.table, seating=seating):
        raise Conflict(
            "Chips in a hand in progress stay on the table until it settles.", field="amount"
        )
    value = seating.stack if amount is None else money(amount, field="amount")
    if not value:
        raise DomainError("There are no chips to cash out.", field="amount")
    if amount is not None:
        check_chips(seating.table, value, "amount")  # all of a stack may hold odd cents
    if value > seating.stack:
        raise DomainError(
            f"The stack holds ${money_text(seating.stack)}; ${money_text(value)} cannot be "
            "cashed out.",
            field="amount",
        )
    stack_entry_add(
        seating=seating,
        amount=-value,
        reason=StackEntry.Reason.CASH_OUT,
        tender=Tender.CHIPS,
        by=by,
    )
    return seating


def stack_entry_add(
    *,
    seating: Seating,
    amount: Decimal,
    reason: StackEntry.Reason,
    tender: Tender | None = None,
    by: User,
    field: str = "amount",
    cash_kind: str | None = None,
) -> StackEntry:
    """One ledger entry and the stack it moves, on the gaming day and shift it falls in. The
    caller holds the seating's row lock (in the project's lock order); the stack stays within
    its bounds (``stack_bounds_check``). Chips bought for cash at a house-banked table come
    out of its rack: a house bank entry in the same transaction; and the cash goes on the
    player's cash log (``patrons.cash``), which may refuse it (over $10,000.00 in the gaming
    day without identity on file), as ``cash_kind`` (31 CFR 1021.311; by default a purchase
    of chips). A sale the rack cannot cover by the books is refused, naming ``field``."""
    stack_bounds_check([(seating, amount)], field="amount")
    now = timezone.now()
    table = seating.table
    span = selectors.shift_of(table.cardroom, now)
    entry = StackEntry.objects.create(
        seating=seating,
        amount=amount,
        reason=reason,
        actor=by,
        created_at=now,
        tender=tender or "",
        gaming_day=span.day,
        shift=span.shift,
    )
    seating.stack += amount
    seating.save(update_fields=["stack"])
    payload: dict[str, Any] = {"amount": amount, "stack": seating.stack, "entry": entry.pk}
    if tender:
        payload["tender"] = str(tender)
    if tender == Tender.CASH and amount > 0:
        payload |= _cash_sale(entry, field=field, cash_kind=cash_kind, by=by)
    audit_record(actor=by, action=_STACK_ACTIONS[reason], target=seating, payload=payload)
    return entry


def _cash_sale(entry: StackEntry, *, field: str, cash_kind: str | None, by: User) -> dict[str, Any]:
    """Chips sold for cash at a house-banked table: out of its rack (a house bank entry) and on
    the player's cash log as ``cash_kind``; what the stack entry's audit event adds."""
    seating, amount = entry.seating, entry.amount
    table = seating.table
    rack_value_move(table_id=table.pk, amount=-amount, field=field, what="a chip sale")
    bank = house_bank_entry_add(
        table=table,
        amount=-amount,
        reason=HouseBankEntry.Reason.CHIPS_SOLD,
        stack_entry=entry,
        by=by,
    )
    player = Player.objects.select_for_update().get(pk=seating.player_id)
    cash = cash_transaction_record(
        cardroom=table.cardroom,
        player=player,
        direction=CashTransaction.Direction.IN,
        amount=amount,
        place=CashTransaction.Place.TABLE,
        at=entry.created_at,
        by=by,
        kind=cash_kind,
    )
    TableCash.objects.create(cash_transaction=cash, table=table, stack_entry=entry)
    added: dict[str, Any] = {"bank_entry": bank.pk, "cash_transaction": cash.pk}
    if cash_kind:
        added["cash_kind"] = cash_kind
    return added


def house_bank_entry_add(
    *,
    table: Table,
    amount: Decimal,
    reason: HouseBankEntry.Reason,
    by: User,
    stack_entry: StackEntry | None = None,
    reference: str = "",
) -> HouseBankEntry:
    """One movement of a house-banked table's rack, on the gaming day and shift it falls in
    (the caller holds the table's lock and records its own audit event)."""
    now = timezone.now()
    span = selectors.shift_of(table.cardroom, now)
    return HouseBankEntry.objects.create(
        table=table,
        amount=amount,
        reason=reason,
        stack_entry=stack_entry,
        reference=reference,
        gaming_day=span.day,
        shift=span.shift,
        actor=by,
        created_at=now,
    )


def stack_bounds_check(
    moves: Iterable[tuple[Seating, Decimal]], *, field: str, remedy: str = ""
) -> None:
    """Refuse chips that would take a stack below zero (chips on the table are never a debt;
    also a DB constraint) or to ``MONEY_LIMIT`` (more than a stack's column holds). ``moves``
    pairs locked seatings with the chips each would gain (negative: lose); every stack is
    checked before any moves, and the refusal names each one at fault, under ``field``.
    ``remedy`` is the caller's advice, added to a refusal of a negative stack."""
    pairs = list(moves)
    short = [(seating, amount) for seating, amount in pairs if seating.stack + amount < 0]
    if short:
        raise DomainError(
            "; ".join(
                f"{seating.player} at seat {seating.seat} has ${money_text(seating.stack)} on "
                f"the table, and ${money_text(-amount)} would come off it"
                for seating, amount in short
            )
            + ": a stack never goes negative."
            + (f" {remedy}" if remedy else ""),
            field=field,
        )
    full = [(seating, amount) for seating, amount in pairs if seating.stack + amount >= MONEY_LIMIT]
    if full:
        raise DomainError(
            "; ".join(
                f"{seating.player} at seat {seating.seat} has ${money_text(seating.stack)} on "
                f"the table, and ${money_text(amount)} more would pass "
                f"${money_text(MONEY_LIMIT - Decimal('0.01'))}"
                for seating, amount in full
            )
            + ": that is the most a stack holds.",
            field=field,
        )


# The audit action of each movement ``stack_entry_add`` books one at a time; a settlement's
# payouts and corrections move every stack at once and are audited with the hand.
_STACK_ACTIONS = {
    StackEntry.Reason.BUY_IN: AuditAction.STACK_BUY_IN,
    StackEntry.Reason.ADD_ON: AuditAction.STACK_ADD_ON,
    StackEntry.Reason.CASH_OUT: AuditAction.STACK_CASH_OUT,
    StackEntry.Reason.WAGER: AuditAction.STACK_WAGER,
    StackEntry.Reason.DP_BANK: AuditAction.STACK_DP_BANK,
}


def check_chips(table: Table, amount: Decimal, field: str) -> None:
    """Only chips play (R5): amounts onto a stack are whole chips of the table's unit."""
    unit = selectors.current_settings(table).chip_unit
    if amount % unit:
        raise DomainError(
            f"${money_text(amount)} is not a whole number of ${money_text(unit)} chips (R5).",
            field=field,
        )
