"""Compliance state verification (``verify_state``): each direct edit the application's
database role could make to compliance state — the self-approval switch, an exclusion, a
CTR's figures, a role group, a settled hand's cards — passes ``verify_audit`` (the chain is
untouched) and is found against the audit log (or the append-only records), naming the row."""

from __future__ import annotations

import io
import random
from datetime import date, timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.db import transaction

from audit.actions import AuditAction
from audit.models import AuditEvent
from audit.role_events import latest_role_events
from audit.services import audit_record
from compliance.models import VerificationRun
from compliance.state import verify_state
from compliance.tasks import verify_state_task
from core.roles import DEALER, FLOOR_SUPERVISOR, ROLES, role_of
from patrons.cash import cage_cash, ctr_file
from patrons.exclusion_ends import state_removal_apply
from patrons.exclusion_imports import exclusion_list_import
from patrons.exclusions import ExclusionInput, exclusion_add
from patrons.keys import id_hash
from patrons.models import Cardroom, CurrencyTransactionReport, Exclusion
from tables import staff
from tables.demo import DEMO_USERS
from tables.services.cardrooms import cardroom_create
from tests.audit.support import T0, correct_hand, play_hand, raw, verify_audit
from wagers.models import Hand, Spot

pytestmark = pytest.mark.django_db

STATE_LIST = """kind,name,date_of_birth,starts_on,ends_on,reason,reference
self_excluded,Ash Moor,1975-02-03,2025-06-01,,State list,SL-1
barred,Bea Lund,1988-09-10,2025-01-15,2027-01-15,State list,SL-2
self_restricted,Cy Oakes,1990-12-01,2025-03-01,2026-03-01,State list,SL-3
"""


def verify_state_command() -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("verify_state", stdout=out, stderr=out)
    except SystemExit as exit_:
        return int(exit_.code), out.getvalue()
    return 0, out.getvalue()


def record_roles_as_the_services_do() -> None:
    """The tests' personas are made by fixtures that put them in their groups directly; record
    each one's role as the staff services would (``audit.role_events``)."""
    for user in User.objects.filter(groups__name__in=ROLES).distinct().order_by("pk"):
        payload = {"username": user.username, "name": user.get_full_name(), "role": role_of(user)}
        with transaction.atomic():
            audit_record(actor=None, action=AuditAction.STAFF_CREATED, target=user, payload=payload)


@pytest.fixture
def world(
    cardroom,
    dp_table,
    dp_players,
    house_table,
    house_players,
    dealer,
    supervisor,
    auditor,
    allow_self_approval,
    identify,
    make_player,
    clock,
    cashier,
):
    """A cardroom with self-approval switched on, hands settled (one corrected), exclusions of
    its own and of a state list (one ended), a CTR filed, and a dealer made by the staff
    services; every persona's role audited."""
    allow_self_approval(cardroom)
    rng = random.Random(11)
    hands = [
        play_hand(table, rng=rng, by=dealer, clock=clock, settle_at=T0 + timedelta(minutes=n))
        for n, table in enumerate((dp_table, house_table, dp_table, house_table), start=1)
    ]
    assert any(correct_hand(hand, rng=rng, by=supervisor) for hand in hands[1::2])
    entry = ExclusionInput(
        kind="barred", name="Robin Vale", starts_on=date(2024, 1, 1), reason="Cheating",
        date_of_birth=date(1980, 5, 17), id_type="driver_licence", id_number="R7654321",
        id_issuer="CA",
    )  # fmt: skip
    exclusion_add(cardroom=cardroom, entry=entry, by=supervisor)
    exclusion_add(
        cardroom=cardroom,
        entry=ExclusionInput(
            kind="self_restricted", name="Sam Hale", starts_on=date(2024, 2, 1),
            ends_on=date(2024, 8, 1), reason="Asked for", date_of_birth=date(1970, 1, 2),
        ),
        by=supervisor,
    )  # fmt: skip
    exclusion_list_import(text=STATE_LIST, source_name="state.csv", by=auditor)
    # the state removes SL-2 (its removal, imported): in force until the day before
    state_removal_apply(
        reference="SL-2",
        removal_reference="REM-1",
        removed_on=date(2026, 1, 16),
        by=auditor,
        line=2,
    )
    rich = make_player("Rich Player")
    identify(rich)
    cage_cash(player=rich, direction="in", amount="10000.00", by=cashier)
    cage_cash(player=rich, direction="in", amount="2500.00", by=cashier)
    clock.advance(days=1)  # a CTR is filed once its gaming day is over
    ctr_file(report=CurrencyTransactionReport.objects.get(), reference="BSA-1", by=auditor)
    staff.staff_create(
        username="dana", first_name="Dana", last_name="Ruiz", role=DEALER, by=supervisor
    )
    record_roles_as_the_services_do()
    return hands


