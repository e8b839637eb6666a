"""Dealers' shifts: clock-in and out, a dealer put on a table, breaks, and the rules the
database keeps (clocked in once, in one place at a time). Each refusal names its field, says
why in words, and writes nothing (``refusal``, tests/conftest.py)."""

from __future__ import annotations

import json

import pytest
from django.db import IntegrityError, transaction

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from core.roles import DEALER
from tables import dealer_selectors, selectors
from tables.models import DealerAssignment, DealerShift
from tables.services.dealer_shifts import (
    cardroom_dealer_rotation_set,
    dealer_assign,
    dealer_break_end,
    dealer_break_start,
    dealer_clock_in,
    dealer_clock_out,
)
from tables.services.sessions import table_open
from wagers import services as hand_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def rae(make_user):
    return make_user("rae", role=DEALER, first_name="Rae", last_name="Ng")


@pytest.fixture
def sam(make_user):
    return make_user("sam", role=DEALER, first_name="Sam", last_name="Cole")


def test_a_clocked_in_dealer_waits_for_a_table(cardroom, rae, supervisor, clock):
    shift = dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    (row,) = dealer_selectors.dealer_board(cardroom, clock.now)
    assert (row.shift, row.where, row.minutes_on) == (shift, "waiting", 0)
    event = AuditEvent.objects.get(action="dealer.clocked_in")
    assert json.loads(event.payload)["dealer"] == rae.pk


def test_a_dealer_clocked_in_twice_is_refused_by_name(cardroom, rae, supervisor, refusal):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    with refusal(Conflict, field="dealer", says="Rae Ng is clocked in already"):
        dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)


def test_the_database_keeps_a_dealer_clocked_in_once(cardroom, rae, supervisor, clock):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealerShift.objects.create(
            cardroom=cardroom, dealer=rae, clocked_in_at=clock.now, clocked_in_by=supervisor
        )


def test_only_a_floor_supervisor_clocks_dealers_in(cardroom, rae, refusal):
    with refusal(PermissionDenied, field=None, says="clock a dealer in"):
        dealer_clock_in(cardroom=cardroom, dealer=rae, by=rae)


def test_only_a_dealer_account_clocks_in_as_a_dealer(cardroom, supervisor, refusal):
    with refusal(PermissionDenied, field=None, says="deal at a table"):
        dealer_clock_in(cardroom=cardroom, dealer=supervisor, by=supervisor)


def test_a_waiting_dealer_opens_a_closed_table(cardroom, dp_table, rae, supervisor):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    assignment = dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    assert (assignment.kind, assignment.table) == ("table", dp_table)
    assert selectors.open_session(dp_table).dealer == rae
    actions = list(AuditEvent.objects.values_list("action", flat=True))
    assert actions[-2:] == ["table.opened", "dealer.assigned"]


def test_a_dealer_put_on_an_open_table_relieves_its_dealer_who_waits(
    cardroom, dp_table, rae, sam, supervisor, clock
):
    for dealer in (rae, sam):
        dealer_clock_in(cardroom=cardroom, dealer=dealer, by=supervisor)
    dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    clock.at(5)
    dealer_assign(table=dp_table, dealer=sam, by=supervisor)
    assert selectors.open_session(dp_table).dealer == sam
    rows = {row.name: row.where for row in dealer_selectors.dealer_board(cardroom, clock.now)}
    assert rows == {"Sam Cole": "table", "Rae Ng": "waiting"}


def test_a_dealer_is_never_on_two_tables(cardroom, dp_table, house_table, rae, supervisor, refusal):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    with refusal(Conflict, field="dealer", says="Rae Ng is at Table 1"):
        dealer_assign(table=house_table, dealer=rae, by=supervisor)


def test_the_dealer_on_duty_at_another_open_table_is_refused_too(
    cardroom, dp_table, house_table, rae, supervisor, refusal
):
    table_open(table=house_table, dealer=rae, by=supervisor)  # opened before the clock-in
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    with refusal(Conflict, field="dealer", says="dealer on duty at Table 2"):
        dealer_assign(table=dp_table, dealer=rae, by=supervisor)


def test_the_database_keeps_a_dealer_in_one_place(cardroom, dp_table, house_table, rae, supervisor):
    shift = dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    assignment = dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealerAssignment.objects.create(
            shift=shift,
            dealer=rae,
            kind="table",
            table=house_table,
            started_at=assignment.started_at,
            started_by=supervisor,
        )


def test_the_database_keeps_one_dealer_assigned_to_a_table(
    cardroom, dp_table, rae, sam, supervisor
):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    other = dealer_clock_in(cardroom=cardroom, dealer=sam, by=supervisor)
    assignment = dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    with pytest.raises(IntegrityError), transaction.atomic():
        DealerAssignment.objects.create(
            shift=other,
            dealer=sam,
            kind="table",
            table=dp_table,
            started_at=assignment.started_at,
            started_by=supervisor,
        )


