"""FinCEN's CTR batch from the records: the cardroom's CTR filer (compliance sets it, each
field checked, audited), the batch of an ended gaming day through the API and the Law page,
its audit event, and its refusals, each naming what is at fault and writing nothing."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from audit.models import AuditEvent
from compliance.fincen_batch import fincen_batch
from core.errors import Conflict, DomainError, PermissionDenied
from patrons.cash import cage_cash, cash_transaction_record
from patrons.ctr_filer import FilerInput, ctr_filer_set
from patrons.ctr_person import CtrPerson
from patrons.ctrs import ctr_file
from patrons.identity import IdentityInput, identity_record
from patrons.models import CtrFiler, CurrencyTransactionReport

pytestmark = pytest.mark.django_db
NS = "{www.fincen.gov/base}"
DAY = date(2024, 3, 1)  # the clock's gaming day (tests/clock.py's T0)
FILER = FilerInput(
    legal_name="Bay  Card Club LLC ",
    ein="94-3456789",
    street="1 Market Street",
    city="San Francisco",
    state="ca",
    zip_code="94105",
    contact_office="Compliance Office",
    phone="(415) 555-0100",
    transmitter_contact="Cara Comply",
    transmitter_tcc="pbayc001",
)


@pytest.fixture
def api():
    def client_of(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return client_of


@pytest.fixture
def filer(cardroom, auditor):
    return ctr_filer_set(cardroom=cardroom, filer=FILER, by=auditor)


def test_compliance_sets_the_filer_tidied_as_fincen_takes_it_and_audited(filer, auditor):
    row = CtrFiler.objects.get()
    assert (row.legal_name, row.ein, row.state, row.phone, row.transmitter_tcc) == (
        "Bay Card Club LLC",
        "943456789",
        "CA",
        "4155550100",
        "PBAYC001",
    )
    event = AuditEvent.objects.filter(action="cash.ctr_filer_set").get()
    assert event.actor_id == auditor.pk and "943456789" in event.payload


def test_setting_the_filer_again_changes_the_one_row_and_says_what_changed(
    cardroom, filer, auditor
):
    ctr_filer_set(
        cardroom=cardroom, filer=FilerInput(**{**FILER.__dict__, "city": "Oakland"}), by=auditor
    )
    assert CtrFiler.objects.get().city == "Oakland"
    last = AuditEvent.objects.filter(action="cash.ctr_filer_set").order_by("seq").last()
    assert json.loads(last.payload)["changed"] == ["city"]


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        ("ein", "12345678", "EIN is 9 digits"),
        ("ein", "１２３４５６７８９", "EIN is 9 digits"),  # full-width digits: not ASCII
        ("zip_code", "9410", "ZIP code is 5 or 9 digits"),
        ("state", "Calif", "2-letter code"),
        ("phone", "555-0100", "phone number"),
        ("transmitter_tcc", "P12", "transmitter control code"),
        ("legal_name", "   ", "needed"),
        ("street", "x" * 101, "At most 100"),
        ("phone_extension", "ext 5", "extension"),
    ],
)
def test_a_filer_field_fincen_would_refuse_is_refused_by_name(
    cardroom, auditor, refusal, field, value, says
):
    with refusal(DomainError, field=field, says=says):
        ctr_filer_set(
            cardroom=cardroom, filer=FilerInput(**{**FILER.__dict__, field: value}), by=auditor
        )


def test_only_compliance_sets_the_filer(cardroom, supervisor, refusal):
    with refusal(PermissionDenied, field=None, says="set the CTR filer"):
        ctr_filer_set(cardroom=cardroom, filer=FILER, by=supervisor)


PERSON = CtrPerson(
    last_name="Vale",
    first_name="Robin",
    middle_name="Ann",
    street="22 Elm Street",
    city="Oakland",
    state="CA",
    zip_code="94607-1234",
    country="US",
    tin="123-45-6789",
    tin_type="ssn",
    occupation="Teacher",
)


def a_ctr(cardroom, make_player, supervisor, cashier, person=PERSON, *amounts):
    """Robin Vale's CTR: cash at the cage (``amounts``; $10,000.01 in by default)."""
    player = make_player("Robin Vale")
    identity_record(
        player=player,
        identity=IdentityInput(
            date_of_birth=date(1980, 5, 17),
            id_type="driver_licence",
            id_number="D1234567",
            id_issuer="CA",
            id_expires=date(2030, 1, 1),
            person=person,
        ),
        by=supervisor,
    )
    for direction, amount in amounts or (("in", "10000.01"),):
        cage_cash(player=player, direction=direction, amount=amount, by=cashier)
    return player


