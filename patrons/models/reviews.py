"""Compliance's reviews of players for suspicious activity, and their notes (append-only)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped

from .cardrooms import Player

_USER = settings.AUTH_USER_MODEL


class SuspiciousActivityReview(models.Model):
    """Compliance's review of a player for suspicious activity. Its status is its latest
    note's; only compliance reads it (never dealers, never the floor)."""

    class Status(models.TextChoices):
        OPEN = "open"
        SAR_FILED = "sar_filed"
        CLOSED = "closed"  # reviewed: no report

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()

    objects = CardroomScoped["SuspiciousActivityReview"].by("player__cardroom")

    class Meta:
        ordering = ["-opened_at"]

    def __str__(self) -> str:
        return f"review of player {self.player_id} ({self.status})"


class ReviewNote(models.Model):
    """One note on a suspicious-activity review, with the status it leaves. Never edited."""

    review = models.ForeignKey(
        SuspiciousActivityReview, on_delete=models.PROTECT, related_name="notes"
    )
    status = models.CharField(max_length=10, choices=SuspiciousActivityReview.Status.choices)
    note = models.TextField()
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["review", "at", "id"]

    def __str__(self) -> str:
        return f"note on review {self.review_id}"
