"""A cardroom's tables: their versioned settings and sessions (shifts: ``shifts``).

Settings versions are never edited: append-only in the database (``core.db.AppendOnly`` in
the migrations).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.choices import enum_choices
from core.money import MoneyField
from core.scoping import CardroomScoped
from engine.fees import RakeMode
from engine.table import MAX_SEATS, Banking, BonusMode
from patrons.models import Cardroom

_USER = settings.AUTH_USER_MODEL
#: R1's two ways to bank a table, as the model and the API's input and schema name them.
BANKING_CHOICES = enum_choices(Banking)


class Tender(models.TextChoices):
    """How chips came onto (or left) a stack: bought with cash at the table (the cash goes
    into the drop box) or brought as chips (from the cage, another table)."""

    CASH = "cash"
    CHIPS = "chips"


class Table(models.Model):
    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(max_length=100)
    seat_count = models.PositiveSmallIntegerField(default=MAX_SEATS)
    banking = models.CharField(max_length=20, choices=BANKING_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CardroomScoped["Table"].by("cardroom")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["cardroom", "name"], name="table_name_unique"),
            models.CheckConstraint(
                condition=Q(seat_count__gte=1, seat_count__lte=MAX_SEATS), name="table_seats_1_7"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TableSettings(models.Model):
    """One version of a table's game settings. Never edited: a change makes a new version."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="settings_versions")
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # Every value is given by the service that makes a version: a new table's defaults are
    # in one place, ``tables.rules.NEW_TABLE_DEFAULTS``; later versions copy the one before.
    # R5 limits
    ante_min = MoneyField()
    ante_max = MoneyField()
    bonus_min = MoneyField()
    bonus_max = MoneyField()
    chip_unit = MoneyField()
    # R10, R11
    bonus_mode = models.CharField(max_length=20, choices=enum_choices(BonusMode))
    flush_paytable = models.JSONField()  # {"4": 2, …}: size → N to 1
    straight_flush_paytable = models.JSONField()
    max_aggregate_payout = MoneyField(null=True, blank=True)  # None: no cap
    # R12
    rake_mode = models.CharField(max_length=20, choices=enum_choices(RakeMode))
    rake_amount = MoneyField()
    # R16
    dp_min_bank = MoneyField()
    dp_max_consecutive = models.PositiveSmallIntegerField()
    draw_suit_order = models.CharField(max_length=4)  # lowest suit first
    dp_rotation_window = models.PositiveSmallIntegerField()  # minutes

    objects = CardroomScoped["TableSettings"].by("table__cardroom")

    class Meta:
        verbose_name = verbose_name_plural = "table settings"
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="settings_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} v{self.version}"


class TableSession(models.Model):
    """A table open for play, from opening to closing, with the dealer on duty."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="sessions")
    dealer = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    opened_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()
    closed_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    # A house-banked table's last rack count in this session (opening, shift change,
    # closing) and the end of the shift it covers: kept here, on the row every hand and chip
    # sale reads anyway, so that "no play before the count" costs no query.
    rack_count_kind = models.CharField(max_length=12, blank=True)
    rack_counted_until = models.DateTimeField(null=True, blank=True)

    objects = CardroomScoped["TableSession"].by("table__cardroom")

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(closed_at__isnull=True), name="one_open_session"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} session {self.opened_at:%Y-%m-%d %H:%M}"


class PaytableKind(models.TextChoices):
    """The two paytables a table posts (R10), named by the setting that holds each."""

    FLUSH = "flush_paytable", "Flush Bonus"
    STRAIGHT_FLUSH = "straight_flush_paytable", "Straight Flush Bonus"
