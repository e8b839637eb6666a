"""Seat calls: the next player on the list of a table's game is called to an open seat, has
the cardroom's minutes to take it (seated through the seating service), else the call passes
to the next; a seat change keeps the stack; what the floor dashboard shows of open seats."""

from __future__ import annotations

import json
from datetime import timedelta
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from tables import waitlist_selectors
from tables.models import Seating, WaitlistEntry
from tables.services.seat_calls import (
    waitlist_call,
    waitlist_call_pass,
    waitlist_calls_expire,
    waitlist_seat,
)
from tables.services.seat_changes import seating_move
from tables.services.seating import seat_player
from tables.services.sessions import table_open
from tables.services.waitlist import waitlist_join, waitlist_open, waitlist_remove
from tables.tasks import pass_expired_seat_calls_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_tables(make_table, dealer, other_dealer, supervisor):
    """Two designated-player tables of one game ($5–$100 antes), open."""
    one, two = make_table("Table 1"), make_table("Table 2")
    table_open(table=one, dealer=dealer, by=supervisor)
    table_open(table=two, dealer=other_dealer, by=supervisor)
    return one, two


@pytest.fixture
def dp_list(cardroom, open_tables, supervisor):
    return waitlist_open(
        cardroom=cardroom, banking="designated_player", ante_min="5", ante_max="100", by=supervisor
    )


@pytest.fixture
def line(dp_list, supervisor):
    """Three players waiting, in order."""
    return [
        waitlist_join(waitlist=dp_list, name=name, by=supervisor)
        for name in ("Avery Lane", "Blake Moss", "Casey Nord")
    ]


def test_the_first_waiting_is_called_with_the_cardrooms_minutes(
    open_tables, line, supervisor, clock
):
    called = waitlist_call(table=open_tables[0], seat=2, by=supervisor)
    assert (called.pk, called.status, called.called_seat) == (line[0].pk, "called", 2)
    assert called.call_expires_at == clock.now + timedelta(minutes=3)
    [event] = AuditEvent.objects.filter(action="waitlist.called")
    assert json.loads(event.payload)["seat"] == 2


def test_a_call_for_a_player_who_left_the_list_is_refused_by_name(
    open_tables, line, supervisor, refusal
):
    waitlist_remove(entry=line[1], by=supervisor)
    with refusal(Conflict, field="entry", says="Blake Moss left the list"):
        waitlist_call(table=open_tables[0], seat=2, entry=line[1], by=supervisor)


def test_a_taken_seat_or_a_seat_called_already_is_not_called(
    open_tables, line, supervisor, seat_someone, refusal
):
    seat_someone(open_tables[0], 1)
    with refusal(Conflict, field="seat", says="Seat 1 at Table 1 is taken"):
        waitlist_call(table=open_tables[0], seat=1, by=supervisor)
    waitlist_call(table=open_tables[0], seat=2, by=supervisor)
    with refusal(Conflict, field="seat", says="is called for Avery Lane already"):
        waitlist_call(table=open_tables[0], seat=2, by=supervisor)


def test_an_empty_list_or_a_table_of_another_game_is_refused(
    cardroom, open_tables, dp_list, make_table, supervisor, dealer, refusal
):
    with refusal(Conflict, field="waitlist", says="No one is waiting"):
        waitlist_call(table=open_tables[0], seat=1, by=supervisor)
    entry = waitlist_join(waitlist=dp_list, name="Avery Lane", by=supervisor)
    other = make_table("High", settings={"ante_min": "10", "ante_max": "100"})
    table_open(table=other, dealer=dealer, by=supervisor)
    with refusal(DomainError, field="table", says="is not a table of the"):
        waitlist_call(table=other, seat=1, entry=entry, by=supervisor)


def test_a_dealer_does_not_call(open_tables, line, dealer, refusal):
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor may call"):
        waitlist_call(table=open_tables[0], seat=2, by=dealer)


def test_the_called_player_takes_the_seat_within_the_minutes(open_tables, line, supervisor, clock):
    waitlist_call(table=open_tables[0], seat=4, by=supervisor)
    clock.advance(minutes=2, seconds=59)
    seating = waitlist_seat(entry=line[0], buy_in="200", by=supervisor)
    assert (seating.table, seating.seat, seating.stack) == (open_tables[0], 4, Decimal("200"))
    assert seating.player.name == "Avery Lane"  # registered from the name on the list
    line[0].refresh_from_db()
    assert (line[0].status, line[0].seating, line[0].player) == ("seated", seating, seating.player)
    assert AuditEvent.objects.filter(action="waitlist.seated").count() == 1


