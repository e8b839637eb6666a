"""One person however many player records (31 CFR 1021.313): one ID is one person across the
licensee's records (a second record with it is refused until compliance links the two); cash
is totalled by person across linked records, tables, the cage and every cardroom of the
licensee, never across licensees; possible matches are alerts compliance resolves."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from compliance.state_law import check_ctrs
from core.errors import Conflict, DomainError, PermissionDenied
from patrons.cash import cage_cash
from patrons.identity import identity_record
from patrons.models import (
    CurrencyTransactionReport,
    Licensee,
    PersonMatch,
    Player,
    StructuringFlag,
)
from patrons.persons import edit_distance, person_match_resolve, player_link, records_of
from tables.services.cardrooms import cardroom_create
from tables.services.seating import player_create

from .conftest import an_id

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def first(cardroom, dealer, supervisor):
    """Robin Vale, ID D1234567 on file."""
    player = player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    identity_record(player=player, identity=an_id(), by=supervisor)
    return player


@pytest.fixture
def second(cardroom, dealer):
    """A second record of the same human, registered under another name, no ID yet."""
    return player_create(cardroom=cardroom, name="R. J. Vale-Smith", by=dealer)


@pytest.fixture
def sister_room(cardroom, administrator):
    """A second cardroom of the same licensee."""
    return cardroom_create(name="Harbour Annex", licensee=cardroom.licensee, by=administrator)


@pytest.fixture
def rival_room(administrator):
    """A cardroom of another licensee."""
    return cardroom_create(name="Rival Cardroom", by=administrator)


def link(player, to_player, auditor):
    return player_link(player=player, to_player=to_player, reason="same person, seen", by=auditor)


def test_the_same_id_under_a_second_record_is_refused_naming_the_record_that_holds_it(
    first, second, supervisor, refusal
):
    with refusal(Conflict, field="id_number", says="Robin Vale"):
        identity_record(player=second, identity=an_id(), by=supervisor)
    assert not hasattr(Player.objects.get(pk=second.pk), "identity")


def test_the_same_id_spelt_otherwise_is_the_same_id(first, second, supervisor, refusal):
    with refusal(Conflict, field="id_number", says="One ID is one person"):
        identity_record(player=second, identity=an_id(number="d123-456 7"), by=supervisor)


def test_registering_a_second_record_with_the_same_id_is_refused_and_leaves_no_record(
    first, cardroom, dealer, refusal
):
    before = Player.objects.count()
    with refusal(Conflict, field="id_number", says="Robin Vale"):
        player_create(cardroom=cardroom, name="Bobby Vale", identity=an_id(), by=dealer)
    assert Player.objects.count() == before


def test_the_same_id_at_a_sister_cardroom_is_refused_and_at_another_licensee_accepted(
    first, sister_room, rival_room, dealer, supervisor, refusal
):
    with refusal(Conflict, field="id_number", says="Harbour Cardroom"):
        player_create(cardroom=sister_room, name="Robin Vale", identity=an_id(), by=dealer)
    elsewhere = player_create(cardroom=rival_room, name="Robin Vale", identity=an_id(), by=dealer)
    assert elsewhere.person.licensee != first.person.licensee


def test_after_linking_the_id_is_accepted_on_the_linked_record(first, second, supervisor, auditor):
    link(second, first, auditor)
    identity_record(player=second, identity=an_id(), by=supervisor)
    assert [p.pk for p in records_of(first)] == [first.pk, second.pk]
    payload = json.loads(AuditEvent.objects.get(action="person.records_linked").payload)
    assert (payload["to_player"], payload["reason"]) == (first.pk, "same person, seen")


def test_only_compliance_links_records_with_a_reason(first, second, supervisor, auditor, refusal):
    with pytest.raises(PermissionDenied):
        link(second, first, supervisor)
    with refusal(DomainError, field="reason", says="one person"):
        player_link(player=second, to_player=first, reason=" ", by=auditor)
    with refusal(DomainError, field="to_player", says="another record"):
        link(first, first, auditor)
    link(second, first, auditor)
    with refusal(Conflict, field="to_player", says="already one person"):
        link(second, first, auditor)


def test_records_of_two_licensees_are_never_linked(first, rival_room, dealer, auditor, refusal):
    other = player_create(cardroom=rival_room, name="Robin Vale", by=dealer)
    with refusal(DomainError, field="to_player", says="another licensee"):
        link(other, first, auditor)


# --- cash by person --------------------------------------------------------------------------


def test_linked_records_6000_and_6000_make_one_ctr_for_12000(first, second, cashier, auditor):
    link(second, first, auditor)
    cage_cash(player=first, direction="in", amount="6000.00", by=cashier)
    row = cage_cash(player=second, direction="in", amount="6000.00", by=cashier)
    assert row.day_total == D("12000.00")
    report = CurrencyTransactionReport.objects.get()
    assert (report.cash_in, report.cash_out) == (D("12000.00"), D(0))
    assert report.person_id == first.person_id
    assert report.player_id == first.pk  # the record whose identity the CTR rests on
    assert report.transactions.count() == 2


def test_linking_after_6000_and_6000_makes_the_days_ctr_for_12000(first, second, cashier, auditor):
    cage_cash(player=first, direction="in", amount="6000.00", by=cashier)
    cage_cash(player=second, direction="in", amount="6000.00", by=cashier)
    link(second, first, auditor)
    report = CurrencyTransactionReport.objects.get()
    assert (report.person_id, report.cash_in, report.player_id) == (
        first.person_id,
        D("12000.00"),
        first.pk,
    )
    assert report.transactions.count() == 2
    created = AuditEvent.objects.get(action="cash.ctr_created")
    assert json.loads(created.payload)["by"] == "player_link"


def test_linking_moves_a_records_ctr_to_the_person_and_grows_it(
    first, second, cashier, auditor, supervisor
):
    identity_record(player=second, identity=an_id(number="Q5555555"), by=supervisor)
    cage_cash(player=second, direction="in", amount="10500.00", by=cashier)
    cage_cash(player=first, direction="in", amount="1000.00", by=cashier)
    link(second, first, auditor)
    report = CurrencyTransactionReport.objects.get()
    assert (report.person_id, report.cash_in) == (first.person_id, D("11500.00"))


def test_linking_two_records_each_with_a_ctr_of_the_day_leaves_one_that_verifies(
    first, second, cashier, auditor, supervisor
):
    identity_record(player=second, identity=an_id(number="Q5555555"), by=supervisor)
    cage_cash(player=first, direction="in", amount="10500.00", by=cashier)
    cage_cash(player=second, direction="in", amount="10200.00", by=cashier)
    assert CurrencyTransactionReport.objects.count() == 2
    link(second, first, auditor)
    report = CurrencyTransactionReport.objects.get()
    assert (report.person_id, report.cash_in) == (first.person_id, D("20700.00"))
    assert report.transactions.count() == 2
    assert AuditEvent.objects.filter(action="cash.ctr_merged").count() == 1
    assert check_ctrs() == 1


def test_unlinked_records_6000_and_6000_make_no_ctr(first, second, cashier):
    cage_cash(player=first, direction="in", amount="6000.00", by=cashier)
    cage_cash(player=second, direction="in", amount="6000.00", by=cashier)
    assert not CurrencyTransactionReport.objects.exists()


def test_cash_in_and_out_of_linked_records_are_never_netted(first, second, cashier, auditor):
    link(second, first, auditor)
    cage_cash(player=first, direction="in", amount="9000.00", by=cashier)
    cage_cash(player=second, direction="out", amount="9000.00", by=cashier)
    assert not CurrencyTransactionReport.objects.exists()
    cage_cash(player=second, direction="out", amount="1500.00", by=cashier)
    report = CurrencyTransactionReport.objects.get()
    assert (report.cash_in, report.cash_out) == (D("9000.00"), D("10500.00"))


def test_across_two_cardrooms_of_one_licensee_one_ctr(first, sister_room, dealer, cashier, auditor):
    annex = player_create(cardroom=sister_room, name="Robin Vale", by=dealer)
    link(annex, first, auditor)
    cage_cash(player=first, direction="in", amount="6000.00", by=cashier)
    cage_cash(player=annex, direction="in", amount="6000.00", by=cashier)
    report = CurrencyTransactionReport.objects.get()
    assert report.cash_in == D("12000.00")
    assert report.cardroom == sister_room  # where the line was crossed
    assert check_ctrs() == 1  # the state verification totals by person too


def test_across_two_licensees_no_ctr(first, rival_room, dealer, supervisor, cashier):
    other = player_create(cardroom=rival_room, name="Robin Vale", identity=an_id(), by=dealer)
    cage_cash(player=first, direction="in", amount="6000.00", by=cashier)
    cage_cash(player=other, direction="in", amount="6000.00", by=cashier)
    assert not CurrencyTransactionReport.objects.exists()


def test_the_ctr_line_of_a_person_asks_for_an_identity_on_any_of_their_records(
    cardroom, second, dealer, cashier, auditor, refusal
):
    bare = player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    link(second, bare, auditor)
    cage_cash(player=bare, direction="in", amount="6000.00", by=cashier)
    with refusal(DomainError, field="player", says="identity"):
        cage_cash(player=second, direction="in", amount="6000.00", by=cashier)


def test_the_mtl_day_total_is_the_persons(first, second, cashier, auditor):
    link(second, first, auditor)
    cage_cash(player=first, direction="in", amount="3000.00", by=cashier)
    row = cage_cash(player=second, direction="in", amount="2999.99", by=cashier)
    assert row.day_total == D("5999.99")
    assert row.logged is False  # the log takes each transaction at its own amount


def test_structuring_under_two_linked_records_flags_the_person_once(
    first, second, cashier, auditor
):
    link(second, first, auditor)
    for player in (first, second, first):
        cage_cash(player=player, direction="in", amount="2900.00", by=cashier)
    flag = StructuringFlag.objects.get()
    assert flag.person_id == first.person_id
    assert len(flag.transactions) == 3
    cage_cash(player=second, direction="in", amount="2900.00", by=cashier)
    assert StructuringFlag.objects.count() == 1


def test_structuring_split_over_unlinked_records_flags_nobody(first, second, cashier):
    for player in (first, second, first):
        cage_cash(player=player, direction="in", amount="2900.00", by=cashier)
    assert not StructuringFlag.objects.exists()


# --- possible matches ------------------------------------------------------------------------


def test_the_same_name_without_a_date_of_birth_is_a_possible_match(cardroom, first, dealer):
    again = player_create(cardroom=cardroom, name="robin  VALE", by=dealer)
    match = PersonMatch.objects.get()
    assert (match.player, match.other, match.kind, match.status) == (
        again,
        first,
        "same_name_no_birth_date",
        "open",
    )
    assert AuditEvent.objects.filter(action="person.match_raised").count() == 1


def test_a_near_name_with_the_same_date_of_birth_is_a_possible_match(cardroom, first, dealer):
    player_create(
        cardroom=cardroom, name="Robyn Vale", identity=an_id(number="X9999999"), by=dealer
    )
    match = PersonMatch.objects.get()
    assert match.kind == "near_name_same_birth_date"


def test_a_near_name_with_another_date_of_birth_or_a_far_name_is_no_match(cardroom, first, dealer):
    other_day = an_id(number="X9999999", born=date(1981, 5, 17))
    player_create(cardroom=cardroom, name="Robyn Vale", identity=other_day, by=dealer)
    three_off = an_id(number="Y8888888")  # the same day, but three letters off
    player_create(cardroom=cardroom, name="Robyn Vail", identity=three_off, by=dealer)
    assert not PersonMatch.objects.exists()


def test_a_possible_match_at_another_licensee_is_none(first, rival_room, dealer):
    player_create(cardroom=rival_room, name="Robin Vale", by=dealer)
    assert not PersonMatch.objects.exists()


def test_a_possible_match_is_not_a_refusal_and_is_raised_once(cardroom, first, dealer):
    again = player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    identity_record(player=again, identity=an_id(number="Z7777777"), by=dealer)
    assert PersonMatch.objects.count() == 1


def test_resolving_linked_links_the_records(cardroom, first, dealer, auditor, cashier):
    again = player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    match = PersonMatch.objects.get()
    person_match_resolve(match=match, decision="linked", reason="same face", by=auditor)
    match.refresh_from_db()
    assert (match.status, match.resolved_by, match.reason) == ("linked", auditor, "same face")
    assert Player.objects.get(pk=again.pk).person_id == first.person_id
    cage_cash(player=first, direction="in", amount="6000.00", by=cashier)
    cage_cash(player=again, direction="in", amount="6000.00", by=cashier)
    assert CurrencyTransactionReport.objects.get().cash_in == D("12000.00")
    assert AuditEvent.objects.filter(action="person.match_resolved").count() == 1


def test_resolving_distinct_keeps_two_persons(cardroom, first, dealer, auditor, refusal):
    again = player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    match = PersonMatch.objects.get()
    person_match_resolve(match=match, decision="distinct", reason="another man", by=auditor)
    assert Player.objects.get(pk=again.pk).person_id != first.person_id
    with refusal(Conflict, field="status", says="resolved as distinct"):
        person_match_resolve(match=match, decision="linked", reason="second thoughts", by=auditor)


def test_resolving_is_compliances_with_a_decision_and_a_reason(
    cardroom, first, dealer, supervisor, auditor, refusal
):
    player_create(cardroom=cardroom, name="Robin Vale", by=dealer)
    match = PersonMatch.objects.get()
    with pytest.raises(PermissionDenied):
        person_match_resolve(match=match, decision="distinct", reason="x", by=supervisor)
    with refusal(DomainError, field="decision", says="'linked' or 'distinct'"):
        person_match_resolve(match=match, decision="maybe", reason="x", by=auditor)
    with refusal(DomainError, field="reason", says="reason"):
        person_match_resolve(match=match, decision="distinct", reason="", by=auditor)
    assert PersonMatch.objects.get().status == "open"


def test_every_cardroom_has_a_licensee_of_its_own_by_default(cardroom, rival_room):
    assert cardroom.licensee != rival_room.licensee
    assert Licensee.objects.count() == 2


@pytest.mark.parametrize(
    ("a", "b", "distance"), [("robin vale", "robyn vail", 3), ("jon", "john", 1), ("a", "a", 0)]
)
def test_edit_distance(a, b, distance):
    assert edit_distance(a, b) == distance
