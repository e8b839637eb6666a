"""R17: a cardroom's catalogue of approved paytables. A floor supervisor proposes to add or
retire a paytable, another approves (dual control), everything is on the audit chain, and no
row is ever edited: a decision is a row of its own."""

import json
from functools import partial
from types import SimpleNamespace

import pytest
from django.db import DatabaseError, connection, transaction

from audit.models import AuditEvent
from audit.verification import verify_chain
from core.errors import Conflict, DomainError, PermissionDenied
from tables import catalogue, selectors
from tables.rules import defaults_for
from tables.services.cardrooms import cardroom_create
from tables.services.self_approval import self_approval_change_decide, self_approval_change_propose
from tables.services.setting_changes import setting_change_propose
from tables.staff_models import PaytableChange, TwoPersonDecision
from tests.conftest import signed

from .support import audit_actions, last_seq

pytestmark = pytest.mark.django_db

#: What the data migration reads of its schema editor: the connection it runs on.
EDITOR = SimpleNamespace(connection=connection)

HOUSE_FLUSH = {"4": 1, "5": 10, "6": 100, "7": 300}
DP_FLUSH = {"4": 2, "5": 10, "6": 50, "7": 200}
STRAIGHT_FLUSH = {"3": 8, "4": 60, "5": 100, "6": 500, "7": 1000}
# Posted in cardrooms (e.g. Flush Bonus 7:100, 6:20, 5:10, 4:2): 94.6962% judged alone.
ALT_FLUSH = {"4": 2, "5": 10, "6": 20, "7": 100}


def held(cardroom) -> list[tuple[str, dict]]:
    return [(entry.kind, entry.lines) for entry in catalogue.paytable_catalogue(cardroom)]


@pytest.fixture
def propose(cardroom, supervisor):
    def make(lines=ALT_FLUSH, *, kind="flush_paytable", action="add", by=None, reason="Promo"):
        return catalogue.paytable_change_propose(
            cardroom=cardroom,
            kind=kind,
            lines=lines,
            action=action,
            reason=reason,
            by=by or supervisor,
        )

    return make


# --- a new cardroom's catalogue ----------------------------------------------------------------


def test_a_new_cardroom_s_catalogue_holds_the_new_table_defaults_and_says_so_on_the_chain(
    cardroom, supervisor
):
    assert held(cardroom) == [
        ("flush_paytable", HOUSE_FLUSH),
        ("flush_paytable", DP_FLUSH),
        ("straight_flush_paytable", STRAIGHT_FLUSH),
    ]
    seeded = AuditEvent.objects.get(action="paytables.catalogue_seeded")
    created = AuditEvent.objects.get(action="cardroom.created", object_id=str(cardroom.pk))
    # seeded by whoever created the cardroom (an administrator), in the same transaction
    assert (seeded.actor_id, seeded.object_id) == (created.actor_id, str(cardroom.pk))
    assert seeded.actor_id != supervisor.pk
    entries = json.loads(seeded.payload)["entries"]
    assert [(e["kind"], e["lines"], e["origin"]) for e in entries] == [
        ("flush_paytable", DP_FLUSH, "default"),
        ("straight_flush_paytable", STRAIGHT_FLUSH, "default"),
        ("flush_paytable", HOUSE_FLUSH, "default"),
    ]


def test_every_new_table_default_is_in_a_new_cardroom_s_catalogue(cardroom):
    for banking in ("designated_player", "house"):
        values = defaults_for(banking)
        for kind in ("flush_paytable", "straight_flush_paytable"):
            assert (kind, values[kind]) in held(cardroom)


# --- dual control --------------------------------------------------------------------------


def test_r17_a_paytable_joins_the_catalogue_once_a_second_supervisor_approves_it(
    cardroom, propose, supervisor, second_supervisor
):
    seq = last_seq()
    change = propose(reason="The lounge's promotion")
    assert ("flush_paytable", ALT_FLUSH) not in held(cardroom)  # pending: not yet
    decision = catalogue.paytable_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    assert (decision.outcome, decision.decided_by, decision.self_approved) == (
        "approved",
        second_supervisor,
        False,
    )
    assert ("flush_paytable", ALT_FLUSH) in held(cardroom)
    assert audit_actions(seq) == ["paytables.change_proposed", "paytables.change_approved"]
    proposed = AuditEvent.objects.get(action="paytables.change_proposed")
    payload = json.loads(proposed.payload)
    assert payload["lines"] == ALT_FLUSH
    assert payload["reason"] == "The lounge's promotion"
    # What the supervisors saw is kept with it: its return in both bonus modes.
    assert payload["figures"]["paytable"]["return"] == "0.946962"
    assert verify_chain().ok


