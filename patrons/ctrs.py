"""A CTR's life: made when a person's cash in (or out) of a gaming day passes $10,000.00, it
grows with the day's later cash until filed; it is filed only once its gaming day is over, and
is due 15 calendar days after that day (``due_on``). The version filed is frozen: its figures
stay as filed, and the person as filed (the identity on file then, the ID number and TIN
included) is kept with it, encrypted (``filed_as``). Cash recorded later for a filed day makes
the next version, which ``amends`` the one filed and says what changed (``changes``), to be
filed in its turn; the filed one is never touched again.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core import days
from core.errors import Conflict, DomainError
from core.money import money_text
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR

from . import selectors
from .ctr_person import PERSON_PARTS
from .models import Cardroom, CashTransaction, CurrencyTransactionReport, PlayerIdentity

Status = CurrencyTransactionReport.Status
#: A CTR is due this long after its gaming day (31 CFR 1010.306: 15 calendar days).
DUE_AFTER = timedelta(days=15)
#: The lists of ``ctrs_due``: still to file and not yet past due, or past due.
DUE_LISTS = ("due", "overdue")


def due_on(gaming_day: date) -> date:
    return gaming_day + DUE_AFTER


def day_cash(report: CurrencyTransactionReport) -> QuerySet[CashTransaction]:
    """The cash the CTR's person had on its gaming day, under every record of theirs: what a
    version sums."""
    return CashTransaction.objects.filter(
        player__person_id=report.person_id, gaming_day=report.gaming_day
    )


def ctr_for_cash(
    row: CashTransaction, by: User, *, person_id: int, player_id: int, origin: str = ""
) -> CurrencyTransactionReport:
    """The person's CTR of ``row``'s day made (raised on the record ``player_id``), grown, or
    (its latest version filed) amended by ``row``. The caller holds the person's row lock."""
    latest = (
        CurrencyTransactionReport.objects.select_for_update()
        .filter(person_id=person_id, gaming_day=row.gaming_day)
        .order_by("-version")
        .first()
    )
    if latest is None:
        report = CurrencyTransactionReport.objects.create(
            cardroom_id=row.cardroom_id,
            player_id=player_id,
            person_id=person_id,
            gaming_day=row.gaming_day,
            created_at=row.created_at,
            due_on=due_on(row.gaming_day),
        )
    elif latest.status == Status.FILED:
        report = CurrencyTransactionReport.objects.create(
            cardroom_id=latest.cardroom_id,
            player_id=latest.player_id,
            person_id=latest.person_id,
            gaming_day=latest.gaming_day,
            created_at=row.created_at,
            due_on=latest.due_on,
            version=latest.version + 1,
            amends=latest,
        )
    else:
        report = latest
    _sum(report)
    if report is not latest:
        _made(report, by, origin)
    return report


def _sum(report: CurrencyTransactionReport) -> None:
    """The version's figures: every cash transaction of the day (in and out summed apart)."""
    cash = list(day_cash(report))
    report.transactions.set(cash)
    report.cash_in = sum((tx.amount for tx in cash if tx.direction == "in"), Decimal(0))
    report.cash_out = sum((tx.amount for tx in cash if tx.direction == "out"), Decimal(0))
    report.changes = changes_from(report.amends, report, cash) if report.amends else ""
    report.save(update_fields=["cash_in", "cash_out", "changes"])


def changes_from(
    filed: CurrencyTransactionReport, now: CurrencyTransactionReport, cash: list[CashTransaction]
) -> str:
    """What an amendment changes from the version filed, in words."""
    parts = []
    for side, was, is_ in (
        ("cash in", filed.cash_in, now.cash_in),
        ("cash out", filed.cash_out, now.cash_out),
    ):
        if was != is_:
            parts.append(f"{side} ${money_text(was)} → ${money_text(is_)}")
    known = set(filed.transactions.values_list("pk", flat=True))
    added = [tx for tx in cash if tx.pk not in known]
    if added:
        listed = ", ".join(f"#{tx.pk} ${money_text(tx.amount)} {tx.direction}" for tx in added)
        parts.append(f"{len(added)} transaction{'s' if len(added) > 1 else ''} added ({listed})")
    return "; ".join(parts) or "no change in the figures"


