"""The demo's gaming day (cage.demo): yesterday's, played and closed on both demo tables, every
figure reconciled or its variance explained; today the house table opens with its rack
counted; running ``load_demo`` again plays nothing again."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from io import StringIO
from xml.etree import ElementTree

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from audit.models import AuditEvent
from cage import cashier_books, selectors
from cage.models import DayClose, DropCount, InventoryCount, ShiftClose, Slip
from compliance.fincen_batch import fincen_batch
from patrons.models import Cardroom, CashTransaction, CurrencyTransactionReport, Exclusion, Incident
from tables.device_selectors import active_device
from tables.models import HouseBankEntry, Signature, Table
from tables.shuffler_simulator import InProcessDevice, Simulator
from wagers.models import Hand, ShufflerReport

pytestmark = pytest.mark.django_db

D = Decimal


def test_the_demo_has_a_closed_day_that_reconciles():
    call_command("load_demo", stdout=StringIO())
    cardroom = Cardroom.objects.get(name="Demo Cardroom")
    closed = DayClose.objects.get(cardroom=cardroom)
    stats = selectors.day_statistics(cardroom, closed.gaming_day)
    # drop 250 (house cash) + 5 (DP day, counted) + 3 (DP swing); win 45 + 5 + 3
    assert (stats.totals.drop, stats.totals.win, stats.totals.hold) == (
        D("258.00"),
        D("53.00"),
        D("20.54"),
    )
    assert (stats.totals.drop_variance, stats.totals.mismatch) == (D("-1.00"), D("0.00"))
    house = next(t for s in stats.shifts for t in s.tables if t.banking == "house")
    # 4395 − 4600 + 500 − 500 + 250 = 45, the house's −10 + 55 in the hands
    assert (house.opening, house.closing, house.win, house.house_result) == (
        D("4600.00"),
        D("4395.00"),
        D("45.00"),
        D("45.00"),
    )
    short = DropCount.objects.get(variance__lt=0)
    sign_off = short.sign_offs.get()
    assert (sign_off.signed_by.username, sign_off.amount) == ("floor", short.variance)
    assert ShiftClose.objects.filter(gaming_day=closed.gaming_day).count() == 3
    assert closed.closed_by.username == "compliance"
    assert sorted(s.number for s in Slip.objects.all()) == ["C-000001", "F-000001", "F-000002"]
    # Every second person signed as themselves (demo_signature): who, in which capacity; each
    # slip's chain by the cashier, the dealer and the floor.
    signed = {
        (s.record_type, s.capacity, s.signer.username)
        for s in Signature.objects.select_related("signer").filter(record_type__startswith="cage.")
    }
    assert signed == {
        ("cage.inventorycount", "counter", "dealer"),
        ("cage.inventorycount", "verifier", "floor"),
        ("cage.slip", "prepared", "cashier"),
        ("cage.slip", "dealer", "dealer"),
        ("cage.slip", "supervisor", "floor"),
        ("cage.slip", "cage_received", "cashier"),
        ("cage.slip", "witness", "dealer"),
        ("cage.dropcount", "second_counter", "count2"),
        ("cage.variancesignoff", "approver", "floor"),  # bound to the amount it signed
        ("cage.shiftclose", "closer", "floor"),
        ("cage.dayclose", "closer", "compliance"),
        # The cage: opened by the cashier (the floor witnessing), chips issued, closed.
        ("cage.cagecount", "incoming", "cashier"),
        ("cage.cagecount", "outgoing", "floor"),
        ("cage.cagecount", "outgoing", "cashier"),
        ("cage.cagecount", "incoming", "floor"),
        ("cage.chipissue", "witness", "floor"),
    }
    assert Signature.objects.filter(record_type="cage.dropcount").count() == 3  # 3 boxes
    assert Signature.objects.filter(record_type="cage.variancesignoff").count() == 1
    # Today the house table opened with its rack counted as the books say, before buy-ins.
    today = InventoryCount.objects.filter(table=house.table, session__closed_at=None).get()
    assert today.total == today.book_total == D("4395.00")
    # Today the cashier holds the cage, opened with the count its books hold.
    cage = cashier_books.open_cage_shift(cardroom)
    assert cage is not None and cage.cashier.username == "cashier"
    assert cage.opening_count.variance == D("0.00")
    assert cashier_books.cage_books(cardroom).cash == D("20000.00") + 3500 + 7000


def test_running_load_demo_again_plays_nothing_again():
    call_command("load_demo", stdout=StringIO())
    before = (AuditEvent.objects.count(), HouseBankEntry.objects.count())
    call_command("load_demo", stdout=StringIO())
    assert (AuditEvent.objects.count(), HouseBankEntry.objects.count()) == before


def test_the_demo_day_shows_compliance_each_rule_of_the_law():
    """Players under the law in the demo: yesterday's demo day holds an MTL entry and a CTR (an ID
    on file), a barred person on the cardroom's list, and a dispute followed up by surveillance and
    closed."""
    call_command("load_demo", stdout=StringIO())
    cardroom = Cardroom.objects.get(name="Demo Cardroom")

    logged = CashTransaction.objects.filter(cardroom=cardroom, logged=True)
    assert [str(row.amount) for row in logged.order_by("created_at")] == ["3500.00", "7000.00"]
    ctr = CurrencyTransactionReport.objects.get(cardroom=cardroom)
    assert ctr.player.name == "Harper Lane"
    assert ctr.status == CurrencyTransactionReport.Status.TO_FILE
    assert Exclusion.objects.get(cardroom=cardroom).name == "Riley Cole"
    dispute = Incident.objects.get(cardroom=cardroom, kind="dispute")
    assert [entry.kind for entry in dispute.entries.order_by("at", "id")] == [
        "surveillance_requested",
        "surveillance_findings",
        "closed",
    ]


def test_the_demo_days_ctr_downloads_as_fincen_s_batch_for_compliance():
    """The demo's CTR names its person whole and the cardroom has its filer: compliance can
    download the demo day's FinCEN batch (the CTR's gaming day is over) and file it."""
    call_command("load_demo", stdout=StringIO())
    cardroom = Cardroom.objects.get(name="Demo Cardroom")
    ctr = CurrencyTransactionReport.objects.get(cardroom=cardroom)
    compliance = User.objects.get(username="compliance")
    content = fincen_batch(cardroom=cardroom, by=compliance, day=ctr.gaming_day)
    root = ElementTree.fromstring(content)
    fc2 = "{www.fincen.gov/base}"
    names = [
        party.findtext(f"{fc2}PartyName/{fc2}RawEntityIndividualLastName")
        for party in root.iter(f"{fc2}Party")
    ]
    assert "Lane" in names
    assert root.get("TotalAmount") == "10500"


# --- the designated-player table's shuffler ---------------------------------------------------


def _dp_table() -> Table:
    return Table.objects.get(cardroom__name="Demo Cardroom", banking="designated_player")


def test_the_demo_deals_a_hand_at_the_dp_table_by_its_shuffler_with_no_card_entered():
    out = StringIO()
    call_command("load_demo", stdout=out)
    printed = out.getvalue()
    table = _dp_table()
    device = active_device(table)
    assert device is not None and device.registered_by.username == "floor"
    # Today's hand: dealt by the shuffler (the simulator, over the device API), then settled.
    hand = Hand.objects.get(table=table, card_source=Hand.CardSource.SHUFFLER)
    assert hand.status == Hand.Status.SETTLED
    assert hand.session.closed_at is None  # today's session, open for the dealer
    report = ShufflerReport.objects.get(device=device)
    assert (report.hand, report.outcome, report.sequence) == (hand, "dealt", 1)
    dealt = AuditEvent.objects.get(action="hand.dealt", object_id=str(hand.pk))
    assert json.loads(dealt.payload)["source"] == "shuffler"
    # The summary says so, with the command that deals the next hands and its token, once.
    assert f"Hand {hand.number} there was dealt by the shuffler" in printed
    token = re.search(rf"shuffler_simulate --table {table.pk} --token (\S+)", printed).group(1)
    assert Simulator(InProcessDevice(token)).waiting()["table"] == table.pk


def test_running_load_demo_again_registers_no_second_shuffler_and_deals_nothing():
    call_command("load_demo", stdout=StringIO())
    out = StringIO()
    call_command("load_demo", stdout=out)
    table = _dp_table()
    assert table.devices.count() == 1
    assert Hand.objects.filter(table=table, card_source=Hand.CardSource.SHUFFLER).count() == 1
    assert "--token T" in out.getvalue() and "was dealt" not in out.getvalue()
