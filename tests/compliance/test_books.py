"""Books verification: the money checked against itself and the engine.

Each tamper below passes ``verify_audit`` (the audit chain is untouched) and is caught by
``verify_books``, which names the offending row; a clean day, corrections included, passes.
"""

from __future__ import annotations

import io
import json
import random
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import connection

from audit.actions import AuditAction
from audit.models import AuditEvent
from audit.services import audit_record
from compliance.books import verify_books
from compliance.models import VerificationRun
from compliance.snapshots import read_snapshot
from compliance.tasks import verify_books_task
from core.errors import DomainError
from rake.models import FeeEntry
from tables.models import Seating, StackEntry, TableCash
from tests.audit.support import (
    T0,
    Plan,
    correct_hand,
    past_append_only,
    play_hand,
    raw,
    verify_audit,
)
from wagers import services
from wagers.models import Hand, Settlement, Spot, SpotSettlement, WagerSettlement

pytestmark = pytest.mark.django_db


def verify_books_command() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_books", stdout=out, stderr=out)
    except SystemExit as exit_:
        return int(exit_.code), out.getvalue()
    return 0, out.getvalue()


@pytest.fixture
def day(dp_table, dp_players, house_table, house_players, dealer, supervisor, clock):
    """A gaming day at a DP table and a house table: hands settled, a misdeal, a dead spot,
    and a correction (a reversal and its correction entry)."""
    rng = random.Random(7)
    hands = []
    for number in range(4):
        for table in (dp_table, house_table):
            plan = Plan(misdeal="shuffler_fault") if number == 3 else Plan()
            if number == 2:
                plan = Plan(dead_after_deal=1)
            at = T0 + timedelta(minutes=10 * number + (5 if table == house_table else 0) + 1)
            hands.append(play_hand(table, rng=rng, by=dealer, clock=clock, settle_at=at, plan=plan))
    corrected = next(
        hand
        for hand in hands
        if hand.table == house_table and correct_hand(hand, rng=rng, by=supervisor) is not None
    )
    assert corrected.settlements.filter(kind=Settlement.Kind.REVERSAL).exists()
    return hands


def test_a_clean_day_with_a_correction_verifies(day):
    report = verify_books()
    assert report.ok, report.problem
    assert report.settlements == Settlement.objects.count() >= 10
    assert report.stacks == Seating.objects.count()
    assert report.hands == len(day)
    assert verify_books_command() == (
        0,
        f"OK: {report.stacks} stacks, {report.settlements} settlement entries, "
        f"{report.hands} hands, {report.days} table days, {report.entries} stack entries, "
        f"{report.events} audit events agree.\n",
    )
    assert report.entries == StackEntry.objects.count()


def test_the_demo_day_verifies():
    call_command("load_demo", stdout=io.StringIO())
    report = verify_books()
    assert report.ok, f"{report.row}: {report.problem}"
    assert report.settlements > 0 and report.stacks > 0


def test_a_stack_raised_by_raw_sql_is_found_by_its_seating(day):
    """The issue's own tamper: the app role's UPDATE of a stack (Seating is not append-only)."""
    seating = Seating.objects.filter(left_at=None).order_by("pk")[2]
    raw("UPDATE tables_seating SET stack = stack + 1000 WHERE id = %s", [seating.pk])
    assert verify_audit()[0] == 0  # the chain cannot see it

    status, out = verify_books_command()

    assert status == 1
    assert f"BROKEN: tables_seating #{seating.pk}: table {seating.table_id} seat " in out
    assert "the stack is" in out and "entries add up to" in out


def test_every_stack_raised_at_once_names_the_first(day):
    raw("UPDATE tables_seating SET stack = stack + 1000")
    first = Seating.objects.order_by("pk").first()
    report = verify_books()
    assert (report.ok, report.row) == (False, f"tables_seating #{first.pk}")


