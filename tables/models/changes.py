"""Two-person changes of a table's settings, a cardroom's paytables and its self-approval
switch (R17)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from patrons.models import Cardroom

from .tables import Table, TableSettings

_USER = settings.AUTH_USER_MODEL


class SettingChange(models.Model):
    """R17: a proposed change to a table's settings, and its approval (dual control)."""

    class Status(models.TextChoices):
        PENDING = "pending"
        APPROVED = "approved"
        REJECTED = "rejected"
        WITHDRAWN = "withdrawn"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="setting_changes")
    proposed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    proposed_at = models.DateTimeField()
    reason = models.TextField()
    based_on = models.ForeignKey(TableSettings, on_delete=models.PROTECT, related_name="+")
    new_values = models.JSONField()  # only the settings that change, money as strings
    old_values = models.JSONField()  # the same keys, as they were when decided
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    decided_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    self_approved = models.BooleanField(default=False)
    result = models.OneToOneField(
        TableSettings, null=True, blank=True, on_delete=models.PROTECT, related_name="change"
    )

    class Meta:
        ordering = ["-proposed_at"]

    def __str__(self) -> str:
        return f"{self.table}: change #{self.pk} ({self.status})"


class PaytableKind(models.TextChoices):
    """The two paytables a table posts (R10), named by the setting that holds each."""

    FLUSH = "flush_paytable", "Flush Bonus"
    STRAIGHT_FLUSH = "straight_flush_paytable", "Straight Flush Bonus"


class PaytableChange(models.Model):
    """R17: a proposal to add a paytable to a cardroom's catalogue of approved paytables, or to
    retire one from it. Never edited: its decision is a row of its own (``PaytableDecision``),
    and the catalogue is what the approved changes add up to, oldest decision first."""

    class Action(models.TextChoices):
        ADD = "add"
        RETIRE = "retire"

    class Origin(models.TextChoices):
        PROPOSED = "proposed"  # by a floor supervisor, decided by another (dual control)
        DEFAULT = "default"  # a new table's default (tables.rules), seeded with the cardroom
        IN_USE = "in_use"  # in use at a table when the catalogue began (migration 0005)

    cardroom = models.ForeignKey(
        Cardroom, on_delete=models.PROTECT, related_name="paytable_changes"
    )
    kind = models.CharField(max_length=30, choices=PaytableKind.choices)
    lines = models.JSONField()  # {"4": 1, …}: size → N to 1, as a table's setting holds it
    action = models.CharField(max_length=10, choices=Action.choices)
    origin = models.CharField(max_length=10, choices=Origin.choices, default=Origin.PROPOSED)
    # None only for an entry seeded by the migration, which nobody proposed.
    proposed_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    proposed_at = models.DateTimeField()
    reason = models.TextField()

    class Meta:
        ordering = ["cardroom", "proposed_at", "id"]

    def __str__(self) -> str:
        return f"{self.cardroom}: {self.action} {self.kind} #{self.pk}"


class PaytableDecision(models.Model):
    """The one decision on a ``PaytableChange``. Never edited."""

    class Outcome(models.TextChoices):
        APPROVED = "approved"
        REJECTED = "rejected"
        WITHDRAWN = "withdrawn"

    change = models.OneToOneField(PaytableChange, on_delete=models.PROTECT, related_name="decision")
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    # None for a seeded entry (origin default or in_use): approved with the cardroom, or by
    # the migration, not by a supervisor.
    decided_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    decided_at = models.DateTimeField()
    self_approved = models.BooleanField(default=False)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.change}: {self.outcome}"


class SelfApprovalChange(models.Model):
    """R17's self-approval switch of a cardroom, proposed by one administrator (hardening item
    4). Never edited: its decision is a record of its own (``SelfApprovalDecision``)."""

    cardroom = models.ForeignKey(
        Cardroom, on_delete=models.PROTECT, related_name="self_approval_changes"
    )
    allowed = models.BooleanField()  # the value proposed
    reason = models.TextField()
    proposed_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    proposed_at = models.DateTimeField()

    class Meta:
        ordering = ["-proposed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.cardroom}: self-approval {'on' if self.allowed else 'off'} (#{self.pk})"


class SelfApprovalDecision(models.Model):
    """The one decision on a self-approval change: approved by a second administrator (never
    the proposer), or rejected (by the proposer: withdrawn). Never edited."""

    change = models.OneToOneField(
        SelfApprovalChange, on_delete=models.PROTECT, related_name="decision"
    )
    approved = models.BooleanField()
    reason = models.TextField(blank=True)
    decided_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.change}: {'approved' if self.approved else 'rejected'}"
