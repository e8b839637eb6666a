"""The parties of one CTR in FinCEN's batch XML (``compliance.fincen_ctr``): the filer as
transmitter (35), transmitter contact (37), reporting institution (30), contact for assistance
(8) and transaction location (34), and the person (50); and the writer that numbers every
element carrying a ``SeqNum``. Element names and order as FinCEN's schema has them (sources:
``compliance.fincen_codes``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import date

from . import fincen_codes as codes
from .fincen_codes import IdCode, PartyType

ET.register_namespace("fc2", codes.NAMESPACE)


@dataclass(frozen=True)
class Filer:
    """The filing institution (a cardroom's ``CtrFiler``), which also transmits the file."""

    legal_name: str
    ein: str
    street: str
    city: str
    state: str
    zip_code: str
    country: str
    contact_office: str
    phone: str
    transmitter_contact: str
    transmitter_tcc: str
    phone_extension: str = ""
    doing_business_as: str = ""  # the cardroom's own name, when not its legal name


@dataclass(frozen=True)
class FilingPerson:
    """The person of a CTR (party 50): the fields of FinCEN 112's Part I the cardroom holds."""

    last_name: str
    first_name: str
    middle_name: str
    street: str
    city: str
    state: str
    zip_code: str
    country: str
    date_of_birth: date
    tin: str
    tin_type: str  # ``fincen_codes.TIN_CODE``'s keys
    occupation: str
    id_type: str  # ``patrons.models.IdType``
    id_number: str
    id_issuer: str


def amount_text(value: int) -> str:
    return str(value) if value else ""


@dataclass
class Writer:
    """Builds the tree; every element that carries a ``SeqNum`` gets the next number, so the
    numbers are unique in the file, as the schema's ``Unique-SeqNum`` asks."""

    seq: int = 0
    parties: int = 0
    total: int = 0

    def tag(self, name: str) -> str:
        return f"{{{codes.NAMESPACE}}}{name}"

    def add(self, parent: ET.Element, name: str, text: str | None = None) -> ET.Element:
        element = ET.SubElement(parent, self.tag(name))
        if text is not None:
            element.text = text
        return element

    def numbered(self, parent: ET.Element, name: str) -> ET.Element:
        self.seq += 1
        element = self.add(parent, name)
        element.set("SeqNum", str(self.seq))
        return element

    def values(self, parent: ET.Element, *pairs: tuple[str, str]) -> None:
        for name, text in pairs:
            self.add(parent, name, text)

    def party(self, activity: ET.Element, type_code: str, *base: tuple[str, str]) -> ET.Element:
        self.parties += 1
        party = self.numbered(activity, "Party")
        self.values(party, ("ActivityPartyTypeCode", type_code), *base)
        return party

    def name(self, party: ET.Element, *pairs: tuple[str, str], kind: str = "L") -> None:
        self.values(self.numbered(party, "PartyName"), ("PartyNameTypeCode", kind), *pairs)

    def address(
        self, party: ET.Element, street: str, city: str, state: str, zip_code: str, country: str
    ) -> None:
        self.values(
            self.numbered(party, "Address"),
            ("RawCityText", city),
            ("RawCountryCodeText", country),
            ("RawStateCodeText", state),
            ("RawStreetAddress1Text", street),
            ("RawZIPCode", zip_code),
        )

    def phone(self, party: ET.Element, number: str, extension: str = "") -> None:
        phone = self.numbered(party, "PhoneNumber")
        if extension:
            self.add(phone, "PhoneNumberExtensionText", extension)
        self.add(phone, "PhoneNumberText", number)

    def identification(self, party: ET.Element, *pairs: tuple[str, str]) -> None:
        self.values(self.numbered(party, "PartyIdentification"), *pairs)

    def card_club(self, party: ET.Element) -> None:
        self.values(
            self.numbered(party, "OrganizationClassificationTypeSubtype"),
            ("OrganizationSubtypeID", codes.ORGANIZATION_SUBTYPE_CARD_CLUB),
            ("OrganizationTypeID", codes.ORGANIZATION_CASINO_CARD_CLUB),
        )


def institution_parties(w: Writer, activity: ET.Element, filer: Filer) -> None:
    """The transmitter (35) and its contact (37), the reporting institution (30) and the
    office to contact for assistance (8): the filer, for a cardroom that transmits its own."""
    where = (filer.street, filer.city, filer.state, filer.zip_code, filer.country)
    transmitter = w.party(activity, PartyType.TRANSMITTER)
    w.name(transmitter, ("RawPartyFullName", filer.legal_name))
    w.address(transmitter, *where)
    w.phone(transmitter, filer.phone)
    w.identification(
        transmitter,
        ("PartyIdentificationNumberText", filer.ein),
        ("PartyIdentificationTypeCode", IdCode.TIN),
    )
    w.identification(
        transmitter,
        ("PartyIdentificationNumberText", filer.transmitter_tcc),
        ("PartyIdentificationTypeCode", IdCode.TRANSMITTER_CONTROL_CODE),
    )
    contact = w.party(activity, PartyType.TRANSMITTER_CONTACT)
    w.name(contact, ("RawPartyFullName", filer.transmitter_contact))
    institution = w.party(
        activity,
        PartyType.REPORTING_INSTITUTION,
        ("PrimaryRegulatorTypeCode", codes.REGULATOR_IRS),
    )
    _organization(w, institution, filer, where)
    office = w.party(activity, PartyType.CONTACT_FOR_ASSISTANCE)
    w.name(office, ("RawPartyFullName", filer.contact_office))
    w.phone(office, filer.phone, filer.phone_extension)


def _organization(
    w: Writer, party: ET.Element, filer: Filer, where: tuple[str, str, str, str, str]
) -> None:
    """A card club's names, address, EIN and classification (parties 30 and 34)."""
    w.name(party, ("RawPartyFullName", filer.legal_name))
    if filer.doing_business_as and filer.doing_business_as != filer.legal_name:
        w.name(party, ("RawPartyFullName", filer.doing_business_as), kind=codes.NAME_DBA)
    w.address(party, *where)
    w.identification(
        party,
        ("PartyIdentificationNumberText", filer.ein),
        ("PartyIdentificationTypeCode", IdCode.EIN),
    )
    w.card_club(party)


def location_party(
    w: Writer, activity: ET.Element, filer: Filer, cash_in: int, cash_out: int
) -> None:
    """Where the transactions took place (34): the cardroom, with its cash in and out."""
    location = w.party(
        activity,
        PartyType.TRANSACTION_LOCATION,
        ("IndividualEntityCashInAmountText", amount_text(cash_in)),
        ("IndividualEntityCashOutAmountText", amount_text(cash_out)),
        ("PrimaryRegulatorTypeCode", codes.REGULATOR_IRS),
    )
    _organization(
        w, location, filer, (filer.street, filer.city, filer.state, filer.zip_code, filer.country)
    )


def person_party(
    w: Writer, activity: ET.Element, person: FilingPerson, cash_in: int, cash_out: int
) -> None:
    """The person who conducted the transactions on their own behalf (50). The cardroom does
    not record gender: ``UnknownGenderIndicator``."""
    party = w.party(
        activity,
        PartyType.PERSON_ON_OWN_BEHALF,
        ("IndividualBirthDateText", person.date_of_birth.strftime("%Y%m%d")),
        ("IndividualEntityCashInAmountText", amount_text(cash_in)),
        ("IndividualEntityCashOutAmountText", amount_text(cash_out)),
        ("UnknownGenderIndicator", "Y"),
    )
    names = [("RawEntityIndividualLastName", person.last_name)]
    names.append(("RawIndividualFirstName", person.first_name))
    if person.middle_name:
        names.append(("RawIndividualMiddleName", person.middle_name))
    w.name(party, *names)
    w.address(party, person.street, person.city, person.state, person.zip_code, person.country)
    w.identification(
        party,
        ("PartyIdentificationNumberText", person.tin),
        ("PartyIdentificationTypeCode", codes.TIN_CODE[person.tin_type]),
    )
    id_code, other = codes.ID_CODE[person.id_type]
    state, country = codes.issuer_codes(person.id_issuer)
    ids = [("OtherIssuerCountryText", country)] if country else []
    if state:
        ids.append(("OtherIssuerStateText", state))
    if other:
        ids.append(("OtherPartyIdentificationTypeText", other))
    ids += [("PartyIdentificationNumberText", person.id_number)]
    w.identification(party, *ids, ("PartyIdentificationTypeCode", id_code))
    w.values(
        w.numbered(party, "PartyOccupationBusiness"), ("OccupationBusinessText", person.occupation)
    )
