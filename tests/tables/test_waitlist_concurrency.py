"""Two floor supervisors calling players to the same open seat at the same moment, on real
concurrent PostgreSQL connections: exactly one call wins, the other is told the seat is called,
and the database holds one call for the seat."""

from __future__ import annotations

import os

import pytest
from django.db import connection

from core.errors import Conflict
from core.roles import FLOOR_SUPERVISOR
from tables.models import WaitlistEntry
from tables.services.seat_calls import waitlist_call
from tables.services.sessions import table_open
from tables.services.waitlist import waitlist_join, waitlist_open, waitlist_remove

from .test_concurrency import at_once

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="real concurrent transactions need PostgreSQL (set DATABASE_URL)",
    ),
    pytest.mark.django_db(transaction=True),
]


def test_two_calls_for_the_same_seat_at_once_make_one_call(
    cardroom, dp_table, dealer, supervisor, make_user
):
    assert connection.vendor == "postgresql"
    other = make_user("floor2", role=FLOOR_SUPERVISOR)
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    waitlist = waitlist_open(
        cardroom=cardroom, banking="designated_player", ante_min="5", ante_max="100", by=supervisor
    )
    entries = [
        waitlist_join(waitlist=waitlist, name=f"Player {n}", by=supervisor) for n in range(6)
    ]
    for seat in (1, 2, 3):  # a few rounds: a race that passes once may be luck
        answers = at_once(
            lambda seat=seat: waitlist_call(table=dp_table, seat=seat, by=supervisor),
            lambda seat=seat: waitlist_call(table=dp_table, seat=seat, by=other),
        )
        calls = [a for a in answers if isinstance(a, WaitlistEntry)]
        refusals = [a for a in answers if isinstance(a, Exception)]
        assert len(calls) == 1, answers
        assert len(refusals) == 1 and isinstance(refusals[0], Conflict), answers
        assert refusals[0].field == "seat" and "is called for" in refusals[0].message
        called = WaitlistEntry.objects.filter(called_table=dp_table, called_seat=seat)
        assert list(called.values_list("pk", "status")) == [(calls[0].pk, "called")]
    assert WaitlistEntry.objects.filter(status="called").count() == 3
    assert {e.pk for e in WaitlistEntry.objects.filter(status="waiting")} == {
        e.pk for e in entries[3:]
    }


def test_two_calls_naming_two_players_for_one_seat_at_once_make_one_call(
    cardroom, dp_table, dealer, supervisor, make_user
):
    other = make_user("floor2", role=FLOOR_SUPERVISOR)
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    waitlist = waitlist_open(
        cardroom=cardroom, banking="designated_player", ante_min="5", ante_max="100", by=supervisor
    )
    first, second = (
        waitlist_join(waitlist=waitlist, name=name, by=supervisor) for name in ("Ana", "Bo")
    )
    answers = at_once(
        lambda: waitlist_call(table=dp_table, seat=4, entry=first, by=supervisor),
        lambda: waitlist_call(table=dp_table, seat=4, entry=second, by=other),
    )
    calls = [a for a in answers if isinstance(a, WaitlistEntry)]
    refusals = [a for a in answers if isinstance(a, Exception)]
    assert len(calls) == 1 and len(refusals) == 1, answers
    assert isinstance(refusals[0], Conflict) and refusals[0].field == "seat", answers
    called = WaitlistEntry.objects.filter(status="called")
    assert list(called.values_list("pk", "called_seat")) == [(calls[0].pk, 4)]


def test_one_player_called_to_two_tables_at_once_is_called_once(
    cardroom, make_table, dealer, other_dealer, supervisor, make_user
):
    other = make_user("floor2", role=FLOOR_SUPERVISOR)
    tables = [make_table(f"Table {n}") for n in (1, 2)]
    for table, on_duty in zip(tables, (dealer, other_dealer), strict=True):
        table_open(table=table, dealer=on_duty, by=supervisor)
    waitlist = waitlist_open(
        cardroom=cardroom, banking="designated_player", ante_min="5", ante_max="100", by=supervisor
    )
    entry = waitlist_join(waitlist=waitlist, name="Ana", by=supervisor)
    for by_name in (False, True):  # the first waiting, then the player named
        named = entry if by_name else None
        answers = at_once(
            lambda named=named: waitlist_call(table=tables[0], seat=1, entry=named, by=supervisor),
            lambda named=named: waitlist_call(table=tables[1], seat=1, entry=named, by=other),
        )
        calls = [a for a in answers if isinstance(a, WaitlistEntry)]
        refusals = [a for a in answers if isinstance(a, Exception)]
        assert len(calls) == 1 and len(refusals) == 1, answers
        assert isinstance(refusals[0], Conflict), answers
        assert refusals[0].field in ("waitlist", "entry"), answers
        entry.refresh_from_db()
        assert (entry.status, entry.called_table_id) == ("called", calls[0].called_table_id)
        waitlist_remove(entry=entry, by=supervisor)
        entry = waitlist_join(waitlist=waitlist, name="Ana", by=supervisor)
