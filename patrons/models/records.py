"""Players under the law (see ``patrons.apps``): identity, exclusions, the cash log, CTRs,
structuring flags, reviews and incidents.

Rows the law says are a record (the cash log, structuring flags, incidents and their
follow-ups, review notes) are append-only in the database (``AppendOnly`` in the migrations).
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.money import ZERO, MoneyField

from ..fields import SealedCharField, SealedTextField
from .cardrooms import Cardroom, Player

_USER = settings.AUTH_USER_MODEL

#: Federal: a currency transaction report for MORE than $10,000 in cash in (or out) per
#: patron per gaming day (31 CFR 1021.311). Not a cardroom setting.
CTR_THRESHOLD = Decimal("10000.00")
#: A cardroom's defaults: the multiple transaction log from $3,000.00; three transactions a
#: day within 80% of a threshold (and under it) flag structuring.
DEFAULT_LOG_THRESHOLD = Decimal("3000.00")
DEFAULT_STRUCTURING_COUNT = 3
DEFAULT_STRUCTURING_BAND = Decimal("0.80")


class IdType(models.TextChoices):
    DRIVER_LICENCE = "driver_licence"
    STATE_ID = "state_id"
    PASSPORT = "passport"
    MILITARY_ID = "military_id"
    OTHER = "other"


class CashPolicy(models.Model):
    """A cardroom's cash-reporting settings; a cardroom without one has the defaults
    (``patrons.selectors.cash_policy``)."""

    cardroom = models.OneToOneField(Cardroom, on_delete=models.PROTECT, related_name="cash_policy")
    # Each cash transaction of this much or more goes to the multiple transaction log.
    log_threshold = MoneyField(default=DEFAULT_LOG_THRESHOLD)
    # Structuring watch: this many cash transactions in a gaming day, each within
    # ``structuring_band`` below the log threshold or below the CTR threshold, flag the player.
    structuring_count = models.PositiveSmallIntegerField(default=DEFAULT_STRUCTURING_COUNT)
    structuring_band = models.DecimalField(
        max_digits=3, decimal_places=2, default=DEFAULT_STRUCTURING_BAND
    )
    updated_by = models.ForeignKey(_USER, null=True, on_delete=models.PROTECT, related_name="+")
    updated_at = models.DateTimeField(null=True)

    class Meta:
        verbose_name_plural = "cash policies"
        constraints = [
            models.CheckConstraint(
                condition=Q(structuring_band__gt=0, structuring_band__lt=1),
                name="structuring_band_a_fraction",
            )
        ]

    def __str__(self) -> str:
        return f"cash policy of cardroom {self.cardroom_id}"


class PlayerIdentity(models.Model):
    """A player's identity on file: date of birth and one ID (type, number, issuer, expiry).
    The number is encrypted at rest; ``id_hash`` (keyed) finds it without decrypting."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="identity")
    date_of_birth = models.DateField()
    id_type = models.CharField(max_length=20, choices=IdType.choices)
    id_number = SealedCharField(max_length=40)
    id_issuer = models.CharField(max_length=60)  # a state, a country
    id_expires = models.DateField()
    id_hash = models.CharField(max_length=64, db_index=True)
    photo = models.FileField(upload_to="identity/", blank=True)
    recorded_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "player identities"

    def __str__(self) -> str:
        return f"identity of player {self.player_id}"


class Exclusion(models.Model):
    """A person barred, self-excluded or self-restricted, for a term (``ends_on`` empty: for
    life), from the cardroom's own list or a state list. A cardroom's own entry names it; a
    state list's entry applies to every cardroom."""

    class Kind(models.TextChoices):
        BARRED = "barred"
        SELF_EXCLUDED = "self_excluded"
        SELF_RESTRICTED = "self_restricted"

    class Source(models.TextChoices):
        CARDROOM = "cardroom"
        STATE_LIST = "state_list"

    cardroom = models.ForeignKey(
        Cardroom, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    source = models.CharField(max_length=20, choices=Source.choices)
    reference = models.CharField(max_length=100, blank=True)  # the list's own id, a file name
    name = models.CharField(max_length=100)
    name_key = models.CharField(max_length=100, db_index=True)  # normalised, for matching
    date_of_birth = models.DateField(null=True, blank=True)
    id_type = models.CharField(max_length=20, choices=IdType.choices, blank=True)
    id_number = SealedCharField(max_length=40, blank=True, null=True)  # empty: None
    id_issuer = models.CharField(max_length=60, blank=True)
    id_hash = models.CharField(max_length=64, blank=True, db_index=True)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)  # empty: lifetime
    reason = models.TextField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    ended_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["name_key", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(ends_on__isnull=True) | Q(ends_on__gte=models.F("starts_on")),
                name="exclusion_ends_after_start",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.kind})"


