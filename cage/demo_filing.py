"""The demo day's filing under the law: the person its CTR names, whole, and who files it, so
that compliance can download the day's FinCEN batch (the TIN is the void "Woolworth" specimen
number, never issued to anyone)."""

from patrons.ctr_filer import FilerInput
from patrons.ctr_person import CtrPerson

HARPER = CtrPerson(
    last_name="Lane",
    first_name="Harper",
    street="210 Almaden Boulevard",
    city="San Jose",
    state="CA",
    zip_code="95113",
    tin="078051120",
    tin_type="ssn",
    occupation="Software engineer",
)
FILER = FilerInput(
    legal_name="Demo Card Club LLC",
    ein="943456789",
    street="1 Market Street",
    city="San Francisco",
    state="CA",
    zip_code="94105",
    contact_office="Compliance Office",
    phone="4155550100",
    transmitter_contact="Compliance Office",
    transmitter_tcc="TCC12345",
)