def test_r17_the_proposer_cannot_approve_their_own_change_to_the_catalogue(
    cardroom, propose, supervisor
):
    change = propose()
    seq = last_seq()
    with pytest.raises(PermissionDenied) as refused:
        catalogue.paytable_change_approve(
            change=change, signature=signed(supervisor), by=supervisor
        )
    assert "different floor supervisor" in refused.value.message
    assert not TwoPersonDecision.objects.filter(change=change).exists()
    assert ("flush_paytable", ALT_FLUSH) not in held(cardroom)
    assert last_seq() == seq


def test_r17_where_the_cardroom_allows_it_a_lone_supervisor_self_approves_and_it_says_so(
    supervisor, administrator, second_administrator
):
    room = cardroom_create(name="Small room", by=administrator)
    switch = self_approval_change_propose(
        cardroom=room, allowed=True, reason="One supervisor on nights", by=administrator
    )
    self_approval_change_decide(
        change=switch, approve=True, signature=signed(second_administrator), by=second_administrator
    )
    room.refresh_from_db()
    change = catalogue.paytable_change_propose(
        cardroom=room, kind="flush_paytable", lines=ALT_FLUSH, reason="Alone", by=supervisor
    )
    decision = catalogue.paytable_change_approve(
        change=change, signature=signed(supervisor), by=supervisor
    )
    assert decision.self_approved is True
    event = AuditEvent.objects.get(action="paytables.change_approved")
    assert json.loads(event.payload)["self_approved"] is True


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_r17_only_a_floor_supervisor_proposes_or_decides_a_catalogue_change(
    request, propose, persona
):
    someone = request.getfixturevalue(persona)
    with pytest.raises(PermissionDenied):
        propose(by=someone)
    change = propose()
    for decide in (catalogue.paytable_change_approve, catalogue.paytable_change_reject):
        with pytest.raises(PermissionDenied):
            if decide is catalogue.paytable_change_approve:
                decide(change=change, signature=signed(someone), by=someone)
            else:
                decide(change=change, by=someone)
    assert not TwoPersonDecision.objects.filter(change=change).exists()


# --- retiring, rejecting, withdrawing -----------------------------------------------------------


def test_r17_a_retired_paytable_leaves_the_catalogue_and_the_tables_posting_it_keep_it(
    cardroom, propose, make_table, second_supervisor, supervisor
):
    table = make_table("House", banking="house")
    change = propose(HOUSE_FLUSH, action="retire", reason="Replaced")
    catalogue.paytable_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    assert ("flush_paytable", HOUSE_FLUSH) not in held(cardroom)
    # The table plays on under the version in force; its next change must move off it.
    assert selectors.current_settings(table).flush_paytable == HOUSE_FLUSH
    with pytest.raises(DomainError) as refused:
        setting_change_propose(
            table=table, values={"ante_max": "50"}, reason="Quiet", by=supervisor
        )
    assert refused.value.field == "flush_paytable"
    # The history keeps both: the seed that added it and the retirement.
    rows = PaytableChange.objects.filter(cardroom=cardroom, values__lines=HOUSE_FLUSH)
    assert sorted(rows.values_list("values__action", "decision__outcome")) == [
        ("add", "approved"),
        ("retire", "approved"),
    ]


def test_a_retired_paytable_can_be_approved_again_later(cardroom, propose, second_supervisor):
    catalogue.paytable_change_approve(
        change=propose(HOUSE_FLUSH, action="retire"),
        signature=signed(second_supervisor),
        by=second_supervisor,
    )
    catalogue.paytable_change_approve(
        change=propose(HOUSE_FLUSH), signature=signed(second_supervisor), by=second_supervisor
    )
    assert ("flush_paytable", HOUSE_FLUSH) in held(cardroom)


