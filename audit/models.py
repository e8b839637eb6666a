"""The audit log: one row per state change, hash-chained, append-only (cardroom.db.AppendOnly)."""

from django.conf import settings
from django.db import models

GENESIS_HASH = "0" * 64


class AuditEvent(models.Model):
    seq = models.PositiveBigIntegerField(unique=True)
    occurred_at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    actor_name = models.CharField(max_length=150, blank=True)  # as it was at the time
    action = models.CharField(max_length=64, db_index=True)
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


class Export(models.Model):
    """A CSV export for a period, built by a Celery task that reports its progress; it names
    the audit chain head it was made from."""

    class Kind(models.TextChoices):
        SETTLEMENTS = "settlements"
        AUDIT_LOG = "audit_log"

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    start = models.DateTimeField()
    end = models.DateTimeField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)  # percent
    rows = models.PositiveIntegerField(default=0)
    chain_seq = models.PositiveBigIntegerField(null=True, blank=True)
    chain_hash = models.CharField(max_length=64, blank=True)
    file = models.FileField(upload_to="exports/", blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.kind} export {self.start:%Y-%m-%d}–{self.end:%Y-%m-%d} ({self.status})"
