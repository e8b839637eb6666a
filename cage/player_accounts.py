"""Reads for a player's money at the cage: each account's balance (front money, safekeeping),
the markers and what is outstanding on each, the currency exchanges.

Summed in Python from the rows, exactly (``Decimal``; SQLite adds decimals as floating point).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db import models
from django.db.models import QuerySet

from core.money import ZERO
from patrons.models import Cardroom, Player

from .models import CurrencyExchange, Marker, PlayerAccountEntry


def account_balance(player: Player, account: str) -> Decimal:
    """The balance after the account's last entry (zero before the first)."""
    last = (
        PlayerAccountEntry.objects.filter(player=player, account=account)
        .order_by("-id")
        .values_list("balance", flat=True)
        .first()
    )
    return last if last is not None else ZERO


def marker_paid(marker: Marker) -> Decimal:
    return sum(marker.payments.values_list("amount", flat=True), ZERO)


def marker_outstanding(marker: Marker) -> Decimal:
    """What the player still owes on the marker: its amount less its payments."""
    return marker.amount - marker_paid(marker)


def markers(cardroom: Cardroom, *, player: Player | None = None) -> QuerySet[Marker]:
    rows = Marker.objects.filter(cardroom=cardroom)
    if player is not None:
        rows = rows.filter(player=player)
    return rows.select_related("player", "by").prefetch_related("payments").order_by("-id")


def exchanges(cardroom: Cardroom, *, player: Player | None = None) -> QuerySet[CurrencyExchange]:
    rows = CurrencyExchange.objects.filter(cardroom=cardroom)
    if player is not None:
        rows = rows.filter(player=player)
    return rows.select_related("player", "by").order_by("-id")


def players_with_money(cardroom: Cardroom) -> QuerySet[Player]:
    """The cardroom's players with a front money or safekeeping account, or a marker."""
    accounts = PlayerAccountEntry.objects.filter(cardroom=cardroom).values("player_id")
    owing = Marker.objects.filter(cardroom=cardroom).values("player_id")
    return (
        Player.objects.filter(cardroom=cardroom)
        .filter(models.Q(pk__in=accounts) | models.Q(pk__in=owing))
        .select_related("cardroom")
        .order_by("name", "id")
    )


@dataclass(frozen=True)
class MarkerState:
    marker: Marker
    paid: Decimal
    outstanding: Decimal

    @property
    def closed(self) -> bool:
        return self.outstanding == ZERO


def marker_state(marker: Marker) -> MarkerState:
    paid = sum((p.amount for p in marker.payments.all()), ZERO)
    return MarkerState(marker, paid, marker.amount - paid)


@dataclass(frozen=True)
class PlayerBalances:
    """What the cage holds for a player and what the player owes it."""

    player: Player
    front_money: Decimal
    safekeeping: Decimal
    markers: list[MarkerState]

    @property
    def markers_outstanding(self) -> Decimal:
        return sum((m.outstanding for m in self.markers), ZERO)


def player_balances(player: Player) -> PlayerBalances:
    return PlayerBalances(
        player=player,
        front_money=account_balance(player, PlayerAccountEntry.Account.FRONT_MONEY),
        safekeeping=account_balance(player, PlayerAccountEntry.Account.SAFEKEEPING),
        markers=[marker_state(m) for m in markers(player.cardroom, player=player)],
    )
