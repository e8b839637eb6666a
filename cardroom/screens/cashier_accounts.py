"""The cashier's screen, a player's money at the cage: front money and safekeeping deposits and
withdrawals, markers issued and paid, currency exchanged, and a player's balances (by name).
Each form says what it will do and asks first (``ACTIONS``: the sentence, the service); the
cashier's screen registers them (``cashier.py``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from cage import player_accounts, services
from cage.models import Marker
from patrons.models import Cardroom, Player

from .forms.cashier_accounts import (
    BalancesForm,
    ExchangeForm,
    MarkerForm,
    MarkerPaymentForm,
    PlayerAccountForm,
)


def _dollars(value: Decimal | int) -> str:
    return f"${Decimal(value):,.2f}"


def _chips(cardroom: Cardroom) -> dict[str, list[str]]:
    return {"chips": list(cardroom.chip_denominations)}


def _player(cardroom: Cardroom, pk: int) -> Player | None:
    return Player.objects.filter(pk=pk, cardroom=cardroom).first()


def _account_sentence(form: Any, cardroom: Cardroom) -> str | None:
    data = form.cleaned_data
    player = _player(cardroom, data["player"])
    if player is None:
        return None
    words = "front money" if data["account"] == "front_money" else "safekeeping"
    balance = player_accounts.account_balance(player, data["account"])
    doing = "Takes a deposit of" if data["direction"] == "deposit" else "Pays out a withdrawal of"
    return (
        f"{doing} {_dollars(data['amount'])} cash to {player}'s {words} (balance now "
        f"{_dollars(balance)}), on the player's cash log."
    )


def _marker_sentence(form: Any, cardroom: Cardroom) -> str | None:
    data = form.cleaned_data
    player = _player(cardroom, data["player"])
    if player is None:
        return None
    if data["issued_as"] == "chips":
        return f"Issues {player} a marker of {_dollars(form.total('chips'))} in chips."
    return (
        f"Issues {player} a marker of {_dollars(data['amount'] or 0)} paid in cash, on the "
        "player's cash log."
    )


def _payment_sentence(form: Any, cardroom: Cardroom) -> str | None:
    marker = Marker.objects.filter(pk=form.cleaned_data["marker"], cardroom=cardroom).first()
    if marker is None:
        return None
    outstanding = player_accounts.marker_outstanding(marker)
    return (
        f"Takes {_dollars(form.cleaned_data['amount'])} cash from {marker.player} on marker "
        f"{marker.pk} ({_dollars(outstanding)} outstanding), on the player's cash log."
    )


def _exchange_sentence(form: Any, cardroom: Cardroom) -> str | None:
    data = form.cleaned_data
    player = _player(cardroom, data["player"])
    if player is None:
        return None
    return (
        f"Takes {data['foreign_amount']:,.2f} {data['currency'].upper()} from {player} and pays "
        f"{_dollars(data['amount'])}: cash in and cash out on the player's cash log."
    )


def _account_record(request: HttpRequest, cardroom: Cardroom, form: Any) -> object:
    data = form.cleaned_data
    return services.player_account_move(
        player=get_object_or_404(Player, pk=data["player"], cardroom=cardroom),
        account=data["account"],
        direction=data["direction"],
        amount=data["amount"],
        by=request.user,  # type: ignore[arg-type]
    )


def _marker_record(request: HttpRequest, cardroom: Cardroom, form: Any) -> object:
    data = form.cleaned_data
    chips = data["issued_as"] == "chips"
    return services.marker_issue(
        player=get_object_or_404(Player, pk=data["player"], cardroom=cardroom),
        issued_as=data["issued_as"],
        amount=None if chips else data["amount"],
        chips=form.pieces("chips") if chips else None,
        by=request.user,  # type: ignore[arg-type]
    )


def _payment_record(request: HttpRequest, cardroom: Cardroom, form: Any) -> object:
    marker = get_object_or_404(Marker, pk=form.cleaned_data["marker"], cardroom=cardroom)
    return services.marker_pay(
        marker=marker,
        amount=form.cleaned_data["amount"],
        by=request.user,  # type: ignore[arg-type]
    )


def _exchange_record(request: HttpRequest, cardroom: Cardroom, form: Any) -> object:
    data = form.cleaned_data
    return services.currency_exchange(
        player=get_object_or_404(Player, pk=data["player"], cardroom=cardroom),
        amount=data["amount"],
        currency=data["currency"],
        foreign_amount=data["foreign_amount"],
        by=request.user,  # type: ignore[arg-type]
    )


@dataclass(frozen=True)
class MoneyAction:
    """One form of the panel: its key in the page's forms, its class, what it says before it
    records, and the service it calls."""

    key: str
    form_class: type[Any]
    sentence: Callable[[Any, Cardroom], str | None]
    record: Callable[[HttpRequest, Cardroom, Any], object]
    pieces: bool = False

    def form(self, cardroom: Cardroom, data: Any = None) -> Any:
        extra = {"denominations": _chips(cardroom)} if self.pieces else {}
        return self.form_class(data, auto_id=f"id_{self.key}_%s", **extra)

    def say(self, request: HttpRequest, cardroom: Cardroom) -> str | None:
        form = self.form(cardroom, request.POST)
        return self.sentence(form, cardroom) if form.is_valid() else None


#: The panel's actions, by the ``<action>`` of their URL.
ACTIONS = {
    "player-account": MoneyAction("account", PlayerAccountForm, _account_sentence, _account_record),
    "marker": MoneyAction("marker", MarkerForm, _marker_sentence, _marker_record, pieces=True),
    "marker-payment": MoneyAction(
        "marker_payment", MarkerPaymentForm, _payment_sentence, _payment_record
    ),
    "exchange": MoneyAction("exchange", ExchangeForm, _exchange_sentence, _exchange_record),
}


def blank_forms(cardroom: Cardroom) -> dict[str, Any]:
    return {action.key: action.form(cardroom) for action in ACTIONS.values()}


def balances_context(request: HttpRequest, cardroom: Cardroom) -> dict[str, Any]:
    """The player asked for (``?player=``), by name, with their balances and markers."""
    form = BalancesForm(request.GET, auto_id="id_balances_%s")
    player = None
    if form.is_valid() and form.cleaned_data["player"]:
        player = _player(cardroom, form.cleaned_data["player"])
    return {
        "balances_form": form,
        "balances": player_accounts.player_balances(player) if player else None,
        "open_markers": [
            state
            for state in map(player_accounts.marker_state, player_accounts.markers(cardroom)[:50])
            if not state.closed
        ],
    }
