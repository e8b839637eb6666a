"""The audit log: one row per state change, hash-chained per table, cardroom or globally
(``audit.chain``), append-only (``AppendOnly``)."""

import hashlib

from django.conf import settings
from django.db import models

from .chain import GENESIS_HASH


class AuditEvent(models.Model):
    #: The event's number across all chains: unique, increasing, not gapless.
    seq = models.PositiveBigIntegerField(unique=True)
    #: Which chain (``table:7``, ``cardroom:2``, ``global``; ``legacy`` before chains per table) and
    #: where in it (1, 2, ...; null in the legacy chain, where ``seq`` is the place).
    chain = models.CharField(max_length=40)
    chain_seq = models.PositiveBigIntegerField(null=True, blank=True)
    occurred_at = models.DateTimeField()
    # Indexed by audit_actor_seq_idx (actor, seq) below, which serves the foreign key too; a
    # second index on the actor alone would only tempt the planner to sort an actor's events.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        db_index=False,
    )
    actor_name = models.CharField(max_length=150, blank=True)  # as it was at the time
    # The action's name (``audit.actions.AuditAction``). No ``choices`` on the column: Django
    # never enforced them on save, and each new action made a migration repeating every name.
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
            # An actor's events, newest first, by index.
            models.Index(fields=["actor", "seq"], name="audit_actor_seq_idx"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["chain", "chain_seq"], name="audit_event_chain_seq")
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} {self.object_type}:{self.object_id}"


class ChainHead(models.Model):
    """One row per chain, locked by every append to that chain (and only that chain), so that
    a chain never forks under concurrent writers while tables never wait on each other. ``seq``
    is the place of the chain's last event (``chain_seq``; ``seq`` in the legacy chain)."""

    chain = models.CharField(max_length=40, unique=True)
    seq = models.PositiveBigIntegerField(default=0)
    hash = models.CharField(max_length=64, default=GENESIS_HASH)

    def __str__(self) -> str:
        return f"{self.chain} head #{self.seq} {self.hash[:12]}"


class Checkpoint(models.Model):
    """The verified heads of every chain, recorded by the periodic verification and at each day
    close, signed with a key kept outside the database and appended to a sink outside it too
    (``AUDIT_CHECKPOINT_SINK``): a cut-off tail, a chain removed whole, or a checkpoint removed
    or forged in the database is detectable.

    ``seq`` is the highest event number the checkpoint covers; ``hash`` the hash over ``heads``
    (``audit.chain.heads_hash``). A checkpoint from before chains per table has no heads: its
    ``seq`` and ``hash`` are an event of the legacy chain, and it is not signed."""

    seq = models.PositiveBigIntegerField()
    hash = models.CharField(max_length=64)
    verified_at = models.DateTimeField()
    events = models.PositiveBigIntegerField()  # how many events the verification read
    #: Canonical JSON ``[[chain, seq, hash], ...]`` sorted by chain, exactly as hashed.
    heads = models.TextField(default="[]")
    #: HMAC-SHA256 with AUDIT_CHECKPOINT_KEY (``audit.signing``); empty on the unsigned
    #: checkpoints of before.
    signature = models.CharField(max_length=64, blank=True, default="")
    key_id = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        ordering = ["-verified_at"]

    def __str__(self) -> str:
        return f"checkpoint #{self.seq} {self.hash[:12]} at {self.verified_at:%Y-%m-%d %H:%M}"


class SinkWrite(models.Model):
    """What became of a checkpoint's line in the sink (``audit.alarms``): written, or the
    error that kept it out. The latest one failed: the sink is an alarm until one succeeds."""

    # No constraint: a checkpoint removed by an attacker leaves this record standing.
    checkpoint = models.ForeignKey(
        Checkpoint, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    written = models.BooleanField()
    error = models.TextField(blank=True, default="")
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"checkpoint {self.checkpoint_id} {'written' if self.written else 'not written'}"


class CheckpointProblem(models.Model):
    """A problem a verification found with the checkpoints themselves (a row forged or
    changed in the database, one missing from it): an alarm, recorded once, until compliance
    acknowledges it. The chains are verified past it; a day close waits for the
    acknowledgement."""

    #: SHA-256 of ``text``: the same problem found again is the same record.
    fingerprint = models.CharField(max_length=64, unique=True)
    text = models.TextField()
    found_at = models.DateTimeField()

    class Meta:
        ordering = ["found_at", "id"]

    def __str__(self) -> str:
        return self.text

    @staticmethod
    def fingerprint_of(text: str) -> str:
        return hashlib.sha256(text.encode()).hexdigest()


class CheckpointProblemAcknowledgement(models.Model):
    """Compliance has seen a checkpoint problem and says what was done about it."""

    problem = models.OneToOneField(
        CheckpointProblem, on_delete=models.PROTECT, related_name="acknowledgement"
    )
    note = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.problem_id} acknowledged by {self.by_id}"


class RefusalTally(models.Model):
    """Refused permissions of one account not yet in the log one by one (``audit_refusal``):
    at most one ``permission.refused`` event per account and minute, carrying how many
    refusals it stands for. A working row, changed in place; the events are the record."""

    #: ``user:<id>``, or ``anonymous`` for refusals of nobody signed in.
    key = models.CharField(max_length=40, unique=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    recorded_at = models.DateTimeField(null=True)  # the account's latest refusal event
    unrecorded = models.PositiveIntegerField(default=0)  # refusals since, not in the log yet
    last_attempted = models.TextField(blank=True, default="")
    last_message = models.TextField(blank=True, default="")

    def __str__(self) -> str:
        return f"{self.key}: {self.unrecorded} refusals since {self.recorded_at}"


class ChainSweep(models.Model):
    """Where beat's rolling re-hash of the older events stands (``audit.sweep``): one row.

    The next slice starts after ``place`` in ``chain`` (a chain's first slice after place 0;
    ``chain`` empty: at the first chain). ``broken`` is what the last slice found, empty when it
    held: while it is set no checkpoint is signed, and the cursor stays where the slice began,
    so every run re-hashes the broken slice again until the chain is whole."""

    chain = models.CharField(max_length=40, blank=True)
    place = models.PositiveBigIntegerField(default=0)
    pass_started_at = models.DateTimeField(null=True, blank=True)
    #: When the last complete pass over every chain ended.
    passed_at = models.DateTimeField(null=True, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    broken = models.TextField(blank=True)
    broken_chain = models.CharField(max_length=40, blank=True)
    broken_place = models.PositiveBigIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"sweep at {self.chain or 'the start'} #{self.place}"
