"""The push in one tap and what the floor reads: who is due for a push or a break with the
minutes elapsed, the rotation's moves (the dealer due next takes the table; the relieved one
goes on to the next table due, or on break if due), never mid-hand, and each dealer's hours
and hands dealt per gaming day."""

from __future__ import annotations

import json

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, PermissionDenied
from core.roles import DEALER
from tables import dealer_selectors, selectors
from tables.models import DealerAssignment
from tables.services.dealer_push import dealer_push
from tables.services.dealer_shifts import dealer_assign, dealer_clock_in, dealer_clock_out
from tables.services.seating import player_create, seat_player
from wagers import services as hand_services

from .support import T0

pytestmark = pytest.mark.django_db

DRAW = {1: "2c", 3: "Ah"}  # seat 3's ace wins the button (R16)


@pytest.fixture
def dealers(make_user):
    """Three dealers, in the order they clock in."""
    return [
        make_user(username, role=DEALER, first_name=first, last_name=last)
        for username, first, last in (
            ("ann", "Ann", "Bell"),
            ("bo", "Bo", "Diaz"),
            ("cy", "Cy", "Fox"),
        )
    ]


@pytest.fixture
def room(cardroom, make_table, dealers, supervisor, clock):
    """Two tables: Ann deals Table 1, Bo Table 2 (from minute 0); Cy waits (from minute 0)."""
    tables = [make_table("Table 1"), make_table("Table 2")]
    for dealer in dealers:
        dealer_clock_in(cardroom=cardroom, dealer=dealer, by=supervisor)
    for table, dealer in zip(tables, dealers, strict=False):
        dealer_assign(table=table, dealer=dealer, by=supervisor)
    return tables


def where(cardroom, clock) -> dict[str, str]:
    return {
        row.name: str(row.table or row.where)
        for row in dealer_selectors.dealer_board(cardroom, clock.now)
    }


def test_no_one_is_due_before_the_push_interval(cardroom, room, clock):
    clock.at(19)
    assert dealer_selectors.dealers_due(cardroom, clock.now) == []
    assert dealer_selectors.push_plan(cardroom, clock.now) is None


def test_the_floor_sees_who_is_due_for_a_push_with_the_minutes(cardroom, room, clock):
    clock.at(20)
    due = dealer_selectors.dealers_due(cardroom, clock.now)
    assert [(row.name, row.minutes_here, row.push_due) for row in due] == [
        ("Ann Bell", 20, True),
        ("Bo Diaz", 20, True),
    ]


def test_a_push_sends_the_dealer_due_next_in_and_the_relieved_one_to_the_next_table(
    cardroom, room, supervisor, clock
):
    clock.at(20)
    plan = dealer_push(cardroom=cardroom, by=supervisor)
    assert (
        plan.sentence()
        == "Cy Fox takes Table 1; Ann Bell takes Table 2; Bo Diaz waits for the next table."
    )
    assert where(cardroom, clock) == {
        "Cy Fox": "Table 1",
        "Ann Bell": "Table 2",
        "Bo Diaz": "waiting",
    }
    assert [selectors.open_session(t).dealer.first_name for t in room] == ["Cy", "Ann"]
    event = AuditEvent.objects.get(action="dealer.pushed")
    assert json.loads(event.payload)["words"] == plan.sentence()
    assert AuditEvent.objects.filter(action="table.dealer_changed").count() == 2


def test_the_relieved_dealer_waits_when_the_next_table_is_not_due(
    cardroom, room, dealers, supervisor, clock
):
    clock.at(10)
    dealer_push(cardroom=cardroom, table=room[1], by=supervisor)  # Cy relieves Bo early
    clock.at(20)
    plan = dealer_push(cardroom=cardroom, by=supervisor)  # Table 1 is due, Table 2 not
    assert plan.sentence() == "Bo Diaz takes Table 1; Ann Bell waits for the next table."


def test_a_relieved_dealer_due_for_a_break_goes_on_break(cardroom, room, supervisor, clock):
    cardroom.break_after_minutes = 20
    cardroom.save()
    clock.at(20)
    plan = dealer_push(cardroom=cardroom, table=room[0], by=supervisor)
    assert plan.sentence() == "Cy Fox takes Table 1; Ann Bell goes on break."
    assert DealerAssignment.objects.get(dealer__first_name="Ann", ended_at=None).kind == "break"


