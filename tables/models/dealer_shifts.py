"""Dealers' shifts: a clock-in to a clock-out, and where the dealer was in between — dealing
at a table, or on break — each from–to.

The database keeps the two rules a floor cannot see at a glance: a dealer is clocked in once
at a time, and is in one place at a time (so never on two tables); a table has one dealer
assigned at a time. Writes go through ``tables.services.dealer_shifts``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.scoping import CardroomScoped
from patrons.models import Cardroom

from .tables import Table

_USER = settings.AUTH_USER_MODEL


class DealerShift(models.Model):
    """A dealer's time on the clock at a cardroom, from clock-in to clock-out."""

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="dealer_shifts")
    dealer = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="dealer_shifts")
    clocked_in_at = models.DateTimeField()
    clocked_in_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    clocked_out_at = models.DateTimeField(null=True, blank=True)
    clocked_out_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = CardroomScoped["DealerShift"].by("cardroom")

    class Meta:
        ordering = ["-clocked_in_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"],
                condition=Q(clocked_out_at__isnull=True),
                name="dealer_clocked_in_once",
            ),
            models.CheckConstraint(
                condition=Q(clocked_out_at__isnull=True)
                | Q(clocked_out_at__gte=models.F("clocked_in_at")),
                name="dealer_shift_ends_after_it_starts",
            ),
        ]
        indexes = [models.Index(fields=["cardroom", "clocked_in_at"], name="dealershift_day")]

    def __str__(self) -> str:
        return f"{self.dealer} from {self.clocked_in_at:%Y-%m-%d %H:%M}"


class DealerAssignment(models.Model):
    """Where a clocked-in dealer is, from ``started_at`` to ``ended_at`` (open while there):
    dealing at ``table``, or on break. A dealer on neither is waiting for a table."""

    class Kind(models.TextChoices):
        TABLE = "table"
        BREAK = "break"

    shift = models.ForeignKey(DealerShift, on_delete=models.PROTECT, related_name="assignments")
    # The shift's dealer, kept on the row so that the database can hold "one place at a time".
    dealer = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="dealer_assignments"
    )
    started_at = models.DateTimeField()
    started_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"],
                condition=Q(ended_at__isnull=True),
                name="dealer_in_one_place",
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(ended_at__isnull=True, kind="table"),
                name="table_one_dealer_assigned",
            ),
            models.CheckConstraint(
                condition=Q(kind="table", table__isnull=False)
                | Q(kind="break", table__isnull=True),
                name="dealer_assignment_table_or_break",
            ),
        ]
        indexes = [models.Index(fields=["table", "started_at"], name="dealerassign_table")]

    def __str__(self) -> str:
        where = self.table if self.kind == self.Kind.TABLE else "break"
        return f"{self.dealer} at {where} from {self.started_at:%H:%M}"
