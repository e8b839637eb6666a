"""The admin site shows every record of the cardroom's apps and writes none of them: writes go
through the services (checked and audited, R17), and what the rules say is never edited is
append-only in the database as well."""

from datetime import date, time, timedelta
from decimal import Decimal

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse
from django.utils import timezone

from audit.models import (
    AuditEvent,
    ChainHead,
    ChainSweep,
    Checkpoint,
    CheckpointProblem,
    CheckpointProblemAcknowledgement,
    RefusalTally,
    SinkWrite,
)
from audit.sweep import sweep_step
from cage.models import (
    CageCount,
    CageEntry,
    CageShift,
    ChipIssue,
    CurrencyExchange,
    DayClose,
    DropBox,
    DropBoxStep,
    DropCount,
    DropCountCorrection,
    DropCountCounter,
    DropSlipOriginal,
    InventoryCount,
    Marker,
    MarkerPayment,
    PlayerAccountEntry,
    SerialCounter,
    ShiftClose,
    Slip,
    SlipDelivery,
    SlipOriginal,
    SlipPrint,
    SlipStep,
    SlipVoid,
    Variance,
    VarianceSignOff,
)
from compliance.models import Export, VerificationRun
from patrons.exclusions import ExclusionInput, exclusion_add
from patrons.models import CashTransaction, Incident, Player
from rake.models import FeeEntry
from tables import selectors, signatures, staff, two_person
from tables.models import (
    DealerAssignment,
    DealerShift,
    DeviceToken,
    GameStop,
    HouseBankEntry,
    IncidentTable,
    Rack,
    RotationRecord,
    Seating,
    ShufflerDevice,
    Signature,
    StackEntry,
    StaffLineage,
    StaffProfile,
    TableCash,
    TableSession,
    TableSettings,
    TwoPersonChange,
    TwoPersonDecision,
    Waitlist,
    WaitlistEntry,
)
from tables.rotation import designated_player_rotate
from tables.services.cardrooms import cardroom_create, cardroom_shifts_set
from tables.services.configuration import table_create
from tables.services.dealer_shifts import dealer_assign, dealer_clock_in
from tables.services.exclusion_ends import exclusion_end_propose
from tables.services.seating import player_create, seat_player
from tables.services.self_approval import self_approval_change_decide, self_approval_change_propose
from tables.services.sessions import table_open
from tables.services.setting_changes import setting_change_approve, setting_change_propose
from tables.staff_models import SettingChange
from tests.conftest import PASSWORD, an_administrator, signed
from wagers.models import (
    BankBooking,
    DecisionCost,
    FeeBooking,
    Hand,
    IncidentHand,
    Settlement,
    ShufflerReport,
    Spot,
    SpotSettlement,
    WagerSettlement,
)

pytestmark = pytest.mark.django_db

APPS = ("tables", "wagers", "rake", "audit", "cage", "compliance")
# Cardrooms and players live in patrons (a layer down), their admin with the tables'.
MODELS = [model for label in APPS for model in apps.get_app_config(label).get_models()] + [
    apps.get_model("patrons", "Cardroom"),
    apps.get_model("patrons", "Player"),
]
# The records the rules say are never edited.
APPEND_ONLY = [
    TableSettings,
    StackEntry,
    RotationRecord,
    Settlement,
    SpotSettlement,
    WagerSettlement,
    FeeEntry,
    AuditEvent,
    ChainHead,
    Checkpoint,
    HouseBankEntry,
    InventoryCount,
    Slip,
    SlipDelivery,
    SlipVoid,
    SlipPrint,
    SlipStep,
    SlipOriginal,
    DropCount,
    VarianceSignOff,
    DropBox,
    DropBoxStep,
    DropCountCounter,
    DropSlipOriginal,
    DropCountCorrection,
    Variance,
    ShiftClose,
    DayClose,
    StaffLineage,
    Signature,
    TwoPersonChange,
    TwoPersonDecision,
    ShufflerReport,
    DecisionCost,
]
# Changed only through the services, so that each change is checked and audited (the rolling
# re-hash's cursor: by beat alone; a rack's books: by its counts and moves).
THROUGH_SERVICES = [
    SettingChange, TableSession, Seating, Hand, Spot, Export, VerificationRun, StaffProfile,
    ChainSweep, Rack, ShufflerDevice, DeviceToken, DealerShift, DealerAssignment,
]  # fmt: skip


