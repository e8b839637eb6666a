"""R17's self-approval switch belongs to administrators, and changing it is a two-person change:
a floor supervisor can no longer switch on self-approval and then approve
their own setting changes."""

from __future__ import annotations

import pytest
from django.db import connection

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from tables.services.self_approval import self_approval_change_decide, self_approval_change_propose
from tables.staff_models import SelfApprovalChange, TwoPersonDecision
from tests.conftest import signed
from tests.runtime_role import assert_append_only

pytestmark = pytest.mark.django_db


def _events(action: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(action=action).order_by("seq"))


def test_a_new_cardroom_never_allows_self_approval(cardroom):
    assert cardroom.self_approval_allowed is False


@pytest.mark.parametrize("persona", ["supervisor", "dealer", "auditor"])
def test_only_an_administrator_proposes_a_self_approval_change(request, cardroom, persona):
    with pytest.raises(PermissionDenied):
        self_approval_change_propose(
            cardroom=cardroom, allowed=True, reason="Nights", by=request.getfixturevalue(persona)
        )
    assert not SelfApprovalChange.objects.exists()


def test_the_proposer_cannot_approve_their_own_change(cardroom, administrator):
    change = self_approval_change_propose(
        cardroom=cardroom, allowed=True, reason="Nights", by=administrator
    )

    with pytest.raises(PermissionDenied, match="second administrator"):
        self_approval_change_decide(
            change=change, approve=True, signature=signed(administrator), by=administrator
        )

    cardroom.refresh_from_db()
    assert cardroom.self_approval_allowed is False
    assert not TwoPersonDecision.objects.filter(change__kind="self_approval").exists()


def test_a_second_administrator_approves_and_the_switch_changes_audited(
    cardroom, administrator, second_administrator
):
    change = self_approval_change_propose(
        cardroom=cardroom, allowed=True, reason="One supervisor on nights", by=administrator
    )
    decision = self_approval_change_decide(
        change=change,
        approve=True,
        by=second_administrator,
        reason="Agreed",
        signature=signed(second_administrator),
    )

    cardroom.refresh_from_db()
    assert cardroom.self_approval_allowed is True
    assert (decision.approved, decision.decided_by) == (True, second_administrator)
    (proposed,) = _events("cardroom.self_approval.change_proposed")
    (approved,) = _events("cardroom.self_approval.change_approved")
    assert proposed.actor == administrator and approved.actor == second_administrator
    assert '"allowed":true' in approved.payload
    assert f'"proposed_by":{administrator.pk}' in approved.payload


def test_a_supervisor_cannot_approve_a_self_approval_change(cardroom, administrator, supervisor):
    change = self_approval_change_propose(
        cardroom=cardroom, allowed=True, reason="Nights", by=administrator
    )
    with pytest.raises(PermissionDenied):
        self_approval_change_decide(
            change=change, approve=True, signature=signed(supervisor), by=supervisor
        )


def test_the_proposer_may_withdraw_by_rejecting_and_a_change_is_decided_once(
    cardroom, administrator, second_administrator
):
    change = self_approval_change_propose(
        cardroom=cardroom, allowed=True, reason="Nights", by=administrator
    )
    self_approval_change_decide(change=change, approve=False, by=administrator)

    with pytest.raises(Conflict) as again:
        self_approval_change_decide(
            change=change,
            approve=True,
            signature=signed(second_administrator),
            by=second_administrator,
        )

    assert again.value.field == "status"
    cardroom.refresh_from_db()
    assert cardroom.self_approval_allowed is False
    assert len(_events("cardroom.self_approval.change_rejected")) == 1


def test_one_change_waits_at_a_time_and_a_change_must_change_something(
    cardroom, administrator, second_administrator
):
    with pytest.raises(DomainError) as same:
        self_approval_change_propose(
            cardroom=cardroom, allowed=False, reason="Off", by=administrator
        )
    assert same.value.field == "allowed"
    self_approval_change_propose(cardroom=cardroom, allowed=True, reason="On", by=administrator)
    with pytest.raises(Conflict):
        self_approval_change_propose(
            cardroom=cardroom, allowed=True, reason="On again", by=second_administrator
        )
    with pytest.raises(DomainError) as reasonless:
        self_approval_change_propose(cardroom=cardroom, allowed=True, reason="  ", by=administrator)
    assert reasonless.value.field == "reason"


def test_switching_self_approval_off_is_a_two_person_change_too(
    cardroom, allow_self_approval, administrator, second_administrator
):
    allow_self_approval(cardroom)
    change = self_approval_change_propose(
        cardroom=cardroom, allowed=False, reason="Two supervisors again", by=second_administrator
    )
    self_approval_change_decide(
        change=change, approve=True, signature=signed(administrator), by=administrator
    )

    cardroom.refresh_from_db()
    assert cardroom.self_approval_allowed is False


@pytest.mark.parametrize("table", ["tables_twopersonchange", "tables_twopersondecision"])
def test_self_approval_changes_and_decisions_are_never_edited(cardroom, allow_self_approval, table):
    allow_self_approval(cardroom)
    for statement in (f'UPDATE "{table}" SET id = id', f'DELETE FROM "{table}"'):
        assert_append_only(lambda statement=statement: connection.cursor().execute(statement))
    decisions = TwoPersonDecision.objects.filter(change__kind="self_approval")
    assert SelfApprovalChange.objects.count() == decisions.count() == 1
