"""CSV exports: settlements and the audit log for a period, built by a Celery task
that reports its progress, stored for download, and naming the chain head they were made from."""

from __future__ import annotations

import csv
import io
import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import QuerySet

from audit.models import AuditEvent
from audit.services import audit_record
from compliance import exports
from compliance.exports import AUDIT_COLUMNS, HOLD_COLUMNS, SETTLEMENT_COLUMNS, export_build
from compliance.models import Export
from compliance.reports import table_day_report
from compliance.services import export_request
from compliance.tasks import build_export_task
from core.errors import DomainError, PermissionDenied
from rake.selectors import fees_total
from tables.selectors import gaming_day_bounds
from tests.audit.support import correct_hand, local, new_york_gaming_day, play_hand, random_plan
from wagers.models import Hand, Settlement

DAY_0 = local(2024, 2, 29, 12).date()
DAY_A = local(2024, 3, 1, 12).date()
DAY_B = local(2024, 3, 2, 12).date()

pytestmark = pytest.mark.usefixtures("media")  # each test its own MEDIA_ROOT


def read(export: Export) -> list[list[str]]:
    export.file.open("rb")
    try:
        return list(csv.reader(io.StringIO(export.file.read().decode())))
    finally:
        export.file.close()


def requested(kind: str, start, end, by, capture) -> Export:
    """Request an export; the build is enqueued on commit and runs (eagerly) then."""
    with capture(execute=True) as callbacks:
        export = export_request(kind=kind, start=start, end=end, by=by)
    assert len(callbacks) == 1
    export.refresh_from_db()
    return export


@pytest.fixture
def three_days(dp_table, house_table, dp_players, house_players, dealer, supervisor, clock):
    """Hands on gaming days 0, A and B on both tables; a correction on day A of a day-A hand,
    and on day B of another day-A hand (its entries fall on day B)."""
    rng = random.Random(3)
    moments = [
        local(2024, 2, 29, 21, 0),
        local(2024, 3, 1, 9, 0),
        local(2024, 3, 1, 15, 0),
        local(2024, 3, 1, 22, 0),
        local(2024, 3, 2, 2, 0),  # still day A
        local(2024, 3, 2, 7, 0),
        local(2024, 3, 2, 12, 0),
    ]
    day_a_hands = []
    for moment in moments:
        plan = random_plan(rng)
        plan.misdeal = ""
        hand = play_hand(dp_table, rng=rng, by=dealer, clock=clock, settle_at=moment, plan=plan)
        if new_york_gaming_day(moment) == DAY_A:
            day_a_hands.append(hand)
        house_plan = random_plan(rng)
        house_plan.dp_bank = None
        play_hand(
            house_table,
            rng=rng,
            by=dealer,
            clock=clock,
            settle_at=moment + timedelta(minutes=30),
            plan=house_plan,
        )
    clock.set(local(2024, 3, 1, 23, 0))
    same_day = next(
        correct_hand(h, rng=rng, by=supervisor) for h in day_a_hands[:2] if h.status == "settled"
    )
    assert same_day is not None
    clock.set(local(2024, 3, 2, 13, 0))
    later = None
    for hand in day_a_hands[2:]:
        if hand.status == "settled" and (later := correct_hand(hand, rng=rng, by=supervisor)):
            break
    assert later is not None
    clock.set(local(2024, 3, 2, 14, 0))
    return {"tables": (dp_table, house_table)}


