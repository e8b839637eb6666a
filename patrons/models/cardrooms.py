"""Cardrooms and their players: the lowest layer that relates to them is this one (the law
follows players), so every layer above points down at them here."""

from __future__ import annotations

from datetime import time
from decimal import Decimal

from django.db import models
from django.db.models import Q

from core.money import MoneyField
from core.scoping import CardroomScoped

#: A new cardroom's chip denominations: $1, $5, $25, $100 and $500.
DEFAULT_DENOMINATIONS = ("1.00", "5.00", "25.00", "100.00", "500.00")


def default_denominations() -> list[str]:
    return list(DEFAULT_DENOMINATIONS)


#: A new cardroom's largest fill, credit or count: a million dollars (a rack of a busy
#: high-limit table holds a few hundred thousand).
DEFAULT_LARGEST_CAGE_AMOUNT = Decimal("1000000.00")


#: A variance over this raises an incident; over the second, it is reported to the regulator.
DEFAULT_VARIANCE_INCIDENT_THRESHOLD = Decimal("25.00")
DEFAULT_VARIANCE_REGULATOR_THRESHOLD = Decimal("100.00")

#: The youngest a player may be, by the cardroom's jurisdiction: 21 in California (Business
#: and Professions Code §19921); no jurisdiction asks for less than 18 or more than 25.
DEFAULT_MINIMUM_AGE = 21
MINIMUM_AGE_BOUNDS = (18, 25)

#: A called player's minutes to take the seat, and a phone entry's hold, by default.
DEFAULT_SEAT_CALL_MINUTES = 3
DEFAULT_PHONE_HOLD_MINUTES = 30
#: The longest a call may wait for its player, and a phone entry be held: two hours.
WAITLIST_MINUTES_BOUNDS = (1, 120)
WAITLIST_MINUTES_SETTINGS = ("seat_call_minutes", "phone_hold_minutes")
#: A new cardroom's dealer rotation: a push every 20 minutes, a 20-minute break after 80 on.
DEFAULT_PUSH_MINUTES = 20
DEFAULT_BREAK_AFTER_MINUTES = 80
DEFAULT_BREAK_MINUTES = 20
#: The longest a push interval, a stretch on or a break may be set to: a gaming day.
DEALER_MINUTES_BOUNDS = (1, 24 * 60)
DEALER_MINUTES_SETTINGS = ("push_minutes", "break_after_minutes", "break_minutes")


class Licensee(models.Model):
    """The operator licensed to run one or more cardrooms: the law aggregates a person's cash
    across every cardroom of one licensee (31 CFR 1021.313)."""

    name = models.CharField(max_length=100, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Cardroom(models.Model):
    """A cardroom: its gaming day, its chips and the limits its cage works to."""

    #: Audit events name their target by this label: the log is append-only, and its events
    #: said ``tables.cardroom`` before the model moved here.
    audit_label = "tables.cardroom"

    name = models.CharField(max_length=100, unique=True)
    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="cardrooms")
    time_zone = models.CharField(max_length=64, default="UTC")  # an IANA zone name
    gaming_day_starts_at = models.TimeField(default=time(6, 0))
    # R17: with a lone supervisor on duty a change may be self-approved, and says so.
    self_approval_allowed = models.BooleanField(default=False)
    # The dealers' rotation (``tables.services.dealer_shifts``): each dealer moves to the next
    # table every ``push_minutes``; after ``break_after_minutes`` on, a ``break_minutes`` break.
    push_minutes = models.PositiveSmallIntegerField(default=DEFAULT_PUSH_MINUTES)
    break_after_minutes = models.PositiveSmallIntegerField(default=DEFAULT_BREAK_AFTER_MINUTES)
    break_minutes = models.PositiveSmallIntegerField(default=DEFAULT_BREAK_MINUTES)
    # The chips the cardroom's racks hold, as money strings ("25.00"), smallest first: every
    # inventory count, fill and credit is counted in them (cage).
    chip_denominations = models.JSONField(default=default_denominations)
    # The most a fill or credit slip, a rack count or a drop box's count may total: a count
    # that a finger added digits to is refused, not booked (a floor supervisor changes it).
    largest_cage_amount = MoneyField(default=DEFAULT_LARGEST_CAGE_AMOUNT)
    # The cage's controls (cage): a fill or credit carried by a runner who signs for it; the
    # count team's size (2, or 3 where the regulator asks); a rack, drop box or cage count
    # whose variance is more than ``variance_incident_threshold`` raises an incident, more than
    # ``variance_regulator_threshold`` puts it on the regulator's discrepancy list (NJ: $100).
    runner_required = models.BooleanField(default=False)
    count_team_size = models.PositiveSmallIntegerField(default=2)
    variance_incident_threshold = MoneyField(default=DEFAULT_VARIANCE_INCIDENT_THRESHOLD)
    variance_regulator_threshold = MoneyField(default=DEFAULT_VARIANCE_REGULATOR_THRESHOLD)
    # The age line (``patrons.age``): checked at registration, at a seat and at a cash buy-in.
    minimum_age = models.PositiveSmallIntegerField(default=DEFAULT_MINIMUM_AGE)
    # The waitlist (``tables.services.waitlist``): the minutes a called player has to take
    # the seat before the call passes to the next, and the minutes a place joined by phone
    # is held for the player to arrive.
    seat_call_minutes = models.PositiveSmallIntegerField(default=DEFAULT_SEAT_CALL_MINUTES)
    phone_hold_minutes = models.PositiveSmallIntegerField(default=DEFAULT_PHONE_HOLD_MINUTES)

    objects = CardroomScoped["Cardroom"].by("pk")

    class Meta:
        db_table = "tables_cardroom"  # made by ``tables``, where the model began
        constraints = [
            *[
                models.CheckConstraint(
                    condition=Q(**{f"{name}__gte": DEALER_MINUTES_BOUNDS[0]})
                    & Q(**{f"{name}__lte": DEALER_MINUTES_BOUNDS[1]}),
                    name=f"cardroom_{name}_in_bounds",
                )
                for name in DEALER_MINUTES_SETTINGS
            ],
            models.CheckConstraint(
                condition=Q(minimum_age__gte=MINIMUM_AGE_BOUNDS[0])
                & Q(minimum_age__lte=MINIMUM_AGE_BOUNDS[1]),
                name="cardroom_minimum_age_18_to_25",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Person(models.Model):
    """One human, however many player records the licensee's cardrooms hold of them: the
    records linked to one person share its cash totals. A person whose records compliance
    linked to another's is ``merged_into`` that one (kept: flags raised on it name it)."""

    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="persons")
    created_at = models.DateTimeField(auto_now_add=True)
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    def __str__(self) -> str:
        return f"person #{self.pk}"


class Player(models.Model):
    """A player record of a cardroom, of one ``person`` (identity and exclusions:
    ``patrons.models.records``; the cash log: ``patrons.models.cash_log``)."""

    audit_label = "tables.player"  # as ``Cardroom.audit_label``

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="players")
    person = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="records")
    name = models.CharField(max_length=100)
    name_key = models.CharField(max_length=100, blank=True, db_index=True)  # normal_text(name)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = CardroomScoped["Player"].by("cardroom")

    class Meta:
        db_table = "tables_player"

    def __str__(self) -> str:
        return self.name