def test_r17_a_rejected_or_withdrawn_change_leaves_the_catalogue_as_it_was(
    cardroom, propose, supervisor, second_supervisor
):
    before = held(cardroom)
    seq = last_seq()
    rejected = catalogue.paytable_change_reject(
        change=propose(), by=second_supervisor, reason="Too rich"
    )
    withdrawn = catalogue.paytable_change_withdraw(
        change=propose(STRAIGHT_FLUSH, kind="straight_flush_paytable", action="retire"),
        by=supervisor,
    )
    assert (rejected.outcome, rejected.reason) == ("rejected", "Too rich")
    assert withdrawn.outcome == "withdrawn"
    assert held(cardroom) == before
    assert audit_actions(seq) == [
        "paytables.change_proposed",
        "paytables.change_rejected",
        "paytables.change_proposed",
        "paytables.change_withdrawn",
    ]


def test_only_the_proposer_withdraws_a_catalogue_change(propose, second_supervisor):
    change = propose()
    with pytest.raises(PermissionDenied):
        catalogue.paytable_change_withdraw(change=change, by=second_supervisor)
    assert not TwoPersonDecision.objects.filter(change=change).exists()


def test_a_change_is_decided_once(propose, supervisor, second_supervisor):
    change = propose()
    catalogue.paytable_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    seq = last_seq()
    for decide, by in (
        (partial(catalogue.paytable_change_approve, signature=signed(second_supervisor)),
         second_supervisor),
        (catalogue.paytable_change_reject, second_supervisor),
        (catalogue.paytable_change_withdraw, supervisor),
    ):  # fmt: skip
        with pytest.raises(Conflict) as refused:
            decide(change=change, by=by)
        assert (refused.value.field, refused.value.message) == (
            "status",
            "This change was approved already.",
        )
    assert TwoPersonDecision.objects.filter(change=change).count() == 1
    assert last_seq() == seq


# --- what is refused ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "action", "message"),
    [
        (HOUSE_FLUSH, "add", "4:1, 5:10, 6:100, 7:300 is in the catalogue already."),
        (ALT_FLUSH, "retire", "4:2, 5:10, 6:20, 7:100 is not in the catalogue"),
    ],
)
def test_adding_a_paytable_held_already_or_retiring_one_not_held_is_refused(
    propose, lines, action, message
):
    seq = last_seq()
    with pytest.raises(Conflict) as refused:
        propose(lines, action=action)
    assert refused.value.field == "lines"
    assert message in refused.value.message
    assert last_seq() == seq


def test_a_second_proposal_for_a_paytable_waiting_for_a_decision_is_refused(propose):
    first = propose()
    with pytest.raises(Conflict) as refused:
        propose({"7": 100, "6": 20, "5": 10, "4": 2})  # the same lines, in another order
    assert refused.value.field == "lines"
    assert f"#{first.pk}" in refused.value.message
    assert PaytableChange.objects.filter(decision__isnull=True).count() == 1


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"lines": {"9": 5}}, "lines"),  # R10: no 9-card flush
        ({"lines": {"4": 0}}, "lines"),
        ({"lines": {"4": 1.5}}, "lines"),
        ({"lines": "4:1"}, "lines"),
        ({"lines": {"2": 5}, "kind": "straight_flush_paytable"}, "lines"),  # R3: 3 or more
        ({"kind": "ante_paytable"}, "kind"),
        ({"action": "edit"}, "action"),
        ({"reason": "  "}, "reason"),
    ],
)
def test_a_malformed_catalogue_proposal_is_refused_naming_the_field(
    cardroom, supervisor, kwargs, field
):
    values = {"kind": "flush_paytable", "lines": ALT_FLUSH, "action": "add", "reason": "r"}
    with pytest.raises(DomainError) as refused:
        catalogue.paytable_change_propose(cardroom=cardroom, **(values | kwargs), by=supervisor)
    assert refused.value.field == field
    assert not PaytableChange.objects.filter(values__origin="proposed").exists()


def test_catalogue_rows_are_never_edited_or_deleted(propose, second_supervisor):
    change = propose()
    catalogue.paytable_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    for rows in (
        PaytableChange.objects.filter(pk=change.pk),
        TwoPersonDecision.objects.filter(change=change),
    ):
        with pytest.raises(DatabaseError), transaction.atomic():
            rows.update(reason="rewritten")
        with pytest.raises(DatabaseError), transaction.atomic():
            rows.delete()