def model_id(model) -> str:
    return model._meta.label


def url(model, view: str, *args) -> str:
    meta = model._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_{view}", args=args)


@pytest.fixture
def one_of_each(supervisor, dealer, make_user):
    """At least one row of every model: the tables side through the services, a hand and its
    settlement as rows (the hand services are another issue's)."""
    approver = make_user("approver", role="Floor supervisor")
    cardroom = cardroom_create(name="Admin Cardroom", by=an_administrator())
    switch = self_approval_change_propose(
        cardroom=cardroom, allowed=True, reason="Nights", by=an_administrator()
    )
    admin2 = make_user("admin2", role="Administrator")
    self_approval_change_decide(change=switch, approve=True, signature=signed(admin2), by=admin2)
    table = table_create(
        cardroom=cardroom, name="Table 1", banking="designated_player", by=supervisor
    )
    change = setting_change_propose(
        table=table, values={"ante_min": "10"}, reason="Busy night", by=supervisor
    )
    setting_change_approve(change=change, signature=signed(approver), by=approver)
    session = table_open(table=table, dealer=dealer, by=supervisor)
    seatings = [
        seat_player(
            table=table,
            seat=seat,
            player=player_create(cardroom=cardroom, name=name, by=dealer),
            buy_in="300",
            by=dealer,
        )
        for seat, name in ((1, "Avery"), (2, "Blake"))
    ]
    rotation = designated_player_rotate(table=table, by=dealer, draw_cards={1: "As", 2: "Kd"})
    dealer_clock_in(cardroom=cardroom, dealer=dealer, by=supervisor)
    dealer_assign(table=table, dealer=dealer, by=supervisor)  # a dealer's shift and place
    now = timezone.now()
    hand = Hand.objects.create(
        table=table,
        session=session,
        number=1,
        settings=selectors.current_settings(table),
        rotation=rotation,
        dp_seating=seatings[0],
        dp_bank=Decimal("300.00"),
        status=Hand.Status.SETTLED,
        card_source=Hand.CardSource.ENTERED,
        started_by=dealer,
        started_at=now,
        settled_at=now,
    )
    # A cash transaction at the table (as at a house-banked one), linked from there.
    cash = CashTransaction.objects.create(
        cardroom=cardroom,
        player=seatings[1].player,
        direction=CashTransaction.Direction.IN,
        kind=CashTransaction.Kind.CHIP_PURCHASE,
        amount=Decimal("300.00"),
        place=CashTransaction.Place.TABLE,
        gaming_day=now.date(),
        day_total=Decimal("300.00"),
        recorded_by=dealer,
        created_at=now,
    )
    TableCash.objects.create(
        cash_transaction=cash, table=table, stack_entry=seatings[1].entries.get()
    )
    spot = Spot.objects.create(
        hand=hand, seat=2, seating=seatings[1], player=seatings[1].player, ante=Decimal("10.00")
    )
    settlement = Settlement.objects.create(
        hand=hand,
        entry=1,
        kind=Settlement.Kind.ORIGINAL,
        round={},
        result={},
        house_rake=Decimal("2.00"),
        dealer_net=Decimal("8.00"),
        created_by=dealer,
        created_at=now,
    )
    line = SpotSettlement.objects.create(
        settlement=settlement,
        spot=spot,
        seat=2,
        status="played",
        rake=Decimal("1.00"),
        net=Decimal("-11.00"),
        paid_back=Decimal("0.00"),
    )
    WagerSettlement.objects.create(
        spot_settlement=line,
        wager="ante",
        stake=Decimal("10.00"),
        outcome="lose",
        net=Decimal("-10.00"),
    )
    fee = FeeEntry.objects.create(
        table=table,
        gaming_day=now.date(),
        rake_mode="all_players",
        payer=FeeEntry.Payer.SPOT,
        seat=2,
        amount=Decimal("1.00"),
        created_at=now,
    )
    FeeBooking.objects.create(fee=fee, hand=hand, settlement=settlement)
    house = HouseBankEntry.objects.create(
        table=table,
        amount=Decimal("-1.00"),
        reason=HouseBankEntry.Reason.SETTLEMENT,
        gaming_day=now.date(),
        shift="day",
        created_at=now,
    )
    BankBooking.objects.create(bank_entry=house, settlement=settlement)
    DecisionCost.objects.create(
        settlement=settlement, spot=spot, seat=2, decision="fold", best_play="fold",
        dealer_hands=45_379_620, fold_ev=-453_796_200, raise_once_ev=-460_000_000,
        raise_cap_ev=-460_000_000, taken_ev=-453_796_200, cost=0, computed_at=now,
    )  # fmt: skip
    incident = Incident.objects.create(
        cardroom=cardroom,
        kind=Incident.Kind.DISPUTE,
        occurred_at=now,
        summary="A disputed payout",
        reported_by=supervisor,
        created_at=now,
    )
    IncidentTable.objects.create(incident=incident, table=table)
    _house_bar_end_proposed(cardroom, supervisor, now)
    IncidentHand.objects.create(incident=incident, hand=hand)
    _device_rows(table, hand, supervisor, now)
    _waitlist_rows(cardroom, table, supervisor, now)
    head = ChainHead.objects.get(pk=1)
    checkpoint = Checkpoint.objects.create(
        seq=head.seq, hash=head.hash, verified_at=now, events=head.seq
    )
    _cage_rows(cardroom, table, session, supervisor, dealer, checkpoint, now)
    _slip_chain_rows(dealer, now)
    SinkWrite.objects.create(checkpoint=checkpoint, written=False, error="disk full", at=now)
    problem = CheckpointProblem.objects.create(fingerprint="0" * 64, text="forged", found_at=now)
    CheckpointProblemAcknowledgement.objects.create(
        problem=problem, note="reported", by=supervisor, at=now
    )
    RefusalTally.objects.create(key=f"user:{dealer.pk}", actor=dealer, recorded_at=now)
    _staff_rows(supervisor, approver)
    GameStop.objects.create(
        table=table,
        session=session,
        stopped_at=now,
        window_start=now,
        window_end=now,
        settings_version=1,
        window_minutes=40,
        holders=["Avery"],
        hands=8,
    )
    Export.objects.create(
        kind=Export.Kind.AUDIT_LOG, start=now, end=now, requested_by=supervisor, requested_at=now
    )
    VerificationRun.objects.create(
        kind=VerificationRun.Kind.BOOKS, requested_by=supervisor, requested_at=now
    )
    assert sweep_step().ok
    return {model: model.objects.order_by("pk").first() for model in MODELS}


