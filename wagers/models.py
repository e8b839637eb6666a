"""Hands as they are played and settled. Game rules live in ``engine``; the services in
``wagers.services`` move hands through their states; settlements are append-only."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.choices import enum_choices
from core.money import ZERO, MoneyField
from core.scoping import CardroomScoped
from engine import DeadReason, Decision, Misdeal, Outcome, SpotStatus
from patrons.models import Incident, Player
from rake.models import FeeEntry
from tables.models import (
    HouseBankEntry,
    RotationRecord,
    Seating,
    ShufflerDevice,
    Table,
    TableSession,
    TableSettings,
)

_USER = settings.AUTH_USER_MODEL


class Hand(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"  # started: DP chosen, bank in action
        WAGERING = "wagering"
        DEALT = "dealt"
        DECISIONS = "decisions"
        SETTLED = "settled"
        DEAD = "dead"  # a misdeal (R14): settled with every wager returned

    IN_PROGRESS = (Status.OPEN, Status.WAGERING, Status.DEALT, Status.DECISIONS)

    class CardSource(models.TextChoices):
        ENTERED = "entered"  # by the dealer, from a physical deal
        SYSTEM = "system"  # dealt by the system from a CSPRNG shuffle
        SHUFFLER = "shuffler", "Read by the table's shuffler"  # reported by the device

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()  # per table, from 1
    settings = models.ForeignKey(TableSettings, on_delete=models.PROTECT, related_name="hands")
    rotation = models.OneToOneField(
        RotationRecord, null=True, blank=True, on_delete=models.PROTECT, related_name="hand"
    )
    dp_seating = models.ForeignKey(
        Seating, null=True, blank=True, on_delete=models.PROTECT, related_name="hands_as_dp"
    )
    dp_bank = MoneyField(null=True, blank=True)  # R13: chips the DP put in action, fee included
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    card_source = models.CharField(max_length=10, choices=CardSource.choices, blank=True)
    dealer_cards = models.CharField(max_length=40, blank=True)
    misdeal = models.CharField(max_length=20, choices=enum_choices(Misdeal), blank=True)
    started_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    started_at = models.DateTimeField()
    settled_at = models.DateTimeField(null=True, blank=True)

    objects = CardroomScoped["Hand"].by("table__cardroom")

    class Meta:
        ordering = ["table", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=["open", "wagering", "dealt", "decisions"]),
                name="one_hand_in_progress_per_table",
            ),
        ]
        indexes = [
            models.Index(fields=["table", "started_at"]),
            # The hands list (newest first) and a table's gaming day, by index.
            models.Index(fields=["started_at", "id"], name="hand_started_idx"),
            models.Index(fields=["table", "settled_at"], name="hand_table_settled_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.table} hand {self.number}"


class Spot(models.Model):
    """One betting position in a hand: a player's wagers, cards and decision (R5–R8)."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="spots")
    seat = models.PositiveSmallIntegerField()
    seating = models.ForeignKey(Seating, on_delete=models.PROTECT, related_name="spots")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="spots")
    ante = MoneyField()
    flush_bonus = MoneyField(default=ZERO)
    straight_flush_bonus = MoneyField(default=ZERO)
    cards = models.CharField(max_length=40, blank=True)
    decision = models.CharField(max_length=12, choices=enum_choices(Decision), blank=True)
    raise_amount = MoneyField(default=ZERO)
    dead_reason = models.CharField(max_length=20, choices=enum_choices(DeadReason), blank=True)

    class Meta:
        ordering = ["hand", "seat"]
        constraints = [models.UniqueConstraint(fields=["hand", "seat"], name="spot_seat_unique")]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat}"


class Settlement(models.Model):
    """One entry in a hand's settlement history. Never edited (append-only in the database).

    A hand is settled once (``original``). A correction adds a ``reversal`` of the entry in
    force and a ``correction`` holding the new settlement; summing every entry of a hand gives
    what is in force.
    """

    class Kind(models.TextChoices):
        ORIGINAL = "original"
        REVERSAL = "reversal"
        CORRECTION = "correction"

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="settlements")
    entry = models.PositiveSmallIntegerField()  # 1, 2, 3… per hand
    kind = models.CharField(max_length=10, choices=Kind.choices)
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    # The round in the settle-json format and the engine's answer, exactly: anyone can rerun
    # `manage.py settle_round` on ``round`` and compare with ``result``.
    round = models.JSONField()
    result = models.JSONField()
    house_rake = MoneyField()
    dealer_net = MoneyField()
    reason = models.TextField(blank=True)
    created_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    # The gaming day and shift the entry is booked in (empty on entries made before shifts),
    # and, on a reversal or correction of a hand settled in another one, the day and shift
    # it adjusts: a closed day keeps its figures, the adjustment lands on the current one.
    gaming_day = models.DateField(null=True, blank=True)
    shift = models.CharField(max_length=20, blank=True)
    adjusts_day = models.DateField(null=True, blank=True)
    adjusts_shift = models.CharField(max_length=20, blank=True)

    class Meta:
        ordering = ["hand", "entry"]
        # The settlements export (a period) and the books of a gaming day, by index.
        indexes = [
            models.Index(fields=["created_at", "id"], name="settlement_created_idx"),
            models.Index(fields=["gaming_day", "shift"], name="settlement_day_idx"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["hand", "entry"], name="settlement_entry_unique"),
            models.UniqueConstraint(
                fields=["hand"], condition=Q(kind="original"), name="settled_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.hand} settlement {self.entry} ({self.kind})"


class FeeBooking(models.Model):
    """Which hand and settlement entry booked a fee on the ledger (R12): the link lives here,
    on the side of the layer above the ledger. Never edited."""

    fee = models.OneToOneField(FeeEntry, on_delete=models.PROTECT, related_name="booking")
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="fees")
    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="fees")

    def __str__(self) -> str:
        return f"fee {self.fee_id} booked by {self.settlement}"