def test_after_the_minutes_the_seat_is_refused_and_the_call_passes_to_the_next(
    open_tables, line, supervisor, clock, refusal
):
    waitlist_call(table=open_tables[0], seat=4, by=supervisor)
    clock.advance(minutes=3)
    with refusal(Conflict, field="entry", says="Avery Lane's call to seat 4 at Table 1 ran out"):
        waitlist_seat(entry=line[0], by=supervisor)
    following = waitlist_call_pass(entry=line[0], by=supervisor)
    assert following is not None
    assert (following.pk, following.called_table, following.called_seat) == (
        line[1].pk,
        open_tables[0],
        4,
    )
    line[0].refresh_from_db()
    assert line[0].status == "passed"


def test_the_sweep_passes_every_call_whose_minutes_ran_out(
    cardroom, open_tables, line, supervisor, clock
):
    waitlist_call(table=open_tables[0], seat=1, by=supervisor)
    clock.advance(minutes=2)
    waitlist_call(table=open_tables[1], seat=1, by=supervisor)
    clock.advance(minutes=1)
    assert waitlist_calls_expire(cardroom=cardroom) == 1
    statuses = dict(WaitlistEntry.objects.values_list("name", "status"))
    assert statuses == {"Avery Lane": "passed", "Blake Moss": "called", "Casey Nord": "called"}
    assert WaitlistEntry.objects.get(name="Casey Nord").called_table == open_tables[0]


def test_a_phone_player_whose_hold_ran_out_is_skipped_and_expires(
    open_tables, dp_list, supervisor, clock
):
    waitlist_join(waitlist=dp_list, name="Jo Park", phone=True, by=supervisor)
    here = waitlist_join(waitlist=dp_list, name="Lee Chan", by=supervisor)
    clock.advance(minutes=31)
    assert waitlist_call(table=open_tables[0], seat=1, by=supervisor).pk == here.pk
    assert WaitlistEntry.objects.get(name="Jo Park").status == "expired"
    assert AuditEvent.objects.filter(action="waitlist.expired").count() == 1


def test_a_seat_change_between_tables_keeps_the_stack(open_tables, supervisor, seat_someone):
    seating = seat_someone(open_tables[0], 1, buy_in="335")
    moved = seating_move(seating=seating, table=open_tables[1], seat=6, by=supervisor)
    seating.refresh_from_db()
    assert (seating.left_at is not None, seating.stack) == (True, Decimal("0"))
    assert (moved.table, moved.seat, moved.stack) == (open_tables[1], 6, Decimal("335"))
    [event] = AuditEvent.objects.filter(action="seat.changed")
    payload = json.loads(event.payload)
    assert (payload["from_table"], payload["to_table"], payload["stack"]) == (
        open_tables[0].pk,
        open_tables[1].pk,
        "335.00",
    )


def test_a_seated_player_called_to_another_table_moves_with_the_stack(
    open_tables, dp_list, supervisor, seat_someone
):
    seating = seat_someone(open_tables[0], 1, buy_in="410")
    entry = waitlist_join(waitlist=dp_list, player=seating.player, by=supervisor)
    waitlist_call(table=open_tables[1], seat=3, by=supervisor)
    moved = waitlist_seat(entry=entry, by=supervisor)
    assert (moved.table, moved.seat, moved.stack) == (open_tables[1], 3, Decimal("410"))
    assert Seating.objects.filter(player=seating.player, left_at=None).count() == 1


def test_the_dashboard_shows_open_seats_and_who_is_called_with_the_minutes_left(
    cardroom, open_tables, line, supervisor, seat_someone, clock
):
    seat_someone(open_tables[0], 1)
    waitlist_call(table=open_tables[0], seat=2, by=supervisor)
    clock.advance(seconds=70)
    openings = waitlist_selectors.seat_openings(cardroom)
    at_one = [
        (o.seat, o.called and o.called.name, o.minutes_left)
        for o in openings
        if o.table == open_tables[0]
    ]
    assert at_one[:2] == [(2, "Avery Lane", 2), (3, None, None)]
    assert len(at_one) == 6  # seat 1 is taken
    assert all(o.waiting == 2 for o in openings)


def test_the_board_shows_a_first_name_and_last_initial_only():
    assert waitlist_selectors.board_name("Avery  Quinn Lane") == "Avery L."
    assert waitlist_selectors.board_name("Cher") == "Cher"
    assert waitlist_selectors.board_name(" ") == ""


@pytest.fixture
def seat_someone(make_player, supervisor):
    def sit(table, number, *, buy_in="500"):
        return seat_player(
            table=table, seat=number, player=make_player(), buy_in=buy_in, by=supervisor
        )

    return sit


def test_the_scheduled_task_passes_the_calls_that_ran_out(open_tables, line, supervisor, clock):
    waitlist_call(table=open_tables[0], seat=5, by=supervisor)
    assert pass_expired_seat_calls_task() == {"passed": 0}
    clock.advance(minutes=3)
    assert pass_expired_seat_calls_task() == {"passed": 1}
    called = WaitlistEntry.objects.get(status="called")
    assert (called.name, called.called_seat) == ("Blake Moss", 5)
    [passed] = AuditEvent.objects.filter(action="waitlist.call_passed")
    assert passed.actor_id is None
