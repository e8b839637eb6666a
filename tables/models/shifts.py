"""The cardroom's shifts, versioned from a gaming day on.

A definition is never edited: a change makes a new one, in force from its ``effective_from``
gaming day, so that every record keeps the shift it was booked in (Nevada MICS and 25 CFR
543.10 reconcile each table by shift; a record whose shift name no longer exists would read
$0). Append-only in the database (``core.db.AppendOnly`` in the migrations).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped
from patrons.models import Cardroom

_USER = settings.AUTH_USER_MODEL


class ShiftDefinition(models.Model):
    """The cardroom's shifts from ``effective_from`` on: ``shifts`` is ``[[name, "HH:MM"],
    …]`` in the order of the gaming day, each running from its start (wall clock, in the
    cardroom's zone) to the next one's; the first starts when the gaming day does. The
    definition in force on a day is the newest whose ``effective_from`` is on or before it
    (the later one made wins on the same day); a cardroom with none has one shift, ``day``,
    the whole gaming day (``tables.shift_selectors``)."""

    cardroom = models.ForeignKey(
        Cardroom, on_delete=models.PROTECT, related_name="shift_definitions"
    )
    effective_from = models.DateField()
    shifts = models.JSONField()
    # Empty on the definition carried over from before shifts were versioned.
    defined_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    defined_at = models.DateTimeField()

    objects = CardroomScoped["ShiftDefinition"].by("cardroom")

    class Meta:
        ordering = ["cardroom", "-effective_from", "-id"]
        indexes = [models.Index(fields=["cardroom", "effective_from"], name="shiftdef_from")]

    def __str__(self) -> str:
        names = ", ".join(f"{name} {start}" for name, start in self.shifts)
        return f"{self.cardroom}: {names} from {self.effective_from}"
