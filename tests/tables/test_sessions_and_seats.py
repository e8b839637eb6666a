"""Table sessions, seats and the stack ledger: every chip movement an entry, never negative.
Every refusal names its field (None where the role or the table's state is at fault), says
why, and writes nothing (``refusal``, tests/conftest.py)."""

from decimal import Decimal

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Sum
from django.utils import timezone

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from tables import selectors
from tables.models import Seating, StackEntry, TableSession
from tables.services.cardrooms import cardroom_create
from tables.services.seating import (
    player_create,
    seat_player,
    seating_come_back,
    seating_flag_proposition,
    seating_leave,
    seating_sit_out,
    seating_waive_dp,
)
from tables.services.sessions import table_close, table_dealer_change, table_open
from tables.services.stacks import stack_add, stack_cash_out, stack_entry_add
from tests.conftest import an_administrator
from wagers.models import Hand

from .support import audit_actions, last_seq

pytestmark = pytest.mark.django_db


def ledger_total(seating: Seating) -> Decimal:
    return StackEntry.objects.filter(seating=seating).aggregate(total=Sum("amount"))["total"]


def start_a_hand(table, session, seating, by) -> Hand:
    """A hand in progress with ``seating`` as its designated player (the hand services are
    another issue's; a row in progress is all these tests need)."""
    return Hand.objects.create(
        table=table,
        session=session,
        number=1,
        settings=selectors.current_settings(table),
        dp_seating=seating,
        started_by=by,
        started_at=timezone.now(),
    )


# --- sessions --------------------------------------------------------------------------------


def test_a_supervisor_opens_a_table_with_the_dealer_on_duty(dp_table, dealer, supervisor):
    since = last_seq()
    session = table_open(table=dp_table, dealer=dealer, by=supervisor)
    assert selectors.open_session(dp_table) == session
    assert (session.dealer, session.opened_by) == (dealer, supervisor)
    assert session.closed_at is None
    assert audit_actions(since) == ["table.opened"]


def test_a_supervisor_closes_an_open_table(dp_table, session, supervisor):
    since = last_seq()
    table_close(table=dp_table, by=supervisor)
    session.refresh_from_db()
    assert (session.closed_by, session.closed_at is not None) == (supervisor, True)
    assert selectors.open_session(dp_table) is None
    assert audit_actions(since) == ["table.closed"]


def test_opening_an_open_table_is_refused(dp_table, session, dealer, supervisor, refusal):
    with refusal(Conflict, field=None, says="Table 1 is open already"):
        table_open(table=dp_table, dealer=dealer, by=supervisor)
    assert TableSession.objects.filter(table=dp_table).count() == 1


def test_closing_a_closed_table_is_refused(dp_table, supervisor, refusal):
    with refusal(Conflict, field=None, says="Table 1 is closed"):
        table_close(table=dp_table, by=supervisor)


def test_a_closed_table_opens_again_in_a_new_session(dp_table, session, dealer, supervisor):
    table_close(table=dp_table, by=supervisor)
    again = table_open(table=dp_table, dealer=dealer, by=supervisor)
    assert again != session
    assert selectors.open_session(dp_table) == again


def test_an_auditor_cannot_open_a_table(dp_table, dealer, auditor, refusal):
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor or dealer may open"):
        table_open(table=dp_table, dealer=dealer, by=auditor)
    assert selectors.open_session(dp_table) is None


def test_a_dealer_opens_a_table_only_as_its_own_dealer_on_duty(
    dp_table, dealer, other_dealer, refusal
):
    with refusal(PermissionDenied, field=None, says="only as its own dealer on duty"):
        table_open(table=dp_table, dealer=other_dealer, by=dealer)
    session = table_open(table=dp_table, dealer=dealer, by=dealer)
    assert (session.dealer, session.opened_by) == (dealer, dealer)


def test_a_dealer_cannot_close_a_table(dp_table, session, dealer, refusal):
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor may close a table"):
        table_close(table=dp_table, by=dealer)


