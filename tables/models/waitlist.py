"""The waitlist: a list per game and limits, its entries in order, and the seat calls.

A list names a kind of table (R1's banking) and its ante limits (R5): a player waits for any
open table of that kind and those limits. An entry moves ``waiting → called → seated`` (or
``passed``: the call ran out; ``removed``; ``expired``: a phone hold ran out). Its ``position``
orders the waiting entries of its list; every change of order is audited.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.money import MoneyField
from core.scoping import CardroomScoped
from patrons.models import Cardroom, Player

from .seats import Seating
from .tables import BANKING_CHOICES, Table

_USER = settings.AUTH_USER_MODEL


class Waitlist(models.Model):
    """The players waiting for one game at one set of limits in a cardroom."""

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="waitlists")
    banking = models.CharField(max_length=20, choices=BANKING_CHOICES)
    ante_min = MoneyField()
    ante_max = MoneyField()
    opened_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()

    objects = CardroomScoped["Waitlist"].by("cardroom")

    class Meta:
        ordering = ["cardroom", "banking", "ante_min", "ante_max"]
        constraints = [
            models.UniqueConstraint(
                fields=["cardroom", "banking", "ante_min", "ante_max"], name="one_waitlist_a_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_banking_display()} ${self.ante_min}–${self.ante_max}"


class WaitlistEntry(models.Model):
    """One player on a list: registered (``player``) or by name only, in person or by phone."""

    class Status(models.TextChoices):
        WAITING = "waiting"
        CALLED = "called"
        SEATED = "seated"
        PASSED = "passed"  # the call's minutes ran out; the seat went to the next
        REMOVED = "removed"  # left the list, or taken off it by the floor
        EXPIRED = "expired"  # joined by phone and did not arrive within the hold

    class Channel(models.TextChoices):
        IN_PERSON = "in_person"
        PHONE = "phone"

    #: The statuses of an entry still on its list.
    ON_LIST = (Status.WAITING, Status.CALLED)

    waitlist = models.ForeignKey(Waitlist, on_delete=models.PROTECT, related_name="entries")
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="waitlist_entries"
    )
    name = models.CharField(max_length=100)  # the player's, or the name given
    channel = models.CharField(max_length=10, choices=Channel.choices)
    hold_until = models.DateTimeField(null=True, blank=True)  # phone: arrive by then
    arrived_at = models.DateTimeField(null=True, blank=True)
    position = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    joined_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    joined_at = models.DateTimeField()
    # The call: the seat offered and until when the player may take it.
    called_table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    called_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    called_at = models.DateTimeField(null=True, blank=True)
    call_expires_at = models.DateTimeField(null=True, blank=True)
    seating = models.OneToOneField(
        Seating, null=True, blank=True, on_delete=models.PROTECT, related_name="waitlist_entry"
    )
    ended_at = models.DateTimeField(null=True, blank=True)

    objects = CardroomScoped["WaitlistEntry"].by("waitlist__cardroom")

    class Meta:
        ordering = ["waitlist", "position", "id"]
        verbose_name_plural = "waitlist entries"
        constraints = [
            models.UniqueConstraint(
                fields=["called_table", "called_seat"],
                condition=Q(status="called"),
                name="one_call_a_seat",
            ),
            models.UniqueConstraint(
                fields=["waitlist", "player"],
                condition=Q(status__in=["waiting", "called"]),
                name="player_once_on_a_list",
            ),
        ]

    def __str__(self) -> str:
        return self.name
