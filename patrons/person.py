"""The person a CTR names, on the identity: the name split (last, first, middle), the address,
the TIN and its type, the occupation. Each part is optional on an identity (old identities
have none), but a part given is given whole and well formed; a refusal names its field.

The TIN is nine ASCII digits ("123-45-6789" as written on a card is the same number): never
"１２３…" (full-width digits read as digits by Python), letters, or eight or ten digits. It
is stored encrypted and shown masked (``masked_tin``) everywhere but compliance's audited
"show" (``patrons.identity.identity_reveal``).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from core.errors import DomainError

from .masking import masked_id
from .models import TinType

_TIN = re.compile(r"[0-9]{9}")
_STATE = re.compile(r"[A-Z]{2}")
_COUNTRY = re.compile(r"[A-Z]{2}")
_US_ZIP = re.compile(r"[0-9]{5}(-[0-9]{4})?")
_OTHER_POSTCODE = re.compile(r"[A-Z0-9][A-Z0-9 -]{1,9}")
#: The separators a TIN is written with on a card or a form.
_TIN_SEPARATORS = str.maketrans("", "", "- ")
#: Where a state is a USPS code: the states, DC, the territories and the armed forces'.
US_STATES = frozenset(
    re.findall(
        r"[A-Z]{2}",
        "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY "
        "LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH "
        "OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY AS GU MP "
        "PR VI UM AA AE AP",
    )
)


@dataclass(frozen=True)
class Person:
    """The CTR's person as given (each part blank when not given)."""

    last_name: str = ""
    first_name: str = ""
    middle_name: str = ""
    street: str = ""
    city: str = ""
    state: str = ""
    zip_code: str = ""
    country: str = "US"
    tin: str = ""
    tin_type: str = ""
    occupation: str = ""


#: The parts' names, as the API and the forms name their fields.
PERSON_PARTS = tuple(part.name for part in dataclasses.fields(Person))


def normal_tin(text: str) -> str:
    """A TIN as stored: its digits, the separators dropped (the digits unchecked)."""
    return (text or "").translate(_TIN_SEPARATORS)


def masked_tin(tin: str | None) -> str:
    """``"123456789"`` → ``"•••••6789"``: the ID numbers' rule."""
    return masked_id(tin)


def masked_last4(last4: str) -> str:
    """A TIN on file shown masked from the last four digits kept beside it (no decryption)."""
    return masked_id("0" * 5 + last4) if last4 else ""


def person_clean(person: Person) -> Person:
    """``person`` checked and tidied (spaces trimmed, codes upper case), or a DomainError
    naming the field at fault."""
    clean = Person(
        **{
            part.name: (getattr(person, part.name) or "").strip()
            for part in dataclasses.fields(Person)
        }
    )
    clean = _codes_upper(clean)
    _names_check(clean)
    _address_check(clean)
    _tin_check(clean)
    if len(clean.occupation) > 60:
        raise DomainError("The occupation is at most 60 characters.", field="occupation")
    return clean


def _codes_upper(person: Person) -> Person:
    return dataclasses.replace(
        person,
        state=person.state.upper(),
        country=person.country.upper() or "US",
        zip_code=person.zip_code.upper(),
        tin=normal_tin(person.tin),
        tin_type=person.tin_type.lower(),
    )


def _names_check(person: Person) -> None:
    for name in ("last_name", "first_name", "middle_name"):
        if len(getattr(person, name)) > 60:
            raise DomainError("A name is at most 60 characters.", field=name)
    if (person.first_name or person.middle_name) and not person.last_name:
        raise DomainError("Give the last name with the first name.", field="last_name")
    if person.last_name and not person.first_name:
        raise DomainError("Give the first name with the last name.", field="first_name")


def _address_check(person: Person) -> None:
    if not _COUNTRY.fullmatch(person.country) or not person.country.isascii():
        raise DomainError(
            "The country is its ISO 3166 two-letter code (US, CA, MX...).", field="country"
        )
    if len(person.street) > 100 or len(person.city) > 60:
        field = "street" if len(person.street) > 100 else "city"
        raise DomainError("The street is at most 100 characters, the city 60.", field=field)
    given = [person.street, person.city, person.state, person.zip_code]
    if any(given) and not person.street:
        raise DomainError("Give the street with the rest of the address.", field="street")
    if any(given) and not person.city:
        raise DomainError("Give the city with the street.", field="city")
    us = person.country == "US"
    if person.state and not (_STATE.fullmatch(person.state) and person.state.isascii()):
        raise DomainError("The state is its two-letter code (CA, NV, NY...).", field="state")
    if us and person.state and person.state not in US_STATES:
        raise DomainError(f"'{person.state}' is not a US state's code.", field="state")
    if us and person.street and not person.state:
        raise DomainError("Give the state of a US address.", field="state")
    if us and person.street and not person.zip_code:
        raise DomainError("Give the ZIP code of a US address.", field="zip_code")
    if person.zip_code and not _zip_ok(person.zip_code, us=us):
        words = "five digits, or ZIP+4 (12345-6789)" if us else "up to ten letters and digits"
        raise DomainError(f"The ZIP code is {words}.", field="zip_code")


def _zip_ok(code: str, *, us: bool) -> bool:
    pattern = _US_ZIP if us else _OTHER_POSTCODE
    return code.isascii() and pattern.fullmatch(code) is not None


def _tin_check(person: Person) -> None:
    if not person.tin:
        if person.tin_type:
            raise DomainError("Give the TIN with its type.", field="tin")
        return
    if not (person.tin.isascii() and _TIN.fullmatch(person.tin)):
        raise DomainError(
            "A TIN is nine digits 0-9 (an SSN, ITIN or EIN; dashes allowed).", field="tin"
        )
    if person.tin_type not in TinType.values:
        kinds = ", ".join(TinType.values)
        raise DomainError(f"The TIN's type is one of: {kinds}.", field="tin_type")
