"""Drop boxes as counted, and the sign-off of a count's variance."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.money import MoneyField
from core.scoping import CardroomScoped

_USER = settings.AUTH_USER_MODEL


class DropCount(models.Model):
    """What two counters found in a table's drop box for one shift, cash by bill and chips by
    denomination, against the drop the books expect: the fees (the fee ledger) and, at a
    house-banked table, the cash for chips sold there. Expected figures are kept as they were
    at the count."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    cash = models.JSONField()
    chips = models.JSONField()
    cash_total = MoneyField()
    chips_total = MoneyField()
    total = MoneyField()
    expected_cash = MoneyField()
    expected_chips = MoneyField()
    expected_total = MoneyField()
    variance = MoneyField()  # total − expected_total
    counted_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    second_counter = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    note = models.TextField(blank=True)
    created_at = models.DateTimeField()

    objects = CardroomScoped["DropCount"].by("table__cardroom")

    class Meta:
        ordering = ["gaming_day", "shift", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift"], name="one_drop_count_per_box"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_day} {self.shift} drop {self.total}"


class VarianceSignOff(models.Model):
    """A floor supervisor's sign-off of a drop count's variance, with its explanation, bound
    to the amount signed: once a correction changes the variance, this sign-off no longer
    signs it (``cage.selectors.drop_signed_off``) and a new one is needed."""

    count = models.ForeignKey(DropCount, on_delete=models.PROTECT, related_name="sign_offs")
    amount = MoneyField()  # the variance signed off
    reason = models.TextField()
    signed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()

    class Meta:
        verbose_name = "variance sign-off"
        ordering = ["count", "id"]

    def __str__(self) -> str:
        return f"{self.count} signed off"