def test_a_settlements_export_has_one_row_per_settlement_entry_of_the_period(
    three_days, auditor, django_capture_on_commit_callbacks
):
    tables = three_days["tables"]
    cardroom = tables[0].cardroom
    start, end = gaming_day_bounds(cardroom, DAY_A)
    export = requested("settlements", start, end, auditor, django_capture_on_commit_callbacks)
    assert (export.status, export.progress) == ("done", 100)
    header, *rows = read(export)
    assert header == SETTLEMENT_COLUMNS
    entries = Settlement.objects.filter(created_at__gte=start, created_at__lt=end)
    assert sorted(int(row[0]) for row in rows) == sorted(entries.values_list("pk", flat=True))
    assert export.rows == len(rows) == entries.count()
    assert {row[5] for row in rows} >= {"original", "reversal", "correction"}
    assert {row[7] for row in rows} == {str(DAY_A)}
    column = SETTLEMENT_COLUMNS.index("house_rake")
    total = sum((Decimal(row[column]) for row in rows), Decimal("0.00"))
    assert total == sum((fees_total(t, DAY_A, DAY_A) for t in tables), Decimal("0.00"))
    assert total == sum((table_day_report(t, DAY_A).fees_total for t in tables), Decimal("0"))
    assert total > 0


def test_a_two_day_settlements_export_totals_equal_the_fees_of_both_days(
    three_days, auditor, django_capture_on_commit_callbacks
):
    tables = three_days["tables"]
    start = gaming_day_bounds(tables[0].cardroom, DAY_A)[0]
    end = gaming_day_bounds(tables[0].cardroom, DAY_B)[1]
    export = requested("settlements", start, end, auditor, django_capture_on_commit_callbacks)
    _, *rows = read(export)
    assert len(rows) == Settlement.objects.filter(created_at__gte=start, created_at__lt=end).count()
    assert len(rows) < Settlement.objects.count()  # day 0's entries stay out
    column = SETTLEMENT_COLUMNS.index("house_rake")
    total = sum((Decimal(row[column]) for row in rows), Decimal("0.00"))
    assert total == sum((fees_total(t, DAY_A, DAY_B) for t in tables), Decimal("0.00"))
    # Each row's money: the spots' net is what the dealer and the house did not keep (R15).
    for row in rows:
        net, dealer, rake = (
            Decimal(row[SETTLEMENT_COLUMNS.index(c)])
            for c in (
                "spots_net",
                "dealer_net",
                "house_rake",
            )
        )
        assert net + dealer + rake == 0


def test_an_audit_log_export_has_one_row_per_event_up_to_the_head_it_names(
    three_days, auditor, django_capture_on_commit_callbacks
):
    start, end = local(2024, 2, 29, 0, 0), local(2024, 3, 3, 0, 0)
    export = requested("audit_log", start, end, auditor, django_capture_on_commit_callbacks)
    head = AuditEvent.objects.order_by("-seq").first()
    # The request is audited, and the build made from the chains including it.
    assert AuditEvent.objects.get(seq=head.seq).action == "export.requested"
    assert (export.chain_seq, export.chain_hash) == (head.seq, head.hash)
    assert f"head{head.seq}-{head.hash[:12]}" in export.file.name
    assert (export.status, export.progress) == ("done", 100)
    header, *rows = read(export)
    assert header == AUDIT_COLUMNS
    # Every event, in number order (unique, not gapless: events are numbered across chains).
    assert [int(row[0]) for row in rows] == list(
        AuditEvent.objects.order_by("seq").values_list("seq", flat=True)
    )
    assert export.rows == len(rows) == AuditEvent.objects.count()
    # The file carries the chains: in each, a row follows the one before; the last is the head.
    chains: dict[str, list[list[str]]] = {}
    for row in rows:
        chains.setdefault(row[AUDIT_COLUMNS.index("chain")], []).append(row)
    assert len(chains) > 1
    for in_chain in chains.values():
        places = [int(row[AUDIT_COLUMNS.index("chain_seq")]) for row in in_chain]
        assert places == list(range(1, len(in_chain) + 1))
        for before, after in zip(in_chain, in_chain[1:], strict=False):
            assert after[AUDIT_COLUMNS.index("prev_hash")] == before[AUDIT_COLUMNS.index("hash")]
    assert rows[-1][AUDIT_COLUMNS.index("hash")] == head.hash
    # People by name, the username the chain recorded beside it; the system as recorded.
    last = rows[-1]
    actor = (last[AUDIT_COLUMNS.index("actor")], last[AUDIT_COLUMNS.index("actor_username")])
    assert actor == ("Ari Kim", "auditor")