def text(element: ET.Element, path: str) -> str:
    found = element.find("/".join(NS + part for part in path.split("/")))
    assert found is not None, path
    return found.text or ""


def test_the_batch_of_an_ended_day_carries_each_ctrs_person_and_cash_and_is_audited(
    cardroom, filer, auditor, make_player, supervisor, cashier, clock
):
    player = a_ctr(
        cardroom,
        make_player,
        supervisor,
        cashier,
        PERSON,
        ("in", "6000.00"),
        ("in", "4000.01"),
        ("out", "5000.00"),
        ("out", "5500.50"),
    )
    report = CurrencyTransactionReport.objects.get()
    clock.advance(days=1)
    root = ET.fromstring(fincen_batch(cardroom=cardroom, day=DAY, by=auditor))
    assert (root.get("ActivityCount"), root.get("PartyCount")) == ("1", "6")
    assert root.get("TotalAmount") == str(10001 + 10501)
    activity = root.find(NS + "Activity")
    person = next(
        p for p in activity.findall(NS + "Party") if text(p, "ActivityPartyTypeCode") == "50"
    )
    assert [
        text(person, f"PartyName/{f}")
        for f in (
            "RawEntityIndividualLastName",
            "RawIndividualFirstName",
            "RawIndividualMiddleName",
        )
    ] == ["Vale", "Robin", "Ann"]
    assert text(person, "Address/RawZIPCode") == "946071234"
    assert text(person, "IndividualBirthDateText") == "19800517"
    tin, licence = person.findall(NS + "PartyIdentification")
    assert text(tin, "PartyIdentificationNumberText") == "123456789"  # whole: the form's
    assert text(licence, "PartyIdentificationNumberText") == "D1234567"
    assert text(person, "PartyOccupationBusiness/OccupationBusinessText") == "Teacher"
    summary = activity.find(NS + "CurrencyTransactionActivity")
    assert text(summary, "TransactionDateText") == "20240301"
    assert text(summary, "TotalCashInReceiveAmountText") == "10001"
    assert text(summary, "TotalCashOutAmountText") == "10501"
    assert text(summary, "AggregateTransactionIndicator") == "Y"
    institution = next(
        p for p in activity.findall(NS + "Party") if text(p, "ActivityPartyTypeCode") == "30"
    )
    assert text(institution, "PartyName/RawPartyFullName") == "Bay Card Club LLC"
    event = AuditEvent.objects.filter(action="cash.ctr_batch_exported").get()
    payload = json.loads(event.payload)
    assert (payload["ctrs"], payload["players"]) == ([report.pk], [player.pk])
    assert "123456789" not in event.payload and payload["tins"] == ["•••••6789"]


#: A person's parts blanked together (an identity takes an address, a name, a TIN whole).
BLANKED = {
    "street": {"street": "", "city": "", "state": "", "zip_code": ""},
    "last name": {"last_name": "", "first_name": "", "middle_name": ""},
    "TIN": {"tin": "", "tin_type": ""},
    "occupation": {"occupation": ""},
}


@pytest.mark.parametrize("words", list(BLANKED))
def test_a_ctr_missing_a_part_of_its_person_is_refused_naming_it(
    cardroom, filer, auditor, make_player, supervisor, cashier, clock, refusal, words
):
    a_ctr(cardroom, make_player, supervisor, cashier, replace(PERSON, **BLANKED[words]))
    report = CurrencyTransactionReport.objects.get()
    clock.advance(days=1)
    with refusal(
        DomainError, field="ctr", says=f"CTR #{report.pk}: the person's {words} is missing"
    ):
        fincen_batch(cardroom=cardroom, day=DAY, by=auditor)