def test_a_settlements_rake_changed_by_a_superuser_is_found_against_the_engine(day):
    settlement = Settlement.objects.filter(kind="original", house_rake__gt=0).order_by("pk").last()
    with past_append_only():
        raw(
            "UPDATE wagers_settlement SET house_rake = house_rake + 5 WHERE id = %s",
            [settlement.pk],
        )
    assert verify_audit()[0] == 0

    status, out = verify_books_command()

    assert status == 1
    assert f"BROKEN: wagers_settlement #{settlement.pk}: hand {settlement.hand_id} " in out
    assert "the house rake is" in out and "the engine settles" in out


def test_a_stored_round_changed_is_found_its_result_no_longer_the_engines(day):
    settlement = Settlement.objects.filter(kind="original", hand__misdeal="").order_by("pk")[1]
    stored = settlement.round
    stored["spots"][0]["ante"] = str(int(float(stored["spots"][0]["ante"])) + 100)
    with past_append_only():
        Settlement.objects.filter(pk=settlement.pk).update(round=stored)
    report = verify_books()
    assert (report.ok, report.row) == (False, f"wagers_settlement #{settlement.pk}")


def test_a_spot_lines_net_changed_is_found(day):
    settlement = Settlement.objects.filter(kind="original", hand__misdeal="").order_by("pk")[0]
    line = settlement.spots.order_by("seat").first()
    with past_append_only():
        raw("UPDATE wagers_spotsettlement SET net = net + 1 WHERE id = %s", [line.pk])
    report = verify_books()
    assert (report.ok, report.row) == (False, f"wagers_settlement #{settlement.pk}")
    assert f"seat {line.seat}'s net" in report.problem


def test_a_fee_entry_removed_from_the_ledger_is_found(day):
    fee = FeeEntry.objects.order_by("pk")[2]
    settlement_id = fee.booking.settlement_id
    with past_append_only():
        raw("DELETE FROM wagers_feebooking WHERE fee_id = %s", [fee.pk])
        raw("DELETE FROM rake_feeentry WHERE id = %s", [fee.pk])
    report = verify_books()
    assert (report.ok, report.row) == (False, f"wagers_settlement #{settlement_id}")
    assert "fee entries (rake_feeentry) add up to" in report.problem


def test_a_fee_moved_to_another_day_breaks_the_days_ledger(day):
    fee = FeeEntry.objects.order_by("pk")[0]
    with past_append_only():
        raw(
            "UPDATE rake_feeentry SET gaming_day = %s WHERE id = %s",
            [fee.gaming_day - timedelta(days=1), fee.pk],
        )
    report = verify_books()
    assert report.ok is False
    assert report.row == f"table {fee.table_id} gaming day {fee.gaming_day - timedelta(days=1)}"
    assert "the day's fee ledger" in report.problem


def test_the_beat_task_records_a_run_and_says_where(day):
    assert verify_books_task.run()["ok"] is True
    seating = Seating.objects.order_by("pk").first()
    raw("UPDATE tables_seating SET stack = stack + 1 WHERE id = %s", [seating.pk])

    answer = verify_books_task.run()

    assert answer["ok"] is False and answer["row"] == f"tables_seating #{seating.pk}"
    runs = VerificationRun.objects.filter(kind="books").order_by("pk")
    assert [(run.status, run.ok, run.requested_by) for run in runs] == [
        ("done", True, None),
        ("done", False, None),
    ]
    assert runs[1].progress == 100 and runs[1].result["row"] == f"tables_seating #{seating.pk}"
    assert not AuditEvent.objects.filter(action__startswith="verif").exists()


# --- each stack entry tied to what it books, each settlement to its event ------------------------


def test_a_payout_entry_changed_together_with_its_stack_is_found_by_the_entry(day):
    """The sum of the entries still equals the stack: the entry is not the settlement's."""
    payout = StackEntry.objects.filter(reason="payout").order_by("pk")[3]
    with past_append_only():
        raw("UPDATE tables_stackentry SET amount = amount + 100 WHERE id = %s", [payout.pk])
    raw("UPDATE tables_seating SET stack = stack + 100 WHERE id = %s", [payout.seating_id])
    assert verify_audit()[0] == 0

    status, out = verify_books_command()

    assert status == 1, out
    assert f"BROKEN: tables_stackentry #{payout.pk}: table " in out
    assert f"its payout of {payout.amount + 100:.2f}" in out
    assert "is no settlement entry's movement of the stack" in out