def test_a_world_made_through_the_services_agrees(world):
    report = verify_state()
    assert report.ok, f"{report.row}: {report.problem}"
    assert report.cardrooms == Cardroom.objects.count() == 1
    assert report.accounts == User.objects.filter(groups__name__in=ROLES).distinct().count()
    assert report.exclusions == Exclusion.objects.count() == 5 and report.unsealed == 0
    assert report.ctrs == 1
    assert report.hands == Hand.objects.filter(settlements__isnull=False).distinct().count() > 3
    assert verify_state_command() == (
        0,
        f"OK: 1 cardrooms' self-approval, {report.accounts} accounts' roles, 5 exclusions, "
        f"1 CTRs, {report.hands} settled hands agree with the audit log.\n",
    )


def test_the_demo_agrees():
    call_command("load_demo", stdout=io.StringIO())
    report = verify_state()
    assert report.ok, f"{report.row}: {report.problem}"
    assert report.accounts == len(DEMO_USERS) and report.hands > 0
    events = AuditEvent.objects.count()
    call_command("load_demo", stdout=io.StringIO())  # run again: no role event again
    assert AuditEvent.objects.count() == events


# --- each direct edit is found -----------------------------------------------------------------


def test_self_approval_switched_by_raw_sql_is_found(world, cardroom):
    """The other way round from the world: off by a decision, on by an UPDATE."""
    raw("UPDATE tables_cardroom SET self_approval_allowed = %s WHERE id = %s", [False, cardroom.pk])
    assert verify_audit()[0] == 0

    status, out = verify_state_command()

    assert status == 1
    assert (
        f"BROKEN: tables_cardroom #{cardroom.pk}: Harbour Cardroom: self-approval is off, " in out
    )
    assert "but the audit log last set it on (event #" in out
    assert "cardroom.self_approval.change_approved)" in out