def test_an_identity_recorded_before_the_ctr_fields_is_refused_by_the_name(
    cardroom, filer, auditor, make_player, supervisor, cashier, clock, refusal
):
    a_ctr(cardroom, make_player, supervisor, cashier, CtrPerson())
    clock.advance(days=1)
    with refusal(DomainError, field="ctr", says="the person's last name is missing"):
        fincen_batch(cardroom=cardroom, day=DAY, by=auditor)


def test_the_api_and_the_law_page_answer_the_file(
    cardroom, filer, auditor, make_player, supervisor, cashier, clock, api, client
):
    a_ctr(cardroom, make_player, supervisor, cashier)
    report = CurrencyTransactionReport.objects.get()
    clock.advance(days=1)
    url = f"/api/v1/cardrooms/{cardroom.pk}/ctrs/fincen-batch.xml"
    for answer in (
        api(auditor).get(f"{url}?day=2024-03-01"),
        api(auditor).get(f"{url}?ctr={report.pk}"),
    ):
        assert answer.status_code == 200, answer.content
        assert answer["Content-Type"] == "application/xml"
        assert ET.fromstring(answer.content).get("ActivityCount") == "1"
    assert api(supervisor).get(f"{url}?day=2024-03-01").status_code == 403
    client.force_login(auditor)
    page = client.get("/compliance/law/ctrs/fincen-batch.xml?day=2024-03-01")
    assert page.status_code == 200 and page["Content-Type"] == "application/xml"
    assert 'filename="fincen-ctr-2024-03-01.xml"' in page["Content-Disposition"]
    assert AuditEvent.objects.filter(action="cash.ctr_batch_exported").count() == 3


def test_no_batch_without_a_filer(cardroom, auditor, clock, refusal):
    clock.advance(days=1)
    with refusal(DomainError, field="ctr_filer", says="CTR filer"):
        fincen_batch(cardroom=cardroom, day=DAY, by=auditor)


def test_no_batch_of_a_day_without_ctrs(cardroom, filer, auditor, clock, refusal):
    clock.advance(days=1)
    with refusal(
        DomainError, field="day", says="No CTR of the gaming day 2024-03-01 is still to file"
    ):
        fincen_batch(cardroom=cardroom, day=DAY, by=auditor)


def test_no_batch_while_the_ctrs_gaming_day_is_running(
    cardroom, filer, auditor, make_player, supervisor, cashier, refusal
):
    a_ctr(cardroom, make_player, supervisor, cashier)
    with refusal(Conflict, field="day", says="still running"):
        fincen_batch(cardroom=cardroom, day=DAY, by=auditor)


def test_only_compliance_exports_the_batch(cardroom, filer, supervisor, clock, refusal):
    clock.advance(days=1)
    with refusal(PermissionDenied, field=None, says="FinCEN"):
        fincen_batch(cardroom=cardroom, day=DAY, by=supervisor)


def test_a_ctr_of_another_cardroom_is_not_in_the_batch(cardroom, filer, auditor, refusal):
    with refusal(DomainError, field="ctr", says="not one of this cardroom's"):
        fincen_batch(cardroom=cardroom, ctr_ids=[999999], by=auditor)