class ExclusionListImport(models.Model):
    """A state exclusion list being imported by a Celery task (``patrons.state_lists``): its
    file, encrypted at rest (it holds ID numbers) and emptied once read, with the import's
    status, progress and outcome. Not a record of the law (the audit event and the entries
    are): it changes as the import runs."""

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    source_name = models.CharField(max_length=100)
    content = SealedTextField(blank=True, null=True)  # emptied (None) once read
    requested_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    requested_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)  # percent
    progress_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    rows = models.PositiveIntegerField(default=0)  # the file's entries
    added = models.PositiveIntegerField(default=0)
    on_file = models.PositiveIntegerField(default=0)  # entries already on file, skipped
    error = models.TextField(blank=True)  # why nothing was imported
    error_field = models.CharField(max_length=60, blank=True)
    task_id = models.CharField(max_length=255, blank=True)

    class Meta:
        ordering = ["-requested_at", "-id"]

    def __str__(self) -> str:
        return f"import of {self.source_name} ({self.status})"


class CashTransaction(models.Model):
    """One cash transaction of a player: chips bought with cash (at a table or at the cage)
    or chips redeemed for cash (at the cage). Never edited. ``logged`` puts it on the
    multiple transaction log (at or over the cardroom's log threshold)."""

    class Direction(models.TextChoices):
        IN = "in"  # cash in: the player hands over cash
        OUT = "out"  # cash out: the player receives cash

    class Place(models.TextChoices):
        TABLE = "table"
        CAGE = "cage"

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cash_transactions")
    direction = models.CharField(max_length=3, choices=Direction.choices)
    amount = MoneyField()
    # At a table: the table and the buy-in's stack entry are linked from there, a layer up
    # (``tables.models.TableCash``).
    place = models.CharField(max_length=5, choices=Place.choices)
    gaming_day = models.DateField()
    day_total = MoneyField()  # the player's cash in (or out) of the gaming day, this included
    logged = models.BooleanField(default=False)  # on the multiple transaction log
    recorded_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["player", "gaming_day", "direction"])]
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="cash_positive")]

    def __str__(self) -> str:
        return f"player {self.player_id} cash {self.direction} {self.amount}"


class CurrencyTransactionReport(models.Model):
    """A CTR to file: a player's cash in or out of a gaming day passed $10,000.00. Its totals
    grow with the day's later cash transactions until it is filed; the fields are those of
    the federal form the cardroom holds (the person from the identity on file)."""

    class Status(models.TextChoices):
        TO_FILE = "to_file"
        FILED = "filed"

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    cash_in = MoneyField(default=ZERO)
    cash_out = MoneyField(default=ZERO)
    transactions = models.ManyToManyField(CashTransaction, related_name="reports")
    created_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.TO_FILE)
    filed_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    filed_at = models.DateTimeField(null=True, blank=True)
    filing_reference = models.CharField(max_length=60, blank=True)  # the BSA id when e-filed

    class Meta:
        ordering = ["-gaming_day", "id"]
        verbose_name = "currency transaction report"
        constraints = [
            models.UniqueConstraint(fields=["player", "gaming_day"], name="one_ctr_a_day"),
        ]

    def __str__(self) -> str:
        return f"CTR player {self.player_id} {self.gaming_day}"


class StructuringFlag(models.Model):
    """Structuring watch: a player with several cash transactions just under a threshold in
    one gaming day, for compliance to review. Never edited."""

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    gaming_day = models.DateField()
    transactions = models.JSONField()  # the ids of the transactions just under
    detail = models.TextField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-gaming_day", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "gaming_day"], name="one_flag_a_day"),
        ]

    def __str__(self) -> str:
        return f"structuring flag player {self.player_id} {self.gaming_day}"


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


class Incident(models.Model):
    """One incident, linked to a table, a hand and players, at a time. Never edited: what
    follows (notes, surveillance requests and findings, the closure) are entries."""

    class Kind(models.TextChoices):
        DISPUTE = "dispute"
        CHIP_DISCREPANCY = "chip_discrepancy"
        MISDEAL_REVIEW = "misdeal_review"
        PLAYER_REMOVAL = "player_removal"
        EXCLUSION_MATCH = "exclusion_match"
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

    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="entries")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    text = models.TextField()
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["incident", "at", "id"]
        verbose_name_plural = "incident entries"

    def __str__(self) -> str:
        return f"incident {self.incident_id}: {self.kind}"
