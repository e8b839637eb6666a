"""A table's card-reading shuffler or shoe and its credential (GLI-29 devices).

A device reports the hands it dispenses to the table system over the API with a token of its
own: one active device per table, and the token kept as a digest only (it is shown once, at
registration and rotation). A revoked device or token is kept, never deleted: hands dealt
from it name it in the audit log.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

from core.scoping import CardroomScoped

from .tables import Table

_USER = settings.AUTH_USER_MODEL


class ShufflerDevice(models.Model):
    class Kind(models.TextChoices):
        SHUFFLER = "shuffler", "Card-reading shuffler"
        SHOE = "shoe", "Card-reading shoe"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="devices")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.SHUFFLER)
    make = models.CharField(max_length=100)
    model = models.CharField(max_length=100)
    serial = models.CharField(max_length=100)
    # The lab's certificate of the device (a GLI-29 report number, for instance).
    certification_ref = models.CharField(max_length=100, blank=True)
    registered_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    registered_at = models.DateTimeField()
    revoked_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = CardroomScoped["ShufflerDevice"].by("table__cardroom")

    class Meta:
        ordering = ["table", "-registered_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(revoked_at__isnull=True),
                name="one_active_device_per_table",
            ),
            # One physical device is in service at one table at a time (by make and serial).
            models.UniqueConstraint(
                Lower("make"),
                Lower("serial"),
                condition=Q(revoked_at__isnull=True),
                name="one_table_per_active_device",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.make} {self.model} {self.serial} at {self.table}"

    @property
    def active(self) -> bool:
        return self.revoked_at is None


class DeviceToken(models.Model):
    """A device's credential: the sha256 HMAC of a random secret (never the secret), and its
    first characters to tell tokens apart on a screen. One active token per device."""

    device = models.ForeignKey(ShufflerDevice, on_delete=models.PROTECT, related_name="tokens")
    digest = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["device", "-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["device"],
                condition=Q(revoked_at__isnull=True),
                name="one_active_token_per_device",
            ),
        ]

    def __str__(self) -> str:
        return f"token {self.prefix}… of {self.device_id}"
