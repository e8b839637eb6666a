"""FinCEN's codes for the CTR batch (``compliance.fincen_ctr``), as its published schema and
user guide give them:

- the schema, ``EFL_CTRXBatchSchema.xsd`` v1.2 (12/17/2021), "FinCEN Currency Transaction
  Report (CTR) XSD" on bsaefiling.fincen.treas.gov (read from the copy carried in the public
  repository moov-io/fincen, data/xsd/EFL_CTRXBatchSchema.xsd);
- the user guide, "FinCEN CTR XML Schema User Guide" (Electronic Filing Requirements for the
  FinCEN Currency Transaction Report), v1.8, August 2021: dollar amounts rounded up to the
  next whole dollar; ``TotalAmount`` the sum of every ``DetailTransactionAmountText``.
"""

from __future__ import annotations

from patrons.models import CashKind, IdType, TinType

NAMESPACE = "www.fincen.gov/base"
SCHEMA_LOCATION = (
    "www.fincen.gov/base https://www.fincen.gov/base "
    "https://www.fincen.gov/base/EFL_CTRXBatchSchema.xsd"
)
FORM_TYPE = "CTRX"


class PartyType:
    """``ActivityPartyTypeCode``: the parties of one CTR."""

    TRANSMITTER = "35"
    TRANSMITTER_CONTACT = "37"
    REPORTING_INSTITUTION = "30"
    TRANSACTION_LOCATION = "34"
    CONTACT_FOR_ASSISTANCE = "8"
    PERSON_ON_OWN_BEHALF = "50"  # the person conducting the transaction on their own behalf


class IdCode:
    """``PartyIdentificationTypeCode``."""

    SSN_ITIN = "1"
    EIN = "2"
    TIN = "4"  # the transmitter's
    DRIVERS_LICENCE_STATE_ID = "5"
    PASSPORT = "6"
    ALIEN_REGISTRATION = "7"
    FOREIGN = "9"
    TRANSMITTER_CONTROL_CODE = "28"
    OTHER = "999"


#: ``PrimaryRegulatorTypeCode``: a casino's or card club's federal regulator for the BSA is
#: the IRS (code 7).
REGULATOR_IRS = "7"
#: ``OrganizationTypeID`` 1, "Casino/Card club"; ``OrganizationSubtypeID`` 103, "Card club".
ORGANIZATION_CASINO_CARD_CLUB = "1"
ORGANIZATION_SUBTYPE_CARD_CLUB = "103"
#: ``PartyNameTypeCode``: the legal name, a name doing business as.
NAME_LEGAL = "L"
NAME_DBA = "DBA"

#: ``CurrencyTransactionActivityDetailTypeCode`` for each 31 CFR 1021.311 kind on the cash
#: log. Cash in: 18 purchase of casino chips, 55 deposit(s) (front money, safekeeping),
#: 46 payment(s) (on a marker), 14 currency exchange in, 21 currency wager(s). Cash out:
#: 28 redemption of casino chips, 56 withdrawal(s), 30 advance(s) on credit (markers),
#: 15 currency exchange out, 31 payment(s) on wager(s).
DETAIL_CODE: dict[str, str] = {
    CashKind.CHIP_PURCHASE: "18",
    CashKind.FRONT_MONEY_DEPOSIT: "55",
    CashKind.SAFEKEEPING_DEPOSIT: "55",
    CashKind.MARKER_PAYMENT: "46",
    CashKind.CURRENCY_EXCHANGE_IN: "14",
    CashKind.BET_OF_CURRENCY: "21",
    CashKind.CHIP_REDEMPTION: "28",
    CashKind.FRONT_MONEY_WITHDRAWAL: "56",
    CashKind.SAFEKEEPING_WITHDRAWAL: "56",
    CashKind.MARKER_ADVANCE: "30",
    CashKind.CURRENCY_EXCHANGE_OUT: "15",
    CashKind.PAYMENT_ON_BET: "31",
}
CASH_IN_CODES = frozenset({"55", "46", "23", "12", "14", "49", "18", "21", "25", "997", "53"})
CASH_OUT_CODES = frozenset(
    {"56", "30", "32", "13", "15", "48", "28", "31", "33", "34", "998", "54"}
)

#: The ID on file, as FinCEN types it (code; the words for "other").
ID_CODE: dict[str, tuple[str, str]] = {
    IdType.DRIVER_LICENCE: (IdCode.DRIVERS_LICENCE_STATE_ID, ""),
    IdType.STATE_ID: (IdCode.DRIVERS_LICENCE_STATE_ID, ""),
    IdType.PASSPORT: (IdCode.PASSPORT, ""),
    IdType.MILITARY_ID: (IdCode.OTHER, "Military ID"),
    IdType.OTHER: (IdCode.OTHER, "Other ID"),
}
#: The person's TIN, as FinCEN types it: an SSN or ITIN, an EIN, a foreign TIN.
TIN_CODE: dict[str, str] = {
    TinType.SSN: IdCode.SSN_ITIN,
    TinType.ITIN: IdCode.SSN_ITIN,
    TinType.EIN: IdCode.EIN,
    TinType.FOREIGN: IdCode.FOREIGN,
}

US_STATES = frozenset(
    [
        "AL",
        "AK",
        "AZ",
        "AR",
        "CA",
        "CO",
        "CT",
        "DE",
        "DC",
        "FL",
        "GA",
        "HI",
        "ID",
        "IL",
        "IN",
        "IA",
        "KS",
        "KY",
        "LA",
        "ME",
        "MD",
        "MA",
        "MI",
        "MN",
        "MS",
        "MO",
        "MT",
        "NE",
        "NV",
        "NH",
        "NJ",
        "NM",
        "NY",
        "NC",
        "ND",
        "OH",
        "OK",
        "OR",
        "PA",
        "RI",
        "SC",
        "SD",
        "TN",
        "TX",
        "UT",
        "VT",
        "VA",
        "WA",
        "WV",
        "WI",
        "WY",
        "AS",
        "GU",
        "MP",
        "PR",
        "VI",
    ]
)
#: An issuer written as words that names the United States.
US_WORDS = frozenset({"US", "USA", "UNITED STATES", "UNITED STATES OF AMERICA"})


def issuer_codes(issuer: str) -> tuple[str, str]:
    """An ID's issuer as FinCEN's (state, country) codes: "CA" is California in the US, "US"
    or "United States" the US, another two letters a country; ("", "") when not a code."""
    text = " ".join(issuer.upper().replace(".", "").split())
    if text in US_STATES:
        return text, "US"
    if text in US_WORDS:
        return "", "US"
    if len(text) == 2 and text.isascii() and text.isalpha():
        return "", text
    return "", ""
