"""FinCEN's CTR batch XML, parsed back (xml.etree) and checked element by element against
FinCEN's schema (EFL_CTRXBatchSchema.xsd v1.2) and user guide: every required element, the
order the schema's sequences give, the codes, the counts and the totals."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import date
from decimal import Decimal

import pytest

from compliance.fincen_ctr import (
    Filer,
    FilingCtr,
    FilingPerson,
    FilingTransaction,
    batch_xml,
    whole_dollars,
)

NS = "{www.fincen.gov/base}"
D = Decimal

#: Each element's children in the order of the schema's sequence (the base type's first);
#: a child marked "!" is required.
SEQUENCES: dict[str, list[str]] = {
    "EFilingBatchXML": ["!FormTypeCode", "!Activity"],
    "Activity": [
        "EFilingPriorDocumentNumber",
        "!FilingDateText",
        "!ActivityAssociation",
        "!Party",
        "!CurrencyTransactionActivity",
    ],
    "ActivityAssociation": [
        "!CorrectsAmendsPriorReportIndicator",
        "!FinCENDirectBackFileIndicator",
        "!InitialReportIndicator",
    ],
    "Party": [
        "!ActivityPartyTypeCode",
        "BirthDateUnknownIndicator",
        "EFilingCoverageBeginningDateText",
        "EFilingCoverageEndDateText",
        "FemaleGenderIndicator",
        "IndividualBirthDateText",
        "IndividualEntityCashInAmountText",
        "IndividualEntityCashOutAmountText",
        "MaleGenderIndicator",
        "MultipleTransactionsPersonsIndividualsIndicator",
        "PartyAsEntityOrganizationIndicator",
        "PrimaryRegulatorTypeCode",
        "UnknownGenderIndicator",
        "!PartyName",
        "Address",
        "PhoneNumber",
        "PartyIdentification",
        "OrganizationClassificationTypeSubtype",
        "PartyOccupationBusiness",
        "ElectronicAddress",
        "Account",
    ],
    "PartyName": [
        "EntityLastNameUnknownIndicator",
        "FirstNameUnknownIndicator",
        "PartyNameTypeCode",
        "RawEntityIndividualLastName",
        "RawIndividualFirstName",
        "RawIndividualMiddleName",
        "RawIndividualNameSuffixText",
        "RawPartyFullName",
    ],
    "Address": [
        "CityUnknownIndicator",
        "CountryCodeUnknownIndicator",
        "RawCityText",
        "RawCountryCodeText",
        "RawStateCodeText",
        "RawStreetAddress1Text",
        "RawZIPCode",
        "StateCodeUnknownIndicator",
        "StreetAddressUnknownIndicator",
        "ZIPCodeUnknownIndicator",
    ],
    "PhoneNumber": ["PhoneNumberExtensionText", "PhoneNumberText"],
    "PartyIdentification": [
        "IdentificationPresentUnknownIndicator",
        "OtherIssuerCountryText",
        "OtherIssuerStateText",
        "OtherPartyIdentificationTypeText",
        "PartyIdentificationNumberText",
        "PartyIdentificationTypeCode",
        "TINUnknownIndicator",
    ],
    "OrganizationClassificationTypeSubtype": [
        "OrganizationSubtypeID",
        "!OrganizationTypeID",
        "OtherOrganizationSubTypeText",
        "OtherOrganizationTypeText",
    ],
    "PartyOccupationBusiness": ["NAICSCode", "OccupationBusinessText"],
    "CurrencyTransactionActivity": [
        "!AggregateTransactionIndicator",
        "!ArmoredCarServiceIndicator",
        "!ATMIndicator",
        "!MailDepositShipmentIndicator",
        "!NightDepositIndicator",
        "!SharedBranchingIndicator",
        "!TotalCashInReceiveAmountText",
        "!TotalCashOutAmountText",
        "!TransactionDateText",
        "!CurrencyTransactionActivityDetail",
    ],
    "CurrencyTransactionActivityDetail": [
        "!CurrencyTransactionActivityDetailTypeCode",
        "!DetailTransactionAmountText",
        "!OtherCurrencyTransactionActivityDetailText",
        "!OtherForeignCurrencyCountryText",
    ],
}
#: The elements that carry a ``SeqNum`` (the schema's ``use="required"``).
NUMBERED = set(SEQUENCES) - {"EFilingBatchXML"}

FILER = Filer(
    legal_name="Bay Card Club LLC",
    ein="943456789",
    street="1 Market Street",
    city="San Francisco",
    state="CA",
    zip_code="94105",
    country="US",
    contact_office="Compliance Office",
    phone="4155550100",
    phone_extension="12",
    transmitter_contact="Cara Comply",
    transmitter_tcc="PBAYC001",
    doing_business_as="Bay Club",
)


def a_person(**changes: object) -> FilingPerson:
    values: dict[str, object] = {
        "last_name": "Vale",
        "first_name": "Robin",
        "middle_name": "Ann",
        "street": "22 Elm Street",
        "city": "Oakland",
        "state": "CA",
        "zip_code": "94607",
        "country": "US",
        "date_of_birth": date(1980, 5, 17),
        "tin": "123456789",
        "tin_type": "ssn",
        "occupation": "Teacher",
        "id_type": "driver_licence",
        "id_number": "D1234567",
        "id_issuer": "CA",
    }
    values.update(changes)
    return FilingPerson(**values)  # type: ignore[arg-type]


def tx(kind: str, amount: str) -> FilingTransaction:
    return FilingTransaction(kind=kind, amount=D(amount))


DAY = date(2026, 4, 2)
FIRST = FilingCtr(
    number=11,
    gaming_day=DAY,
    person=a_person(),
    transactions=[
        tx("chip_purchase", "6000.50"),
        tx("chip_purchase", "4000.00"),
        tx("front_money_deposit", "500.25"),
        tx("safekeeping_deposit", "100.00"),
        tx("chip_redemption", "12000.00"),
    ],
)
SECOND = FilingCtr(
    number=12,
    gaming_day=DAY,
    person=a_person(last_name="Moss", first_name="Cy", middle_name="", tin_type="itin"),
    transactions=[tx("marker_advance", "10000.01")],
)


def parse(*ctrs: FilingCtr) -> ET.Element:
    content = batch_xml(filer=FILER, ctrs=list(ctrs), filed_on=date(2026, 4, 3))
    assert content.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    return ET.fromstring(content)


def local_name(element: ET.Element) -> str:
    assert element.tag.startswith(NS), f"{element.tag} is not in FinCEN's namespace"
    return element.tag[len(NS) :]


def child(element: ET.Element, name: str) -> ET.Element:
    found = element.find(NS + name)
    assert found is not None, f"{local_name(element)} has no {name}"
    return found


def text(element: ET.Element, path: str) -> str:
    found = element.find("/".join(NS + part for part in path.split("/")))
    assert found is not None, f"{local_name(element)} has no {path}"
    return found.text or ""


def check_sequence(element: ET.Element) -> None:
    """Every child is one the schema names there, in the schema's order, and every required
    child is present; recursively."""
    name = local_name(element)
    order = [entry.lstrip("!") for entry in SEQUENCES.get(name, [])]
    children = [local_name(c) for c in element]
    if not order:
        assert not children, f"{name} holds {children}"
        return
    positions = [order.index(c) if c in order else -1 for c in children]
    assert -1 not in positions, f"{name}: {children} has one the schema does not name"
    assert positions == sorted(positions), f"{name}: {children} is out of the schema's order"
    for entry in SEQUENCES[name]:
        if entry.startswith("!"):
            assert entry[1:] in children, f"{name} lacks {entry[1:]}"
    for c in element:
        check_sequence(c)


def parties(activity: ET.Element) -> dict[str, ET.Element]:
    found = activity.findall(NS + "Party")
    by_code = {text(party, "ActivityPartyTypeCode"): party for party in found}
    assert len(by_code) == len(found)
    return by_code


def test_the_batch_follows_the_schemas_order_with_every_required_element():
    root = parse(FIRST, SECOND)
    assert local_name(root) == "EFilingBatchXML"
    check_sequence(root)
    assert text(root, "FormTypeCode") == "CTRX"
    assert root.get("{http://www.w3.org/2001/XMLSchema-instance}schemaLocation").endswith(
        "EFL_CTRXBatchSchema.xsd"
    )


def test_seq_numbers_are_on_every_element_that_needs_one_and_unique_in_the_file():
    root = parse(FIRST, SECOND)
    numbers = []
    for element in root.iter():
        name = local_name(element)
        if name in NUMBERED:
            assert element.get("SeqNum", "").isdigit(), f"{name} has no SeqNum"
            numbers.append(int(element.get("SeqNum")))
        else:
            assert element.get("SeqNum") is None, name
    assert len(numbers) == len(set(numbers))
    assert numbers == sorted(numbers)  # in document order


def test_the_batch_counts_and_totals_are_its_activities_parties_and_details():
    root = parse(FIRST, SECOND)
    activities = root.findall(NS + "Activity")
    assert root.get("ActivityCount") == "2" == str(len(activities))
    assert root.get("PartyCount") == str(len(root.findall(f"{NS}Activity/{NS}Party"))) == "12"
    details = root.findall(f".//{NS}DetailTransactionAmountText")
    assert root.get("TotalAmount") == str(sum(int(d.text or "0") for d in details))
    # FIRST: 10001 (chips, 10000.50 rounded up) + 601 (deposits, 600.25 up) + 12000 out;
    # SECOND: 10001 out (a marker's 10000.01 rounded up).
    assert root.get("TotalAmount") == str(10001 + 601 + 12000 + 10001)


def test_each_ctr_has_the_six_parties_with_their_codes():
    activity = parse(FIRST).find(NS + "Activity")
    assert [text(p, "ActivityPartyTypeCode") for p in activity.findall(NS + "Party")] == [
        "35",
        "37",
        "30",
        "8",
        "34",
        "50",
    ]
    association = child(activity, "ActivityAssociation")
    assert text(association, "InitialReportIndicator") == "Y"
    assert text(association, "CorrectsAmendsPriorReportIndicator") == ""
    assert text(activity, "FilingDateText") == "20260403"


def test_the_transmitter_and_the_institution_are_the_filer():
    found = parties(parse(FIRST).find(NS + "Activity"))
    transmitter = found["35"]
    assert text(transmitter, "PartyName/RawPartyFullName") == "Bay Card Club LLC"
    assert text(transmitter, "PhoneNumber/PhoneNumberText") == "4155550100"
    ids = {
        text(i, "PartyIdentificationTypeCode"): text(i, "PartyIdentificationNumberText")
        for i in transmitter.findall(NS + "PartyIdentification")
    }
    assert ids == {"4": "943456789", "28": "PBAYC001"}  # TIN, transmitter control code
    assert text(found["37"], "PartyName/RawPartyFullName") == "Cara Comply"
    for code in ("30", "34"):
        party = found[code]
        assert text(party, "PrimaryRegulatorTypeCode") == "7"  # the IRS
        names = [
            (text(n, "PartyNameTypeCode"), text(n, "RawPartyFullName"))
            for n in party.findall(NS + "PartyName")
        ]
        assert names == [("L", "Bay Card Club LLC"), ("DBA", "Bay Club")]
        assert text(party, "PartyIdentification/PartyIdentificationTypeCode") == "2"  # EIN
        assert text(party, "PartyIdentification/PartyIdentificationNumberText") == "943456789"
        classification = child(party, "OrganizationClassificationTypeSubtype")
        assert text(classification, "OrganizationTypeID") == "1"  # casino/card club
        assert text(classification, "OrganizationSubtypeID") == "103"  # card club
        address = child(party, "Address")
        assert [text(address, f) for f in ("RawStreetAddress1Text", "RawCityText")] == [
            "1 Market Street",
            "San Francisco",
        ]
        assert [text(address, f) for f in ("RawStateCodeText", "RawZIPCode")] == ["CA", "94105"]
    office = found["8"]
    assert text(office, "PartyName/RawPartyFullName") == "Compliance Office"
    assert text(office, "PhoneNumber/PhoneNumberExtensionText") == "12"
    assert text(found["34"], "IndividualEntityCashInAmountText") == "10602"
    assert text(found["34"], "IndividualEntityCashOutAmountText") == "12000"


def test_the_person_has_the_name_split_the_address_birth_tin_occupation_and_id():
    person = parties(parse(FIRST).find(NS + "Activity"))["50"]
    assert text(person, "IndividualBirthDateText") == "19800517"
    assert text(person, "IndividualEntityCashInAmountText") == "10602"
    assert text(person, "IndividualEntityCashOutAmountText") == "12000"
    name = child(person, "PartyName")
    assert text(name, "PartyNameTypeCode") == "L"
    assert [
        text(name, f)
        for f in (
            "RawEntityIndividualLastName",
            "RawIndividualFirstName",
            "RawIndividualMiddleName",
        )
    ] == ["Vale", "Robin", "Ann"]
    address = child(person, "Address")
    assert [
        text(address, f)
        for f in (
            "RawStreetAddress1Text",
            "RawCityText",
            "RawStateCodeText",
            "RawZIPCode",
            "RawCountryCodeText",
        )
    ] == ["22 Elm Street", "Oakland", "CA", "94607", "US"]
    tin, licence = person.findall(NS + "PartyIdentification")
    assert text(tin, "PartyIdentificationTypeCode") == "1"  # SSN/ITIN
    assert text(tin, "PartyIdentificationNumberText") == "123456789"
    assert text(licence, "PartyIdentificationTypeCode") == "5"  # driver's licence/state ID
    assert text(licence, "PartyIdentificationNumberText") == "D1234567"
    assert text(licence, "OtherIssuerStateText") == "CA"
    assert text(licence, "OtherIssuerCountryText") == "US"
    assert text(person, "PartyOccupationBusiness/OccupationBusinessText") == "Teacher"


@pytest.mark.parametrize(
    ("id_type", "issuer", "code", "state", "country", "other"),
    [
        ("passport", "MX", "6", None, "MX", None),
        ("state_id", "New York", "5", None, None, None),
        ("military_id", "United States", "999", None, "US", "Military ID"),
    ],
)
def test_each_id_type_takes_fincens_code(id_type, issuer, code, state, country, other):
    ctr = FilingCtr(
        number=1,
        gaming_day=DAY,
        person=a_person(id_type=id_type, id_issuer=issuer, middle_name=""),
        transactions=[tx("chip_purchase", "10000.01")],
    )
    person = parties(parse(ctr).find(NS + "Activity"))["50"]
    assert child(person, "PartyName").find(NS + "RawIndividualMiddleName") is None
    ident = person.findall(NS + "PartyIdentification")[1]
    assert text(ident, "PartyIdentificationTypeCode") == code
    for name, expected in (
        ("OtherIssuerStateText", state),
        ("OtherIssuerCountryText", country),
        ("OtherPartyIdentificationTypeText", other),
    ):
        found = ident.find(NS + name)
        assert (found.text if found is not None else None) == expected, name


#: Each 31 CFR 1021.311 kind and FinCEN's CurrencyTransactionActivityDetailTypeCode for it.
KIND_CODES = [
    ("chip_purchase", "18", "in"),
    ("front_money_deposit", "55", "in"),
    ("safekeeping_deposit", "55", "in"),
    ("marker_payment", "46", "in"),
    ("currency_exchange_in", "14", "in"),
    ("bet_of_currency", "21", "in"),
    ("chip_redemption", "28", "out"),
    ("front_money_withdrawal", "56", "out"),
    ("safekeeping_withdrawal", "56", "out"),
    ("marker_advance", "30", "out"),
    ("currency_exchange_out", "15", "out"),
    ("payment_on_bet", "31", "out"),
]


@pytest.mark.parametrize(("kind", "code", "side"), KIND_CODES)
def test_each_cash_kind_takes_fincens_cash_in_or_cash_out_code(kind, code, side):
    ctr = FilingCtr(
        number=1, gaming_day=DAY, person=a_person(), transactions=[tx(kind, "10000.01")]
    )
    summary = child(parse(ctr).find(NS + "Activity"), "CurrencyTransactionActivity")
    detail = child(summary, "CurrencyTransactionActivityDetail")
    assert text(detail, "CurrencyTransactionActivityDetailTypeCode") == code
    assert text(detail, "DetailTransactionAmountText") == "10001"
    cash_in, cash_out = (
        text(summary, "TotalCashInReceiveAmountText"),
        text(summary, "TotalCashOutAmountText"),
    )
    assert (cash_in, cash_out) == (("10001", "") if side == "in" else ("", "10001"))
    assert text(summary, "TransactionDateText") == "20260402"
    assert text(summary, "AggregateTransactionIndicator") == ""  # one transaction over the line


def test_the_details_sum_each_code_cash_in_first_and_the_totals_are_their_sums():
    summary = child(parse(FIRST).find(NS + "Activity"), "CurrencyTransactionActivity")
    details = [
        (
            text(d, "CurrencyTransactionActivityDetailTypeCode"),
            text(d, "DetailTransactionAmountText"),
        )
        for d in summary.findall(NS + "CurrencyTransactionActivityDetail")
    ]
    assert details == [("18", "10001"), ("55", "601"), ("28", "12000")]
    assert text(summary, "TotalCashInReceiveAmountText") == "10602"
    assert text(summary, "TotalCashOutAmountText") == "12000"
    assert text(summary, "AggregateTransactionIndicator") == ""  # the redemption is over alone


def test_several_transactions_none_over_the_line_are_aggregated():
    ctr = FilingCtr(
        number=1,
        gaming_day=DAY,
        person=a_person(),
        transactions=[tx("chip_purchase", "6000.00"), tx("chip_purchase", "6000.00")],
    )
    summary = child(parse(ctr).find(NS + "Activity"), "CurrencyTransactionActivity")
    assert text(summary, "AggregateTransactionIndicator") == "Y"


def test_an_amendment_names_the_report_it_corrects():
    amended = FilingCtr(
        number=1,
        gaming_day=DAY,
        person=a_person(),
        transactions=[tx("chip_purchase", "10100.01")],
        prior_bsa_id="31000012345678",
    )
    activity = parse(amended).find(NS + "Activity")
    check_sequence(activity)
    assert text(activity, "EFilingPriorDocumentNumber") == "31000012345678"
    association = child(activity, "ActivityAssociation")
    assert text(association, "CorrectsAmendsPriorReportIndicator") == "Y"
    assert text(association, "InitialReportIndicator") == ""


@pytest.mark.parametrize(
    ("amount", "dollars"), [("10000.00", 10000), ("10000.01", 10001), ("15265.25", 15266)]
)
def test_amounts_are_rounded_up_to_the_next_whole_dollar(amount, dollars):
    assert whole_dollars(D(amount)) == dollars


def test_a_batch_of_no_ctr_is_not_written():
    with pytest.raises(ValueError, match="at least one"):
        batch_xml(filer=FILER, ctrs=[], filed_on=DAY)