def test_an_audit_log_export_of_a_period_holds_the_events_of_that_period(
    three_days, auditor, django_capture_on_commit_callbacks
):
    start, end = gaming_day_bounds(three_days["tables"][0].cardroom, DAY_A)
    export = requested("audit_log", start, end, auditor, django_capture_on_commit_callbacks)
    _, *rows = read(export)
    expected = AuditEvent.objects.filter(
        occurred_at__gte=start, occurred_at__lt=end, seq__lte=export.chain_seq
    )
    assert [int(row[0]) for row in rows] == list(expected.values_list("seq", flat=True))
    assert 0 < len(rows) < AuditEvent.objects.count()


def test_events_appended_while_the_export_is_built_are_left_out(
    three_days, auditor, django_capture_on_commit_callbacks, monkeypatch
):
    real = exports._audit_rows

    def rows_after_another_write(export, up_to_seq):
        with transaction.atomic():
            audit_record(actor=None, action="test.during_export")
        return real(export, up_to_seq)

    monkeypatch.setattr(exports, "_audit_rows", rows_after_another_write)
    start, end = local(2024, 2, 29, 0, 0), local(2030, 1, 1, 0, 0)
    export = requested("audit_log", start, end, auditor, django_capture_on_commit_callbacks)
    _, *rows = read(export)
    [during] = AuditEvent.objects.filter(action="test.during_export")
    newest_before = AuditEvent.objects.exclude(pk=during.pk).order_by("-seq").first()
    assert int(rows[-1][0]) == export.chain_seq == newest_before.seq
    assert len(rows) == AuditEvent.objects.count() - 1
    assert during.seq > export.chain_seq


def test_the_build_reports_its_progress_as_it_goes(
    three_days, auditor, django_capture_on_commit_callbacks, monkeypatch
):
    seen: list[int] = []
    update = QuerySet.update

    def recording(self, **kwargs):
        if self.model is Export and "progress" in kwargs:
            seen.append(kwargs["progress"])
        return update(self, **kwargs)

    monkeypatch.setattr(QuerySet, "update", recording)
    start, end = local(2024, 2, 29, 0, 0), local(2024, 3, 3, 0, 0)
    export = requested("audit_log", start, end, auditor, django_capture_on_commit_callbacks)
    assert seen[0] == 0  # running, from 0%
    steps = seen[1:]
    assert len(steps) >= 10
    assert steps == sorted(set(steps)) and all(0 < p < 100 for p in steps)
    assert export.progress == 100 and export.status == "done"
    assert export.finished_at is not None


def test_a_dealer_cannot_request_an_export(dealer, db, django_capture_on_commit_callbacks, refusal):
    before = AuditEvent.objects.count()
    start, end = local(2024, 3, 1, 6, 0), local(2024, 3, 2, 6, 0)
    only = "Only a compliance auditor or floor supervisor may export records"
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        refusal(PermissionDenied, field=None, says=only),
    ):
        export_request(kind="settlements", start=start, end=end, by=dealer)
    assert callbacks == []
    assert not Export.objects.exists()
    assert AuditEvent.objects.count() == before


@pytest.mark.parametrize("who", ["auditor", "supervisor"])
def test_compliance_and_the_floor_may_request_an_export(
    who, request, django_capture_on_commit_callbacks
):
    user = request.getfixturevalue(who)
    start, end = local(2024, 3, 1, 6, 0), local(2024, 3, 2, 6, 0)
    with django_capture_on_commit_callbacks(execute=True):
        export = export_request(kind="settlements", start=start, end=end, by=user)
    export.refresh_from_db()
    assert export.status == "done" and export.requested_by == user
    event = AuditEvent.objects.get(action="export.requested")
    assert (event.actor_id, event.object_id) == (user.pk, str(export.pk))
    assert read(export) == [SETTLEMENT_COLUMNS]  # nothing was settled: the header alone


