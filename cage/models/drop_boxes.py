"""Drop boxes and their custody (4 CCR §12384; 25 CFR 543.18; Nevada MICS count standards):
one box per table and shift, and a separate box for a player-funded pool where the table has
one, each with an identifier (``T3-20240301-day``); every step of its custody — removed from
the table, transported, stored, delivered to the count room, opened for the count — is a row
of its own naming who and when."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped

_USER = settings.AUTH_USER_MODEL


class DropBox(models.Model):
    """A table's drop box for one shift (``kind`` table), or its pool box (``kind`` pool)."""

    class Kind(models.TextChoices):
        TABLE = "table"
        POOL = "pool"

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.TABLE)
    identifier = models.CharField(max_length=80)
    issued_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    issued_at = models.DateTimeField()

    objects = CardroomScoped["DropBox"].by("cardroom")

    class Meta:
        ordering = ["gaming_day", "shift", "table", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift", "kind"], name="one_drop_box_per_shift"
            ),
            models.UniqueConstraint(fields=["cardroom", "identifier"], name="drop_box_identifier"),
        ]

    def __str__(self) -> str:
        return self.identifier


class DropBoxStep(models.Model):
    """One step of a box's custody, in the only order a box moves."""

    class Step(models.TextChoices):
        REMOVED = "removed"
        TRANSPORTED = "transported"
        STORED = "stored"
        DELIVERED = "delivered"
        OPENED = "opened"

    box = models.ForeignKey(DropBox, on_delete=models.PROTECT, related_name="steps")
    step = models.CharField(max_length=12, choices=Step.choices)
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["box", "id"]
        constraints = [
            models.UniqueConstraint(fields=["box", "step"], name="one_drop_box_step_each")
        ]

    def __str__(self) -> str:
        return f"{self.box} {self.step}"


#: The custody steps in their order.
STEPS = list(DropBoxStep.Step)
