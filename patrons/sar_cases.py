"""Suspicious activity cases (31 CFR 1021.320): opened by compliance from a structuring flag,
a review or by hand, noted, and decided once (file a SAR, with its BSA id, or not, each with
its reason). Compliance's alone: every look at them is an audit event too."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR

from .models import (
    Cardroom,
    CashTransaction,
    Player,
    SarCase,
    SarDecision,
    SarNote,
    StructuringFlag,
    SuspiciousActivityReview,
)

Outcome = SarDecision.Outcome


@dataclass(frozen=True)
class SarOpening:
    """What a case is opened from: one of a structuring flag, a review or a player, and what
    compliance says of it."""

    summary: str
    structuring_flag: StructuringFlag | None = None
    review: SuspiciousActivityReview | None = None
    player: Player | None = None
    transactions: list[int] = field(default_factory=list)
    detected_on: date | None = None
    suspect_identified: bool = True


def local_date(cardroom: Cardroom, at: datetime) -> date:
    """The calendar date at the cardroom (deadlines run in calendar days)."""
    return timezone.localtime(at, ZoneInfo(cardroom.time_zone)).date()


def today_at(cardroom: Cardroom) -> date:
    return local_date(cardroom, timezone.now())


def _source(cardroom: Cardroom, opening: SarOpening) -> tuple[str, Player, datetime | None]:
    """The case's origin, its player and when its source detected the activity."""
    sources = [opening.structuring_flag, opening.review, opening.player]
    if sum(source is not None for source in sources) != 1:
        raise DomainError(
            "Open a case from one structuring flag, one review or one player.",
            field="structuring_flag",
        )
    if opening.structuring_flag is not None:
        flag = opening.structuring_flag
        if flag.cardroom_id != cardroom.pk:
            raise DomainError("That flag is another cardroom's.", field="structuring_flag")
        if SarCase.objects.filter(structuring_flag_id=flag.pk).exists():
            raise Conflict("A case is open on that flag already.", field="structuring_flag")
        return SarCase.Origin.FLAG, flag.player, flag.created_at
    if opening.review is not None:
        review = opening.review
        if review.player.cardroom_id != cardroom.pk:
            raise DomainError("That review is of another cardroom's player.", field="review")
        if SarCase.objects.filter(review_id=review.pk).exists():
            raise Conflict("A case is open on that review already.", field="review")
        return SarCase.Origin.REVIEW, review.player, review.opened_at
    player = opening.player
    assert player is not None
    if player.cardroom_id != cardroom.pk:
        raise DomainError("That player is another cardroom's.", field="player")
    return SarCase.Origin.HAND, player, None


def _transactions(cardroom: Cardroom, opening: SarOpening) -> list[int]:
    """The ids of the transactions involved: the flag's and those named, each the cardroom's."""
    named = set(opening.transactions)
    if opening.structuring_flag is not None:
        named.update(int(pk) for pk in opening.structuring_flag.transactions)
    found = set(
        CashTransaction.objects.filter(cardroom_id=cardroom.pk, pk__in=named).values_list(
            "pk", flat=True
        )
    )
    missing = sorted(named - found)
    if missing:
        listed = ", ".join(f"#{pk}" for pk in missing)
        raise DomainError(f"No cash transaction {listed} in this cardroom.", field="transactions")
    return sorted(found)