def test_the_dealer_on_duty_must_be_a_dealer(dp_table, auditor, supervisor, refusal):
    with refusal(PermissionDenied, field=None, says="Only a dealer may deal at a table"):
        table_open(table=dp_table, dealer=auditor, by=supervisor)


def test_closing_a_table_with_a_hand_in_progress_is_refused(
    dp_table, session, seated, supervisor, refusal
):
    start_a_hand(dp_table, session, seated[1], supervisor)
    with refusal(Conflict, field=None, says="Table 1 has a hand in progress"):
        table_close(table=dp_table, by=supervisor)
    assert selectors.open_session(dp_table) == session


def test_closing_a_table_cashes_out_every_seated_player(dp_table, session, seated, supervisor):
    table_close(table=dp_table, by=supervisor)
    for seating in seated.values():
        seating.refresh_from_db()
        assert seating.left_at is not None
        assert seating.stack == 0
        assert seating.entries.last().reason == StackEntry.Reason.CASH_OUT
    assert not selectors.seated(dp_table).exists()


def test_a_new_dealer_on_duty_deals_and_the_previous_one_no_longer_may(
    dp_table, session, other_dealer, dealer, supervisor, make_player, refusal
):
    table_dealer_change(table=dp_table, dealer=other_dealer, by=supervisor)
    assert selectors.open_session(dp_table).dealer == other_dealer
    seat_player(table=dp_table, seat=1, player=make_player(), by=other_dealer)
    player = make_player()
    with refusal(PermissionDenied, field=None, says="dealer on duty at this table may seat"):
        seat_player(table=dp_table, seat=2, player=player, by=dealer)


# --- seats -----------------------------------------------------------------------------------


def test_the_dealer_on_duty_seats_a_player_who_buys_in(dp_table, session, dealer, make_player):
    player = make_player("Avery")
    seating = seat_player(table=dp_table, seat=4, player=player, buy_in="250", by=dealer)
    assert (seating.seat, seating.player, seating.stack) == (4, player, Decimal("250.00"))
    assert list(selectors.seated(dp_table)) == [seating]


def test_a_player_sits_without_chips_and_buys_in_later(dp_table, session, dealer, make_player):
    seating = seat_player(table=dp_table, seat=2, player=make_player(), by=dealer)
    assert seating.stack == 0
    assert not seating.entries.exists()


def test_seating_on_a_closed_table_is_refused(dp_table, supervisor, make_player, refusal):
    player = make_player()
    with refusal(Conflict, field=None, says="is closed: open it to seat a player"):
        seat_player(table=dp_table, seat=1, player=player, by=supervisor)
    assert not Seating.objects.exists()


def test_a_dealer_not_on_duty_at_the_table_cannot_seat_a_player(
    dp_table, session, other_dealer, make_player, refusal
):
    player = make_player()
    with refusal(PermissionDenied, field=None, says="dealer on duty") as refused:
        seat_player(table=dp_table, seat=1, player=player, by=other_dealer)
    assert "seat a player" in refused.value.message


def test_a_dealer_cannot_seat_a_player_at_a_closed_table(dp_table, dealer, make_player, refusal):
    """Nobody is on duty at a closed table: the dealer is refused before the table's state."""
    player = make_player()
    with refusal(PermissionDenied, field=None, says="Only the dealer on duty at this table"):
        seat_player(table=dp_table, seat=1, player=player, by=dealer)
    assert not Seating.objects.exists()


def test_an_auditor_cannot_seat_a_player(dp_table, session, auditor, make_player, refusal):
    player = make_player()
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor or dealer may seat"):
        seat_player(table=dp_table, seat=1, player=player, by=auditor)


@pytest.mark.parametrize("number", [0, 8, -1, "3", True])
def test_a_seat_out_of_range_is_refused(dp_table, session, dealer, make_player, refusal, number):
    player = make_player()
    with refusal(DomainError, field="seat", says="Seat must be a number from 1 to 7"):
        seat_player(table=dp_table, seat=number, player=player, by=dealer)


