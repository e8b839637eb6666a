"""The cage as a department: each cashier's shift of accountability, the cage's counts, every
cage transaction, and the chips the cardroom brings into or takes out of circulation.

All append-only. A cashier's shift is opened by a count (``CageShift.opening_count``) and ended
by the next one (``CageCount.ends``): a handover count ends one cashier's shift and opens the
next's; a closing count ends the last and leaves the cage closed. Nothing is ever updated.
(Nevada MICS cage and vault; 25 CFR 543.18: cage accountability per shift, counted and signed
by the outgoing and incoming cashier.)
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.money import MoneyField
from core.scoping import CardroomScoped

_USER = settings.AUTH_USER_MODEL


class CageCount(models.Model):
    """A count of the cage: chips by denomination and cash by bill, against the books (the
    previous count plus every cage entry since, through ``entries_through``). Two people sign:
    the cashier giving up the cage (``outgoing``) and the one taking it (``incoming``); at
    opening the outgoing is the witness who hands over the closed cage, at closing the incoming
    is the witness who takes it into the vault. A count that differs from the books carries
    its ``note``."""

    class Kind(models.TextChoices):
        OPENING = "opening"
        HANDOVER = "handover"
        CLOSING = "closing"

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # The cashier's shift this count ends (none for an opening count).
    ends = models.OneToOneField(
        "CageShift", null=True, blank=True, on_delete=models.PROTECT, related_name="ended_by"
    )
    gaming_day = models.DateField()
    chips = models.JSONField()
    chips_total = MoneyField()
    cash = models.JSONField()
    cash_total = MoneyField()
    # The books at the count: chips by denomination and cash (none before the first count).
    expected_chips = models.JSONField(null=True, blank=True)
    expected_cash = MoneyField(null=True, blank=True)
    # (chips_total + cash_total) − (expected chips' total + expected_cash).
    variance = MoneyField()
    entries_through = models.PositiveBigIntegerField(default=0)
    outgoing = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    incoming = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    note = models.TextField(blank=True)
    created_at = models.DateTimeField()

    objects = CardroomScoped["CageCount"].by("cardroom")

    class Meta:
        ordering = ["cardroom", "id"]

    def __str__(self) -> str:
        return f"cage {self.kind} count {self.chips_total} + {self.cash_total}"


class CageShift(models.Model):
    """One cashier's accountability for the cage, from the count that opened it to the count
    that ends it (``ended_by``; open while there is none)."""

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    cashier = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    opening_count = models.OneToOneField(CageCount, on_delete=models.PROTECT, related_name="opens")
    opened_at = models.DateTimeField()

    objects = CardroomScoped["CageShift"].by("cardroom")

    class Meta:
        ordering = ["cardroom", "id"]

    def __str__(self) -> str:
        return f"cage shift {self.pk} ({self.cashier})"


class CageEntry(models.Model):
    """One cage transaction: chips by denomination into (+) or out of (−) the cage, and cash
    into (+) or out of (−) it. Recorded by the cashier holding the cage."""

    class Kind(models.TextChoices):
        CHIPS_SOLD_FOR_CASH = "chips_sold_for_cash"
        CHIPS_REDEEMED = "chips_redeemed"
        FILL_SENT = "fill_sent"
        FILL_RETURNED = "fill_returned"  # a prepared fill voided: its chips back in the cage
        CREDIT_RECEIVED = "credit_received"
        CASH_TO_VAULT = "cash_to_vault"
        CASH_FROM_VAULT = "cash_from_vault"
        DROP_DEPOSITED = "drop_deposited"
        CHIPS_ISSUED = "chips_issued"  # a ChipIssue: into (or out of) circulation, at the cage
        # A player's money at the cage (``player_accounts``): deposits in, withdrawals out.
        FRONT_MONEY = "front_money"
        SAFEKEEPING = "safekeeping"
        MARKER_ISSUED = "marker_issued"  # cash or chips out, on credit
        MARKER_PAID = "marker_paid"
        CURRENCY_EXCHANGE = "currency_exchange"  # cash in, then the same out

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    shift = models.ForeignKey(CageShift, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    gaming_day = models.DateField()
    chips = models.JSONField()  # denomination → pieces, signed
    chips_total = MoneyField()
    cash = MoneyField()
    reference = models.CharField(max_length=60, blank=True)
    # A player's cash at the cage is on the cash log too (MTL, CTR): the row it made.
    cash_transaction = models.OneToOneField(
        "patrons.CashTransaction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="cage_entry",
    )
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    objects = CardroomScoped["CageEntry"].by("cardroom")

    class Meta:
        ordering = ["cardroom", "id"]
        verbose_name_plural = "cage entries"
        indexes = [models.Index(fields=["cardroom", "gaming_day"])]

    def __str__(self) -> str:
        return f"cage {self.kind}: chips {self.chips_total}, cash {self.cash}"


class ChipIssue(models.Model):
    """Chips the cardroom brings into circulation (``issue``: new chips into the cage) or takes
    out of it (``withdrawal``: chips out of the cage, destroyed or stored), by denomination
    (positive pieces either way). The cashier records, a second person witnesses."""

    class Direction(models.TextChoices):
        ISSUE = "issue"
        WITHDRAWAL = "withdrawal"

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    direction = models.CharField(max_length=10, choices=Direction.choices)
    gaming_day = models.DateField()
    chips = models.JSONField()
    total = MoneyField()
    reason = models.TextField()
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    witness = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    objects = CardroomScoped["ChipIssue"].by("cardroom")

    class Meta:
        ordering = ["cardroom", "id"]

    def __str__(self) -> str:
        return f"chip {self.direction} {self.total}"