def _waitlist_rows(cardroom, table, supervisor, now) -> None:
    """A list and a player called from it to a seat, as rows."""
    waitlist = Waitlist.objects.create(cardroom=cardroom, banking="designated_player",
                                       ante_min=Decimal("5"), ante_max=Decimal("100"),
                                       opened_by=supervisor, opened_at=now)  # fmt: skip
    WaitlistEntry.objects.create(waitlist=waitlist, name="Wren Lister", channel="in_person",
                                 position=1, status="called", joined_by=supervisor, joined_at=now,
                                 called_table=table, called_seat=2, called_at=now,
                                 call_expires_at=now)  # fmt: skip


def _device_rows(table, hand, supervisor, now) -> None:
    """A table's shuffler, its token and a message it sent, as rows."""
    device = ShufflerDevice.objects.create(
        table=table, make="Shufflex", model="HF-7", serial="SX-1", registered_by=supervisor,
        registered_at=now,
    )  # fmt: skip
    DeviceToken.objects.create(
        device=device, digest="0" * 64, prefix="abcd1234", created_by=supervisor, created_at=now
    )
    ShufflerReport.objects.create(
        device=device, sequence=1, digest="1" * 64, outcome=ShufflerReport.Outcome.REFUSED,
        code="conflict", answer={}, reason="No hand is waiting for cards.", field="hand", hand=hand,
        received_at=now,
    )  # fmt: skip