def test_a_seat_beyond_a_short_tables_seat_count_is_refused(
    make_table, dealer, supervisor, make_player, refusal
):
    table = make_table("Five seats", seat_count=5)
    table_open(table=table, dealer=dealer, by=supervisor)
    player = make_player()
    with refusal(DomainError, field="seat", says="Seat must be a number from 1 to 5"):
        seat_player(table=table, seat=6, player=player, by=dealer)


def test_a_taken_seat_is_refused(dp_table, seated, dealer, make_player, refusal):
    player = make_player()
    with refusal(Conflict, field="seat", says="Seat 3 at Table 1 is taken"):
        seat_player(table=dp_table, seat=3, player=player, by=dealer)
    assert selectors.seated(dp_table).get(seat=3) == seated[3]


def test_a_player_seated_at_another_table_is_refused(
    dp_table, house_table, house_session, seat, dealer, refusal
):
    at_house = seat(2, table=house_table)
    with refusal(Conflict, field="player", says=f"{at_house.player} is seated already"):
        seat_player(table=dp_table, seat=2, player=at_house.player, by=dealer)


def test_a_player_already_seated_cannot_take_a_second_seat_at_the_table(
    dp_table, seated, dealer, refusal
):
    with refusal(Conflict, field="player", says=f"{seated[1].player} is seated already"):
        seat_player(table=dp_table, seat=2, player=seated[1].player, by=dealer)


def test_a_player_of_another_cardroom_is_refused(dp_table, session, dealer, supervisor, refusal):
    elsewhere = cardroom_create(name="Elsewhere", by=an_administrator())
    stranger = player_create(cardroom=elsewhere, name="Stranger", by=supervisor)
    with refusal(DomainError, field="player", says="Stranger is not a player of"):
        seat_player(table=dp_table, seat=1, player=stranger, by=dealer)


@pytest.mark.parametrize("buy_in", ["12.50", "0.01", "99.99"])
def test_r5_a_buy_in_that_is_not_a_whole_number_of_chips_is_refused(
    dp_table, session, dealer, make_player, refusal, buy_in
):
    player = make_player()
    with refusal(DomainError, field="buy_in", says=f"${buy_in} is not a whole number of $1.00"):
        seat_player(table=dp_table, seat=1, player=player, buy_in=buy_in, by=dealer)
    assert not Seating.objects.exists()  # nothing half-done: no seat taken either


def test_r5_chips_follow_the_tables_chip_unit(make_table, dealer, supervisor, make_player, refusal):
    table = make_table(
        "Five dollar chips",
        settings={"chip_unit": "5", "bonus_min": "5", "bonus_max": "25", "rake_amount": "5"},
    )
    table_open(table=table, dealer=dealer, by=supervisor)
    player = make_player()
    with refusal(DomainError, field="buy_in", says="$102.00 is not a whole number of $5.00"):
        seat_player(table=table, seat=1, player=player, buy_in="102", by=dealer)
    seating = seat_player(table=table, seat=1, player=make_player(), buy_in="105", by=dealer)
    with refusal(DomainError, field="amount", says="$7.00 is not a whole number of $5.00 chips"):
        stack_add(seating=seating, amount="7", by=dealer)


@pytest.mark.parametrize(
    ("buy_in", "says"),
    [
        (12.0, "the number 12.0 (a JSON float) is not accepted"),
        ("-20", "'-20' is not an amount"),
        (-20, "-20 is not an amount between 0 and"),
        ("abc", "'abc' is not an amount"),
    ],
)
def test_a_buy_in_must_be_a_non_negative_amount_and_never_a_float(
    dp_table, session, dealer, make_player, refusal, buy_in, says
):
    player = make_player()
    with refusal(DomainError, field="buy_in", says=says):
        seat_player(table=dp_table, seat=1, player=player, buy_in=buy_in, by=dealer)


