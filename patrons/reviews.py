"""Suspicious-activity reviews: compliance's, and compliance's alone to read."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR

from .models import Player, ReviewNote, SuspiciousActivityReview

Status = SuspiciousActivityReview.Status


@transaction.atomic
def review_open(*, player: Player, note: str, by: User) -> SuspiciousActivityReview:
    """Mark a player for a suspicious-activity review, saying why (the first note)."""
    require_role(by, COMPLIANCE_AUDITOR, action="open a suspicious-activity review")
    if not note.strip():
        raise DomainError("Say what is suspicious.", field="note")
    if SuspiciousActivityReview.objects.filter(player_id=player.pk, status=Status.OPEN).exists():
        raise Conflict(f"{player} is under review already.", field="player")
    review = SuspiciousActivityReview.objects.create(
        player=player, opened_by=by, opened_at=timezone.now()
    )
    ReviewNote.objects.create(
        review=review, status=Status.OPEN, note=note.strip(), by=by, at=review.opened_at
    )
    audit_record(
        actor=by, action=AuditAction.REVIEW_OPENED, target=review, payload={"player": player.pk}
    )
    return review


@transaction.atomic
def review_note(
    *, review: SuspiciousActivityReview, status: str, note: str, by: User
) -> ReviewNote:
    """A note on a review, and the status it leaves it in (open, sar_filed, closed)."""
    require_role(by, COMPLIANCE_AUDITOR, action="update a suspicious-activity review")
    review = SuspiciousActivityReview.objects.select_for_update().get(pk=review.pk)
    if status not in Status.values:
        raise DomainError(f"The status is one of: {', '.join(Status.values)}.", field="status")
    if not note.strip():
        raise DomainError("Write the note.", field="note")
    if review.status != Status.OPEN:
        raise Conflict(f"This review is {review.status}.", field="status")
    row = ReviewNote.objects.create(
        review=review, status=status, note=note.strip(), by=by, at=timezone.now()
    )
    review.status = status
    review.save(update_fields=["status"])
    audit_record(
        actor=by, action=AuditAction.REVIEW_NOTED, target=review, payload={"status": status}
    )
    return row