def _staff_rows(supervisor, approver) -> None:
    """A proposed account approved (a profile, its lineage, the approver's signature) and a
    signing PIN set."""
    change = staff.staff_account_propose(
        username="newcount", first_name="New", last_name="Counter", role="Count team",
        reason="A third counter", by=supervisor,
    )  # fmt: skip
    two_person.change_approve(change=change, signature=signed(approver), by=approver)
    signatures.pin_set(user=approver, password=PASSWORD, pin="4816", by=approver)


def _slip_chain_rows(dealer, now) -> None:
    """A step of the delivered slip's chain (its signature beside it) and its original found
    by the drop count, as rows."""
    slip = Slip.objects.filter(delivery__isnull=False).get()
    signature = Signature.objects.create(
        signer=dealer,
        capacity="dealer",
        record_type="cage.slip",
        record_id=slip.pk,
        method=Signature.Method.PASSWORD,
        signed_at=now,
    )
    SlipStep.objects.create(slip=slip, step="dealer", person=dealer, signature=signature, at=now)
    SlipOriginal.objects.create(slip=slip, drop_count=DropCount.objects.get(), found_at=now)


def _drop_rows(cardroom, table, count, supervisor, dealer, now) -> None:
    """A drop box and a custody step, a further counter, a slip original, a correction and
    the variance it found."""
    box = DropBox.objects.create(
        cardroom=cardroom,
        table=table,
        gaming_day=count.gaming_day,
        shift="day",
        identifier="Table1-day",
        issued_by=supervisor,
        issued_at=now,
    )
    DropBoxStep.objects.create(box=box, step="removed", by=supervisor, at=now)
    DropCountCounter.objects.create(count=count, counter=dealer, signed_at=now)
    DropSlipOriginal.objects.create(count=count, serial="F-000001")
    correction = DropCountCorrection.objects.create(
        count=count,
        cash={},
        chips={},
        cash_total=Decimal("0.00"),
        chips_total=Decimal("101.00"),
        total=Decimal("101.00"),
        variance=Decimal("2.00"),
        reason="Typed",
        initials="FO",
        corrected_by=supervisor,
        created_at=now,
    )
    Variance.objects.create(
        cardroom=cardroom,
        table=table,
        source="drop_correction",
        record_type="cage.dropcountcorrection",
        record_id=correction.pk,
        gaming_day=count.gaming_day,
        shift="day",
        amount=Decimal("2.00"),
        found_by=supervisor,
        found_at=now,
    )