def test_an_export_request_is_checked(auditor, refusal):
    start = local(2024, 3, 1, 6, 0)
    with refusal(DomainError, field="kind", says="An export is one of: "):
        export_request(kind="players", start=start, end=start + timedelta(days=1), by=auditor)
    with refusal(DomainError, field="end", says="The period must end after it starts"):
        export_request(kind="settlements", start=start, end=start, by=auditor)


def test_building_an_export_twice_leaves_one_file_and_the_same_rows(
    three_days, auditor, django_capture_on_commit_callbacks, media
):
    start, end = local(2024, 2, 29, 0, 0), local(2024, 3, 3, 0, 0)
    export = requested("settlements", start, end, auditor, django_capture_on_commit_callbacks)
    first = (read(export), export.file.name, export.rows, export.chain_seq, export.finished_at)
    assert build_export_task.delay(export.pk).get() == {
        "export": export.pk,
        "status": "done",
        "rows": export.rows,
    }
    export_build(export.pk)
    export.refresh_from_db()
    assert (read(export), export.file.name, export.rows, export.chain_seq, export.finished_at) == (
        first
    )
    assert [p.name for p in (media / "exports").iterdir()] == [export.file.name.split("/")[-1]]


def test_a_build_that_died_half_way_is_built_again_by_the_retried_task(
    three_days, auditor, django_capture_on_commit_callbacks, media
):
    start, end = local(2024, 2, 29, 0, 0), local(2024, 3, 3, 0, 0)
    with django_capture_on_commit_callbacks(execute=False):
        export = export_request(kind="settlements", start=start, end=end, by=auditor)
    # A worker took it and died before writing the file.
    Export.objects.filter(pk=export.pk).update(status="running", progress=35)
    build_export_task.delay(export.pk).get()
    export.refresh_from_db()
    assert (export.status, export.progress) == ("done", 100)
    _, *rows = read(export)
    assert len(rows) == export.rows == Settlement.objects.count()
    assert len(list((media / "exports").iterdir())) == 1


def test_a_hold_export_gives_each_bank_s_hold_per_wager_type_agreeing_with_the_settlements(
    three_days, auditor, django_capture_on_commit_callbacks
):
    """game-math.md: the bank's win on the wagers, fees apart, is the dealer's net in force
    plus the fee the designated player paid (none on a house-banked table); each DP player's
    rows add up to the table's."""
    tables = three_days["tables"]
    start, end = gaming_day_bounds(tables[0].cardroom, DAY_A)
    export = requested("hold", start, end, auditor, django_capture_on_commit_callbacks)
    assert export.status == "done"
    header, *rows = read(export)
    assert header == HOLD_COLUMNS
    col = {name: HOLD_COLUMNS.index(name) for name in HOLD_COLUMNS}
    assert export.rows == len(rows)
    for table in tables:
        mine = [row for row in rows if row[col["table"]] == table.name]
        bank = "house" if table.banking == "house" else "designated_players"
        totals = [row for row in mine if row[col["bank"]] == bank]
        assert [row[col["wager"]] for row in totals] == [
            "ante_raise",
            "flush_bonus",
            "straight_flush_bonus",
        ]
        win = sum((Decimal(row[col["win"]]) for row in totals), Decimal("0.00"))
        expected = Decimal("0.00")
        for hand in Hand.objects.filter(
            table=table, settled_at__gte=start, settled_at__lt=end, status="settled"
        ):
            in_force = hand.settlements.exclude(kind="reversal").order_by("-entry").first()
            expected += in_force.dealer_net + Decimal(in_force.result["dealer"]["rake"] or "0")
        assert win == expected
        if table.banking == "designated_player":
            players = [row for row in mine if row[col["bank"]] != bank]
            assert players
            for wager in ("ante_raise", "flush_bonus"):
                for name in ("handle", "win"):
                    by_player = sum(
                        Decimal(row[col[name]]) for row in players if row[col["wager"]] == wager
                    )
                    total = next(Decimal(r[col[name]]) for r in totals if r[col["wager"]] == wager)
                    assert by_player == total
