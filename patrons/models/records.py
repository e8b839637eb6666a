"""Players under the law (see ``patrons.apps``): identity, exclusions and the cash policy.
The cash log and CTRs are in ``cash_log``, reviews in ``reviews``, incidents in ``incidents``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.money import MoneyField
from core.scoping import CardroomScoped

from ..fields import SealedCharField, SealedTextField
from .cardrooms import Cardroom, Player
from .cash_log import (
    DEFAULT_LOG_THRESHOLD,
    DEFAULT_STRUCTURING_BAND,
    DEFAULT_STRUCTURING_COUNT,
)

_USER = settings.AUTH_USER_MODEL


class IdType(models.TextChoices):
    DRIVER_LICENCE = "driver_licence"
    STATE_ID = "state_id"
    PASSPORT = "passport"
    MILITARY_ID = "military_id"
    OTHER = "other"


class TinType(models.TextChoices):
    """What a person's taxpayer identification number is (as FinCEN 112 asks)."""

    SSN = "ssn", "social security number"
    ITIN = "itin", "individual taxpayer identification number"
    EIN = "ein", "employer identification number"
    FOREIGN = "foreign", "foreign"


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
    """A player's identity on file: date of birth and one ID (type, number, issuer, expiry),
    and the person as a CTR names them (the name split, the address, the TIN, the occupation;
    blank on identities recorded before). The ID number and the TIN are encrypted at rest;
    ``id_hash`` (keyed) finds the ID without decrypting, ``tin_last4`` shows the TIN masked."""

    player = models.OneToOneField(Player, on_delete=models.PROTECT, related_name="identity")
    date_of_birth = models.DateField(db_index=True)  # possible matches look it up
    id_type = models.CharField(max_length=20, choices=IdType.choices)
    id_number = SealedCharField(max_length=40)
    id_issuer = models.CharField(max_length=60)  # a state, a country
    id_expires = models.DateField()
    id_hash = models.CharField(max_length=64, db_index=True)
    photo = models.FileField(upload_to="identity/", blank=True)
    last_name = models.CharField(max_length=60, blank=True)
    first_name = models.CharField(max_length=60, blank=True)
    middle_name = models.CharField(max_length=60, blank=True)
    street = models.CharField(max_length=100, blank=True)
    city = models.CharField(max_length=60, blank=True)
    state = models.CharField(max_length=2, blank=True)  # a USPS code, or a province's
    zip_code = models.CharField(max_length=10, blank=True)
    country = models.CharField(max_length=2, blank=True, default="US")  # ISO 3166-1 alpha-2
    tin = SealedCharField(max_length=9, blank=True, null=True)  # empty: None
    tin_last4 = models.CharField(max_length=4, blank=True)
    tin_type = models.CharField(max_length=10, choices=TinType.choices, blank=True)
    occupation = models.CharField(max_length=60, blank=True)
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

    class Term(models.TextChoices):
        ONE_YEAR = "one_year", "one year"
        FIVE_YEARS = "five_years", "five years"
        LIFETIME = "lifetime", "lifetime"
        DATED = "dated", "to a date"

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
    term = models.CharField(max_length=12, choices=Term.choices, default=Term.DATED)
    reason = models.TextField()
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField()
    ended_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # An end before the term's: when, why, and what ended it (the state's removal reference,
    # the two-person change).
    ended_at = models.DateTimeField(null=True, blank=True)
    end_reason = models.TextField(blank=True)
    end_reference = models.CharField(max_length=100, blank=True)

    objects = CardroomScoped["Exclusion"].by("cardroom", shared_when_null=True)

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
