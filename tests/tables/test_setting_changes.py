"""R17: a table's settings change only by a floor supervisor's proposal and another floor
supervisor's approval, from the next hand on, with who, when, what and why on the record.
Every refusal names its field, says why, and writes nothing (``refusal``, tests/conftest.py)."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from core.errors import Conflict, DomainError, PermissionDenied
from tables import selectors
from tables.models import TableSettings
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.setting_changes import (
    setting_change_approve,
    setting_change_propose,
    setting_change_reject,
    setting_change_withdraw,
)
from tables.staff_models import SettingChange
from tests.conftest import signed
from wagers.models import Hand

from .support import audit_actions, last_seq

pytestmark = pytest.mark.django_db


@pytest.fixture
def propose(dp_table, supervisor):
    def make(*, by=None, reason="Busy night: raise the minimum", table=None, **values):
        return setting_change_propose(
            table=table or dp_table, values=values, reason=reason, by=by or supervisor
        )

    return make


# --- who proposes, who approves --------------------------------------------------------------


def test_r17_a_floor_supervisor_proposes_a_change_with_a_reason(dp_table, propose, supervisor):
    change = propose(ante_min="10", ante_max="50")
    assert change.status == SettingChange.Status.PENDING
    assert change.proposed_by == supervisor
    assert change.reason == "Busy night: raise the minimum"
    assert change.based_on == selectors.current_settings(dp_table)
    assert change.new_values == {"ante_min": "10.00", "ante_max": "50.00"}
    assert change.old_values == {"ante_min": "5.00", "ante_max": "100.00"}


ONLY_A_SUPERVISOR = "Only a floor supervisor may"


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_r17_only_a_floor_supervisor_may_propose_a_change(request, propose, refusal, persona):
    someone = request.getfixturevalue(persona)
    says = f"{ONLY_A_SUPERVISOR} propose a change to a table's settings"
    with refusal(PermissionDenied, field=None, says=says):
        propose(ante_min="10", by=someone)
    assert not SettingChange.objects.exists()


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_r17_only_a_floor_supervisor_may_approve_a_change(request, propose, refusal, persona):
    someone = request.getfixturevalue(persona)
    change = propose(ante_min="10")
    says = f"{ONLY_A_SUPERVISOR} approve a change to a table's settings"
    with refusal(PermissionDenied, field=None, says=says):
        setting_change_approve(change=change, signature=signed(someone), by=someone)
    change.refresh_from_db()
    assert change.status == SettingChange.Status.PENDING


def test_r17_a_different_floor_supervisor_approves_the_change(
    dp_table, propose, supervisor, second_supervisor
):
    change = propose(ante_min="10")
    version = setting_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    change.refresh_from_db()
    assert change.status == SettingChange.Status.APPROVED
    assert (change.proposed_by, change.decided_by) == (supervisor, second_supervisor)
    assert change.self_approved is False
    assert change.result == version
    assert version.version == 2


def test_r17_the_proposer_cannot_approve_their_own_change(dp_table, propose, supervisor, refusal):
    change = propose(ante_min="10")
    with refusal(PermissionDenied, field=None, says="(R17 dual control)") as refused:
        setting_change_approve(change=change, signature=signed(supervisor), by=supervisor)
    assert "different floor supervisor" in refused.value.message
    change.refresh_from_db()
    assert change.status == SettingChange.Status.PENDING
    assert selectors.current_settings(dp_table).version == 1


def test_r17_where_the_cardroom_allows_it_a_lone_supervisor_self_approves_and_it_says_so(
    supervisor, administrator, allow_self_approval
):
    cardroom = allow_self_approval(cardroom_create(name="Small room", by=administrator))
    table = table_create(
        cardroom=cardroom, name="Only table", banking="designated_player", by=supervisor
    )
    change = setting_change_propose(
        table=table, values={"rake_amount": "2"}, reason="Alone tonight", by=supervisor
    )
    version = setting_change_approve(change=change, signature=signed(supervisor), by=supervisor)
    change.refresh_from_db()
    assert change.self_approved is True
    assert change.decided_by == supervisor
    assert version.rake_amount == Decimal("2.00")


def test_r17_a_change_approved_by_another_supervisor_is_not_self_approved_even_where_allowed(
    supervisor, second_supervisor, administrator, allow_self_approval
):
    cardroom = allow_self_approval(cardroom_create(name="Small room", by=administrator))
    table = table_create(
        cardroom=cardroom, name="Only table", banking="designated_player", by=supervisor
    )
    change = setting_change_propose(
        table=table, values={"rake_amount": "2"}, reason="Two of us", by=supervisor
    )
    setting_change_approve(change=change, signature=signed(second_supervisor), by=second_supervisor)
    change.refresh_from_db()
    assert change.self_approved is False


# --- what the record keeps -------------------------------------------------------------------


def test_r17_a_change_keeps_proposer_approver_both_times_old_and_new_values_and_reason(
    dp_table, propose, supervisor, second_supervisor, clock
):
    clock.at(0)
    change = propose(ante_min="10", flush_paytable={"4": 1, "5": 10, "6": 100, "7": 300})
    clock.at(7)
    setting_change_approve(change=change, signature=signed(second_supervisor), by=second_supervisor)
    change = selectors.setting_change_history(dp_table).get(pk=change.pk)
    assert change.proposed_by == supervisor
    assert change.decided_by == second_supervisor
    assert change.decided_at - change.proposed_at == timedelta(minutes=7)
    assert change.old_values == {
        "ante_min": "5.00",
        "flush_paytable": {"4": 2, "5": 10, "6": 50, "7": 200},
    }
    assert change.new_values == {
        "ante_min": "10.00",
        "flush_paytable": {"4": 1, "5": 10, "6": 100, "7": 300},
    }
    assert change.reason == "Busy night: raise the minimum"


def test_r17_only_the_settings_that_change_are_in_the_change(propose):
    change = propose(ante_min="10", ante_max="100", rake_amount="1")  # only ante_min differs
    assert change.new_values == {"ante_min": "10.00"}
    assert change.old_values == {"ante_min": "5.00"}


def test_r17_old_values_are_those_in_force_when_the_change_is_approved(
    dp_table, propose, second_supervisor
):
    first = propose(rake_amount="2")
    second = propose(rake_amount="3")
    setting_change_approve(change=first, signature=signed(second_supervisor), by=second_supervisor)
    setting_change_approve(change=second, signature=signed(second_supervisor), by=second_supervisor)
    second.refresh_from_db()
    assert second.old_values == {"rake_amount": "2.00"}
    assert selectors.current_settings(dp_table).rake_amount == Decimal("3.00")


def test_r17_proposing_and_approving_are_audited_with_the_values(
    propose, second_supervisor, supervisor
):
    since = last_seq()
    change = propose(ante_min="10")
    setting_change_approve(change=change, signature=signed(second_supervisor), by=second_supervisor)
    assert audit_actions(since) == [
        "table.settings.change_proposed",
        "table.settings.change_approved",
    ]


# --- from the next hand ----------------------------------------------------------------------


def test_r17_an_approved_change_applies_from_the_next_version_and_the_previous_keeps_its_values(
    dp_table, propose, second_supervisor
):
    before = selectors.current_settings(dp_table)
    change = propose(ante_min="10", dp_max_consecutive=3)
    assert selectors.current_settings(dp_table) == before  # proposing changes nothing yet
    setting_change_approve(change=change, signature=signed(second_supervisor), by=second_supervisor)
    now = selectors.current_settings(dp_table)
    assert now.version == before.version + 1
    assert (now.ante_min, now.dp_max_consecutive) == (Decimal("10.00"), 3)
    assert now.ante_max == before.ante_max  # what did not change is carried over
    before.refresh_from_db()
    assert (before.ante_min, before.dp_max_consecutive) == (Decimal("5.00"), 2)


def test_r17_a_hand_in_progress_keeps_the_settings_it_started_under(
    dp_table, session, propose, second_supervisor, supervisor
):
    started_under = selectors.current_settings(dp_table)
    hand = Hand.objects.create(
        table=dp_table,
        session=session,
        number=1,
        settings=started_under,
        started_by=supervisor,
        started_at=timezone.now(),
    )
    setting_change_approve(
        change=propose(ante_min="10"), signature=signed(second_supervisor), by=second_supervisor
    )
    hand.refresh_from_db()
    assert hand.settings == started_under
    assert hand.settings.ante_min == Decimal("5.00")
    assert selectors.current_settings(dp_table).ante_min == Decimal("10.00")


def test_r17_a_second_approval_of_the_same_change_is_refused(
    dp_table, propose, second_supervisor, make_user, refusal
):
    third = make_user("supervisor3", role="Floor supervisor")
    change = propose(ante_min="10")
    setting_change_approve(change=change, signature=signed(second_supervisor), by=second_supervisor)
    with refusal(Conflict, field="status", says="This change was approved already"):
        setting_change_approve(change=change, signature=signed(third), by=third)
    assert TableSettings.objects.filter(table=dp_table).count() == 2


def test_r17_a_change_valid_alone_but_not_on_top_of_one_approved_since_is_refused(
    dp_table, propose, second_supervisor, refusal
):
    raise_min = propose(ante_min="50")
    lower_max = propose(ante_max="25")
    setting_change_approve(
        change=raise_min, signature=signed(second_supervisor), by=second_supervisor
    )
    below = "The ante maximum $25.00 is below the minimum $50.00 (R5)"
    with refusal(DomainError, field="ante_max", says=below):
        setting_change_approve(
            change=lower_max, signature=signed(second_supervisor), by=second_supervisor
        )
    lower_max.refresh_from_db()
    assert lower_max.status == SettingChange.Status.PENDING
    assert selectors.current_settings(dp_table).version == 2


# --- what may not be proposed ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("values", "field", "says"),
    [
        ({"rake_percent": "5"}, "rake_percent", "'rake_percent' is not a table setting"),
        ({"rake_amount": "5%"}, "rake_amount", "'5%' is not an amount"),
        (
            {"rake_amount": "0.05", "rake_basis": "pot"},
            "rake_basis",
            "'rake_basis' is not a table setting",
        ),
        ({"rake_mode": "percent_of_wins"}, "rake_mode", "'percent_of_wins' is not one of"),
        ({"seat_count": 6}, "seat_count", "'seat_count' is not a table setting"),
        ({"banking": "house"}, "banking", "'banking' is not a table setting"),
    ],
)
def test_r12_a_fee_that_is_not_a_fixed_amount_or_an_unknown_setting_is_refused_naming_it(
    propose, refusal, values, field, says
):
    with refusal(DomainError, field=field, says=says):
        propose(**values)
    assert not SettingChange.objects.exists()


@pytest.mark.parametrize(
    ("values", "field", "says"),
    [
        ({"ante_min": "2"}, "ante_min", "The posted ante limit $2.00 is outside"),
        ({"ante_max": "200"}, "ante_max", "The posted ante limit $200.00 is outside"),
        ({"ante_min": "50", "ante_max": "40"}, "ante_max", "$40.00 is below the minimum $50.00"),
        ({"bonus_max": "30"}, "bonus_max", "The posted bonus limit $30.00 is outside"),
        ({"bonus_min": "0"}, "bonus_min", "The posted bonus limit $0.00 is outside"),
        # $5 minimum is not a whole number of $2 chips
        ({"chip_unit": "2"}, "ante_min", "not a whole multiple of the $2.00 chip unit"),
    ],
)
def test_r5_a_change_that_would_break_the_limits_is_refused_naming_the_field(
    propose, refusal, values, field, says
):
    with refusal(DomainError, field=field, says=says) as refused:
        propose(**values)
    assert "R5" in refused.value.message


def test_r12_a_house_banked_table_cannot_be_given_a_fee(house_table, propose, refusal):
    no_fee = "A house-banked table takes no collection fee: its rake_mode must be 'none' (R12)"
    with refusal(DomainError, field="rake_mode", says=no_fee):
        propose(table=house_table, rake_mode="all_players", rake_amount="1")


def test_a_change_needs_a_reason(propose, refusal):
    with refusal(DomainError, field="reason", says="Say why the settings change"):
        propose(ante_min="10", reason="  ")


def test_a_change_to_the_current_values_is_refused(propose, refusal):
    with refusal(DomainError, field="values", says="are the table's current values"):
        propose(ante_min="5.00")


# --- reject and withdraw ---------------------------------------------------------------------


def test_r17_a_supervisor_rejects_a_change_and_the_settings_stay(
    dp_table, propose, second_supervisor
):
    change = propose(ante_min="10")
    since = last_seq()
    setting_change_reject(change=change, by=second_supervisor, reason="Not tonight")
    change.refresh_from_db()
    assert change.status == SettingChange.Status.REJECTED
    assert change.decided_by == second_supervisor
    assert change.decided_at is not None
    assert change.result is None
    assert selectors.current_settings(dp_table).version == 1
    assert audit_actions(since) == ["table.settings.change_rejected"]


def test_a_dealer_cannot_reject_a_change(propose, dealer, refusal):
    change = propose(ante_min="10")
    says = f"{ONLY_A_SUPERVISOR} reject a change to a table's settings"
    with refusal(PermissionDenied, field=None, says=says):
        setting_change_reject(change=change, by=dealer)


def test_r17_the_proposer_withdraws_their_change(dp_table, propose, supervisor):
    change = propose(ante_min="10")
    since = last_seq()
    setting_change_withdraw(change=change, by=supervisor)
    change.refresh_from_db()
    assert change.status == SettingChange.Status.WITHDRAWN
    assert change.decided_by == supervisor
    assert selectors.current_settings(dp_table).version == 1
    assert audit_actions(since) == ["table.settings.change_withdrawn"]


def test_only_the_proposer_withdraws_a_change(propose, second_supervisor, refusal):
    change = propose(ante_min="10")
    says = "Only the supervisor who proposed a change may withdraw it"
    with refusal(PermissionDenied, field=None, says=says):
        setting_change_withdraw(change=change, by=second_supervisor)


@pytest.mark.parametrize("first", ["approve", "reject", "withdraw"])
@pytest.mark.parametrize("then", ["approve", "reject", "withdraw"])
def test_r17_a_decided_change_cannot_be_decided_again(
    dp_table, propose, supervisor, second_supervisor, refusal, first, then
):
    change = propose(ante_min="10")
    decide = {
        "approve": lambda: setting_change_approve(
            change=change, signature=signed(second_supervisor), by=second_supervisor
        ),
        "reject": lambda: setting_change_reject(change=change, by=second_supervisor),
        "withdraw": lambda: setting_change_withdraw(change=change, by=supervisor),
    }
    decide[first]()
    status = SettingChange.objects.get(pk=change.pk).status
    with refusal(Conflict, field="status", says=f"This change was {status} already"):
        decide[then]()
    assert SettingChange.objects.get(pk=change.pk).status == status
    assert TableSettings.objects.filter(table=dp_table).count() == (2 if first == "approve" else 1)


def test_the_change_history_lists_a_tables_changes_newest_first(
    dp_table, propose, second_supervisor, clock
):
    clock.at(0)
    first = propose(ante_min="10")
    clock.at(5)
    second = propose(ante_max="50")
    setting_change_reject(change=first, by=second_supervisor)
    assert list(selectors.setting_change_history(dp_table)) == [second, first]
