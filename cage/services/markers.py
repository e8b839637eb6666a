"""Markers and currency exchanges at the cage, by the cashier holding it.

- A marker is credit: issued as cash (cash out, an advance on a marker, on the cash log) or as
  chips (the cage's chips out; no cash moves, so not on the cash log). Payments are cash in
  (a payment on a marker), partial or whole; what is outstanding never goes below zero, and a
  marker paid in full is closed.
- A currency exchange (foreign currency, or large bills) is cash in and cash out of the same
  amount in US dollars, each on the cash log; the currency and its amount are kept as detail.
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
from core.money import ZERO, money_text
from patrons.exclusions import alerting, player_screen
from patrons.models import CashKind, Player

from .. import player_accounts as selectors
from ..models import CageEntry, CurrencyExchange, Marker, MarkerPayment
from .cage_ledger import entry_write
from .common import count_parse
from .player_accounts import cash_entry, held_for_player, positive_amount


def marker_issue(
    *,
    player: Player,
    issued_as: str,
    by: User,
    amount: object = None,
    chips: Mapping[str, Any] | None = None,
) -> Marker:
    """The cashier issues ``player`` a marker: ``amount`` in cash, or ``chips`` by denomination
    (the marker is their value). The player is screened like a buy-in."""
    with alerting(by):
        return _marker_issue(player, issued_as, by, amount, chips)


@transaction.atomic
def _marker_issue(
    player: Player,
    issued_as: str,
    by: User,
    amount: object,
    chips: Mapping[str, Any] | None,
) -> Marker:
    if issued_as not in Marker.IssuedAs.values:
        raise DomainError("A marker is issued as 'cash' or as 'chips'.", field="issued_as")
    cardroom, shift, player = held_for_player(player, by, action="issue a marker")
    if issued_as == Marker.IssuedAs.CASH:
        if chips:
            raise DomainError("A marker issued as cash gives no chips.", field="chips")
        value = positive_amount(amount, cardroom)
        player_screen(action="take a marker", player=player, by=by)
        entry = cash_entry(
            cardroom,
            shift,
            player,
            kind=CashKind.MARKER_ADVANCE,
            amount=value,
            entry_kind=CageEntry.Kind.MARKER_ISSUED,
            by=by,
        )
    else:
        value, entry = _chips_out(cardroom, shift, player, chips, amount, by)
    marker = Marker.objects.create(
        cardroom=cardroom,
        player=player,
        amount=value,
        issued_as=issued_as,
        cage_entry=entry,
        by=by,
        created_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.MARKER_ISSUED,
        target=marker,
        payload={
            "player": player.pk,
            "amount": value,
            "issued_as": issued_as,
            "chips": entry.chips,
            "cash_transaction": entry.cash_transaction_id,
        },
    )
    return marker


def _chips_out(
    cardroom: Any,
    shift: Any,
    player: Player,
    chips: Mapping[str, Any] | None,
    amount: object,
    by: User,
) -> tuple[Decimal, CageEntry]:
    pieces, total = count_parse(
        chips or {},
        cardroom.chip_denominations,
        field="chips",
        largest=cardroom.largest_cage_amount,
    )
    if not total:
        raise DomainError("Give the marker's chips, by denomination.", field="chips")
    if amount not in (None, "") and positive_amount(amount, cardroom) != total:
        raise DomainError(
            f"The chips come to ${money_text(total)}: the marker's amount is theirs.",
            field="amount",
        )
    player_screen(action="take a marker", player=player, by=by)
    moved = {d: -n for d, n in pieces.items() if n}
    entry = entry_write(
        cardroom,
        shift,
        CageEntry.Kind.MARKER_ISSUED,
        moved,
        ZERO,
        reference=f"player {player.pk}: marker in chips",
        by=by,
    )
    return total, entry


@transaction.atomic
def marker_pay(*, marker: Marker, amount: object, by: User) -> MarkerPayment:
    """The player pays ``amount`` in cash on the marker: up to what is outstanding."""
    cardroom, shift, player = held_for_player(marker.player, by, action="take a marker payment")
    value = positive_amount(amount, cardroom)
    outstanding = selectors.marker_outstanding(marker)
    if outstanding == ZERO:
        raise Conflict(f"Marker {marker.pk} is paid in full: it is closed.", field="marker")
    if value > outstanding:
        raise DomainError(
            f"${money_text(outstanding)} is outstanding on marker {marker.pk}: a payment of "
            f"${money_text(value)} is more than it.",
            field="amount",
        )
    entry = cash_entry(
        cardroom,
        shift,
        player,
        kind=CashKind.MARKER_PAYMENT,
        amount=value,
        entry_kind=CageEntry.Kind.MARKER_PAID,
        by=by,
    )
    payment = MarkerPayment.objects.create(
        marker=marker,
        amount=value,
        outstanding=outstanding - value,
        cage_entry=entry,
        by=by,
        created_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.MARKER_PAID,
        target=payment,
        payload={
            "marker": marker.pk,
            "player": player.pk,
            "amount": value,
            "outstanding": payment.outstanding,
            "cash_transaction": entry.cash_transaction_id,
        },
    )
    return payment


def _currency(code: object) -> str:
    text = str(code or "").strip().upper()
    if len(text) != 3 or not text.isascii() or not text.isalpha():
        raise DomainError(
            "The currency is its three-letter code (EUR, MXN, USD).", field="currency"
        )
    return text


def _foreign_amount(value: object) -> Decimal:
    try:
        amount = Decimal(str(value)) if not isinstance(value, float) else Decimal("NaN")
    except ArithmeticError:
        amount = Decimal("NaN")
    if not amount.is_finite() or amount <= 0 or amount != amount.quantize(Decimal("0.01")):
        raise DomainError(
            "The foreign amount is above 0, in cents at most.", field="foreign_amount"
        )
    if amount >= Decimal(10**12):
        raise DomainError("That is more than the books can hold.", field="foreign_amount")
    return amount


@transaction.atomic
def currency_exchange(
    *, player: Player, amount: object, currency: object, foreign_amount: object, by: User
) -> CurrencyExchange:
    """The cashier takes ``foreign_amount`` of ``currency`` (or large bills, ``USD``) from the
    player and pays ``amount`` in dollars for it: cash in and cash out of ``amount``."""
    code, foreign = _currency(currency), _foreign_amount(foreign_amount)
    cardroom, shift, player = held_for_player(player, by, action="exchange currency")
    value = positive_amount(amount, cardroom)
    entries = [
        cash_entry(
            cardroom,
            shift,
            player,
            kind=kind,
            amount=value,
            entry_kind=CageEntry.Kind.CURRENCY_EXCHANGE,
            by=by,
        )
        for kind in (CashKind.CURRENCY_EXCHANGE_IN, CashKind.CURRENCY_EXCHANGE_OUT)
    ]
    exchange = CurrencyExchange.objects.create(
        cardroom=cardroom,
        player=player,
        amount=value,
        currency=code,
        foreign_amount=foreign,
        received_entry=entries[0],
        paid_entry=entries[1],
        by=by,
        created_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.CURRENCY_EXCHANGED,
        target=exchange,
        payload={
            "player": player.pk,
            "amount": value,
            "currency": code,
            "foreign_amount": str(foreign),
            "cash_transactions": [e.cash_transaction_id for e in entries],
        },
    )
    return exchange
