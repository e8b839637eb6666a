"""R17: a change to a table's settings, one kind of two-person change (``tables.two_person``):
a floor supervisor proposes, another floor supervisor approves and signs (or the proposer,
where the cardroom allows self-approval, recorded as such), rejects it, or its proposer
withdraws it. The approval makes the table's next settings version.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User

from audit.actions import AuditAction
from core.errors import DomainError
from core.roles import FLOOR_SUPERVISOR
from engine.game_math import TableFigures
from patrons.models import Cardroom

from .. import figures, rules, selectors, two_person
from ..models import Table, TableSettings
from ..signatures import SignatureInput, Signed
from ..staff_models import SettingChange, TwoPersonChange, TwoPersonDecision
from .configuration import settings_check

KIND = TwoPersonChange.Kind.TABLE_SETTINGS


def setting_change_propose(
    *, table: Table, values: dict[str, Any], reason: str, by: User
) -> SettingChange:
    """R17: a floor supervisor proposes new values for some settings, with a reason."""
    two_person.require_proposer(KIND, by, reason)
    new = rules.parse_settings(values)
    current = selectors.current_settings(table)
    old = rules.settings_values(current)
    changed = {name: value for name, value in new.items() if value != old[name]}
    if not changed:
        raise DomainError("The proposed values are the table's current values.", field="values")
    settings_check(table, old | changed, changed=changed)
    change = two_person.change_propose(
        kind=KIND,
        values={
            "table": table.pk,
            "based_on": current.pk,
            "based_on_version": current.version,
            "base": figures.figure_values(current),
            "new": rules.as_json(changed),
            "old": rules.as_json({name: old[name] for name in changed}),
        },
        reason=reason,
        by=by,
        cardroom_id=table.cardroom_id,
        table_id=table.pk,
    )
    assert isinstance(change, SettingChange)
    return change


@dataclass(frozen=True)
class SettingPreview:
    """What a proposal would be, written nowhere (R17): the settings that change, the figures
    of the settings it would make (None when the rules refuse them) and of those in force, and
    the refusal ``setting_change_propose`` would meet (None: it would be accepted)."""

    changed: dict[str, Any]
    proposed: TableFigures | None
    in_force: TableFigures
    refusal: DomainError | None


def setting_change_preview(*, table: Table, values: dict[str, Any]) -> SettingPreview:
    """Everything ``setting_change_propose`` checks, and the figures a supervisor weighs,
    before anything is proposed: it reads and writes nothing else. Malformed values raise
    the same DomainError as a proposal."""
    new = rules.parse_settings(values)
    current = selectors.current_settings(table)
    old = rules.settings_values(current)
    changed = {name: value for name, value in new.items() if value != old[name]}
    proposed, refusal = None, None
    try:
        rules.check_settings(table, old | changed)
        proposed = figures.settings_figures(old | changed)
        settings_check(table, old | changed, changed=changed)
    except DomainError as error:
        refusal = error
    return SettingPreview(changed, proposed, figures.settings_figures(current), refusal)


def setting_change_approve(
    *, change: SettingChange, signature: SignatureInput | None, by: User
) -> TableSettings:
    """R17: another floor supervisor, off the proposer's maker's line, approves and signs
    (dual control), or the proposer where the cardroom allows self-approval, recorded as such.
    The new version applies from the next hand: a hand records the version it started under
    and keeps it."""
    decision = two_person.change_approve(change=change, signature=signature, by=by)
    return TableSettings.objects.get(pk=decision.values["settings"])


def setting_change_reject(*, change: SettingChange, by: User, reason: str = "") -> SettingChange:
    two_person.change_reject(change=change, reason=reason, by=by)
    return SettingChange.objects.select_related("decision").get(pk=change.pk)


def setting_change_withdraw(*, change: SettingChange, by: User) -> SettingChange:
    two_person.change_withdraw(change=change, by=by)
    return SettingChange.objects.select_related("decision").get(pk=change.pk)


# --- the kind --------------------------------------------------------------------------------


def _lock(change: TwoPersonChange) -> None:
    # The table's row, then its cardroom's: the catalogue's lock (tables.catalogue), so that
    # no paytable is retired while this is approved.
    table = Table.objects.select_for_update(of=("self",)).get(pk=two_person.table_id(change))
    Cardroom.objects.select_for_update().get(pk=table.cardroom_id)


def _self_approval_allowed(change: TwoPersonChange) -> bool:
    return bool(Cardroom.objects.get(pk=two_person.cardroom_id(change)).self_approval_allowed)


def _apply(change: TwoPersonChange, approver: User) -> dict[str, Any]:
    table = Table.objects.select_related("cardroom").get(pk=two_person.table_id(change))
    current = selectors.current_settings(table)
    old = rules.settings_values(current)
    new = rules.parse_settings(change.values["new"])
    # Still valid on top of anything approved since, and with the catalogue as it is now.
    settings_check(table, old | new, changed=new)
    version = TableSettings.objects.create(table=table, version=current.version + 1, **(old | new))
    return {
        "version": version.version,
        "settings": version.pk,
        "made": figures.figure_values(version),
        "old": rules.as_json({name: old[name] for name in new}),
    }


def _payload(
    change: TwoPersonChange, decision: TwoPersonDecision | None, signed: Signed | None
) -> dict[str, Any]:
    values = change.values
    if decision is None:
        return {
            "table": change.table_id,
            "based_on_version": values["based_on_version"],
            "new": values["new"],
            "old": values["old"],
            "reason": change.reason,
        }
    if not decision.approved:
        return {"table": change.table_id, "reason": decision.reason}
    return {
        "table": change.table_id,
        "version": decision.values["version"],
        "new": values["new"],
        "old": decision.values["old"],
        "self_approved": decision.self_approved,
        "proposed_by": change.proposed_by_id,
    }


two_person.register(
    KIND,
    two_person.ChangeKind(
        "A settings change",
        (FLOOR_SUPERVISOR,),
        (FLOOR_SUPERVISOR,),
        _apply,
        model=SettingChange,
        called="a change to a table's settings",
        why="Say why the settings change.",
        lock=_lock,
        self_approval=_self_approval_allowed,
        own_approval_refused=(
            "A change needs approval by a different floor supervisor (R17 dual control)."
        ),
        proposer_rejects=True,
        reject_needs_reason=False,
        proposer_called="supervisor",
        withdraw_checks_role=True,
        actions={
            "proposed": AuditAction.SETTING_CHANGE_PROPOSED,
            TwoPersonDecision.Outcome.APPROVED: AuditAction.SETTING_CHANGE_APPROVED,
            TwoPersonDecision.Outcome.REJECTED: AuditAction.SETTING_CHANGE_REJECTED,
            TwoPersonDecision.Outcome.WITHDRAWN: AuditAction.SETTING_CHANGE_WITHDRAWN,
        },
        payload=_payload,
    ),
)