# --- the stack ledger ------------------------------------------------------------------------


def test_every_stack_movement_is_an_entry_with_amount_reason_actor_and_time(
    dp_table, session, dealer, supervisor, make_player
):
    seating = seat_player(table=dp_table, seat=1, player=make_player(), buy_in="200", by=dealer)
    stack_add(seating=seating, amount="50", by=supervisor)
    stack_cash_out(seating=seating, amount="120", by=dealer)
    entries = list(selectors.stack_history(seating))
    assert [(e.amount, e.reason, e.actor) for e in entries] == [
        (Decimal("200.00"), StackEntry.Reason.BUY_IN, dealer),
        (Decimal("50.00"), StackEntry.Reason.ADD_ON, supervisor),
        (Decimal("-120.00"), StackEntry.Reason.CASH_OUT, dealer),
    ]
    assert all(e.created_at is not None for e in entries)
    assert entries[0].created_at <= entries[1].created_at <= entries[2].created_at


@pytest.mark.parametrize(
    "moves",
    [
        [("add", "100"), ("out", "50"), ("add", "25"), ("out", None)],
        [("out", "500")],
        [("out", "1"), ("out", "1"), ("add", "3"), ("out", "300")],
        [("add", "1000"), ("out", "999"), ("add", "1"), ("out", "2")],
    ],
)
def test_the_stack_is_the_sum_of_its_entries_after_any_buy_ins_add_ons_and_cash_outs(
    dp_table, session, dealer, make_player, moves
):
    seating = seat_player(table=dp_table, seat=1, player=make_player(), buy_in="500", by=dealer)
    for move, amount in moves:
        if move == "add":
            stack_add(seating=seating, amount=amount, by=dealer)
        else:
            stack_cash_out(seating=seating, amount=amount, by=dealer)
        seating.refresh_from_db()
        assert seating.stack == ledger_total(seating)
        assert seating.stack >= 0


@pytest.mark.parametrize(
    ("amount", "says"),
    [
        ("301", "The stack holds $300.00; $301.00 cannot be cashed out"),
        # A cent more is no whole chip: refused for that first (R5).
        ("300.01", "$300.01 is not a whole number of $1.00 chips (R5)"),
    ],
)
def test_cashing_out_more_than_the_stack_is_refused_and_changes_nothing(
    dp_table, seated, dealer, refusal, amount, says
):
    seating = seated[3]  # $300
    entries = seating.entries.count()
    with refusal(DomainError, field="amount", says=says):
        stack_cash_out(seating=seating, amount=amount, by=dealer)
    seating.refresh_from_db()
    assert seating.stack == Decimal("300.00")
    assert seating.entries.count() == entries


def test_cashing_out_with_no_amount_takes_the_whole_stack(dp_table, seated, dealer):
    stack_cash_out(seating=seated[5], by=dealer)
    seated[5].refresh_from_db()
    assert seated[5].stack == 0
    assert seated[5].left_at is None  # colouring up is not leaving


def test_cashing_out_an_empty_stack_is_refused(dp_table, seated, dealer, refusal):
    stack_cash_out(seating=seated[5], by=dealer)
    with refusal(DomainError, field="amount", says="There are no chips to cash out"):
        stack_cash_out(seating=seated[5], by=dealer)


@pytest.mark.parametrize("amount", ["0", "0.00", 0])
def test_adding_nothing_is_refused(dp_table, seated, dealer, refusal, amount):
    with refusal(DomainError, field="amount", says="Add an amount above $0.00"):
        stack_add(seating=seated[1], amount=amount, by=dealer)


def test_the_ledger_service_never_takes_a_stack_below_zero(dp_table, seated, dealer, refusal):
    seating = Seating.objects.select_related("player").get(pk=seated[3].pk)
    below = "has $300.00 on the table, and $300.01 would come off it"
    with refusal(DomainError, field="amount", says=below), transaction.atomic():
        stack_entry_add(
            seating=seating, amount=Decimal("-300.01"), reason=StackEntry.Reason.WAGER, by=dealer
        )
    seating.refresh_from_db()
    assert seating.stack == Decimal("300.00")


