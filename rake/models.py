"""The fee ledger (R12): every collection fee, per table and gaming day. Append-only."""

from django.db import models

from cardroom.kernel.money import MoneyField


class FeeEntry(models.Model):
    class Payer(models.TextChoices):
        SPOT = "spot"
        DESIGNATED_PLAYER = "designated_player"

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="fees")
    gaming_day = models.DateField()  # in the cardroom's time zone, from its day-start hour
    hand = models.ForeignKey("wagers.Hand", on_delete=models.PROTECT, related_name="fees")
    settlement = models.ForeignKey(
        "wagers.Settlement", on_delete=models.PROTECT, related_name="fees"
    )
    rake_mode = models.CharField(max_length=20)
    payer = models.CharField(max_length=20, choices=Payer.choices)
    seat = models.PositiveSmallIntegerField()
    amount = MoneyField()  # negative in a reversal
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["table", "gaming_day", "id"]
        verbose_name_plural = "fee entries"
        indexes = [models.Index(fields=["table", "gaming_day"])]

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_day} fee {self.amount}"
