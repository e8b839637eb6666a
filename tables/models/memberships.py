"""Who works in which cardroom: a person's role (their group) is exercised only in the rooms
they are a member of; a compliance auditor may be a member of several, and chooses one on the
screens. Granted and withdrawn by an administrator (``tables.services.memberships``), each in
the audit log."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped
from patrons.models import Cardroom


class CardroomMembership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="cardroom_memberships"
    )
    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="memberships")
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    granted_at = models.DateTimeField(auto_now_add=True)

    objects = CardroomScoped["CardroomMembership"].by("cardroom")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "cardroom"], name="one_membership_a_room")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.cardroom}"