class BankBooking(models.Model):
    """Which settlement entry booked the house's side into a house-banked table's rack (a
    house bank entry of reason ``settlement``). Never edited."""

    bank_entry = models.OneToOneField(
        HouseBankEntry, on_delete=models.PROTECT, related_name="booking"
    )
    settlement = models.ForeignKey(
        Settlement, on_delete=models.PROTECT, related_name="bank_entries"
    )

    def __str__(self) -> str:
        return f"bank entry {self.bank_entry_id} booked by {self.settlement}"


class IncidentHand(models.Model):
    """The hand an incident on the log is about: the link lives here, a layer above the log.
    Never edited."""

    incident = models.OneToOneField(Incident, on_delete=models.PROTECT, related_name="at_hand")
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="+")

    def __str__(self) -> str:
        return f"incident {self.incident_id} about {self.hand}"


class SpotSettlement(models.Model):
    """A spot's line in a settlement entry. A reversal's amounts are negated."""

    settlement = models.ForeignKey(Settlement, on_delete=models.PROTECT, related_name="spots")
    spot = models.ForeignKey(Spot, on_delete=models.PROTECT, related_name="settlements")
    seat = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=enum_choices(SpotStatus))
    dead_reason = models.CharField(max_length=20, choices=enum_choices(DeadReason), blank=True)
    rake = MoneyField()
    net = MoneyField()
    paid_back = MoneyField()  # chips back onto the player's stack: stakes plus the net

    class Meta:
        ordering = ["settlement", "seat"]

    def __str__(self) -> str:
        return f"{self.settlement} seat {self.seat}: {self.net}"


class WagerSettlement(models.Model):
    class Wager(models.TextChoices):
        ANTE = "ante"
        RAISE = "raise"
        FLUSH_BONUS = "flush_bonus"
        STRAIGHT_FLUSH_BONUS = "straight_flush_bonus"

    spot_settlement = models.ForeignKey(
        SpotSettlement, on_delete=models.PROTECT, related_name="wagers"
    )
    wager = models.CharField(max_length=20, choices=Wager.choices)
    stake = MoneyField()
    outcome = models.CharField(max_length=10, choices=enum_choices(Outcome))
    net = MoneyField()

    class Meta:
        ordering = ["spot_settlement", "id"]

    def __str__(self) -> str:
        return f"{self.spot_settlement} {self.wager}: {self.outcome} {self.net}"


class ShufflerReport(models.Model):
    """One message from a table's shuffler (``wagers.services.shuffler``), kept once per
    (device, sequence): the digest of its body, what became of it and the answer it got, so
    that the same message sent again is answered the same and booked once. A refusal is kept
    with its reason and field (and the hand, when there was one waiting) for the dealer's
    screen, which offers a misdeal (R14). Never edited (append-only in the database)."""

    class Outcome(models.TextChoices):
        DEALT = "dealt"
        REFUSED = "refused"

    device = models.ForeignKey(ShufflerDevice, on_delete=models.PROTECT, related_name="reports")
    sequence = models.PositiveBigIntegerField()
    digest = models.CharField(max_length=64)  # sha256 of the body, canonical JSON
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    # What was answered: the dealt hand, or the refusal in the errors' one shape.
    answer = models.JSONField()
    code = models.CharField(max_length=20, blank=True)  # the refusal's DomainError.code
    reason = models.TextField(blank=True)
    field = models.CharField(max_length=40, blank=True)
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="shuffler_reports"
    )
    received_at = models.DateTimeField()

    class Meta:
        ordering = ["device", "sequence"]
        constraints = [
            models.UniqueConstraint(
                fields=["device", "sequence"], name="shuffler_report_sequence_unique"
            ),
        ]
        indexes = [models.Index(fields=["hand", "received_at"], name="shuffler_report_hand_idx")]

    def __str__(self) -> str:
        return f"{self.device_id} message {self.sequence}: {self.outcome}"


class DecisionCost(models.Model):
    """R8: what one spot's raise-or-fold decision was worth, for the cards of one settlement
    entry (an original, or a correction: corrected cards or decisions are valued again), by
    ``engine.decisions``. Expectations are exact, in cents: each ``*_ev`` is a numerator over
    ``dealer_hands`` (the dealer hands the unseen cards make). Written after the settlement
    commits, by a task (``wagers.decision_costs``); never edited."""

    settlement = models.ForeignKey(
        Settlement, on_delete=models.PROTECT, related_name="decision_costs"
    )
    spot = models.ForeignKey(Spot, on_delete=models.PROTECT, related_name="decision_costs")
    seat = models.PositiveSmallIntegerField()
    decision = models.CharField(max_length=12, choices=enum_choices(Decision))
    raise_amount = MoneyField(default=ZERO)
    best_play = models.CharField(max_length=12)  # fold, raise 1×, raise 2×, raise 3×
    dealer_hands = models.BigIntegerField()
    fold_ev = models.BigIntegerField()
    raise_once_ev = models.BigIntegerField()
    raise_cap_ev = models.BigIntegerField()
    taken_ev = models.BigIntegerField()
    cost = models.BigIntegerField()  # best_ev − taken_ev, never negative
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["settlement", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["settlement", "seat"], name="decision_cost_once"),
        ]

    def __str__(self) -> str:
        return f"{self.settlement} seat {self.seat}: {self.best_play}"