def test_a_push_to_a_table_mid_hand_is_refused_by_name(
    cardroom, room, dealers, supervisor, clock, refusal
):
    for number in (1, 3):
        player = player_create(cardroom=cardroom, name=f"Player {number}", by=supervisor)
        seat_player(table=room[0], seat=number, player=player, buy_in="500", by=supervisor)
    hand = hand_services.hand_start(table=room[0], by=supervisor, draw_cards=DRAW)
    clock.at(20)
    with refusal(Conflict, field="table", says=f"Table 1 has hand {hand.number} in progress"):
        dealer_push(cardroom=cardroom, table=room[0], by=supervisor)
    assert selectors.open_session(room[0]).dealer == dealers[0]


def test_the_relieved_dealer_does_not_go_on_to_a_table_mid_hand(cardroom, room, supervisor, clock):
    for number in (1, 3):
        player = player_create(cardroom=cardroom, name=f"Player {number}", by=supervisor)
        seat_player(table=room[1], seat=number, player=player, buy_in="500", by=supervisor)
    hand_services.hand_start(table=room[1], by=supervisor, draw_cards=DRAW)
    clock.at(20)
    plan = dealer_push(cardroom=cardroom, table=room[0], by=supervisor)
    assert plan.sentence() == "Cy Fox takes Table 1; Ann Bell waits for the next table."


def test_a_push_with_no_dealer_waiting_is_refused(
    cardroom, room, dealers, supervisor, clock, refusal
):
    dealer_clock_out(dealer=dealers[2], by=supervisor)
    clock.at(20)
    with refusal(Conflict, field="dealer", says="No dealer is waiting to take Table 1"):
        dealer_push(cardroom=cardroom, by=supervisor)


def test_a_push_when_no_table_is_due_is_refused(cardroom, room, supervisor, clock, refusal):
    clock.at(5)
    with refusal(Conflict, field="table", says="No table is due for a push yet"):
        dealer_push(cardroom=cardroom, by=supervisor)


def test_a_dealer_does_not_push(cardroom, room, dealers, clock, refusal):
    clock.at(20)
    with refusal(PermissionDenied, field=None, says="push dealers"):
        dealer_push(cardroom=cardroom, by=dealers[0])


def test_pushes_round_the_room_keep_every_dealer_on_one_table(cardroom, room, supervisor, clock):
    for minutes in (20, 40, 60):
        clock.at(minutes)
        dealer_push(cardroom=cardroom, by=supervisor)
        open_places = DealerAssignment.objects.filter(ended_at=None, kind="table")
        dealers = list(open_places.values_list("dealer_id", flat=True))
        assert len(dealers) == len(set(dealers)) == 2
    assert where(cardroom, clock) == {
        "Ann Bell": "Table 1",
        "Bo Diaz": "Table 2",
        "Cy Fox": "waiting",
    }


def test_hours_and_hands_dealt_per_gaming_day(cardroom, room, dealers, supervisor, clock):
    for number in (1, 3):
        player = player_create(cardroom=cardroom, name=f"Player {number}", by=supervisor)
        seat_player(table=room[0], seat=number, player=player, buy_in="500", by=supervisor)
    for minute in (1, 5):  # two hands while Ann deals Table 1
        clock.at(minute)
        draw = DRAW if minute == 1 else None  # the session's first hand goes by the draw
        hand = hand_services.hand_start(table=room[0], by=supervisor, draw_cards=draw)
        hand_services.hand_cancel(hand=hand, by=supervisor)
    clock.at(20)
    dealer_push(cardroom=cardroom, table=room[0], by=supervisor)  # Cy takes Table 1
    clock.at(25)
    hand = hand_services.hand_start(table=room[0], by=supervisor)
    hand_services.hand_cancel(hand=hand, by=supervisor)
    clock.at(90)
    day = selectors.gaming_day(cardroom, T0)
    rows = {row.name: row for row in dealer_selectors.dealer_days(cardroom, day, clock.now)}
    assert {name: row.hands_dealt for name, row in rows.items()} == {
        "Ann Bell": 2,
        "Bo Diaz": 0,
        "Cy Fox": 1,
    }
    ann, cy = rows["Ann Bell"], rows["Cy Fox"]
    assert (ann.minutes_clocked, ann.hours, ann.minutes_at_tables) == (90, "1:30", 90)
    assert (cy.minutes_clocked, cy.minutes_at_tables) == (90, 70)