def test_the_database_refuses_a_negative_stack(dp_table, seated):
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tables_seating SET stack = %s WHERE id = %s", ["-1.00", seated[1].pk]
        )
    seated[1].refresh_from_db()
    assert seated[1].stack == Decimal("500.00")


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE tables_stackentry SET amount = 1000 WHERE seating_id = %s",
        "DELETE FROM tables_stackentry WHERE seating_id = %s",
    ],
)
def test_the_database_refuses_to_edit_or_delete_a_stack_entry(dp_table, seated, sql):
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, [seated[1].pk])
    assert ledger_total(seated[1]) == Decimal("500.00")


def test_chips_in_a_hand_in_progress_cannot_be_cashed_out(
    dp_table, session, seated, dealer, supervisor, refusal
):
    start_a_hand(dp_table, session, seated[1], supervisor)
    with refusal(Conflict, field="amount", says="Chips in a hand in progress stay on the table"):
        stack_cash_out(seating=seated[1], by=dealer)
    with refusal(Conflict, field="seating", says="is in hand 1: the player can leave once it"):
        seating_leave(seating=seated[1], by=dealer)
    stack_cash_out(seating=seated[3], amount="100", by=dealer)  # not in the hand


# --- sitting out, coming back, leaving -------------------------------------------------------


def test_a_player_sits_out_and_comes_back(dp_table, seated, dealer):
    since = last_seq()
    seating_sit_out(seating=seated[1], by=dealer)
    seated[1].refresh_from_db()
    assert seated[1].sitting_out is True
    seating_come_back(seating=seated[1], by=dealer)
    seated[1].refresh_from_db()
    assert seated[1].sitting_out is False
    assert audit_actions(since) == ["seat.sat_out", "seat.came_back"]


def test_a_player_who_leaves_cashes_out_the_rest_and_frees_the_seat(
    dp_table, seated, dealer, make_player
):
    leaving = seated[3]
    stack_cash_out(seating=leaving, amount="100", by=dealer)
    seating_leave(seating=leaving, by=dealer)
    leaving.refresh_from_db()
    assert leaving.left_at is not None
    assert leaving.stack == 0
    last = leaving.entries.order_by("id").last()
    assert (last.amount, last.reason) == (Decimal("-200.00"), StackEntry.Reason.CASH_OUT)
    assert ledger_total(leaving) == 0
    assert 3 not in {s.seat for s in selectors.seated(dp_table)}
    seat_player(table=dp_table, seat=3, player=make_player(), by=dealer)
    seat_player(table=dp_table, seat=2, player=leaving.player, by=dealer)  # back again


def test_a_player_with_no_chips_leaves_without_a_ledger_entry(dp_table, seated, dealer):
    stack_cash_out(seating=seated[1], by=dealer)
    entries = seated[1].entries.count()
    seating_leave(seating=seated[1], by=dealer)
    assert seated[1].entries.count() == entries


def test_nothing_is_done_to_a_seating_after_the_player_left(dp_table, seated, dealer, refusal):
    seating_leave(seating=seated[1], by=dealer)
    left = f"{seated[1].player} has left seat 1"
    for act in (
        lambda: stack_add(seating=seated[1], amount="10", by=dealer),
        lambda: stack_cash_out(seating=seated[1], by=dealer),
        lambda: seating_sit_out(seating=seated[1], by=dealer),
        lambda: seating_leave(seating=seated[1], by=dealer),
    ):
        with refusal(Conflict, field=None, says=left):
            act()


def test_a_dealer_not_on_duty_cannot_move_chips(dp_table, seated, other_dealer, refusal):
    on_duty = "Only the dealer on duty at this table may"
    with refusal(PermissionDenied, field=None, says=f"{on_duty} add chips"):
        stack_add(seating=seated[1], amount="10", by=other_dealer)
    with refusal(PermissionDenied, field=None, says=f"{on_duty} cash out chips"):
        stack_cash_out(seating=seated[1], by=other_dealer)


