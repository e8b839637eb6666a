"""The audit log: one row per state change, hash-chained, append-only (``AppendOnly``)."""

from django.conf import settings
from django.db import models

from .actions import AuditAction
from .chain import GENESIS_HASH


class AuditEvent(models.Model):
    seq = models.PositiveBigIntegerField(unique=True)
    occurred_at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_name = models.CharField(max_length=150, blank=True)  # as it was at the time
    action = models.CharField(max_length=64, choices=AuditAction.choices, db_index=True)
    object_type = models.CharField(max_length=64, blank=True)
    object_id = models.CharField(max_length=64, blank=True)
    # The canonical JSON text exactly as hashed: sorted keys, money as strings.
    payload = models.TextField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["seq"]
        indexes = [
            models.Index(fields=["object_type", "object_id"]),
            models.Index(fields=["occurred_at"]),
            # Issue 16: an actor's events, newest first, by index.
            models.Index(fields=["actor", "seq"], name="audit_actor_seq_idx"),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} {self.object_type}:{self.object_id}"


class ChainHead(models.Model):
    """The one row every append locks, so that the chain never forks under concurrent writers."""

    seq = models.PositiveBigIntegerField(default=0)
    hash = models.CharField(max_length=64, default=GENESIS_HASH)

    def __str__(self) -> str:
        return f"head #{self.seq} {self.hash[:12]}"


class Checkpoint(models.Model):
    """A verified chain head, recorded by the periodic verification. Exported checkpoints kept
    elsewhere make a cut-off tail detectable: the chain must still hold each one."""

    seq = models.PositiveBigIntegerField()
    hash = models.CharField(max_length=64)
    verified_at = models.DateTimeField()
    events = models.PositiveBigIntegerField()  # how many events the verification read

    class Meta:
        ordering = ["-verified_at"]

    def __str__(self) -> str:
        return f"checkpoint #{self.seq} {self.hash[:12]} at {self.verified_at:%Y-%m-%d %H:%M}"