def test_a_dealer_not_clocked_in_takes_no_table(dp_table, rae, supervisor, refusal):
    with refusal(Conflict, field="dealer", says="Rae Ng is not clocked in"):
        dealer_assign(table=dp_table, dealer=rae, by=supervisor)


def test_the_dealer_on_duty_changes_only_between_hands(
    cardroom, dp_table, session, seated, dealer, rae, supervisor, refusal
):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    hand = hand_services.hand_start(
        table=dp_table, by=dealer, draw_cards={1: "2c", 3: "Ah", 5: "Kd"}
    )
    with refusal(Conflict, field="table", says=f"hand {hand.number} in progress"):
        dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    hand_services.hand_cancel(hand=hand, by=dealer)
    dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    assert selectors.open_session(dp_table).dealer == rae


def test_a_dealer_at_a_table_does_not_clock_out(cardroom, dp_table, rae, supervisor, refusal):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    with refusal(Conflict, field="dealer", says="push them off it first"):
        dealer_clock_out(dealer=rae, by=supervisor)


def test_a_dealer_on_break_clocks_out_and_the_break_ends(cardroom, rae, supervisor, clock):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    brk = dealer_break_start(dealer=rae, by=supervisor)
    clock.at(15)
    shift = dealer_clock_out(dealer=rae, by=supervisor)
    brk.refresh_from_db()
    assert shift.clocked_out_at == brk.ended_at == clock.now
    assert dealer_selectors.dealer_board(cardroom, clock.now) == []


def test_a_dealer_not_clocked_in_does_not_clock_out(rae, supervisor, refusal):
    with refusal(Conflict, field="dealer", says="not clocked in"):
        dealer_clock_out(dealer=rae, by=supervisor)


def test_a_break_and_back_start_the_minutes_on_again(cardroom, rae, supervisor, clock):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    clock.at(80)
    (row,) = dealer_selectors.dealer_board(cardroom, clock.now)
    assert (row.minutes_on, row.break_due) == (80, True)
    dealer_break_start(dealer=rae, by=supervisor)
    clock.at(99)
    (row,) = dealer_selectors.dealer_board(cardroom, clock.now)
    assert (row.where, row.minutes_here, row.back_due) == ("break", 19, False)
    clock.at(100)
    assert dealer_selectors.dealer_board(cardroom, clock.now)[0].back_due
    dealer_break_end(dealer=rae, by=supervisor)
    clock.at(110)
    (row,) = dealer_selectors.dealer_board(cardroom, clock.now)
    assert (row.where, row.minutes_on, row.break_due) == ("waiting", 10, False)
    ended = AuditEvent.objects.get(action="dealer.break_ended")
    assert json.loads(ended.payload)["minutes"] == 20


def test_a_dealer_on_break_is_not_sent_on_break_again(cardroom, rae, supervisor, refusal):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    dealer_break_start(dealer=rae, by=supervisor)
    with refusal(Conflict, field="dealer", says="on break already"):
        dealer_break_start(dealer=rae, by=supervisor)


def test_a_dealer_at_a_table_goes_on_break_through_a_push(
    cardroom, dp_table, rae, supervisor, refusal
):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    dealer_assign(table=dp_table, dealer=rae, by=supervisor)
    with refusal(Conflict, field="dealer", says="a push relieves them"):
        dealer_break_start(dealer=rae, by=supervisor)


def test_a_dealer_not_on_break_does_not_come_back(cardroom, rae, supervisor, refusal):
    dealer_clock_in(cardroom=cardroom, dealer=rae, by=supervisor)
    with refusal(Conflict, field="dealer", says="Rae Ng is not on break"):
        dealer_break_end(dealer=rae, by=supervisor)


def test_the_rotation_settings_are_set_and_audited(cardroom, supervisor):
    values = {"push_minutes": 30, "break_after_minutes": 90, "break_minutes": 15}
    cardroom = cardroom_dealer_rotation_set(cardroom=cardroom, values=values, by=supervisor)
    cardroom.refresh_from_db()
    assert (cardroom.push_minutes, cardroom.break_after_minutes, cardroom.break_minutes) == (
        30,
        90,
        15,
    )
    event = AuditEvent.objects.get(action="cardroom.dealer_rotation_set")
    assert json.loads(event.payload)["before"]["push_minutes"] == 20
    assert json.loads(event.payload)["after"] == values


@pytest.mark.parametrize("value", [0, 1441, "20", 2.5, True])
def test_a_rotation_setting_out_of_bounds_is_refused(cardroom, supervisor, refusal, value):
    with refusal(DomainError, field="push_minutes", says="whole minutes, 1 to 1440"):
        cardroom_dealer_rotation_set(
            cardroom=cardroom, values={"push_minutes": value}, by=supervisor
        )


def test_a_dealer_does_not_set_the_rotation(cardroom, dealer, refusal):
    with refusal(PermissionDenied, field=None, says="set the dealers' rotation"):
        cardroom_dealer_rotation_set(cardroom=cardroom, values={"push_minutes": 30}, by=dealer)
