"""Reads of suspicious activity cases, for compliance alone: the cases of a cardroom (the
overdue ones), and what each case says: the $5,000 test, the deadline, its status."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.db.models import QuerySet

from core.money import ZERO

from .models import SAR_THRESHOLD, SarCase, SarDecision

#: The list's filter ``due``: the undecided cases past their deadline, or all undecided ones.
DUE_FILTERS = ("overdue", "open")


def sar_cases(cardroom_id: int, *, due: str | None = None, today: date) -> QuerySet[SarCase]:
    rows = SarCase.objects.filter(cardroom_id=cardroom_id)
    if due in DUE_FILTERS:
        rows = rows.filter(decision__isnull=True)
    if due == "overdue":
        rows = rows.filter(due_on__lt=today)
    return with_details(rows)


def with_details(rows: QuerySet[SarCase]) -> QuerySet[SarCase]:
    return rows.select_related("cardroom", "player", "opened_by", "decision__by").prefetch_related(
        "transactions", "notes__by"
    )


def decision_of(case: SarCase) -> SarDecision | None:
    try:
        return case.decision
    except SarDecision.DoesNotExist:
        return None


@dataclass(frozen=True)
class SarFacts:
    """What a case says, as of ``today``: the cash involved (in, out, in all) against the
    $5,000 line, the days left to the deadline (negative: overdue), its status."""

    cash_in: Decimal
    cash_out: Decimal
    involved: Decimal
    meets_threshold: bool
    days_left: int
    overdue: bool
    status: str

    @property
    def days_overdue(self) -> int:
        return max(0, -self.days_left)

    @property
    def threshold_words(self) -> str:
        if self.meets_threshold:
            return f"at or over the ${SAR_THRESHOLD:,} reporting line"
        return f"below the ${SAR_THRESHOLD:,} reporting line"


def facts(case: SarCase, today: date) -> SarFacts:
    rows = list(case.transactions.all())
    cash_in = sum((t.amount for t in rows if t.direction == "in"), ZERO)
    cash_out = sum((t.amount for t in rows if t.direction == "out"), ZERO)
    involved = cash_in + cash_out  # "involves or aggregates": both sides count
    decision = decision_of(case)
    days_left = (case.due_on - today).days
    status = (
        "open" if decision is None else ("filed" if decision.outcome == "file" else "not_filed")
    )
    return SarFacts(
        cash_in=cash_in,
        cash_out=cash_out,
        involved=involved,
        meets_threshold=involved >= SAR_THRESHOLD,
        days_left=days_left,
        overdue=decision is None and days_left < 0,
        status=status,
    )
