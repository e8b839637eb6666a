"""FinCEN's CTR batch of a cardroom, from its records: the CTRs of an ended gaming day (or the
ones named), each with its person as the identity on file has them, filed by the cardroom's
``CtrFiler``; written by ``compliance.fincen_ctr``. The file carries each person's TIN and ID
number whole (the form needs them): each download is an audit event naming the CTRs and
players in it. A CTR that lacks a field the form needs is refused by its number and the
field ("CTR #12: the person's street is missing"), and nothing is written."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import date
from decimal import Decimal
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR
from patrons import ctrs
from patrons.masking import masked_id
from patrons.models import (
    Cardroom,
    CashTransaction,
    CtrFiler,
    CurrencyTransactionReport,
    PlayerIdentity,
)

from . import fincen_codes as codes
from .fincen_ctr import Filer, FilingCtr, FilingPerson, FilingTransaction, batch_xml

#: The person's fields FinCEN's CTR needs, as a refusal names them.
PERSON_FIELDS = (
    ("last_name", "last name"),
    ("first_name", "first name"),
    ("street", "street"),
    ("city", "city"),
    ("zip_code", "ZIP code"),
    ("country", "country"),
    ("tin", "TIN"),
    ("tin_type", "TIN type"),
    ("occupation", "occupation"),
    ("id_number", "ID number"),
)
#: FinCEN asks for the state of an address in these countries.
COUNTRIES_WITH_STATES = frozenset({"US", "CA", "MX"})


def _text(identity: PlayerIdentity, name: str) -> str:
    value = getattr(identity, name)  # the sealed ones (TIN, ID number) read unsealed
    return " ".join(str(value).split()) if value is not None else ""


def _missing(number: int, what: str) -> DomainError:
    return DomainError(f"CTR #{number}: the person's {what} is missing.", field="ctr")


def filing_person(report: CurrencyTransactionReport) -> FilingPerson:
    """The CTR's person from the identity on file, or a refusal naming what is missing."""
    identity = getattr(report.player, "identity", None)
    if identity is None:
        raise DomainError(f"CTR #{report.pk}: the person has no identity on file.", field="ctr")
    values = {name: _text(identity, name) for name, _ in PERSON_FIELDS}
    for name, what in PERSON_FIELDS:
        if not values[name]:
            raise _missing(report.pk, what)
    values["country"] = values["country"].upper()
    if values["country"] == "US":
        values["zip_code"] = values["zip_code"].replace("-", "")  # FinCEN: 5 or 9 digits
    state = _text(identity, "state").upper()
    if not state and values["country"] in COUNTRIES_WITH_STATES:
        raise _missing(report.pk, "state")
    if values["tin_type"] not in codes.TIN_CODE:
        raise DomainError(f"CTR #{report.pk}: the person's TIN type is not FinCEN's.", field="ctr")
    return FilingPerson(
        **{name: values[name] for name, _ in PERSON_FIELDS if name != "id_number"},
        middle_name=_text(identity, "middle_name"),
        state=state,
        date_of_birth=identity.date_of_birth,
        id_type=identity.id_type,
        id_number=values["id_number"],
        id_issuer=identity.id_issuer,
    )


def _transactions(report: CurrencyTransactionReport) -> list[FilingTransaction]:
    """The cash transactions the CTR version sums (every one of its player's gaming day, as
    summed when the version was last grown); they add up to its totals, or nothing is filed
    from them."""
    rows = list(report.transactions.all())
    cash_in = sum((tx.amount for tx in rows if tx.direction == "in"), Decimal(0))
    cash_out = sum((tx.amount for tx in rows if tx.direction == "out"), Decimal(0))
    if not rows or (cash_in, cash_out) != (report.cash_in, report.cash_out):
        raise DomainError(
            f"CTR #{report.pk}: its cash transactions do not add up to its totals.", field="ctr"
        )
    return [FilingTransaction(kind=tx.kind, amount=tx.amount) for tx in sorted(rows, key=_pk)]


def _pk(row: CashTransaction) -> int:
    return row.pk


