"""Tables, their versioned settings, sessions, seats, stacks and the designated-player rotation.

Rows the rules say are never edited (settings versions, stack entries, rotation offers) are
append-only in the database (``core.db.AppendOnly`` in the migrations). Writes go through
``tables.services``; reads through ``tables.selectors``.
"""

from __future__ import annotations

from datetime import time
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.choices import enum_choices
from core.money import ZERO, MoneyField
from engine.fees import RakeMode
from engine.table import MAX_SEATS, Banking, BonusMode

_USER = settings.AUTH_USER_MODEL
#: R1's two ways to bank a table, as the model and the API's input and schema name them.
BANKING_CHOICES = enum_choices(Banking)

#: A new cardroom's chip denominations: $1, $5, $25, $100 and $500.
DEFAULT_DENOMINATIONS = ("1.00", "5.00", "25.00", "100.00", "500.00")


def default_denominations() -> list[str]:
    return list(DEFAULT_DENOMINATIONS)


#: A new cardroom's largest fill, credit or count: a million dollars (a rack of a busy
#: high-limit table holds a few hundred thousand).
DEFAULT_LARGEST_CAGE_AMOUNT = Decimal("1000000.00")


class Tender(models.TextChoices):
    """How chips came onto (or left) a stack: bought with cash at the table (the cash goes
    into the drop box) or brought as chips (from the cage, another table)."""

    CASH = "cash"
    CHIPS = "chips"


class Cardroom(models.Model):
    name = models.CharField(max_length=100, unique=True)
    time_zone = models.CharField(max_length=64, default="UTC")  # an IANA zone name
    gaming_day_starts_at = models.TimeField(default=time(6, 0))
    # R17: with a lone supervisor on duty a change may be self-approved, and says so.
    self_approval_allowed = models.BooleanField(default=False)
    # The chips the cardroom's racks hold, as money strings ("25.00"), smallest first: every
    # inventory count, fill and credit is counted in them (cage).
    chip_denominations = models.JSONField(default=default_denominations)
    # The most a fill or credit slip, a rack count or a drop box's count may total: a count
    # that a finger added digits to is refused, not booked (a floor supervisor changes it).
    largest_cage_amount = MoneyField(default=DEFAULT_LARGEST_CAGE_AMOUNT)

    def __str__(self) -> str:
        return self.name


class Shift(models.Model):
    """One shift of the cardroom's gaming day: it runs from its start (wall clock, in the
    cardroom's zone) to the next shift's start. The first shift starts when the gaming day
    does. A cardroom with no shifts has one, ``day``, the whole gaming day
    (``tables.selectors.shift_starts``)."""

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="shifts")
    name = models.CharField(max_length=20)
    starts_at = models.TimeField()

    class Meta:
        ordering = ["cardroom", "starts_at"]
        constraints = [
            models.UniqueConstraint(fields=["cardroom", "name"], name="shift_name_unique"),
            models.UniqueConstraint(fields=["cardroom", "starts_at"], name="shift_start_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.cardroom}: {self.name} from {self.starts_at:%H:%M}"


class Table(models.Model):
    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(max_length=100)
    seat_count = models.PositiveSmallIntegerField(default=MAX_SEATS)
    banking = models.CharField(max_length=20, choices=BANKING_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)

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

    class Meta:
        verbose_name = verbose_name_plural = "table settings"
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="settings_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} v{self.version}"


class PaytableKind(models.TextChoices):
    """The two paytables a table posts (R10), named by the setting that holds each."""

    FLUSH = "flush_paytable", "Flush Bonus"
    STRAIGHT_FLUSH = "straight_flush_paytable", "Straight Flush Bonus"


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

    class Meta:
        ordering = ["-opened_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(closed_at__isnull=True), name="one_open_session"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} session {self.opened_at:%Y-%m-%d %H:%M}"


class Player(models.Model):
    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


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

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "stack entries"
        indexes = [models.Index(fields=["gaming_day", "shift"], name="stackentry_day_shift")]

    def __str__(self) -> str:
        return f"{self.seating}: {self.amount} ({self.reason})"


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
    # What the entry books: a settlement entry (a relation up a layer, by name), a stack
    # entry (chips sold), or a slip's serial number (a fill, a credit).
    settlement = models.ForeignKey(
        "wagers.Settlement",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="bank_entries",
    )
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

    class Meta:
        ordering = ["table", "stopped_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(restarted_at__isnull=True), name="one_stop_open"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} game stopped {self.stopped_at:%Y-%m-%d %H:%M}"


# Staff accounts, signatures and two-person changes: a module of their own, registered here.
from .staff_models import Signature as Signature  # noqa: E402
from .staff_models import StaffLineage as StaffLineage  # noqa: E402
from .staff_models import StaffProfile as StaffProfile  # noqa: E402
from .staff_models import TwoPersonChange as TwoPersonChange  # noqa: E402
from .staff_models import TwoPersonDecision as TwoPersonDecision  # noqa: E402
