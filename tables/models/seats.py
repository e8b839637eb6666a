"""Seats, stacks and their ledger, a house-banked table's rack, the designated-player
rotation and game stops.

Stack entries, house bank entries and rotation offers are never edited: append-only in the
database (``core.db.AppendOnly`` in the migrations).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.money import ZERO, MoneyField
from core.scoping import CardroomScoped
from patrons.models import CashTransaction, Incident, Player

from .tables import Table, TableSession, Tender

_USER = settings.AUTH_USER_MODEL


class Seating(models.Model):
    """A player at a seat of a table, from sitting down to leaving; holds the table stack.

    ``stack`` is the running sum of the seating's ``StackEntry`` rows, kept under the row lock
    in the same transaction as each entry, and never negative (a database constraint).
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seatings")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seatings")
    sat_at = models.DateTimeField()
    left_at = models.DateTimeField(null=True, blank=True)
    stack = MoneyField(default=ZERO)
    sitting_out = models.BooleanField(default=False)
    dp_waiver = models.BooleanField(default=False)  # R16: a standing refusal of the position
    proposition_player = models.BooleanField(default=False)  # a third-party prop player
    # An exclusion list entry that matched the player while seated (``wagers.services.holds``):
    # no more wagers, and the chips leave the table only through a floor supervisor. It stays
    # until the seating ends.
    exclusion_hold = models.ForeignKey(
        "patrons.Exclusion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    held_at = models.DateTimeField(null=True, blank=True)

    objects = CardroomScoped["Seating"].by("table__cardroom")

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat"], condition=Q(left_at__isnull=True), name="seat_taken_once"
            ),
            models.UniqueConstraint(
                fields=["player"], condition=Q(left_at__isnull=True), name="player_seated_once"
            ),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(left_at__isnull=True, proposition_player=True),
                name="one_prop_player_per_table",
            ),
            models.CheckConstraint(condition=Q(stack__gte=0), name="stack_never_negative"),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.table} seat {self.seat}"


