"""Forms of the cashier's screen for a player's money at the cage: front money and safekeeping,
markers and their payments, currency exchanges, and the player whose balances to show."""

from __future__ import annotations

from django import forms

from cage.models import Marker, PlayerAccountEntry
from core.inputs import AsciiDigitsForm

from .cage import PiecesForm


def _amount(label: str, *, required: bool = True) -> forms.DecimalField:
    return forms.DecimalField(
        max_digits=12, decimal_places=2, min_value=0, required=required, label=label
    )


class PlayerAccountForm(AsciiDigitsForm):
    player = forms.IntegerField(min_value=1, label="Player number")
    account = forms.ChoiceField(choices=PlayerAccountEntry.Account.choices)
    direction = forms.ChoiceField(
        choices=[("deposit", "Deposit (cash in)"), ("withdrawal", "Withdrawal (cash out)")]
    )
    amount = _amount("Amount")

    def service_fields(self) -> dict[str, str]:
        return {"cashier": "player", "cardroom": "player", "kind": "account"}


class MarkerForm(PiecesForm):
    player = forms.IntegerField(min_value=1, label="Player number")
    issued_as = forms.ChoiceField(choices=Marker.IssuedAs.choices, label="Issued as")
    amount = _amount("Amount (as cash)", required=False)

    def service_fields(self) -> dict[str, str]:
        return super().service_fields() | {"cashier": "player", "cardroom": "player"}


class MarkerPaymentForm(AsciiDigitsForm):
    marker = forms.IntegerField(min_value=1, label="Marker number")
    amount = _amount("Paid in cash")

    def service_fields(self) -> dict[str, str]:
        return {"cashier": "marker", "cardroom": "marker", "player": "marker"}


class ExchangeForm(AsciiDigitsForm):
    player = forms.IntegerField(min_value=1, label="Player number")
    currency = forms.CharField(max_length=3, label="Currency (EUR, MXN; USD for bills)")
    foreign_amount = forms.DecimalField(
        max_digits=14, decimal_places=2, min_value=0, label="Amount handed over"
    )
    amount = _amount("US dollars paid")

    def service_fields(self) -> dict[str, str]:
        return {"cashier": "player", "cardroom": "player"}


class BalancesForm(AsciiDigitsForm):
    player = forms.IntegerField(min_value=1, required=False, label="Player number")