def test_the_api_sets_and_reads_the_filer(cardroom, auditor, api):
    client = api(auditor)
    url = f"/api/v1/cardrooms/{cardroom.pk}/ctr-filer/"
    assert client.get(url).json()["on_file"] is False
    body = {**FILER.__dict__}
    answer = client.put(url, body, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["ein"] == "943456789" and answer.json()["on_file"] is True
    refused = client.put(url, {**body, "ein": "12"}, format="json")
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "ein"
    unknown = client.put(url, {**body, "bank": "x"}, format="json")
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "bank"


def test_the_api_refuses_a_batch_by_name(cardroom, filer, auditor, api, clock):
    url = f"/api/v1/cardrooms/{cardroom.pk}/ctrs/fincen-batch.xml"
    client = api(auditor)
    clock.advance(days=1)
    assert client.get(url).json()["error"]["field"] == "day"  # neither a day nor the CTRs
    assert client.get(f"{url}?day=2024-02-30").json()["error"]["field"] == "day"
    assert client.get(f"{url}?ctr=x").json()["error"]["field"] == "ctr"
    none = client.get(f"{url}?day=2024-03-01")
    assert none.status_code == 422 and "No CTR" in none.json()["error"]["message"]


def test_the_law_page_links_the_batch_and_shows_its_refusal(cardroom, auditor, client, clock):
    client.force_login(auditor)
    page = client.get("/compliance/law/?day=2024-03-01").content.decode()
    assert 'href="/compliance/law/ctrs/fincen-batch.xml?day=2024-03-01">FinCEN batch (XML)' in page
    clock.advance(days=1)
    client.force_login(auditor)  # a new day's session
    refused = client.get("/compliance/law/ctrs/fincen-batch.xml?day=2024-03-01")
    assert refused.status_code == 422
    assert "CTR filer" in refused.content.decode()


def test_the_batch_screen_is_compliances(cardroom, supervisor, client):
    client.force_login(supervisor)
    assert client.get("/compliance/law/ctrs/fincen-batch.xml").status_code in (302, 403)


def test_an_amendment_is_in_the_days_batch_naming_the_filed_report_and_the_filed_is_not(
    cardroom, filer, auditor, make_player, supervisor, cashier, clock
):
    player = a_ctr(cardroom, make_player, supervisor, cashier)
    v1 = CurrencyTransactionReport.objects.get()
    clock.advance(days=1)
    ctr_file(report=v1, reference="BSA 31000012345678", by=auditor)
    with transaction.atomic():  # a late entry for that day, from the cage's sheets
        cash_transaction_record(
            cardroom=cardroom,
            player=player,
            direction="in",
            amount=Decimal("100.00"),
            place="cage",
            by=cashier,
            at=clock.now - timedelta(days=1),
        )
    v2 = CurrencyTransactionReport.objects.get(version=2)
    root = ET.fromstring(fincen_batch(cardroom=cardroom, day=DAY, by=auditor))
    (activity,) = root.findall(NS + "Activity")
    assert text(activity, "EFilingPriorDocumentNumber") == "31000012345678"
    assert text(activity, "ActivityAssociation/CorrectsAmendsPriorReportIndicator") == "Y"
    assert text(activity, "ActivityAssociation/InitialReportIndicator") == ""
    summary = "CurrencyTransactionActivity/TotalCashInReceiveAmountText"
    assert text(activity, summary) == "10101"  # v2's figures
    # The filed version, asked for by its number, is as filed.
    filed = ET.fromstring(fincen_batch(cardroom=cardroom, ctr_ids=[v1.pk], by=auditor))
    assert text(filed.find(NS + "Activity"), summary) == "10001"
    assert v2.amends_id == v1.pk


def test_compliance_sets_who_files_on_its_screen_asked_first_and_refused_by_field(
    cardroom, auditor, supervisor, client
):
    client.force_login(auditor)
    assert 'href="/compliance/law/ctr-filer/"' in client.get("/compliance/law/").content.decode()
    blank = client.get("/compliance/law/ctr-filer/").content.decode()
    assert "Not set yet" in blank
    body = {name: value for name, value in FILER.__dict__.items()}
    asked = client.post("/compliance/law/ctr-filer/save/", body)
    assert asked.status_code == 200 and "as who files this cardroom" in asked.content.decode()
    assert not CtrFiler.objects.exists()
    refused = client.post(
        "/compliance/law/ctr-filer/save/", body | {"ein": "94-34", "confirmed": "1"}
    )
    assert refused.status_code == 422 and "EIN" in refused.content.decode()
    assert not CtrFiler.objects.exists()
    saved = client.post("/compliance/law/ctr-filer/save/", body | {"confirmed": "1"})
    assert saved.status_code == 302
    tidied = " ".join(FILER.legal_name.split())  # as FinCEN takes it
    assert CtrFiler.objects.get(cardroom=cardroom).legal_name == tidied
    shown = client.get("/compliance/law/ctr-filer/").content.decode()
    assert "Last set by" in shown and tidied in shown
    client.force_login(supervisor)
    assert client.get("/compliance/law/ctr-filer/").status_code == 403