class StackEntry(models.Model):
    """One movement of chips on or off a table stack. Never edited."""

    class Reason(models.TextChoices):
        BUY_IN = "buy_in"
        ADD_ON = "add_on"
        CASH_OUT = "cash_out"  # colouring up and leaving with the chips
        WAGER = "wager"
        PAYOUT = "payout"
        DP_BANK = "dp_bank"
        CORRECTION = "correction"

    seating = models.ForeignKey(Seating, on_delete=models.PROTECT, related_name="entries")
    amount = MoneyField()  # signed: chips onto the stack are positive
    reason = models.CharField(max_length=20, choices=Reason.choices)
    actor = models.ForeignKey(_USER, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    # Buy-ins, add-ons and cash-outs say how the chips were paid for (the expected drop, and
    # cash reporting per player); other movements leave it blank.
    tender = models.CharField(max_length=5, choices=Tender.choices, blank=True)
    # The gaming day and shift the movement fell in (empty on entries made before shifts).
    gaming_day = models.DateField(null=True, blank=True)
    shift = models.CharField(max_length=20, blank=True)

    objects = CardroomScoped["StackEntry"].by("seating__table__cardroom")

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "stack entries"
        indexes = [models.Index(fields=["gaming_day", "shift"], name="stackentry_day_shift")]

    def __str__(self) -> str:
        return f"{self.seating}: {self.amount} ({self.reason})"


class TableCash(models.Model):
    """A cash transaction on the player's cash log made at a table: the table, and the stack
    entry of the buy-in (or add-on) its chips went on. Never edited."""

    cash_transaction = models.OneToOneField(
        CashTransaction, on_delete=models.PROTECT, related_name="at_table"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    stack_entry = models.OneToOneField(
        StackEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="cash"
    )

    class Meta:
        verbose_name_plural = "table cash"

    def __str__(self) -> str:
        return f"cash transaction {self.cash_transaction_id} at {self.table}"


class IncidentTable(models.Model):
    """The table an incident on the log happened at: the link lives here, a layer above the
    log. Never edited."""

    incident = models.OneToOneField(Incident, on_delete=models.PROTECT, related_name="at_table")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")

    def __str__(self) -> str:
        return f"incident {self.incident_id} at {self.table}"


class HouseBankEntry(models.Model):
    """One movement of a house-banked table's house bank: its chip rack. Never edited.

    The rack by the books is the last inventory count plus every entry since (``cage``
    compares it with the next count): the house's side of each settlement entry (its net,
    R15), chips sold for cash at the table, fills and credits. Positive: chips into the rack.
    """

    class Reason(models.TextChoices):
        SETTLEMENT = "settlement"  # the house's net in a settlement entry (a reversal negates)
        CHIPS_SOLD = "chips_sold"  # chips out of the rack for a player's cash buy-in
        FILL = "fill"  # chips from the cage
        CREDIT = "credit"  # chips back to the cage

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="bank_entries")
    amount = MoneyField()
    reason = models.CharField(max_length=20, choices=Reason.choices)
    # What the entry books: a stack entry (chips sold) or a slip's serial number (a fill, a
    # credit); a settlement's entry is linked from wagers (``wagers.models.BankBooking``).
    stack_entry = models.OneToOneField(
        StackEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="bank_entry"
    )
    reference = models.CharField(max_length=40, blank=True)
    gaming_day = models.DateField()
    shift = models.CharField(max_length=20)
    # A correction of a hand of another gaming day (or shift) says which one it adjusts.
    adjusts_day = models.DateField(null=True, blank=True)
    adjusts_shift = models.CharField(max_length=20, blank=True)
    actor = models.ForeignKey(_USER, null=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "house bank entries"
        indexes = [models.Index(fields=["table", "gaming_day", "shift"])]

    def __str__(self) -> str:
        return f"{self.table} bank: {self.amount} ({self.reason})"


class RotationRecord(models.Model):
    """R16: one offer of the designated-player position, for one hand. Never edited.

    ``offers`` lists, in the order the position was offered, each seat with its player and
    what happened: ``accepted``, ``refused``, ``waived`` or ``ineligible`` with the reason.
    ``designated_player`` is empty when nobody accepted (and no hand could start).
    """

    class Method(models.TextChoices):
        DRAW = "draw"  # the first hand of a session: the high-card draw
        ROTATION = "rotation"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rotations")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="rotations")
    created_at = models.DateTimeField()
    method = models.CharField(max_length=10, choices=Method.choices)
    offers = models.JSONField()
    draw = models.JSONField(null=True, blank=True)  # seat -> card, for a high-card draw
    designated_player = models.ForeignKey(
        Seating, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Snapshots, so compliance reads history as it was, not as the seating is now.
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    proposition_player = models.BooleanField(default=False)
    consecutive = models.PositiveSmallIntegerField(default=0)  # hands in a row, this one included

    objects = CardroomScoped["RotationRecord"].by("table__cardroom")

    class Meta:
        ordering = ["table", "created_at", "id"]
        indexes = [models.Index(fields=["table", "created_at"])]

    def __str__(self) -> str:
        return f"{self.table} rotation {self.created_at:%H:%M:%S}"


class GameStop(models.Model):
    """R16 (California, from 1 April 2026): a rotation window in which fewer than two players
    (a proposition player aside) held the designated-player position ends the game. The
    table starts no hand until a floor supervisor acknowledges the stop and restarts it; the
    restart is the one change this record takes (audited), and play is judged afresh from it.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="game_stops")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="stops")
    stopped_at = models.DateTimeField()
    window_start = models.DateTimeField()
    window_end = models.DateTimeField()
    settings_version = models.PositiveIntegerField()  # whose dp_rotation_window was applied
    window_minutes = models.PositiveSmallIntegerField()
    holders = models.JSONField()  # the names of the players who held it in the window
    hands = models.PositiveIntegerField()
    restarted_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    restarted_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    objects = CardroomScoped["GameStop"].by("table__cardroom")

    class Meta:
        ordering = ["table", "stopped_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(restarted_at__isnull=True), name="one_stop_open"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} game stopped {self.stopped_at:%Y-%m-%d %H:%M}"