def prior_bsa_id(report: CurrencyTransactionReport) -> str:
    """An amendment's: the BSA id of the version it amends (FinCEN's 14 digits; 14 zeros when
    the reference recorded at filing is not one)."""
    if report.amends is None:
        return ""
    digits = "".join(c for c in report.amends.filing_reference if c.isascii() and c.isdigit())
    return digits if len(digits) == 14 else "0" * 14


def filing_ctr(report: CurrencyTransactionReport) -> FilingCtr:
    transactions = _transactions(report)
    return FilingCtr(
        number=report.pk,
        gaming_day=report.gaming_day,
        person=filing_person(report),
        transactions=transactions,
        prior_bsa_id=prior_bsa_id(report),
    )


def filer_of(cardroom: Cardroom) -> Filer:
    row = CtrFiler.objects.filter(cardroom=cardroom).first()
    if row is None:
        raise DomainError(
            "Set the cardroom's CTR filer (the filing institution) first.", field="ctr_filer"
        )
    return Filer(
        legal_name=row.legal_name,
        ein=row.ein,
        street=row.street,
        city=row.city,
        state=row.state,
        zip_code=row.zip_code,
        country=row.country,
        contact_office=row.contact_office,
        phone=row.phone,
        phone_extension=row.phone_extension,
        transmitter_contact=row.transmitter_contact,
        transmitter_tcc=row.transmitter_tcc,
        doing_business_as=cardroom.name,
    )


def batch_reports(
    cardroom: Cardroom, day: date | None, ctr_ids: Sequence[int]
) -> list[CurrencyTransactionReport]:
    """The CTR versions of gaming day ``day`` still to file (amendments among them), or those
    of ``ctr_ids`` (the cardroom's, filed or not), in order."""
    if (day is None) == (not ctr_ids):
        raise DomainError("Name a gaming day or the CTRs, not both.", field="day")
    rows = CurrencyTransactionReport.objects.filter(cardroom=cardroom)
    if day is not None:
        rows = rows.filter(gaming_day=day, status=CurrencyTransactionReport.Status.TO_FILE)
    else:
        rows = rows.filter(pk__in=ctr_ids)
    rows = rows.select_related("player__identity", "amends").prefetch_related("transactions")
    reports = list(rows.order_by("id"))
    if ctr_ids:
        unknown = sorted(set(ctr_ids) - {report.pk for report in reports})
        if unknown:
            raise DomainError(f"CTR #{unknown[0]} is not one of this cardroom's.", field="ctr")
    elif not reports:
        raise DomainError(f"No CTR of the gaming day {day} is still to file.", field="day")
    return reports


def _ended(cardroom: Cardroom, reports: Sequence[CurrencyTransactionReport]) -> None:
    """The batch's CTRs are all of ended gaming days (a running day's can still grow)."""
    for report in reports:
        if ctrs.day_running(cardroom, report.gaming_day):
            raise Conflict(
                f"CTR #{report.pk}: its gaming day {report.gaming_day} is still running; "
                "its cash can still grow. Export it once the day has ended.",
                field="day",
            )


@transaction.atomic
def fincen_batch(
    *, cardroom: Cardroom, by: User, day: date | None = None, ctr_ids: Sequence[int] = ()
) -> bytes:
    """The batch file of the CTRs of ``day`` (or of ``ctr_ids``), as FinCEN takes it, and an
    audit event for the whole numbers it carries."""
    require_role(by, COMPLIANCE_AUDITOR, action="export FinCEN's CTR batch")
    filer = filer_of(cardroom)
    reports = batch_reports(cardroom, day, ctr_ids)
    _ended(cardroom, reports)
    filings = [filing_ctr(report) for report in reports]
    filed_on = timezone.now().astimezone(ZoneInfo(cardroom.time_zone)).date()
    content = batch_xml(filer=filer, ctrs=filings, filed_on=filed_on)
    audit_record(
        actor=by,
        action=AuditAction.CTR_BATCH_EXPORTED,
        target=cardroom,
        payload={
            "day": day,
            "ctrs": [report.pk for report in reports],
            "players": sorted({report.player_id for report in reports}),
            "tins": [masked_id(filing.person.tin) for filing in filings],
            "sha256": hashlib.sha256(content).hexdigest(),
        },
    )
    return content
