"""FinCEN's BSA E-Filing batch XML for the CTR: one file (``fc2:EFilingBatchXML``) for a batch
of currency transaction reports, each an ``Activity`` with its parties (transmitter 35,
transmitter contact 37, reporting institution 30, contact for assistance 8, transaction
location 34, the person 50) and its ``CurrencyTransactionActivity``, one detail per FinCEN
type code. Element names, their order and the codes are those of FinCEN's schema and user
guide (sources: ``compliance.fincen_codes``). This module writes from plain data
(``Filer``, ``FilingCtr``); ``compliance.fincen_batch`` gathers it from the records."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from . import fincen_codes as codes
from .fincen_parties import (
    Filer,
    FilingPerson,
    Writer,
    amount_text,
    institution_parties,
    location_party,
    person_party,
)

__all__ = ["Filer", "FilingCtr", "FilingPerson", "FilingTransaction", "batch_xml"]

_XSI = "http://www.w3.org/2001/XMLSchema-instance"
ET.register_namespace("xsi", _XSI)


@dataclass(frozen=True)
class FilingTransaction:
    kind: str  # ``patrons.models.CashKind``
    amount: Decimal


@dataclass(frozen=True)
class FilingCtr:
    number: int  # the CTR's id, for refusals that name it
    gaming_day: date
    person: FilingPerson
    transactions: Sequence[FilingTransaction]
    prior_bsa_id: str = ""  # an amendment's: the BSA id of the report it corrects


def whole_dollars(amount: Decimal) -> int:
    """FinCEN's rule for amounts: rounded UP to the next whole dollar ($15,265.25: 15266)."""
    return int(math.ceil(amount))


def detail_amounts(ctr: FilingCtr) -> list[tuple[str, int]]:
    """Each FinCEN type code of the CTR with its amount (the kinds it joins summed first,
    then rounded up), cash in before cash out, in code order."""
    sums: dict[str, Decimal] = {}
    for tx in ctr.transactions:
        code = codes.DETAIL_CODE[tx.kind]
        sums[code] = sums.get(code, Decimal(0)) + tx.amount
    ordered = sorted(sums, key=lambda code: (code in codes.CASH_OUT_CODES, int(code)))
    return [(code, whole_dollars(sums[code])) for code in ordered]


def _sides(details: Iterable[tuple[str, int]]) -> tuple[int, int]:
    pairs = list(details)
    cash_in = sum(amount for code, amount in pairs if code in codes.CASH_IN_CODES)
    return cash_in, sum(amount for code, amount in pairs if code in codes.CASH_OUT_CODES)


def aggregated(ctr: FilingCtr) -> bool:
    """The CTR sums several transactions, none of them alone over $10,000.00 (FinCEN's
    "aggregated transactions" box)."""
    line = Decimal("10000.00")
    return len(ctr.transactions) > 1 and all(tx.amount <= line for tx in ctr.transactions)


def _activity(w: Writer, root: ET.Element, filer: Filer, ctr: FilingCtr, filed_on: date) -> None:
    details = detail_amounts(ctr)
    cash_in, cash_out = _sides(details)
    activity = w.numbered(root, "Activity")
    if ctr.prior_bsa_id:
        w.add(activity, "EFilingPriorDocumentNumber", ctr.prior_bsa_id)
    w.add(activity, "FilingDateText", filed_on.strftime("%Y%m%d"))
    w.values(
        w.numbered(activity, "ActivityAssociation"),
        ("CorrectsAmendsPriorReportIndicator", "Y" if ctr.prior_bsa_id else ""),
        ("FinCENDirectBackFileIndicator", ""),
        ("InitialReportIndicator", "" if ctr.prior_bsa_id else "Y"),
    )
    institution_parties(w, activity, filer)
    location_party(w, activity, filer, cash_in, cash_out)
    person_party(w, activity, ctr.person, cash_in, cash_out)
    summary = w.numbered(activity, "CurrencyTransactionActivity")
    w.values(
        summary,
        ("AggregateTransactionIndicator", "Y" if aggregated(ctr) else ""),
        ("ArmoredCarServiceIndicator", ""),
        ("ATMIndicator", ""),
        ("MailDepositShipmentIndicator", ""),
        ("NightDepositIndicator", ""),
        ("SharedBranchingIndicator", ""),
        ("TotalCashInReceiveAmountText", amount_text(cash_in)),
        ("TotalCashOutAmountText", amount_text(cash_out)),
        ("TransactionDateText", ctr.gaming_day.strftime("%Y%m%d")),
    )
    for code, amount in details:
        w.values(
            w.numbered(summary, "CurrencyTransactionActivityDetail"),
            ("CurrencyTransactionActivityDetailTypeCode", code),
            ("DetailTransactionAmountText", str(amount)),
            ("OtherCurrencyTransactionActivityDetailText", ""),
            ("OtherForeignCurrencyCountryText", ""),
        )
        w.total += amount


def batch_xml(*, filer: Filer, ctrs: Sequence[FilingCtr], filed_on: date) -> bytes:
    """One batch file of ``ctrs`` (at least one), filed by ``filer`` on ``filed_on``: UTF-8
    XML with the batch's ``ActivityCount``, ``PartyCount`` and ``TotalAmount``."""
    if not ctrs:
        raise ValueError("A FinCEN batch holds at least one CTR.")
    w = Writer()
    root = ET.Element(w.tag("EFilingBatchXML"))
    root.set(f"{{{_XSI}}}schemaLocation", codes.SCHEMA_LOCATION)
    w.add(root, "FormTypeCode", codes.FORM_TYPE)
    for ctr in ctrs:
        _activity(w, root, filer, ctr, filed_on)
    # The schema's attribute order is TotalAmount, PartyCount, ActivityCount.
    root.set("TotalAmount", str(w.total))
    root.set("PartyCount", str(w.parties))
    root.set("ActivityCount", str(len(ctrs)))
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True)
