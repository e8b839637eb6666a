"""Fill and credit slips: their serial numbers, deliveries, voids and printings."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.money import MoneyField
from core.scoping import CardroomScoped

_USER = settings.AUTH_USER_MODEL


class SerialCounter(models.Model):
    """The last serial number of a kind of slip in a cardroom: locked (select_for_update) to
    give the next, so two slips never share one. The one updated row of the cage."""

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=10)
    last = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["cardroom", "kind"], name="serial_counter_unique")
        ]

    def __str__(self) -> str:
        return f"{self.cardroom} {self.kind}: {self.last}"


class Slip(models.Model):
    """A fill (chips from the cage to a table's rack) or a credit (back to the cage), requested
    by a floor supervisor, by denomination, with its serial number in the cardroom."""

    class Kind(models.TextChoices):
        FILL = "fill"
        CREDIT = "credit"

    PREFIX = {Kind.FILL: "F", Kind.CREDIT: "C"}

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="slips")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    serial = models.PositiveIntegerField()
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    chips = models.JSONField()
    total = MoneyField()
    requested_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()

    objects = CardroomScoped["Slip"].by("cardroom")

    class Meta:
        ordering = ["-requested_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["cardroom", "kind", "serial"], name="slip_serial")
        ]
        indexes = [models.Index(fields=["table", "gaming_day", "shift"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.number} {self.total}"

    @property
    def number(self) -> str:
        return f"{self.PREFIX[Slip.Kind(self.kind)]}-{self.serial:06d}"


class SlipDelivery(models.Model):
    """The second signature: the chips reached the table (a fill) or the cage (a credit), and
    moved the table's rack (``bank_entry``)."""

    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="delivery")
    delivered_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    delivered_at = models.DateTimeField()
    bank_entry = models.OneToOneField(
        "tables.HouseBankEntry", on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name_plural = "slip deliveries"

    def __str__(self) -> str:
        return f"{self.slip} delivered"


class SlipVoid(models.Model):
    """A slip that was never delivered, voided with a reason by a supervisor and a witness."""

    slip = models.OneToOneField(Slip, on_delete=models.PROTECT, related_name="void")
    reason = models.TextField()
    voided_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    witness = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    voided_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.slip} voided"


class SlipPrint(models.Model):
    """Each printing of a slip: the first is the original, every later one a reprint."""

    slip = models.ForeignKey(Slip, on_delete=models.PROTECT, related_name="prints")
    reprint = models.BooleanField()
    printed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    printed_at = models.DateTimeField()

    class Meta:
        ordering = ["slip", "id"]

    def __str__(self) -> str:
        return f"{self.slip} {'reprint' if self.reprint else 'original'}"
