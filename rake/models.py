"""The fee ledger (R12): every collection fee, per table and gaming day. Append-only. Which
hand and settlement booked a fee is wagers' to say (``wagers.models.FeeBooking``)."""

from django.db import models

from core.money import MoneyField
from core.scoping import CardroomScoped


class FeeEntry(models.Model):
    class Payer(models.TextChoices):
        SPOT = "spot"
        DESIGNATED_PLAYER = "designated_player"

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="fees")
    gaming_day = models.DateField()  # in the cardroom's time zone, from its day-start hour
    rake_mode = models.CharField(max_length=20)
    payer = models.CharField(max_length=20, choices=Payer.choices)
    seat = models.PositiveSmallIntegerField()
    amount = MoneyField()  # negative in a reversal
    created_at = models.DateTimeField()
    shift = models.CharField(max_length=20, blank=True)  # empty on entries made before shifts
    # A correction's fees of a hand settled on another gaming day (or shift) name it.
    adjusts_day = models.DateField(null=True, blank=True)
    adjusts_shift = models.CharField(max_length=20, blank=True)

    objects = CardroomScoped["FeeEntry"].by("table__cardroom")

    class Meta:
        ordering = ["table", "gaming_day", "id"]
        verbose_name_plural = "fee entries"
        indexes = [
            models.Index(fields=["table", "gaming_day"]),
            models.Index(fields=["gaming_day", "shift"], name="fee_day_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_day} fee {self.amount}"