def _cage_rows(cardroom, table, session, supervisor, dealer, checkpoint, now) -> None:
    """One row of each cage record (and the shifts, house bank and rack beneath them), as
    rows."""
    cardroom_shifts_set(
        cardroom=cardroom, shifts=[("day", time(6)), ("night", time(18))], by=supervisor
    )
    day, chips = now.date(), {"25.00": 4}
    bank = HouseBankEntry.objects.create(
        table=table,
        amount=Decimal("100.00"),
        reason=HouseBankEntry.Reason.FILL,
        gaming_day=day,
        shift="day",
        created_at=now,
    )
    InventoryCount.objects.create(
        table=table,
        session=session,
        kind="opening",
        gaming_day=day,
        shift="day",
        chips=chips,
        total=Decimal("100.00"),
        counted_by=dealer,
        verified_by=supervisor,
        created_at=now,
    )
    Rack.objects.create(table=table, cents=10000, pieces=chips)
    SerialCounter.objects.create(cardroom=cardroom, kind="fill", last=1)
    slips = [
        Slip.objects.create(
            cardroom=cardroom,
            table=table,
            kind="fill",
            serial=serial,
            gaming_day=day,
            shift="day",
            chips=chips,
            total=Decimal("100.00"),
            requested_by=supervisor,
            requested_at=now,
        )
        for serial in (1, 2)
    ]
    SlipDelivery.objects.create(
        slip=slips[0], delivered_by=dealer, delivered_at=now, bank_entry=bank
    )
    SlipVoid.objects.create(
        slip=slips[1], reason="Wrong table", voided_by=supervisor, witness=dealer, voided_at=now
    )
    SlipPrint.objects.create(slip=slips[0], reprint=False, printed_by=supervisor, printed_at=now)
    count = DropCount.objects.create(
        table=table,
        gaming_day=day,
        shift="day",
        cash={},
        chips=chips,
        cash_total=Decimal("0.00"),
        chips_total=Decimal("100.00"),
        total=Decimal("100.00"),
        expected_cash=Decimal("0.00"),
        expected_chips=Decimal("99.00"),
        expected_total=Decimal("99.00"),
        variance=Decimal("1.00"),
        counted_by=supervisor,
        second_counter=dealer,
        created_at=now,
    )
    VarianceSignOff.objects.create(
        count=count,
        amount=count.variance,
        reason="A tip dropped",
        signed_by=supervisor,
        signed_at=now,
    )
    _drop_rows(cardroom, table, count, supervisor, dealer, now)
    ShiftClose.objects.create(
        cardroom=cardroom,
        gaming_day=day,
        shift="day",
        closed_by=supervisor,
        closed_at=now,
        figures={},
    )
    DayClose.objects.create(
        cardroom=cardroom,
        gaming_day=day,
        closed_by=supervisor,
        closed_at=now,
        figures={},
        checkpoint=checkpoint,
    )
    _cashier_rows(cardroom, supervisor, dealer, day, now)


def _cashier_rows(cardroom, supervisor, dealer, day, now) -> None:
    """The cage's own books: a count, the shift it opens, an entry, a chip issue."""
    zero = Decimal("0.00")
    count = CageCount.objects.create(
        cardroom=cardroom,
        kind="opening",
        gaming_day=day,
        chips={},
        chips_total=zero,
        cash={},
        cash_total=zero,
        variance=zero,
        outgoing=supervisor,
        incoming=dealer,
        created_at=now,
    )
    shift = CageShift.objects.create(
        cardroom=cardroom, cashier=dealer, opening_count=count, opened_at=now
    )
    CageEntry.objects.create(
        cardroom=cardroom,
        shift=shift,
        kind="cash_from_vault",
        gaming_day=day,
        chips={},
        chips_total=zero,
        cash=Decimal("100.00"),
        by=dealer,
        created_at=now,
    )
    _player_money_rows(cardroom, shift, dealer, day, now)
    ChipIssue.objects.create(
        cardroom=cardroom,
        direction="issue",
        gaming_day=day,
        chips={"25.00": 4},
        total=Decimal("100.00"),
        reason="New chips",
        by=dealer,
        witness=supervisor,
        created_at=now,
    )


def _player_money_rows(cardroom, shift, dealer, day, now) -> None:
    """A player's front money, a marker paid, a currency exchange: each on its cage entry."""
    player = Player.objects.filter(cardroom=cardroom).order_by("pk").first()
    fifty, zero = Decimal("50.00"), Decimal("0.00")
    kinds = ("front_money", "marker_issued", "marker_paid") + ("currency_exchange",) * 2
    entries = [
        CageEntry.objects.create(cardroom=cardroom, shift=shift, kind=kind, gaming_day=day,
                                 chips={}, chips_total=zero, cash=fifty, by=dealer, created_at=now)
        for kind in kinds
    ]  # fmt: skip
    PlayerAccountEntry.objects.create(cardroom=cardroom, player=player, account="front_money",
                                      amount=fifty, balance=fifty, cage_entry=entries[0],
                                      by=dealer, created_at=now)  # fmt: skip
    marker = Marker.objects.create(cardroom=cardroom, player=player, amount=fifty, issued_as="cash",
                                   cage_entry=entries[1], by=dealer, created_at=now)  # fmt: skip
    MarkerPayment.objects.create(marker=marker, amount=fifty, outstanding=zero,
                                 cage_entry=entries[2], by=dealer, created_at=now)  # fmt: skip
    CurrencyExchange.objects.create(cardroom=cardroom, player=player, amount=fifty, currency="EUR",
                                    foreign_amount=Decimal("46.00"), received_entry=entries[3],
                                    paid_entry=entries[4], by=dealer, created_at=now)  # fmt: skip


