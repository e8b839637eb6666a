"""What a drop count keeps beside its figures (4 CCR §12385): the count team's further
members where the cardroom counts with more than two, the originals of fill and credit slips
found in the box, and the initialled correction of a mistyped count (the original stays)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.money import MoneyField

from .drop import DropCount

_USER = settings.AUTH_USER_MODEL


class DropCountCounter(models.Model):
    """A member of the count team beyond the two on the count's own columns, who signed."""

    count = models.ForeignKey(DropCount, on_delete=models.PROTECT, related_name="counters")
    counter = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()

    class Meta:
        ordering = ["count", "id"]
        constraints = [
            models.UniqueConstraint(fields=["count", "counter"], name="one_counter_once")
        ]

    def __str__(self) -> str:
        return f"{self.count} counted by {self.counter}"


class DropSlipOriginal(models.Model):
    """The serial of a fill or credit slip's original, found in the box at its count."""

    count = models.ForeignKey(DropCount, on_delete=models.PROTECT, related_name="slip_originals")
    serial = models.CharField(max_length=40)

    class Meta:
        ordering = ["count", "id"]
        constraints = [
            models.UniqueConstraint(fields=["count", "serial"], name="one_original_per_serial")
        ]

    def __str__(self) -> str:
        return f"{self.count}: slip {self.serial}"


class DropCountCorrection(models.Model):
    """A mistyped count corrected: the figures as they should have been entered, initialled
    and signed by the member of the count team who corrects them. The latest correction is
    the count's figures now; the original and every earlier correction stay."""

    count = models.ForeignKey(DropCount, on_delete=models.PROTECT, related_name="corrections")
    cash = models.JSONField()
    chips = models.JSONField()
    cash_total = MoneyField()
    chips_total = MoneyField()
    total = MoneyField()
    variance = MoneyField()  # total − the count's expected_total
    reason = models.TextField()
    initials = models.CharField(max_length=5)
    corrected_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["count", "id"]

    def __str__(self) -> str:
        return f"{self.count} corrected to {self.total}"
