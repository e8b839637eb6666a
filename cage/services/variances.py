"""Variances escalate (N.J.A.C. 13:69D-1.21; Nevada MICS table games and count standards;
25 CFR 543.18): every variance the cage finds is recorded, so it reaches the discrepancy report
(``compliance.discrepancies``); one over the cardroom's ``variance_incident_threshold`` raises
an incident by itself, one over ``variance_regulator_threshold`` is on the regulator's list.
Called inside the transaction of the count that found it."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Model
from django.utils import timezone

from audit.actions import AuditAction
from audit.chain import label_of
from audit.services import audit_record
from core.errors import DomainError
from core.money import money_text
from patrons.incidents_raised import incident_raise
from patrons.models import Cardroom, Incident
from tables.models import Table
from tables.services.incidents import incident_at_table

from ..models import InventoryCount, Variance

_SOURCE_WORDS = {
    Variance.Source.RACK_COUNT: "rack count",
    Variance.Source.DROP_COUNT: "drop count",
    Variance.Source.DROP_CORRECTION: "corrected drop count",
    Variance.Source.CAGE_COUNT: "cage count",
}


@transaction.atomic
def variance_escalate(
    *,
    cardroom: Cardroom,
    source: str,
    record: Model,
    amount: Decimal,
    by: User,
    table: Table | None = None,
    explanation: str = "",
    gaming_day: date | None = None,
    shift: str | None = None,
) -> Variance:
    """Record a variance of ``record`` (its gaming day and shift unless given) and escalate it
    by the cardroom's thresholds; over either, strictly, whichever its sign."""
    if source not in Variance.Source.values:
        raise DomainError(
            f"The source is one of: {', '.join(Variance.Source.values)}.", field="source"
        )
    if not amount:
        raise DomainError("A variance is an amount other than $0.00.", field="amount")
    day = gaming_day or getattr(record, "gaming_day")  # noqa: B009 - any record with a day
    shift = shift or getattr(record, "shift")  # noqa: B009
    size = abs(amount)
    incident = None
    if size > cardroom.variance_incident_threshold:
        incident = _incident(cardroom, source, amount, by, table, day, shift)
    variance = Variance.objects.create(
        cardroom=cardroom,
        table=table,
        source=source,
        record_type=label_of(type(record)),
        record_id=record.pk,
        gaming_day=day,
        shift=shift,
        amount=amount,
        explanation=explanation.strip(),
        incident=incident,
        regulator=size > cardroom.variance_regulator_threshold,
        found_by=by,
        found_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.VARIANCE_FOUND,
        target=variance,
        payload={
            "source": source,
            "record": f"{variance.record_type}:{variance.record_id}",
            "table": table.pk if table else None,
            "gaming_day": day,
            "shift": shift,
            "amount": amount,
            "incident": incident.pk if incident else None,
            "regulator": variance.regulator,
        },
    )
    return variance


def _incident(
    cardroom: Cardroom,
    source: str,
    amount: Decimal,
    by: User,
    table: Table | None,
    day: date,
    shift: str,
) -> Incident:
    where = f"{table}, " if table is not None else ""
    side = "over" if amount > 0 else "short"
    summary = (
        f"{where}{_SOURCE_WORDS[Variance.Source(source)]} of the {shift} shift of {day}: "
        f"${money_text(abs(amount))} {side}, more than the cardroom's threshold of "
        f"${money_text(cardroom.variance_incident_threshold)}."
    )
    incident = incident_raise(
        cardroom=cardroom,
        kind=Incident.Kind.CHIP_DISCREPANCY,
        summary=summary,
        by=by,
        table=table,
    )
    incident_at_table(incident, table)
    return incident


def rack_count_escalate(*, count: InventoryCount, by: User) -> Variance | None:
    """A rack count that differs from the books: its variance (the count − the books)
    escalates, with the count's note as its explanation. None: the count agrees, or there
    were no books yet (the table's first count)."""
    if count.book_total is None or count.total == count.book_total:
        return None
    return variance_escalate(
        cardroom=count.table.cardroom,
        source=Variance.Source.RACK_COUNT,
        record=count,
        amount=count.total - count.book_total,
        by=by,
        table=count.table,
        explanation=count.note,
    )