@transaction.atomic
def sar_case_open(*, cardroom: Cardroom, opening: SarOpening, by: User) -> SarCase:
    """Open a case; its deadline runs from the detection date (the source's, unless given):
    30 calendar days, 60 when no suspect is identified."""
    require_role(by, COMPLIANCE_AUDITOR, action="open a suspicious activity case")
    summary = opening.summary.strip()
    if not summary:
        raise DomainError("Say what is suspicious.", field="summary")
    origin, player, detected_at = _source(cardroom, opening)
    today = today_at(cardroom)
    detected_on = opening.detected_on or (
        local_date(cardroom, detected_at) if detected_at else today
    )
    if detected_on > today:
        raise DomainError("The detection date cannot be in the future.", field="detected_on")
    involved = _transactions(cardroom, opening)
    case = SarCase.objects.create(
        cardroom=cardroom,
        player=player,
        origin=origin,
        structuring_flag=opening.structuring_flag,
        review=opening.review,
        summary=summary,
        detected_on=detected_on,
        suspect_identified=opening.suspect_identified,
        due_on=SarCase.due_from(detected_on, suspect_identified=opening.suspect_identified),
        opened_by=by,
        opened_at=timezone.now(),
    )
    case.transactions.set(involved)
    audit_record(
        actor=by,
        action=AuditAction.SAR_OPENED,
        target=case,
        payload={
            "player": player.pk,
            "origin": origin,
            "transactions": involved,
            "detected_on": detected_on.isoformat(),
            "due_on": case.due_on.isoformat(),
        },
    )
    return case


@transaction.atomic
def sar_note_add(*, case: SarCase, note: str, by: User) -> SarNote:
    """A note on a case, decided or not (a decided case is frozen but for its notes)."""
    require_role(by, COMPLIANCE_AUDITOR, action="note a suspicious activity case")
    if not note.strip():
        raise DomainError("Write the note on the case.", field="note")
    row = SarNote.objects.create(case=case, note=note.strip(), by=by, at=timezone.now())
    audit_record(actor=by, action=AuditAction.SAR_NOTED, target=case, payload={"note": row.pk})
    return row


@transaction.atomic
def sar_decide(
    *, case: SarCase, outcome: str, reason: str, filing_reference: str = "", by: User
) -> SarDecision:
    """Decide a case once: file (the BSA id of the SAR filed) or not, and why. A case below
    the $5,000 line may still be decided either way."""
    require_role(by, COMPLIANCE_AUDITOR, action="decide a suspicious activity case")
    # The case is append-only (no row lock on it): one decision a case is the database's
    # unique key, and a decision made meanwhile is refused as one made before.
    _refuse_decided(case)
    if outcome not in Outcome.values:
        raise DomainError(f"The outcome is one of: {', '.join(Outcome.values)}.", field="outcome")
    if not reason.strip():
        raise DomainError("Say why the case is filed or not.", field="reason")
    reference = filing_reference.strip()
    if outcome == Outcome.FILE and not reference:
        raise DomainError("Give the BSA id of the SAR filed.", field="filing_reference")
    if outcome == Outcome.NO_FILE and reference:
        raise DomainError("A case not filed has no BSA id.", field="filing_reference")
    try:
        with transaction.atomic():
            decision = SarDecision.objects.create(
                case=case,
                outcome=outcome,
                reason=reason.strip(),
                filing_reference=reference,
                by=by,
                at=timezone.now(),
            )
    except IntegrityError:
        _refuse_decided(case)
        raise
    audit_record(
        actor=by,
        action=AuditAction.SAR_DECIDED,
        target=case,
        payload={"outcome": outcome, "filing_reference": reference},
    )
    return decision


def _refuse_decided(case: SarCase) -> None:
    decided = SarDecision.objects.filter(case_id=case.pk).first()
    if decided is not None:
        raise Conflict(
            f"This case was decided ({decided.get_outcome_display()}): it is frozen.",
            field="outcome",
        )


@transaction.atomic
def sar_cases_looked_at(
    *, cardroom: Cardroom, cases: Iterable[SarCase], due: str | None, by: User
) -> None:
    """Compliance's look at the list of cases is recorded, with the cases it showed."""
    require_role(by, COMPLIANCE_AUDITOR, action="read suspicious activity cases")
    audit_record(
        actor=by,
        action=AuditAction.SAR_LISTED,
        target=cardroom,
        payload={"due": due or "", "cases": [case.pk for case in cases]},
    )


@transaction.atomic
def sar_case_looked_at(*, case: SarCase, by: User) -> None:
    """Compliance's look at one case is recorded."""
    require_role(by, COMPLIANCE_AUDITOR, action="read a suspicious activity case")
    audit_record(actor=by, action=AuditAction.SAR_VIEWED, target=case, payload={})
