"""A house-banked table's rack counts: opening, shift change, closing."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.money import MoneyField
from core.scoping import CardroomScoped

_USER = settings.AUTH_USER_MODEL


class InventoryCount(models.Model):
    """The dealer's count of a house-banked table's rack, verified by a floor supervisor: at
    opening, at each shift change while the table is open, and at closing. ``book_total`` is
    the rack by the books at that moment (the previous count plus every house bank entry since,
    through ``bank_through``); empty for the table's first count."""

    class Kind(models.TextChoices):
        OPENING = "opening"
        SHIFT_CHANGE = "shift_change"
        CLOSING = "closing"

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    session = models.ForeignKey(
        "tables.TableSession", on_delete=models.PROTECT, related_name="inventory_counts"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    chips = models.JSONField()
    total = MoneyField()
    book_total = MoneyField(null=True, blank=True)
    bank_through = models.PositiveBigIntegerField(default=0)
    counted_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    verified_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    # Why the count differs from the books, when it does (required then); and, for a late
    # count, why it is late (always required).
    note = models.TextField(blank=True)
    # A closing count taken after its table was closed without one (old data, or a fault):
    # two floor supervisors count and sign, so the shift it closes can close.
    late = models.BooleanField(default=False)

    objects = CardroomScoped["InventoryCount"].by("table__cardroom")

    class Meta:
        ordering = ["table", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "kind"],
                condition=Q(kind__in=["opening", "closing"]),
                name="one_opening_one_closing_count",
            ),
            models.UniqueConstraint(
                fields=["session", "gaming_day", "shift"],
                condition=Q(kind="shift_change"),
                name="one_shift_change_count",
            ),
        ]
        indexes = [models.Index(fields=["table", "gaming_day", "shift"])]

    def __str__(self) -> str:
        return f"{self.table} {self.kind} count {self.total}"
