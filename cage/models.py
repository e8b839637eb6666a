"""The cage's records: table inventory counts, fill and credit slips, drop counts, shift and
gaming-day closes. Every one is append-only in the database: a delivery, a void, a reprint or
a variance's sign-off is a new row, never an update. Writes go through ``cage.services``.

Chips are counted by denomination: ``{"25.00": 20, "100.00": 5}`` (the cardroom's chip
denominations, as money strings, to the number of chips); cash by bill, the same way.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.money import MoneyField

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
    # Why the count differs from the books, when it does (required then).
    note = models.TextField(blank=True)

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


class DropCount(models.Model):
    """What two counters found in a table's drop box for one shift, cash by bill and chips by
    denomination, against the drop the books expect: the fees (the fee ledger) and, at a
    house-banked table, the cash for chips sold there. Expected figures are kept as they were
    at the count."""

    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    cash = models.JSONField()
    chips = models.JSONField()
    cash_total = MoneyField()
    chips_total = MoneyField()
    total = MoneyField()
    expected_cash = MoneyField()
    expected_chips = MoneyField()
    expected_total = MoneyField()
    variance = MoneyField()  # total − expected_total
    counted_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    second_counter = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    note = models.TextField(blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["gaming_day", "shift", "table"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "gaming_day", "shift"], name="one_drop_count_per_box"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.gaming_day} {self.shift} drop {self.total}"


class VarianceSignOff(models.Model):
    """A floor supervisor's sign-off of a drop count's variance, with its explanation."""

    count = models.OneToOneField(DropCount, on_delete=models.PROTECT, related_name="sign_off")
    reason = models.TextField()
    signed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    signed_at = models.DateTimeField()

    class Meta:
        verbose_name = "variance sign-off"

    def __str__(self) -> str:
        return f"{self.count} signed off"


class ShiftClose(models.Model):
    """A shift of a gaming day, closed by a floor supervisor once every count is in;
    ``figures`` are its statistics as closed."""

    cardroom = models.ForeignKey("patrons.Cardroom", on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    closed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField()
    figures = models.JSONField()

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

    class Meta:
        ordering = ["-gaming_day"]
        constraints = [
            models.UniqueConstraint(fields=["cardroom", "gaming_day"], name="day_closed_once")
        ]

    def __str__(self) -> str:
        return f"{self.cardroom} {self.gaming_day} closed"