def test_a_payout_entry_deleted_with_its_stack_lowered_names_the_settlement(day):
    payout = StackEntry.objects.filter(reason="payout", amount__gt=0).order_by("pk")[1]
    with past_append_only():
        raw("DELETE FROM tables_stackentry WHERE id = %s", [payout.pk])
    raw(
        "UPDATE tables_seating SET stack = stack - %s WHERE id = %s",
        [payout.amount, payout.seating_id],
    )
    report = verify_books()
    assert report.ok is False and report.row.startswith("wagers_settlement #"), report
    assert f"its payout of {payout.amount:.2f} to table " in report.problem
    assert "has no stack entry" in report.problem


def test_a_correction_entry_changed_together_with_its_stack_is_found(day):
    moved = StackEntry.objects.filter(reason="correction").order_by("pk").first()
    with past_append_only():
        raw("UPDATE tables_stackentry SET amount = amount - 7 WHERE id = %s", [moved.pk])
    raw("UPDATE tables_seating SET stack = stack - 7 WHERE id = %s", [moved.seating_id])
    report = verify_books()
    assert (report.ok, report.row) == (False, f"tables_stackentry #{moved.pk}")
    assert "its correction of" in report.problem


def test_a_wager_entry_changed_together_with_its_stack_is_found_against_the_stakes(day):
    wager = StackEntry.objects.filter(reason="wager").order_by("pk")[5]
    with past_append_only():
        raw("UPDATE tables_stackentry SET amount = amount + 5 WHERE id = %s", [wager.pk])
    raw("UPDATE tables_seating SET stack = stack + 5 WHERE id = %s", [wager.seating_id])
    report = verify_books()
    assert (report.ok, report.row) == (False, f"tables_seating #{wager.seating_id}")
    assert "its wager stack entries add up to" in report.problem
    assert "its hands' wagers to" in report.problem


def test_a_buy_in_changed_together_with_its_stack_is_found_against_its_audit_event(day):
    buy_in = StackEntry.objects.filter(reason="buy_in", tender="chips").order_by("pk").first()
    with past_append_only():
        raw("UPDATE tables_stackentry SET amount = amount + 250 WHERE id = %s", [buy_in.pk])
    raw("UPDATE tables_seating SET stack = stack + 250 WHERE id = %s", [buy_in.seating_id])
    report = verify_books()
    assert (report.ok, report.row) == (False, f"tables_stackentry #{buy_in.pk}")
    assert f"buy_in of {buy_in.amount + 250:.2f}, its audit event #" in report.problem
    assert f"says stack #{buy_in.seating_id} buy_in of {buy_in.amount:.2f}" in report.problem


def test_a_cash_buy_in_whose_cash_transaction_is_gone_is_found(day):
    bought = TableCash.objects.exclude(stack_entry=None).order_by("pk").first()
    assert bought is not None, "the house table's players buy in with cash"
    with past_append_only():
        raw(
            "DELETE FROM patrons_currencytransactionreport_transactions "
            "WHERE cashtransaction_id = %s",
            [bought.cash_transaction_id],
        )
        raw("DELETE FROM tables_tablecash WHERE id = %s", [bought.pk])
        raw("DELETE FROM patrons_cashtransaction WHERE id = %s", [bought.cash_transaction_id])
    report = verify_books()
    assert (report.ok, report.row) == (False, f"tables_stackentry #{bought.stack_entry_id}")
    assert "with no cash transaction on the cash log" in report.problem


