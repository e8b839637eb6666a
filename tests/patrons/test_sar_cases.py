"""Suspicious activity cases (31 CFR 1021.320): opened by compliance from a structuring flag,
a review or by hand; the $5,000 test; the deadline, 30 calendar days from detection or 60
when no suspect is identified; the decision, once, with its reason; frozen once decided."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from patrons import reviews, sar_selectors
from patrons.cash import cage_cash
from patrons.models import SarCase, SarDecision, SarNote, StructuringFlag
from patrons.sar_cases import SarOpening, sar_case_open, sar_decide, sar_note_add
from tests.runtime_role import assert_append_only

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def flag(cashier, player):
    """Three cash buy-ins just under the $3,000 log line: $8,399.99 in all, flagged."""
    for amount in ("2800.00", "2999.99", "2600.00"):
        cage_cash(player=player, direction="in", amount=amount, by=cashier)
    return StructuringFlag.objects.get()


def open_from(flag, auditor, **given):
    opening = SarOpening(summary="Three buy-ins just under the log line", structuring_flag=flag)
    for key, value in given.items():
        opening = SarOpening(**{**opening.__dict__, key: value})
    return sar_case_open(cardroom=flag.cardroom, opening=opening, by=auditor)


def test_a_case_from_a_flag_takes_its_player_transactions_and_detection_date(flag, auditor):
    case = open_from(flag, auditor)
    assert case.player_id == flag.player_id
    assert case.origin == "flag"
    assert sorted(case.transactions.values_list("pk", flat=True)) == sorted(flag.transactions)
    assert case.detected_on == date(2026, 4, 2)
    assert case.due_on == date(2026, 5, 2)  # 30 calendar days
    event = AuditEvent.objects.get(action="sar.opened")
    assert json.loads(event.payload)["due_on"] == "2026-05-02"


def test_the_deadline_is_60_days_when_no_suspect_is_identified(flag, auditor):
    case = open_from(flag, auditor, suspect_identified=False)
    assert case.due_on == date(2026, 6, 1)  # 2026-04-02 + 60 days
    facts = sar_selectors.facts(case, date(2026, 4, 2))
    assert facts.days_left == 60


def test_days_left_count_down_and_an_undecided_case_past_its_deadline_is_overdue(flag, auditor):
    case = open_from(flag, auditor, detected_on=date(2026, 3, 1))
    assert case.due_on == date(2026, 3, 31)
    assert sar_selectors.facts(case, date(2026, 3, 31)).days_left == 0
    assert not sar_selectors.facts(case, date(2026, 3, 31)).overdue
    late = sar_selectors.facts(case, date(2026, 4, 2))
    assert (late.days_left, late.overdue) == (-2, True)
    overdue = sar_selectors.sar_cases(case.cardroom_id, due="overdue", today=date(2026, 4, 2))
    assert list(overdue) == [case]
    sar_decide(case=case, outcome="no_file", reason="Explained: a payday", by=auditor)
    assert not sar_selectors.sar_cases(case.cardroom_id, due="overdue", today=date(2026, 4, 2))


@pytest.mark.parametrize(
    ("amounts", "meets", "words"),
    [
        (("4999.99",), False, "below the $5,000.00 reporting line"),
        (("5000.00",), True, "at or over the $5,000.00 reporting line"),
        (("2500.00", "2500.00"), True, "at or over the $5,000.00 reporting line"),
    ],
)
def test_the_5000_test_aggregates_the_cash_involved(
    cashier, player, auditor, amounts, meets, words
):
    rows = [cage_cash(player=player, direction="in", amount=a, by=cashier) for a in amounts]
    opening = SarOpening(summary="Odd cash", player=player, transactions=[r.pk for r in rows])
    case = sar_case_open(cardroom=player.cardroom, opening=opening, by=auditor)
    facts = sar_selectors.facts(case, date(2026, 4, 2))
    assert facts.involved == sum((D(a) for a in amounts), D(0))
    assert (facts.meets_threshold, facts.threshold_words) == (meets, words)


def test_cash_in_and_out_both_count_towards_the_5000(cashier, player, auditor):
    rows = [
        cage_cash(player=player, direction="in", amount="3000.00", by=cashier),
        cage_cash(player=player, direction="out", amount="2000.00", by=cashier),
    ]
    opening = SarOpening(summary="In and out", player=player, transactions=[r.pk for r in rows])
    case = sar_case_open(cardroom=player.cardroom, opening=opening, by=auditor)
    facts = sar_selectors.facts(case, date(2026, 4, 2))
    assert (facts.cash_in, facts.cash_out, facts.involved) == (D("3000"), D("2000"), D("5000"))
    assert facts.meets_threshold


def test_a_case_below_the_line_may_still_be_decided(cashier, player, auditor):
    row = cage_cash(player=player, direction="in", amount="1200.00", by=cashier)
    opening = SarOpening(summary="Asked how to avoid the CTR", player=player, transactions=[row.pk])
    case = sar_case_open(cardroom=player.cardroom, opening=opening, by=auditor)
    assert not sar_selectors.facts(case, date(2026, 4, 2)).meets_threshold
    decision = sar_decide(
        case=case,
        outcome="file",
        reason="Asked how to stay under the CTR",
        filing_reference="31000123456789",
        by=auditor,
    )
    assert decision.filing_reference == "31000123456789"
    case.refresh_from_db()
    assert sar_selectors.facts(case, date(2026, 4, 2)).status == "filed"


def test_a_case_from_a_review_takes_its_player(player, auditor):
    review = reviews.review_open(player=player, note="Chip walking", by=auditor)
    opening = SarOpening(summary="Chips walked off", review=review)
    case = sar_case_open(cardroom=player.cardroom, opening=opening, by=auditor)
    assert (case.origin, case.player_id, case.review_id) == ("review", player.pk, review.pk)


def test_one_case_a_flag(flag, auditor, refusal):
    open_from(flag, auditor)
    with refusal(Conflict, field="structuring_flag", says="already"):
        open_from(flag, auditor)


@pytest.mark.parametrize(
    ("given", "field", "says"),
    [
        ({"summary": "  "}, "summary", "suspicious"),
        ({"detected_on": date(2026, 4, 3)}, "detected_on", "future"),
        ({"transactions": [999999]}, "transactions", "#999999"),
        ({"player": "the player"}, "structuring_flag", "one structuring flag"),
    ],
)
def test_a_bad_opening_is_refused_naming_its_field(
    flag, player, auditor, refusal, given, field, says
):
    if given.get("player") == "the player":
        given = {"player": player}
    with refusal(DomainError, field=field, says=says):
        open_from(flag, auditor, **given)


def test_only_compliance_opens_notes_or_decides(flag, supervisor, auditor, refusal):
    with refusal(PermissionDenied, field=None, says="compliance auditor"):
        open_from(flag, supervisor)
    case = open_from(flag, auditor)
    with refusal(PermissionDenied, field=None, says="compliance auditor"):
        sar_note_add(case=case, note="Looked", by=supervisor)
    with refusal(PermissionDenied, field=None, says="compliance auditor"):
        sar_decide(case=case, outcome="no_file", reason="Fine", by=supervisor)


@pytest.mark.parametrize(
    ("outcome", "reason", "reference", "field", "says"),
    [
        ("file", "Structured", "", "filing_reference", "BSA id"),
        ("no_file", "Explained", "31000123456789", "filing_reference", "no BSA id"),
        ("no_file", " ", "", "reason", "why"),
        ("maybe", "Hmm", "", "outcome", "one of"),
    ],
)
def test_a_decision_needs_its_reason_and_a_filing_its_bsa_id(
    flag, auditor, refusal, outcome, reason, reference, field, says
):
    case = open_from(flag, auditor)
    with refusal(DomainError, field=field, says=says):
        sar_decide(
            case=case, outcome=outcome, reason=reason, filing_reference=reference, by=auditor
        )


def test_a_decided_case_is_frozen_but_takes_notes(flag, auditor, refusal):
    case = open_from(flag, auditor)
    sar_decide(case=case, outcome="no_file", reason="Explained by a payroll", by=auditor)
    with refusal(Conflict, field="outcome", says="frozen"):
        sar_decide(
            case=case, outcome="file", reason="Changed my mind", filing_reference="1", by=auditor
        )
    sar_note_add(case=case, note="Payroll stubs seen", by=auditor)
    assert [n.note for n in SarNote.objects.filter(case=case)] == ["Payroll stubs seen"]
    assert SarDecision.objects.get(case=case).outcome == "no_file"


def test_cases_notes_and_decisions_are_never_edited(flag, auditor):
    case = open_from(flag, auditor)
    sar_note_add(case=case, note="First look", by=auditor)
    decision = sar_decide(case=case, outcome="no_file", reason="Explained", by=auditor)
    for model, pk, change in (
        (SarCase, case.pk, {"summary": "rewritten"}),
        (SarNote, SarNote.objects.get().pk, {"note": "rewritten"}),
        (SarDecision, decision.pk, {"reason": "rewritten"}),
    ):
        rows = model.objects.filter(pk=pk)
        assert_append_only(lambda rows=rows, change=change: rows.update(**change))
        delete = f'DELETE FROM "{model._meta.db_table}" WHERE id = %s'
        assert_append_only(lambda delete=delete, pk=pk: _raw(delete, pk))


def _raw(statement: str, *params: object) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)