def _made(report: CurrencyTransactionReport, by: User, origin: str) -> None:
    amended = report.amends
    payload: dict[str, object] = {
        "player": report.player_id,
        "person": report.person_id,
        "gaming_day": report.gaming_day,
        "cash_in": report.cash_in,
        "cash_out": report.cash_out,
        "version": report.version,
    }
    if amended is not None:
        payload |= {"amends": amended.pk, "changes": report.changes}
    if origin:
        payload["by"] = origin  # what made it, when not a cash transaction (a link)
    action = AuditAction.CTR_AMENDED if amended else AuditAction.CTR_CREATED
    audit_record(actor=by, action=action, target=report, payload=payload)


def day_running(cardroom: Cardroom, gaming_day: date) -> bool:
    """Whether ``gaming_day`` has not ended yet at the cardroom."""
    return gaming_day >= gaming_day_today(cardroom)


@transaction.atomic
def ctr_file(
    *, report: CurrencyTransactionReport, reference: str, by: User
) -> CurrencyTransactionReport:
    """Compliance marks a CTR version filed, with the filing's reference (the BSA id), once
    its gaming day is over; the figures and the person as filed are frozen with it."""
    require_role(by, COMPLIANCE_AUDITOR, action="file a currency transaction report")
    report = (
        CurrencyTransactionReport.objects.select_for_update()
        .select_related("cardroom")
        .get(pk=report.pk)
    )
    if report.status == Status.FILED:
        raise Conflict(f"This CTR was filed on {report.filed_at:%Y-%m-%d}.", field="status")
    if not reference.strip():
        raise DomainError("Give the filing's reference.", field="reference")
    if day_running(report.cardroom, report.gaming_day):
        _, ends = days.day_bounds(
            report.cardroom.time_zone, report.cardroom.gaming_day_starts_at, report.gaming_day
        )
        raise DomainError(
            f"The gaming day {report.gaming_day:%Y-%m-%d} is still running (it ends at "
            f"{ends:%H:%M} on {ends:%Y-%m-%d}): more cash may come. File its CTR once the "
            "day is over.",
            field="gaming_day",
        )
    report.status = Status.FILED
    report.filed_by, report.filed_at = by, timezone.now()
    report.filing_reference = reference.strip()[:60]
    report.filed_as = json.dumps(filed_as(report))  # type: ignore[assignment]  # untyped field
    report.save(update_fields=["status", "filed_by", "filed_at", "filing_reference", "filed_as"])
    audit_record(
        actor=by,
        action=AuditAction.CTR_FILED,
        target=report,
        payload={
            "reference": report.filing_reference,
            "version": report.version,
            "cash_in": report.cash_in,
            "cash_out": report.cash_out,
        },
    )
    return report


_PERSON_FIELDS = (*PERSON_PARTS, "id_type", "id_number", "id_issuer")


def filed_as(report: CurrencyTransactionReport) -> dict[str, object]:
    """The version as filed: its figures and the person from the identity on file now."""
    identity = PlayerIdentity.objects.filter(player_id=report.player_id).first()
    person: dict[str, object] = {}
    if identity is not None:
        person = {name: str(getattr(identity, name) or "") for name in _PERSON_FIELDS}
        person["date_of_birth"] = identity.date_of_birth.isoformat()
        person["id_expires"] = identity.id_expires.isoformat()
    return {
        "version": report.version,
        "cash_in": money_text(report.cash_in),
        "cash_out": money_text(report.cash_out),
        "transactions": sorted(report.transactions.values_list("pk", flat=True)),
        "player": report.player_id,
        "name": report.player.name,
        "person": person,
    }


def gaming_day_today(cardroom: Cardroom) -> date:
    return days.day_of(cardroom.time_zone, cardroom.gaming_day_starts_at, timezone.now())


def overdue(report: CurrencyTransactionReport) -> bool:
    """Past its due date and not filed (the cardroom's gaming day today judges)."""
    return report.status != Status.FILED and report.due_on < gaming_day_today(report.cardroom)


def ctrs_to_file(cardroom: Cardroom) -> QuerySet[CurrencyTransactionReport]:
    """Every CTR version still to file, the soonest due first."""
    rows = selectors.ctrs(cardroom.pk).filter(status=Status.TO_FILE)
    return rows.order_by("due_on", "gaming_day", "id")


def ctrs_due(cardroom: Cardroom, which: str) -> QuerySet[CurrencyTransactionReport]:
    """The CTR versions still to file: ``due`` (not yet past due) or ``overdue`` (past due),
    the soonest first."""
    if which not in DUE_LISTS:
        raise DomainError("Due is 'due' or 'overdue'.", field="due")
    today = gaming_day_today(cardroom)
    rows = ctrs_to_file(cardroom)
    return rows.filter(due_on__lt=today) if which == "overdue" else rows.filter(due_on__gte=today)
