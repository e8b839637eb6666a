"""Incidents and their follow-ups (append-only)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped

from .cardrooms import Cardroom, Player
from .records import Exclusion

_USER = settings.AUTH_USER_MODEL


class Incident(models.Model):
    """One incident, linked to a table, a hand and players, at a time. Never edited: what
    follows (notes, surveillance requests and findings, the closure) are entries."""

    class Kind(models.TextChoices):
        DISPUTE = "dispute"
        CHIP_DISCREPANCY = "chip_discrepancy"
        MISDEAL_REVIEW = "misdeal_review"
        PLAYER_REMOVAL = "player_removal"
        EXCLUSION_MATCH = "exclusion_match"
        UNDER_AGE = "under_age"
        OTHER = "other"

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    occurred_at = models.DateTimeField()
    # Its table and hand are linked from there, layers up (``tables.models.IncidentTable``,
    # ``wagers.models.IncidentHand``).
    players = models.ManyToManyField(Player, blank=True, related_name="+")
    summary = models.TextField()
    exclusion = models.ForeignKey(
        Exclusion, null=True, blank=True, on_delete=models.PROTECT, related_name="matches"
    )
    reported_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    objects = CardroomScoped["Incident"].by("cardroom")

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"incident {self.pk} ({self.kind})"


class IncidentEntry(models.Model):
    """A follow-up on an incident. Never edited."""

    class Kind(models.TextChoices):
        NOTE = "note"
        SURVEILLANCE_REQUESTED = "surveillance_requested"
        SURVEILLANCE_FINDINGS = "surveillance_findings"
        CLOSED = "closed"
        OUTCOME = "outcome"  # what the cardroom then did, for an exclusion match

    class Outcome(models.TextChoices):
        CHIPS_HELD = "chips_held", "chips held"
        REDEEMED_ESCORTED = "redeemed_escorted", "chips redeemed and player escorted out"
        ESCORTED = "escorted", "player escorted out"
        RELEASED = "released", "released"
        OTHER = "other", "other"

    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    outcome = models.CharField(max_length=20, choices=Outcome.choices, blank=True)
    text = models.TextField()
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["incident", "at", "id"]
        verbose_name_plural = "incident entries"

    def __str__(self) -> str:
        return f"incident {self.incident_id}: {self.kind}"
