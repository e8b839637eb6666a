"""Records of the compliance layer: exports of settlements and of the audit log."""

from django.conf import settings
from django.db import models

from core.scoping import CardroomScoped


class _ExportsOfTheRequestsCardrooms(CardroomScoped["Export"]):
    """A cardroom's exports are its own; one of every cardroom, to those who reach them all."""

    cardroom_path = "cardroom"

    def condition(self, ids: frozenset[int]) -> models.Q:
        cardrooms = self.model._meta.apps.get_model("patrons", "Cardroom")
        elsewhere = cardrooms._base_manager.exclude(pk__in=ids)
        every_room = models.Q(~models.Exists(elsewhere))
        return models.Q(cardroom_id__in=ids) | (models.Q(cardroom_id__isnull=True) & every_room)


class Export(models.Model):
    """A CSV export for a period, built by a Celery task that reports its progress; it names
    the audit chain head it was made from."""

    class Kind(models.TextChoices):
        SETTLEMENTS = "settlements"
        AUDIT_LOG = "audit_log"
        HOLD = "hold"  # hold against theoretical, per table, bank and wager type

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
    # When the build last reported progress (the stalled-export sweep reads it), and how many
    # times a build started (a task delivered again after its worker died counts too).
    progress_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    task_id = models.CharField(max_length=255, blank=True)  # the task building it
    # The cardroom whose records it holds; none: every cardroom of the deployment (asked for
    # outside a request, by the system).
    cardroom = models.ForeignKey(
        "patrons.Cardroom", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    objects = _ExportsOfTheRequestsCardrooms()

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self) -> str:
        return f"{self.kind} export {self.start:%Y-%m-%d}–{self.end:%Y-%m-%d} ({self.status})"


class VerificationRun(models.Model):
    """One verification, of the audit chain, the books or the compliance state, run by a
    Celery task that reports its progress: asked for through the
    API or the compliance screen (``requested_by``), or by beat (no one). Its ``result`` is
    the report."""

    class Kind(models.TextChoices):
        AUDIT_CHAIN = "audit_chain"
        BOOKS = "books"
        STATE = "state"  # the compliance state against the audit log (compliance.state)

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    kind = models.CharField(max_length=20, choices=Kind.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)  # percent
    progress_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ok = models.BooleanField(null=True)  # None until it has run
    result = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)  # why it could not run (not a broken chain: ``ok``)
    task_id = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} verification {self.requested_at:%Y-%m-%d %H:%M} ({self.status})"
