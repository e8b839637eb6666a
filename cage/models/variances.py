"""Variances, wherever the cage finds them (a rack count against the books, a drop box against
the expected drop): every one is on the discrepancy report; over the cardroom's incident
threshold it raised an incident; over the regulator's it is on the regulator's list
(N.J.A.C. 13:69D-1.21; Nevada MICS; 25 CFR 543.18)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.money import MoneyField
from core.scoping import CardroomScoped

_USER = settings.AUTH_USER_MODEL


class Variance(models.Model):
    """One variance as it was found: its source record (``record_type`` ``cage.dropcount``,
    ``cage.inventorycount``, ``cage.dropcountcorrection``), its amount (over is positive) and
    what it raised. A corrected count's variance is a new row; the earlier one stays."""

    class Source(models.TextChoices):
        RACK_COUNT = "rack_count"
        DROP_COUNT = "drop_count"
        DROP_CORRECTION = "drop_correction"
        CAGE_COUNT = "cage_count"

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(
        "tables.Table", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    source = models.CharField(max_length=20, choices=Source.choices)
    record_type = models.CharField(max_length=60)
    record_id = models.PositiveBigIntegerField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    amount = MoneyField()
    explanation = models.TextField(blank=True)
    incident = models.ForeignKey(
        "patrons.Incident", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    regulator = models.BooleanField(default=False)  # over the regulator's threshold
    found_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    found_at = models.DateTimeField()

    objects = CardroomScoped["Variance"].by("cardroom")

    class Meta:
        ordering = ["gaming_day", "shift", "id"]
        indexes = [models.Index(fields=["cardroom", "gaming_day"])]

    def __str__(self) -> str:
        return f"{self.source} variance {self.amount}"
