"""Two people acting on the same thing at the same moment, on real concurrent PostgreSQL
connections: one succeeds, the other is told why, and the database holds one outcome.

Each thread has its own database connection (Django's connections are per thread) and closes
it when done; a barrier releases both calls together. Transactional tests: the data is really
committed, so that both connections see it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections

from core.errors import Conflict
from core.roles import DEALER, FLOOR_SUPERVISOR
from tables import selectors, staff, two_person
from tables.models import Seating, TableSettings
from tables.services.seating import player_create, seat_player, seating_flag_proposition
from tables.services.sessions import table_open
from tables.services.setting_changes import setting_change_approve, setting_change_propose
from tables.services.stacks import stack_cash_out
from tables.staff_models import SettingChange, TwoPersonDecision
from tests.conftest import signed

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="real concurrent transactions need PostgreSQL (set DATABASE_URL)",
    ),
    pytest.mark.django_db(transaction=True),
]


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each answer is its result or its error."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            answers[index] = call()
        except BaseException as error:  # noqa: BLE001 - reported to the test, not swallowed
            answers[index] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
        assert not thread.is_alive(), "a concurrent call did not finish: a deadlock?"
    return answers


def test_the_database_is_postgresql():
    assert connection.vendor == "postgresql"


def test_r17_two_supervisors_approving_the_same_change_at_once_approve_it_once(
    dp_table, supervisor, make_user
):
    approvers = [make_user(f"approver{i}", role=FLOOR_SUPERVISOR) for i in (1, 2)]
    for attempt in range(3):  # a few rounds: a race that passes once may be luck
        change = setting_change_propose(
            table=dp_table,
            values={"rake_amount": str(2 + attempt)},
            reason="Dual control under load",
            by=supervisor,
        )
        answers = at_once(
            *(
                lambda who=who, change=change: setting_change_approve(
                    change=change, signature=signed(who), by=who
                )
                for who in approvers
            )
        )
        versions = [a for a in answers if isinstance(a, TableSettings)]
        refusals = [a for a in answers if isinstance(a, Exception)]
        assert len(versions) == 1, answers
        assert len(refusals) == 1 and isinstance(refusals[0], Conflict), answers
        change.refresh_from_db()
        assert change.status == SettingChange.Status.APPROVED
        assert change.result == versions[0]
        assert TableSettings.objects.filter(table=dp_table).count() == attempt + 2
        assert selectors.current_settings(dp_table).version == attempt + 2


def test_two_dealers_seating_two_players_in_the_same_seat_at_once_seat_one(
    dp_table, dealer, supervisor, make_user
):
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    cardroom = dp_table.cardroom
    for seat in (1, 2, 3):  # a few rounds, a different seat each
        players = [
            player_create(cardroom=cardroom, name=f"Player {seat}{x}", by=dealer) for x in "ab"
        ]
        answers = at_once(
            lambda seat=seat, player=players[0]: seat_player(
                table=dp_table, seat=seat, player=player, buy_in="100", by=dealer
            ),
            lambda seat=seat, player=players[1]: seat_player(
                table=dp_table, seat=seat, player=player, buy_in="200", by=supervisor
            ),
        )
        seated = [a for a in answers if isinstance(a, Seating)]
        refusals = [a for a in answers if isinstance(a, Exception)]
        assert len(seated) == 1, answers
        assert len(refusals) == 1 and isinstance(refusals[0], Conflict), answers
        assert refusals[0].field == "seat"
        at_seat = Seating.objects.filter(table=dp_table, seat=seat, left_at=None)
        assert list(at_seat) == seated
        # Only the seated player's chips went onto the table.
        assert [e.amount for e in at_seat.get().entries.all()] == [seated[0].stack]


def test_two_dealers_seating_the_same_player_at_two_tables_at_once_seat_them_once(
    dp_table, make_table, dealer, supervisor, make_user
):
    other_dealer = make_user("dealer-b", role=DEALER)
    second = make_table("Table 3")
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    table_open(table=second, dealer=other_dealer, by=supervisor)
    player = player_create(cardroom=dp_table.cardroom, name="Everywhere", by=dealer)
    answers = at_once(
        lambda: seat_player(table=dp_table, seat=1, player=player, by=dealer),
        lambda: seat_player(table=second, seat=1, player=player, by=other_dealer),
    )
    seated = [a for a in answers if isinstance(a, Seating)]
    refusals = [a for a in answers if isinstance(a, Exception)]
    assert len(seated) == 1, answers
    assert len(refusals) == 1 and isinstance(refusals[0], Conflict), answers
    assert refusals[0].field == "player", refusals[0].message
    assert Seating.objects.filter(player=player, left_at=None).count() == 1


def test_two_cash_outs_from_the_same_stack_at_once_never_take_it_below_zero(
    dp_table, dealer, supervisor
):
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    player = player_create(cardroom=dp_table.cardroom, name="Cashing", by=dealer)
    seating = seat_player(table=dp_table, seat=4, player=player, buy_in="500", by=dealer)
    answers = at_once(
        lambda: stack_cash_out(seating=seating, amount="300", by=dealer),
        lambda: stack_cash_out(seating=seating, amount="300", by=supervisor),
    )
    refusals = [a for a in answers if isinstance(a, Exception)]
    assert len(refusals) == 1 and refusals[0].field == "amount", answers
    seating.refresh_from_db()
    assert seating.stack == 200
    assert sum(e.amount for e in seating.entries.all()) == 200


def test_two_supervisors_flagging_two_proposition_players_at_once_flag_one(
    dp_table, dealer, supervisor, make_user
):
    other = make_user("supervisor-b", role=FLOOR_SUPERVISOR)
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    seatings = [
        seat_player(
            table=dp_table,
            seat=seat,
            player=player_create(cardroom=dp_table.cardroom, name=f"Prop {seat}", by=dealer),
            by=dealer,
        )
        for seat in (1, 2)
    ]
    answers = at_once(
        lambda: seating_flag_proposition(seating=seatings[0], flagged=True, by=supervisor),
        lambda: seating_flag_proposition(seating=seatings[1], flagged=True, by=other),
    )
    refusals = [a for a in answers if isinstance(a, Exception)]
    assert len(refusals) == 1 and isinstance(refusals[0], Conflict), answers
    assert Seating.objects.filter(table=dp_table, proposition_player=True).count() == 1


def test_two_supervisors_opening_the_same_table_at_once_open_it_once(
    dp_table, dealer, supervisor, make_user
):
    other = make_user("supervisor-b", role=FLOOR_SUPERVISOR)
    answers = at_once(
        lambda: table_open(table=dp_table, dealer=dealer, by=supervisor),
        lambda: table_open(table=dp_table, dealer=dealer, by=other),
    )
    refusals = [a for a in answers if isinstance(a, Exception)]
    assert len(refusals) == 1 and isinstance(refusals[0], Conflict), answers
    assert dp_table.sessions.filter(closed_at=None).count() == 1


def test_r17_two_approvals_of_one_staff_change_at_once_decide_it_once(supervisor, make_user):
    """A two-person change is append-only, so the runtime role cannot lock its row: its
    decisions queue on a lock of their own, and only one of two at once decides it."""
    approvers = [make_user(f"staffapprover{i}", role=FLOOR_SUPERVISOR) for i in (1, 2)]
    proposal = staff.staff_account_propose(
        username="floor9", first_name="Flo", last_name="Nine", role=FLOOR_SUPERVISOR,
        reason="Nights", by=supervisor,
    )  # fmt: skip
    answers = at_once(
        *(
            lambda who=who: two_person.change_approve(
                change=proposal, signature=signed(who), by=who
            )
            for who in approvers
        )
    )
    decided = [a for a in answers if isinstance(a, TwoPersonDecision)]
    refused = [a for a in answers if isinstance(a, Conflict)]
    assert (len(decided), len(refused)) == (1, 1), answers
    assert TwoPersonDecision.objects.filter(change=proposal).count() == 1
