"""The filing institution of a cardroom's CTRs (``CtrFiler``): compliance sets it, audited;
FinCEN's CTR batch (``compliance.fincen_ctr``) names the filer, its contact office and the
transmitter by it. Each field is checked as FinCEN's batch schema takes it."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError
from core.permissions import require_role
from core.roles import COMPLIANCE_AUDITOR

from .models import Cardroom, CtrFiler

_DIGITS = re.compile(r"[0-9]+")
_LETTERS = re.compile(r"[A-Z]+")
_TCC = re.compile(r"[A-Z0-9]{8}")
#: A phone number may come written with spaces, dashes, dots or brackets; FinCEN takes digits.
_PHONE_MARKS = re.compile(r"[\s\-.()]")


@dataclass(frozen=True)
class FilerInput:
    legal_name: str
    ein: str
    street: str
    city: str
    state: str
    zip_code: str
    contact_office: str
    phone: str
    transmitter_contact: str
    transmitter_tcc: str
    country: str = "US"
    phone_extension: str = ""


def _text(value: str, field: str, longest: int) -> str:
    text = " ".join(str(value).split())  # FinCEN refuses leading, trailing or doubled spaces
    if not text:
        raise DomainError("This is needed for FinCEN's CTR.", field=field)
    if len(text) > longest:
        raise DomainError(f"At most {longest} characters.", field=field)
    return text


def _digits(value: str, field: str, lengths: tuple[int, ...], what: str) -> str:
    text = str(value).strip()
    if not (text.isascii() and _DIGITS.fullmatch(text) and len(text) in lengths):
        raise DomainError(f"The {what} is {' or '.join(map(str, lengths))} digits.", field=field)
    return text


def _code(value: str, field: str, length: int, what: str) -> str:
    text = str(value).strip().upper()
    if not (text.isascii() and _LETTERS.fullmatch(text) and len(text) == length):
        raise DomainError(f"The {what} is a {length}-letter code.", field=field)
    return text


def filer_check(given: FilerInput) -> FilerInput:
    """The filer's details as FinCEN takes them (spaces tidied, codes upper case), or a
    refusal naming the field at fault."""
    tcc = str(given.transmitter_tcc).strip().upper()
    if not (tcc.isascii() and _TCC.fullmatch(tcc)):
        raise DomainError(
            "The transmitter control code is FinCEN's 8 letters and digits.",
            field="transmitter_tcc",
        )
    extension = str(given.phone_extension).strip()
    if extension:
        extension = _digits(extension, "phone_extension", (1, 2, 3, 4, 5, 6), "extension")
    return FilerInput(
        legal_name=_text(given.legal_name, "legal_name", 150),
        ein=_digits(str(given.ein).replace("-", "", 1), "ein", (9,), "EIN"),
        street=_text(given.street, "street", 100),
        city=_text(given.city, "city", 50),
        state=_code(given.state, "state", 2, "state"),
        zip_code=_digits(given.zip_code, "zip_code", (5, 9), "ZIP code"),
        country=_code(given.country, "country", 2, "country"),
        contact_office=_text(given.contact_office, "contact_office", 150),
        phone=_digits(
            _PHONE_MARKS.sub("", str(given.phone)), "phone", tuple(range(10, 17)), "phone number"
        ),
        phone_extension=extension,
        transmitter_contact=_text(given.transmitter_contact, "transmitter_contact", 150),
        transmitter_tcc=tcc,
    )


@transaction.atomic
def ctr_filer_set(*, cardroom: Cardroom, filer: FilerInput, by: User) -> CtrFiler:
    """Compliance sets who files the cardroom's CTRs (for the next batch on)."""
    require_role(by, COMPLIANCE_AUDITOR, action="set the CTR filer")
    checked = asdict(filer_check(filer))
    row = CtrFiler.objects.select_for_update().filter(cardroom=cardroom).first()
    before = {name: getattr(row, name) for name in checked} if row else {}
    if row is None:
        row = CtrFiler(cardroom=cardroom)
    for name, value in checked.items():
        setattr(row, name, value)
    row.updated_by, row.updated_at = by, timezone.now()
    row.save()
    audit_record(
        actor=by,
        action=AuditAction.CTR_FILER_SET,
        target=row,
        payload={
            "changed": sorted(name for name in checked if before.get(name) != checked[name]),
            **checked,
        },
    )
    return row
