"""A player's money held at the cage, and the cage's other cash types of 31 CFR 1021.311:
front money and safekeeping accounts (each deposit and withdrawal a row, with the balance after
it), markers (credit, issued as cash or as chips, and their payments) and currency exchanges.

Each row books the cage entries that move the cage's cash (or chips, for a marker issued in
chips), and each cash movement is on the player's cash log through those entries
(``CageEntry.cash_transaction``). All append-only: a correction is a new row.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.money import MoneyField
from core.scoping import CardroomScoped

from .cashier import CageEntry

_USER = settings.AUTH_USER_MODEL


class PlayerAccountEntry(models.Model):
    """One deposit (``amount`` above zero) to, or withdrawal (below zero) from, a player's front
    money or safekeeping account at the cage, and the account's balance after it (never below
    zero)."""

    class Account(models.TextChoices):
        FRONT_MONEY = "front_money", "front money"
        SAFEKEEPING = "safekeeping", "safekeeping"

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("patrons.Player", on_delete=models.PROTECT, related_name="+")
    account = models.CharField(max_length=12, choices=Account.choices)
    amount = MoneyField()
    balance = MoneyField()
    cage_entry = models.OneToOneField(CageEntry, on_delete=models.PROTECT, related_name="+")
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    objects = CardroomScoped["PlayerAccountEntry"].by("cardroom")

    class Meta:
        ordering = ["player", "account", "id"]
        verbose_name_plural = "player account entries"
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="account_entry_moves"),
            models.CheckConstraint(condition=Q(balance__gte=0), name="account_never_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.account} {self.amount} (balance {self.balance})"


class Marker(models.Model):
    """Credit the cardroom extends to a player at the cage: ``amount`` paid out in cash (on the
    cash log, an advance on a marker) or given in chips (not cash). Its payments reduce what
    is outstanding; a marker paid in full is closed."""

    class IssuedAs(models.TextChoices):
        CASH = "cash"
        CHIPS = "chips"

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("patrons.Player", on_delete=models.PROTECT, related_name="+")
    amount = MoneyField()
    issued_as = models.CharField(max_length=5, choices=IssuedAs.choices)
    cage_entry = models.OneToOneField(CageEntry, on_delete=models.PROTECT, related_name="+")
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    objects = CardroomScoped["Marker"].by("cardroom")

    class Meta:
        ordering = ["cardroom", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="marker_positive")]

    def __str__(self) -> str:
        return f"marker {self.pk} {self.amount}"


class MarkerPayment(models.Model):
    """A payment in cash on a marker, and what is outstanding after it (never below zero)."""

    marker = models.ForeignKey(Marker, on_delete=models.PROTECT, related_name="payments")
    amount = MoneyField()
    outstanding = MoneyField()
    cage_entry = models.OneToOneField(CageEntry, on_delete=models.PROTECT, related_name="+")
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["marker", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="marker_payment_positive"),
            models.CheckConstraint(condition=Q(outstanding__gte=0), name="marker_never_overpaid"),
        ]

    def __str__(self) -> str:
        return f"payment {self.amount} on marker {self.marker_id}"


class CurrencyExchange(models.Model):
    """Foreign currency (or large bills) exchanged for dollars: cash in and cash out of the same
    ``amount`` in US dollars, each on the cash log; what was handed over is kept as detail."""

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey("patrons.Player", on_delete=models.PROTECT, related_name="+")
    amount = MoneyField()
    currency = models.CharField(max_length=3)  # ISO 4217: "USD" for large bills
    foreign_amount = models.DecimalField(max_digits=14, decimal_places=2)
    received_entry = models.OneToOneField(CageEntry, on_delete=models.PROTECT, related_name="+")
    paid_entry = models.OneToOneField(CageEntry, on_delete=models.PROTECT, related_name="+")
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    objects = CardroomScoped["CurrencyExchange"].by("cardroom")

    class Meta:
        ordering = ["cardroom", "id"]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="exchange_positive")]

    def __str__(self) -> str:
        return f"exchange {self.foreign_amount} {self.currency} for {self.amount}"
