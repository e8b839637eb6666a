"""Suspicious activity cases (31 CFR 1021.320): compliance's alone, never the floor's or a
dealer's. A case, its notes and its decision are never edited (``AppendOnly``): a case is
decided once, by a decision row, and frozen from then on; notes may still be added."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.scoping import CardroomScoped

from .cardrooms import Cardroom, Player
from .cash_log import CashTransaction, StructuringFlag
from .reviews import SuspiciousActivityReview

_USER = settings.AUTH_USER_MODEL

#: 31 CFR 1021.320(a)(2): a transaction that involves or aggregates at least $5,000.00.
SAR_THRESHOLD = Decimal("5000.00")
#: 31 CFR 1021.320(b)(3): filed within 30 calendar days of the initial detection; when no
#: suspect is identified, a further 30 days to identify one, 60 in all.
SAR_DAYS = 30
SAR_DAYS_NO_SUSPECT = 60


class SarCase(models.Model):
    """A suspicious activity case: where it came from (a structuring flag, a review, or
    opened by hand), the player, the transactions involved, when the activity was detected
    and so when a SAR is due."""

    class Origin(models.TextChoices):
        FLAG = "flag", "a structuring flag"
        REVIEW = "review", "a compliance review"
        HAND = "hand", "opened by hand"

    cardroom = models.ForeignKey(Cardroom, on_delete=models.PROTECT, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    origin = models.CharField(max_length=6, choices=Origin.choices)
    structuring_flag = models.OneToOneField(
        StructuringFlag, null=True, blank=True, on_delete=models.PROTECT, related_name="sar_case"
    )
    review = models.OneToOneField(
        SuspiciousActivityReview,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="sar_case",
    )
    transactions = models.ManyToManyField(CashTransaction, related_name="+", blank=True)
    summary = models.TextField()
    detected_on = models.DateField()
    suspect_identified = models.BooleanField(default=True)
    due_on = models.DateField()
    opened_by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    opened_at = models.DateTimeField()

    objects = CardroomScoped["SarCase"].by("cardroom")

    class Meta:
        ordering = ["due_on", "id"]
        verbose_name = "SAR case"
        constraints = [
            models.CheckConstraint(
                condition=Q(origin="flag", structuring_flag__isnull=False, review__isnull=True)
                | Q(origin="review", structuring_flag__isnull=True, review__isnull=False)
                | Q(origin="hand", structuring_flag__isnull=True, review__isnull=True),
                name="sar_case_origin_named",
            ),
        ]

    def __str__(self) -> str:
        return f"SAR case #{self.pk}"

    @staticmethod
    def due_from(detected_on: date, *, suspect_identified: bool) -> date:
        return detected_on + timedelta(days=SAR_DAYS if suspect_identified else SAR_DAYS_NO_SUSPECT)


class SarNote(models.Model):
    """One note on a case, by compliance. Never edited; added before or after the decision."""

    case = models.ForeignKey(SarCase, on_delete=models.PROTECT, related_name="notes")
    note = models.TextField()
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        ordering = ["case", "at", "id"]

    def __str__(self) -> str:
        return f"note on SAR case {self.case_id}"


class SarDecision(models.Model):
    """The decision on a case: file a SAR (with its BSA id) or not, and why. One a case,
    never edited: the case is frozen from then on."""

    class Outcome(models.TextChoices):
        FILE = "file", "file a SAR"
        NO_FILE = "no_file", "not file"

    case = models.OneToOneField(SarCase, on_delete=models.PROTECT, related_name="decision")
    outcome = models.CharField(max_length=7, choices=Outcome.choices)
    reason = models.TextField()
    filing_reference = models.CharField(max_length=60, blank=True)  # the BSA id when filed
    by = models.ForeignKey(_USER, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(outcome="no_file", filing_reference="")
                | (Q(outcome="file") & ~Q(filing_reference="")),
                name="sar_filed_with_its_reference",
            ),
        ]

    def __str__(self) -> str:
        return f"decision on SAR case {self.case_id}: {self.outcome}"
