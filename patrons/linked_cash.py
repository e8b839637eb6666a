"""When compliance links two records to one person, the cash both already had counts together:
each gaming day of the absorbed records' cash is totalled again by person, so a day whose cash
in (or out) now passes $10,000.00 gets the person's CTR (or its CTR grows; a filed one stays as
filed and gets its amendment), and a day now showing structuring is flagged."""

from __future__ import annotations

from datetime import date

from django.contrib.auth.models import User

from audit.actions import AuditAction
from audit.services import audit_record

from . import ctrs, selectors
from .models import CTR_THRESHOLD, CashTransaction, CurrencyTransactionReport

Direction = CashTransaction.Direction


def ctrs_follow(*, absorbed_id: int, kept_id: int, by: User) -> None:
    """The absorbed person's CTRs become the kept person's: moved where the kept person has
    none that day; merged into the kept person's CTR of the day where both have one and the
    absorbed one is not filed yet (its transactions join, it goes, an audit event says so)."""
    reports = CurrencyTransactionReport.objects.select_for_update()
    kept = {r.gaming_day: r for r in reports.filter(person_id=kept_id)}
    for report in reports.filter(person_id=absorbed_id).order_by("pk"):
        into = kept.get(report.gaming_day)
        if into is None:
            report.person_id = kept_id
            report.save(update_fields=["person"])
        elif report.status == CurrencyTransactionReport.Status.TO_FILE:
            into.transactions.add(*report.transactions.all())
            audit_record(
                actor=by,
                action=AuditAction.CTR_MERGED,
                target=into,
                payload={"merged": report.pk, "gaming_day": report.gaming_day},
            )
            report.transactions.clear()
            report.delete()


def linked_days_total(*, person_id: int, absorbed_ids: list[int], by: User) -> list[date]:
    """Total again by person each gaming day the absorbed records had cash (the person's row
    is locked by the caller); the days whose CTR was made or grown."""
    days = sorted(
        set(
            CashTransaction.objects.filter(player_id__in=absorbed_ids).values_list(
                "gaming_day", flat=True
            )
        )
    )
    return [day for day in days if _day_report(person_id, day, by)]


def _identified(person_id: int, day: date) -> int | None:
    for identity in selectors.person_identities(person_id):
        if selectors.identity_valid_on(identity, day):
            return identity.player_id
    return None


def _day_report(person_id: int, day: date, by: User) -> bool:
    cash_in = selectors.day_total(person_id, day, Direction.IN)
    cash_out = selectors.day_total(person_id, day, Direction.OUT)
    if max(cash_in, cash_out) <= CTR_THRESHOLD:
        return False
    rows = list(selectors.person_cash(person_id, day).order_by("created_at", "id"))
    last = rows[-1]
    player_id = _identified(person_id, day) or last.player_id
    latest = (
        CurrencyTransactionReport.objects.filter(person_id=person_id, gaming_day=day)
        .order_by("-version")
        .first()
    )
    if latest is not None and (latest.cash_in, latest.cash_out) == (cash_in, cash_out):
        return False  # the day's CTR already says it all (filed or not): nothing to amend
    ctrs.ctr_for_cash(last, by, person_id=person_id, player_id=player_id, origin="player_link")
    return True
