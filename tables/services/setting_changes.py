"""R17: a change to a table's settings, proposed by one floor supervisor and approved by another."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError, PermissionDenied
from core.permissions import require_supervisor
from core.roles import FLOOR_SUPERVISOR
from engine.game_math import TableFigures

from .. import figures, rules, selectors
from ..lineage import require_independent
from ..models import (
    Cardroom,
    SettingChange,
    Table,
    TableSettings,
)
from ..signatures import SignatureInput, signature_record, signature_verify, signing
from .configuration import settings_check


@transaction.atomic
def setting_change_propose(
    *, table: Table, values: dict[str, Any], reason: str, by: User
) -> SettingChange:
    """R17: a floor supervisor proposes new values for some settings, with a reason."""
    require_supervisor(by, action="propose a change to a table's settings")
    if not reason or not reason.strip():
        raise DomainError("Say why the settings change.", field="reason")
    new = rules.parse_settings(values)
    current = selectors.current_settings(table)
    old = rules.settings_values(current)
    changed = {name: value for name, value in new.items() if value != old[name]}
    if not changed:
        raise DomainError("The proposed values are the table's current values.", field="values")
    settings_check(table, old | changed, changed=changed)
    change = SettingChange.objects.create(
        table=table,
        proposed_by=by,
        proposed_at=timezone.now(),
        reason=reason.strip(),
        based_on=current,
        new_values=rules.as_json(changed),
        old_values=rules.as_json({name: old[name] for name in changed}),
    )
    audit_record(
        actor=by,
        action=AuditAction.SETTING_CHANGE_PROPOSED,
        target=change,
        payload={
            "table": table.pk,
            "based_on_version": current.version,
            "new": change.new_values,
            "old": change.old_values,
            "reason": change.reason,
        },
    )
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


@signing
@transaction.atomic
def setting_change_approve(
    *, change: SettingChange, signature: SignatureInput | None, by: User
) -> TableSettings:
    """R17: another floor supervisor, off the proposer's maker's line, approves and signs
    (dual control), or the proposer where the cardroom allows self-approval, recorded as such.
    The new version applies from the next hand: a hand records the version it started under
    and keeps it."""
    require_supervisor(by, action="approve a change to a table's settings")
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("cardroom")
        .get(pk=change.table_id)
    )
    change = SettingChange.objects.select_for_update().get(pk=change.pk)
    _require_pending(change)
    # The catalogue's lock (tables.catalogue): no paytable is retired while this is approved.
    Cardroom.objects.select_for_update().get(pk=table.cardroom_id)
    self_approved = change.proposed_by_id == by.pk
    if self_approved and not table.cardroom.self_approval_allowed:
        raise PermissionDenied(
            "A change needs approval by a different floor supervisor (R17 dual control)."
        )
    if not self_approved:
        require_independent(approver=by, proposer=change.proposed_by, what="A settings change")
    signed = signature_verify(
        signature, capacity="approver", roles=(FLOOR_SUPERVISOR,), field="signature", signer=by
    )
    current = selectors.current_settings(table)
    old = rules.settings_values(current)
    new = rules.parse_settings(change.new_values)
    # Still valid on top of anything approved since, and with the catalogue as it is now.
    settings_check(table, old | new, changed=new)
    version = TableSettings.objects.create(table=table, version=current.version + 1, **(old | new))
    change.status = SettingChange.Status.APPROVED
    change.decided_by, change.decided_at = by, timezone.now()
    change.self_approved = self_approved
    change.old_values = rules.as_json({name: old[name] for name in new})
    change.result = version
    change.save()
    signature_record(change, signed)
    audit_record(
        actor=by,
        action=AuditAction.SETTING_CHANGE_APPROVED,
        target=change,
        payload={
            "table": table.pk,
            "version": version.version,
            "new": change.new_values,
            "old": change.old_values,
            "self_approved": self_approved,
            "proposed_by": change.proposed_by_id,
        },
    )
    return version


@transaction.atomic
def setting_change_reject(*, change: SettingChange, by: User, reason: str = "") -> SettingChange:
    require_supervisor(by, action="reject a change to a table's settings")
    return _close_change(
        change, SettingChange.Status.REJECTED, AuditAction.SETTING_CHANGE_REJECTED, by, reason
    )


@transaction.atomic
def setting_change_withdraw(*, change: SettingChange, by: User) -> SettingChange:
    require_supervisor(by, action="withdraw a change to a table's settings")
    if change.proposed_by_id != by.pk:
        raise PermissionDenied("Only the supervisor who proposed a change may withdraw it.")
    return _close_change(
        change, SettingChange.Status.WITHDRAWN, AuditAction.SETTING_CHANGE_WITHDRAWN, by, ""
    )


def _close_change(
    change: SettingChange, status: str, action: AuditAction, by: User, reason: str
) -> SettingChange:
    change = SettingChange.objects.select_for_update().get(pk=change.pk)
    _require_pending(change)
    change.status, change.decided_by, change.decided_at = status, by, timezone.now()
    change.save(update_fields=["status", "decided_by", "decided_at"])
    audit_record(
        actor=by,
        action=action,
        target=change,
        payload={"table": change.table_id, "reason": reason},
    )
    return change


def _require_pending(change: SettingChange) -> None:
    if change.status != SettingChange.Status.PENDING:
        raise Conflict(f"This change was {change.status} already.", field="status")
