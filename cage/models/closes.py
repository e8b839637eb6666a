"""Shift and gaming-day closes."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped

_USER = settings.AUTH_USER_MODEL


class ShiftClose(models.Model):
    """A shift of a gaming day, closed by a floor supervisor once every count is in;
    ``figures`` are its statistics as closed."""

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    closed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField()
    figures = models.JSONField()

    objects = CardroomScoped["ShiftClose"].by("cardroom")

    class Meta:
        ordering = ["-gaming_day", "-closed_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["cardroom", "gaming_day", "shift"], name="shift_closed_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.cardroom} {self.gaming_day} {self.shift} closed"


class DayClose(models.Model):
    """A gaming day signed off by compliance: locked from then on. ``figures`` are its
    statistics as closed; ``checkpoint`` the audit chain's verified head at the close."""

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    closed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField()
    figures = models.JSONField()
    checkpoint = models.ForeignKey(
        "audit.Checkpoint", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = CardroomScoped["DayClose"].by("cardroom")

    class Meta:
        ordering = ["-gaming_day"]
        constraints = [
            models.UniqueConstraint(fields=["cardroom", "gaming_day"], name="day_closed_once")
        ]

    def __str__(self) -> str:
        return f"{self.cardroom} {self.gaming_day} closed"