def test_self_approval_of_a_new_cardroom_switched_on_by_raw_sql_is_found(world, administrator):
    other = cardroom_create(name="Second Room", by=administrator)
    raw("UPDATE tables_cardroom SET self_approval_allowed = %s WHERE id = %s", [True, other.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"tables_cardroom #{other.pk}")
    assert "self-approval is on, but the audit log last set it off" in report.problem
    assert "cardroom.created" in report.problem


def test_a_deleted_exclusion_is_found_by_the_event_that_made_it(world):
    barred = Exclusion.objects.get(name="Robin Vale")
    made = AuditEvent.objects.get(action="exclusion.added", object_id=str(barred.pk))
    raw("DELETE FROM patrons_exclusion WHERE id = %s", [barred.pk])
    assert verify_audit()[0] == 0
    report = verify_state()
    assert (report.ok, report.row) == (False, f"audit event #{made.seq}")
    assert f"exclusion.added names exclusion #{barred.pk}, which is not in" in report.problem


def test_a_deleted_state_list_entry_is_found_by_its_import(world):
    entry = Exclusion.objects.get(reference="SL-1")
    imported = AuditEvent.objects.get(action="exclusion.list_imported")
    raw("DELETE FROM patrons_exclusion WHERE id = %s", [entry.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"audit event #{imported.seq}")
    assert f"exclusion #{entry.pk} of them is not in patrons_exclusion" in report.problem


def test_a_lifetime_bar_cut_short_by_raw_sql_is_found(world):
    barred = Exclusion.objects.get(name="Robin Vale")
    raw("UPDATE patrons_exclusion SET ends_on = %s WHERE id = %s", [date(2024, 1, 2), barred.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"patrons_exclusion #{barred.pk}")
    assert "its term ends on 2024-01-02, but exclusion.added (event #" in report.problem
    assert "made it end on never (for life)" in report.problem


@pytest.mark.parametrize(
    ("column", "value", "found"),
    [
        ("date_of_birth", date(1981, 5, 17), "its fields are not those exclusion.added sealed"),
        ("kind", "self_restricted", "its fields are not those exclusion.added sealed"),
        # The ID is matched on its lookup hash, which is then no longer the ID's own.
        ("id_issuer", "NV", "its ID lookup hash is not its ID number's"),
    ],
)
def test_an_edited_exclusion_is_found(world, column, value, found):
    barred = Exclusion.objects.get(name="Robin Vale")
    raw(f"UPDATE patrons_exclusion SET {column} = %s WHERE id = %s", [value, barred.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"patrons_exclusion #{barred.pk}")
    assert found in report.problem


def test_an_exclusions_id_hash_and_issuer_changed_together_are_found_against_its_seal(world):
    barred = Exclusion.objects.get(name="Robin Vale")
    forged = id_hash("driver_licence", "NV", "R7654321")
    raw(
        "UPDATE patrons_exclusion SET id_issuer = 'NV', id_hash = %s WHERE id = %s",
        [forged, barred.pk],
    )
    report = verify_state()
    assert (report.ok, report.row) == (False, f"patrons_exclusion #{barred.pk}")
    assert "its fields are not those exclusion.added sealed (event #" in report.problem


def test_a_renamed_exclusion_with_its_name_key_is_found_against_its_seal(world):
    barred = Exclusion.objects.get(name="Robin Vale")
    raw(
        "UPDATE patrons_exclusion SET name = %s, name_key = %s WHERE id = %s",
        ["Robin Vail", "robin vail", barred.pk],
    )
    report = verify_state()
    assert (report.ok, report.row) == (False, f"patrons_exclusion #{barred.pk}")
    assert "its fields are not those exclusion.added sealed (event #" in report.problem


def test_an_edited_state_list_entry_is_found_against_its_imports_seal(world):
    entry = Exclusion.objects.get(reference="SL-3")
    imported = AuditEvent.objects.get(action="exclusion.list_imported")
    raw("UPDATE patrons_exclusion SET starts_on = %s WHERE id = %s", [date(2026, 2, 1), entry.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"audit event #{imported.seq}")
    assert "are not those it sealed: one was edited" in report.problem


def test_an_ended_term_moved_by_raw_sql_is_found_against_its_end(world):
    ended = Exclusion.objects.get(reference="SL-2")
    raw("UPDATE patrons_exclusion SET ends_on = %s WHERE id = %s", [date(2025, 1, 16), ended.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"patrons_exclusion #{ended.pk}")
    assert "but exclusion.ended (event #" in report.problem and "2026-01-15" in report.problem


def test_an_exclusion_inserted_by_raw_sql_is_found_with_no_event(world, supervisor):
    barred = Exclusion.objects.get(name="Sam Hale")
    raw(
        "INSERT INTO patrons_exclusion (kind, source, reference, name, name_key, date_of_birth, "
        "id_type, id_issuer, id_hash, starts_on, reason, created_by_id, created_at, cardroom_id, "
        "term, end_reason, end_reference) "
        "SELECT kind, source, reference, name, name_key, date_of_birth, id_type, id_issuer, "
        "id_hash, starts_on, reason, created_by_id, created_at, cardroom_id, term, end_reason, "
        "end_reference "
        "FROM patrons_exclusion WHERE id = %s",
        [barred.pk],
    )
    copy = Exclusion.objects.order_by("-pk").first()
    report = verify_state()
    assert (report.ok, report.row) == (False, f"patrons_exclusion #{copy.pk}")
    assert "no audit event made it" in report.problem


def test_a_ctrs_cash_in_lowered_by_5000_is_found_against_the_cash_log(world):
    ctr = CurrencyTransactionReport.objects.get()
    raw(
        "UPDATE patrons_currencytransactionreport SET cash_in = cash_in - 5000 WHERE id = %s",
        [ctr.pk],
    )
    assert verify_audit()[0] == 0

    status, out = verify_state_command()

    assert status == 1
    assert f"BROKEN: patrons_currencytransactionreport #{ctr.pk}: person {ctr.person_id} " in out
    assert "its cash in and out are 7500.00 and 0.00, the cash log's 12500.00 and 0.00" in out


def test_a_deleted_ctr_is_found_by_its_day_over_the_line(world):
    ctr = CurrencyTransactionReport.objects.get()
    raw(
        "DELETE FROM patrons_currencytransactionreport_transactions "
        "WHERE currencytransactionreport_id = %s",
        [ctr.pk],
    )
    raw("DELETE FROM patrons_currencytransactionreport WHERE id = %s", [ctr.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"person {ctr.person_id} gaming day {ctr.gaming_day}")
    assert "with no CTR" in report.problem


def test_a_filed_ctr_marked_to_file_again_is_found(world):
    ctr = CurrencyTransactionReport.objects.get()
    raw(
        "UPDATE patrons_currencytransactionreport SET status = 'to_file', filing_reference = '' "
        "WHERE id = %s",
        [ctr.pk],
    )
    report = verify_state()
    assert (report.ok, report.row) == (False, f"patrons_currencytransactionreport #{ctr.pk}")
    assert "but the audit log says filed as 'BSA-1' (event #" in report.problem


def test_a_dealer_put_in_the_floor_supervisors_group_by_raw_sql_is_found(world):
    dana = User.objects.get(username="dana")
    made = latest_role_events([dana.pk])[dana.pk]
    floor = Group.objects.get(name=FLOOR_SUPERVISOR)
    raw("INSERT INTO auth_user_groups (user_id, group_id) VALUES (%s, %s)", [dana.pk, floor.pk])
    assert verify_audit()[0] == 0

    status, out = verify_state_command()

    assert status == 1
    assert (
        f"BROKEN: auth_user #{dana.pk}: dana is in the Dealer, Floor supervisor group, but its "
        f"audited role is Dealer (event #{made.seq}, staff.created)."
    ) in out


def test_a_dealer_moved_to_the_floor_supervisors_group_by_raw_sql_is_found(world, dealer):
    floor = Group.objects.get(name=FLOOR_SUPERVISOR)
    raw("UPDATE auth_user_groups SET group_id = %s WHERE user_id = %s", [floor.pk, dealer.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"auth_user #{dealer.pk}")
    assert (
        "dealer is in the Floor supervisor group, but its audited role is Dealer" in report.problem
    )


def test_a_role_group_membership_with_no_audited_origin_is_reported(world, make_user):
    """An account made outside the services, put in a group directly (as a fixture does)."""
    made = make_user("intruder", role=FLOOR_SUPERVISOR)
    report = verify_state()
    assert (report.ok, report.row) == (False, f"auth_user #{made.pk}")
    assert report.problem == (
        "intruder is in the Floor supervisor group, but no audit event gave the account a role"
    )


def test_a_role_changed_through_the_services_agrees(world, administrator):
    dana = User.objects.get(username="dana")
    staff.staff_role_set(user=dana, role=FLOOR_SUPERVISOR, by=administrator)
    assert latest_role_events([dana.pk])[dana.pk].role == FLOOR_SUPERVISOR
    assert verify_state().ok


def test_a_settled_hands_cards_rewritten_are_found(world):
    hand = next(h for h in world if h.status == Hand.Status.SETTLED and h.settlements.count() == 1)
    spot = Spot.objects.filter(hand=hand).exclude(cards="").order_by("seat").first()
    dealt = spot.cards.split()
    raw(
        "UPDATE wagers_spot SET cards = %s WHERE id = %s",
        [" ".join(dealt[::-1][:6] + ["2c"]), spot.pk],
    )
    assert verify_audit()[0] == 0
    report = verify_state()
    assert (report.ok, report.row) == (False, f"wagers_spot #{spot.pk}")
    assert f"seat {spot.seat}, cards: {spot.cards} here" not in report.problem  # the new ones
    assert f"seat {spot.seat}, cards: " in report.problem
    assert f"here, {spot.cards} in its settlement" in report.problem


def test_a_settled_hands_dealer_cards_rewritten_are_found(world):
    hand = next(h for h in world if h.status == Hand.Status.SETTLED)
    raw("UPDATE wagers_hand SET dealer_cards = %s WHERE id = %s", ["As Ks Qs Js Ts 9s 8s", hand.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"wagers_hand #{hand.pk}")
    assert "the dealer's cards are As Ks Qs Js Ts 9s 8s, but it was settled with" in report.problem


def test_a_corrected_decision_rewritten_is_found_against_the_entry_in_force(world):
    spot = Spot.objects.filter(hand__settlements__kind="correction").exclude(decision="").first()
    raw("UPDATE wagers_spot SET decision = %s WHERE id = %s", ["walked_away", spot.pk])
    report = verify_state()
    assert (report.ok, report.row) == (False, f"wagers_spot #{spot.pk}")
    assert f"seat {spot.seat}, decision: walked_away here, {spot.decision} in its" in report.problem


# --- as a task, in beat, on the screen ----------------------------------------------------------


def test_beat_runs_it_every_hour_beside_the_books():
    [entry] = [
        e for e in settings.CELERY_BEAT_SCHEDULE.values() if e["task"] == "compliance.verify_state"
    ]
    assert entry["schedule"] == timedelta(hours=1)


def test_the_task_records_a_run_and_says_where(world, cardroom):
    assert verify_state_task.run()["ok"] is True
    raw("UPDATE tables_cardroom SET self_approval_allowed = %s WHERE id = %s", [False, cardroom.pk])

    answer = verify_state_task.run()

    assert answer == {"run": answer["run"], "ok": False, "row": f"tables_cardroom #{cardroom.pk}"}
    runs = VerificationRun.objects.filter(kind="state").order_by("pk")
    assert [(run.status, run.ok, run.progress) for run in runs] == [
        ("done", True, 100),
        ("done", False, 100),
    ]
    assert runs[1].result["row"] == f"tables_cardroom #{cardroom.pk}"


@pytest.mark.django_db(transaction=True)
def test_run_by_a_worker_outside_a_transaction_each_check_reads_one_snapshot(world):
    """As beat's worker runs it: not inside a transaction, so on PostgreSQL each check opens
    its own, read-only at REPEATABLE READ; the run's progress is written between them."""
    answer = verify_state_task.run()
    assert answer["ok"] is True, answer
    run = VerificationRun.objects.get(pk=answer["run"])
    accounts = User.objects.filter(groups__name__in=ROLES).distinct().count()
    assert (run.status, run.progress, run.result["accounts"]) == ("done", 100, accounts)