# --- the proposition player ------------------------------------------------------------------


def test_a_supervisor_flags_a_proposition_player(dp_table, seated, supervisor):
    seating_flag_proposition(seating=seated[5], flagged=True, by=supervisor)
    seated[5].refresh_from_db()
    assert seated[5].proposition_player is True


def test_at_most_one_proposition_player_per_table(
    dp_table, house_table, house_session, seated, seat, supervisor, refusal
):
    seating_flag_proposition(seating=seated[5], flagged=True, by=supervisor)
    already = "This table has a proposition player already"
    with refusal(Conflict, field="proposition_player", says=already):
        seating_flag_proposition(seating=seated[1], flagged=True, by=supervisor)
    # Another table may have its own.
    seating_flag_proposition(seating=seat(2, table=house_table), flagged=True, by=supervisor)
    # Once the first is unflagged, another player may be.
    seating_flag_proposition(seating=seated[5], flagged=False, by=supervisor)
    seating_flag_proposition(seating=seated[1], flagged=True, by=supervisor)


def test_the_database_allows_only_one_proposition_player_per_table(dp_table, seated):
    Seating.objects.filter(pk=seated[1].pk).update(proposition_player=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seating.objects.filter(pk=seated[3].pk).update(proposition_player=True)


def test_a_dealer_cannot_flag_a_proposition_player(dp_table, seated, dealer, refusal):
    only = "Only a floor supervisor may flag a proposition player"
    with refusal(PermissionDenied, field=None, says=only):
        seating_flag_proposition(seating=seated[1], flagged=True, by=dealer)


# --- the audit log ---------------------------------------------------------------------------


def test_every_service_appends_its_audit_event(cardroom, dp_table, dealer, supervisor, make_player):
    since = last_seq()
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    player = make_player("Avery")
    seating = seat_player(table=dp_table, seat=1, player=player, buy_in="100", by=dealer)
    stack_add(seating=seating, amount="50", by=dealer)
    stack_cash_out(seating=seating, amount="20", by=dealer)
    seating_sit_out(seating=seating, by=dealer)
    seating_come_back(seating=seating, by=dealer)
    seating_waive_dp(seating=seating, waived=True, by=dealer)
    seating_waive_dp(seating=seating, waived=False, by=dealer)
    seating_flag_proposition(seating=seating, flagged=True, by=supervisor)
    seating_flag_proposition(seating=seating, flagged=False, by=supervisor)
    seating_leave(seating=seating, by=dealer)
    table_close(table=dp_table, by=supervisor)
    assert audit_actions(since) == [
        "table.opened",
        "player.created",
        "seat.taken",
        "stack.buy_in",
        "stack.add_on",
        "stack.cash_out",
        "seat.sat_out",
        "seat.came_back",
        "seat.dp_waived",
        "seat.dp_waiver_ended",
        "seat.proposition_flagged",
        "seat.proposition_unflagged",
        "stack.cash_out",
        "seat.left",
        "table.closed",
    ]


def test_an_audit_event_names_its_actor_and_what_it_was_about(dp_table, seated, dealer):
    since = last_seq()
    stack_add(seating=seated[1], amount="50", by=dealer)
    event = AuditEvent.objects.get(seq__gt=since)
    assert (event.actor, event.actor_name) == (dealer, "dealer")
    assert (event.object_type, event.object_id) == ("tables.seating", str(seated[1].pk))
    assert '"amount":"50.00"' in event.payload
    assert '"stack":"550.00"' in event.payload


def test_a_refused_action_leaves_no_audit_event(dp_table, seated, dealer, refusal):
    since = last_seq()
    with refusal(DomainError, field="amount", says="$500.00; $9999.00 cannot be cashed out"):
        stack_cash_out(seating=seated[1], amount="9999", by=dealer)
    assert audit_actions(since) == []