def delete_whole(settlement: Settlement) -> None:
    """The attacker with the owner's role removes a settlement entry and every row of it."""
    lines = list(SpotSettlement.objects.filter(settlement=settlement).values_list("pk", flat=True))
    fees = list(settlement.fees.values_list("fee_id", flat=True))
    bank = list(settlement.bank_entries.values_list("bank_entry_id", flat=True))
    with past_append_only():
        for table, column, ids in (
            ("wagers_wagersettlement", "spot_settlement_id", lines),
            ("wagers_spotsettlement", "settlement_id", [settlement.pk]),
            ("wagers_feebooking", "settlement_id", [settlement.pk]),
            ("rake_feeentry", "id", fees),
            ("wagers_bankbooking", "settlement_id", [settlement.pk]),
            ("tables_housebankentry", "id", bank),
        ):
            for pk in ids:
                raw(f"DELETE FROM {table} WHERE {column} = %s", [pk])
        raw("DELETE FROM wagers_settlement WHERE id = %s", [settlement.pk])


def test_a_settlement_deleted_whole_while_its_event_stays_is_found_by_the_event(day):
    hand = next(h for h in day if h.status == Hand.Status.SETTLED and h.settlements.count() == 1)
    settlement = hand.settlements.get()
    event = AuditEvent.objects.get(
        action=AuditAction.HAND_SETTLED, object_type="wagers.hand", object_id=str(hand.pk)
    )
    delete_whole(settlement)
    assert not WagerSettlement.objects.filter(spot_settlement__settlement_id=settlement.pk).exists()
    assert verify_audit()[0] == 0  # the chain still holds: the event is there

    status, out = verify_books_command()

    assert status == 1, out
    assert (
        f"BROKEN: audit event #{event.seq}: hand.settled of hand {hand.pk} names settlement "
        "entry 1, which is not in wagers_settlement." in out
    )


def test_a_settlement_named_by_a_second_settling_event_is_found(day, dealer):
    hand = next(h for h in day if h.status == Hand.Status.SETTLED and h.settlements.count() == 1)
    event = AuditEvent.objects.get(
        action=AuditAction.HAND_SETTLED, object_type="wagers.hand", object_id=str(hand.pk)
    )
    audit_record(
        actor=dealer,
        action=AuditAction.HAND_SETTLED,
        target=hand,
        payload=json.loads(event.payload),
    )
    report = verify_books()
    settlement = hand.settlements.get()
    assert (report.ok, report.row) == (False, f"wagers_settlement #{settlement.pk}")
    assert "it is named by 2 events" in report.problem


def test_a_correction_of_a_raise_moves_its_stake_and_still_ties(day, supervisor):
    """A raise corrected to a fold: the stake comes back with the correction's movement, which
    is the corrected nets less the reversed ones (R15 on every entry)."""
    corrected = None
    for spot in Spot.objects.filter(decision="raise", hand__status="settled").order_by("pk"):
        hand = spot.hand
        try:
            corrected = services.hand_correct(
                hand=hand,
                corrects=hand.settlements.latest("entry").pk,
                by=supervisor,
                reason="Seat folded; the raise was entered by mistake",
                decisions={spot.seat: {"decision": "fold"}},
            )
            break
        except DomainError:
            continue
    assert corrected is not None
    report = verify_books()
    assert report.ok, f"{report.row}: {report.problem}"


@pytest.mark.django_db(transaction=True)
def test_run_by_a_worker_outside_a_transaction_the_books_read_one_snapshot(day):
    """As beat's worker runs it: on PostgreSQL the books are read in one read-only snapshot
    (a hand settled meanwhile is not half seen), and the progress goes through a connection
    of its own (the snapshot cannot write it)."""
    answer = verify_books_task.run()
    assert answer["ok"] is True, answer
    run = VerificationRun.objects.get(pk=answer["run"])
    assert (run.status, run.progress, run.result["settlements"]) == (
        "done",
        100,
        Settlement.objects.count(),
    )
    assert verify_books_command()[0] == 0


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_postgresql_reads_in_one_read_only_repeatable_snapshot():
    with read_snapshot() as snapshot:
        if connection.vendor != "postgresql":
            assert snapshot is False  # SQLite: one writer
            return
        assert snapshot is True
        assert raw("SHOW transaction_isolation") == [("repeatable read",)]
        assert raw("SHOW transaction_read_only") == [("on",)]