def _house_bar_end_proposed(cardroom, supervisor, now) -> None:
    """A house bar whose end waits for a second floor supervisor."""
    entry = ExclusionInput(kind="barred", name="Riley Cole", date_of_birth=date(1979, 2, 2),
                           starts_on=now.date(), reason="Past-posting")  # fmt: skip
    bar = exclusion_add(cardroom=cardroom, entry=entry, by=supervisor)
    exclusion_end_propose(exclusion=bar, ends_on=now.date() + timedelta(days=30),
                          reason="Lifted on appeal", by=supervisor)  # fmt: skip


def test_every_model_of_the_cardroom_apps_is_in_the_admin():
    missing = [model_id(m) for m in MODELS if not admin.site.is_registered(m)]
    assert missing == []


def test_every_model_is_read_only_in_the_admin():
    for model in MODELS:
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(None), model_id(model)
        assert not model_admin.has_change_permission(None), model_id(model)
        assert not model_admin.has_delete_permission(None), model_id(model)


@pytest.mark.parametrize("model", MODELS, ids=model_id)
def test_a_superuser_sees_the_list_and_each_record(admin_client, one_of_each, model):
    record = one_of_each[model]
    assert record is not None, f"the fixture made no {model_id(model)}"
    listing = admin_client.get(url(model, "changelist"))
    assert listing.status_code == 200
    assert b"delete_selected" not in listing.content  # no bulk delete either
    page = admin_client.get(url(model, "change", record.pk))
    assert page.status_code == 200
    assert b'name="_save"' not in page.content  # shown, not editable


@pytest.mark.parametrize("model", MODELS, ids=model_id)
def test_the_list_searches_and_filters(admin_client, one_of_each, model):
    model_admin = admin.site._registry[model]
    if model_admin.search_fields:
        assert admin_client.get(url(model, "changelist"), {"q": "1"}).status_code == 200
    if model_admin.date_hierarchy:
        year = getattr(one_of_each[model], model_admin.date_hierarchy).year
        query = {f"{model_admin.date_hierarchy}__year": year}
        assert admin_client.get(url(model, "changelist"), query).status_code == 200


@pytest.mark.parametrize("model", APPEND_ONLY + THROUGH_SERVICES, ids=model_id)
def test_the_admin_refuses_to_add_change_or_delete(admin_client, one_of_each, model):
    record = one_of_each[model]
    assert admin_client.get(url(model, "add")).status_code == 403
    assert admin_client.post(url(model, "add"), {}).status_code == 403
    assert admin_client.post(url(model, "change", record.pk), {}).status_code == 403
    assert admin_client.get(url(model, "delete", record.pk)).status_code == 403
    assert admin_client.post(url(model, "delete", record.pk), {"post": "yes"}).status_code == 403
    assert model.objects.filter(pk=record.pk).exists()


def test_configuration_records_are_read_only_in_the_admin_too(admin_client, one_of_each):
    from patrons.models import Cardroom, Player
    from tables.models import Table

    for model in (Cardroom, Table, Player):
        record = one_of_each[model]
        assert admin_client.get(url(model, "add")).status_code == 403
        assert admin_client.post(url(model, "change", record.pk), {"name": "X"}).status_code == 403
        assert admin_client.get(url(model, "delete", record.pk)).status_code == 403
        record.refresh_from_db()
        assert record.name != "X"


def test_a_staff_user_without_view_permission_sees_nothing(client, make_user, one_of_each):
    client.force_login(make_user("staffer", is_staff=True))
    assert client.get(url(AuditEvent, "changelist")).status_code == 403
