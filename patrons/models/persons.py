"""Possible matches between player records: two records that may be one person, for
compliance to resolve (``patrons.persons``). Not a refusal: play goes on meanwhile."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped

from .cardrooms import Cardroom, Licensee, Player

_USER = settings.AUTH_USER_MODEL


class PersonMatch(models.Model):
    """``player`` (the newer record) may be the same person as ``other``: the same name where
    a date of birth is missing, or a near name with the same date of birth."""

    class Kind(models.TextChoices):
        SAME_NAME_NO_BIRTH_DATE = "same_name_no_birth_date", "same name, no date of birth"
        NEAR_NAME_SAME_BIRTH_DATE = "near_name_same_birth_date", "near name, same date of birth"

    class Status(models.TextChoices):
        OPEN = "open"
        LINKED = "linked"  # one person: the records were linked
        DISTINCT = "distinct"  # not the same person

    licensee = models.ForeignKey(Licensee, on_delete=models.PROTECT, related_name="+")
    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField()
    resolved_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)  # compliance's, when resolved

    objects = CardroomScoped["PersonMatch"].by("cardroom")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "other"], name="one_match_a_pair"),
            models.CheckConstraint(
                condition=~models.Q(player=models.F("other")), name="match_of_two_records"
            ),
        ]

    def __str__(self) -> str:
        return f"possible match of players {self.player_id} and {self.other_id}"
