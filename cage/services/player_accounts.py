"""A player's front money and safekeeping at the cage: deposits (cash in) and withdrawals (cash
out), by the cashier holding the cage. Each moves the cage's cash (a cage entry) and goes on
the player's cash log with its 31 CFR 1021.311 kind in the same transaction — the MTL, the CTR
and its identity requirement, the structuring watch (``patrons.cash``). An account's balance
never goes below zero: a withdrawal of more than it is refused.

``held_for_player`` and ``cash_entry`` are shared with markers and currency exchanges."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError
from core.money import ZERO, money, money_text
from patrons.cash import cash_transaction_record
from patrons.exclusions import alerting, player_screen
from patrons.models import KIND_DIRECTION, Cardroom, CashKind, CashTransaction, Player

from .. import player_accounts as selectors
from ..models import CageEntry, CageShift, PlayerAccountEntry
from .cage_ledger import entry_write, require_covered
from .cashier import held_cage

Account = PlayerAccountEntry.Account
#: Each account's cash log kinds: (deposit, withdrawal).
ACCOUNT_KINDS: dict[str, tuple[str, str]] = {
    Account.FRONT_MONEY: (CashKind.FRONT_MONEY_DEPOSIT, CashKind.FRONT_MONEY_WITHDRAWAL),
    Account.SAFEKEEPING: (CashKind.SAFEKEEPING_DEPOSIT, CashKind.SAFEKEEPING_WITHDRAWAL),
}
DIRECTIONS = ("deposit", "withdrawal")


def positive_amount(value: object, cardroom: Cardroom, *, field: str = "amount") -> Decimal:
    """An amount above $0.00 and no more than the cardroom's largest cage amount."""
    amount = money(value, field=field)
    if amount <= ZERO:
        raise DomainError("The amount is above $0.00.", field=field)
    if amount > cardroom.largest_cage_amount:
        raise DomainError(
            f"${money_text(amount)} is more than the cardroom's largest cage amount "
            f"(${money_text(cardroom.largest_cage_amount)}).",
            field=field,
        )
    return amount


def held_for_player(player: Player, by: User, *, action: str) -> tuple[Cardroom, CageShift, Player]:
    """The cardroom locked with the open cage ``by`` holds, then the player's row locked (the
    cash log sums one player's transactions one after the other)."""
    cardroom, shift = held_cage(player.cardroom, by, action=action)
    locked = Player.objects.select_for_update().select_related("cardroom").get(pk=player.pk)
    return cardroom, shift, locked


def cash_entry(
    cardroom: Cardroom,
    shift: CageShift,
    player: Player,
    *,
    kind: str,
    amount: Decimal,
    entry_kind: str,
    by: User,
) -> CageEntry:
    """The player's cash of ``kind`` on the cash log and in the cage's books (in: the cage's
    cash grows; out: it shrinks, refused if the cage cannot cover it). The caller holds the
    cage and the player's lock."""
    direction = KIND_DIRECTION[kind]
    cash = amount if direction == CashTransaction.Direction.IN else -amount
    require_covered(cardroom, {}, cash)
    row = cash_transaction_record(
        cardroom=cardroom,
        player=player,
        direction=direction,
        amount=amount,
        place=CashTransaction.Place.CAGE,
        by=by,
        kind=kind,
    )
    reference = f"player {player.pk}: {CashKind(kind).label}"
    return entry_write(
        cardroom, shift, entry_kind, {}, cash, reference=reference, by=by, cash_transaction=row
    )


def player_account_move(
    *, player: Player, account: str, direction: str, amount: object, by: User
) -> PlayerAccountEntry:
    """The cashier takes a deposit into (``deposit``) or pays a withdrawal out of
    (``withdrawal``) the player's ``account`` (front money or safekeeping). A front money
    deposit screens the player against the exclusion lists like a buy-in."""
    with alerting(by):
        return _account_move(player, account, direction, amount, by)


@transaction.atomic
def _account_move(
    player: Player, account: str, direction: str, amount: object, by: User
) -> PlayerAccountEntry:
    if account not in ACCOUNT_KINDS:
        raise DomainError("The account is front money or safekeeping.", field="account")
    if direction not in DIRECTIONS:
        raise DomainError("The direction is 'deposit' or 'withdrawal'.", field="direction")
    words = Account(account).label
    cardroom, shift, player = held_for_player(player, by, action=f"record {words} at the cage")
    value = positive_amount(amount, cardroom)
    balance = selectors.account_balance(player, account)
    depositing = direction == "deposit"
    if not depositing and value > balance:
        raise DomainError(
            f"{player}'s {words} balance is ${money_text(balance)}: a withdrawal of "
            f"${money_text(value)} is more than it.",
            field="amount",
        )
    if depositing and account == Account.FRONT_MONEY:
        player_screen(action="deposit front money", player=player, by=by)
    kind = ACCOUNT_KINDS[account][0 if depositing else 1]
    entry_kind = (
        CageEntry.Kind.FRONT_MONEY if account == Account.FRONT_MONEY else CageEntry.Kind.SAFEKEEPING
    )
    entry = cash_entry(
        cardroom, shift, player, kind=kind, amount=value, entry_kind=entry_kind, by=by
    )
    signed = value if depositing else -value
    row = PlayerAccountEntry.objects.create(
        cardroom=cardroom,
        player=player,
        account=account,
        amount=signed,
        balance=balance + signed,
        cage_entry=entry,
        by=by,
        created_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.PLAYER_ACCOUNT_DEPOSIT
        if depositing
        else AuditAction.PLAYER_ACCOUNT_WITHDRAWAL,
        target=row,
        payload={
            "player": player.pk,
            "account": account,
            "amount": value,
            "balance": row.balance,
            "cash_transaction": entry.cash_transaction_id,
        },
    )
    return row
