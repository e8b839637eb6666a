"""A cardroom's catalogue of approved paytables (R17): a table may post only these.

A floor supervisor proposes to add a paytable or to retire one, with a reason; another floor
supervisor approves it (dual control; the proposer only where the cardroom allows
self-approval, recorded as such), or rejects it; the proposer may withdraw it. Nothing here is
ever edited: a proposal (``PaytableChange``) and its decision (``PaytableDecision``) are rows
of their own, each written with its audit event, and the catalogue is what the approved
changes add up to, in the order they were decided. A new cardroom's catalogue starts with the
new-table defaults (``tables.rules.NEW_TABLE_DEFAULTS``); migration 0005 seeded every cardroom
that existed before with the paytables its tables used.

Retiring a paytable changes no table: a table that posts it keeps it, and plays under it,
until its next setting change, which must move it to a paytable in the catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError, PermissionDenied
from core.permissions import require_supervisor
from core.roles import FLOOR_SUPERVISOR
from engine.errors import RoundError
from engine.table import Banking, BonusMode, TableRules

from . import figures, rules
from .lineage import require_independent
from .models import Cardroom, PaytableChange, PaytableDecision, PaytableKind, Table
from .signatures import SignatureInput, signature_record, signature_verify, signing

Key = tuple[tuple[int, int], ...]

# --- reads -----------------------------------------------------------------------------------


def paytable_key(lines: Mapping[Any, Any]) -> Key:
    """What makes two paytables the same: their lines, whatever the order or the key type."""
    return tuple(sorted(figures.paytable_lines(lines).items()))


@dataclass(frozen=True)
class CatalogueEntry:
    """A paytable in the catalogue, with the approved change that added it."""

    kind: str
    lines: dict[str, int]
    added: PaytableChange

    @property
    def text(self) -> str:
        return figures.paytable_text(self.lines)

    @property
    def label(self) -> str:
        return str(PaytableKind(self.kind).label)


def paytable_catalogue(cardroom: Cardroom) -> list[CatalogueEntry]:
    """The paytables a table of the cardroom may post now, by kind, then by lines."""
    approved = (
        PaytableChange.objects.filter(
            cardroom=cardroom, decision__outcome=PaytableDecision.Outcome.APPROVED
        )
        .select_related("proposed_by", "decision__decided_by")
        .order_by("decision__id")
    )
    entries: dict[tuple[str, Key], PaytableChange] = {}
    for change in approved:
        key = (change.kind, paytable_key(change.lines))
        if change.action == PaytableChange.Action.ADD:
            entries[key] = change
        else:
            entries.pop(key, None)
    return [
        CatalogueEntry(kind=kind, lines=change.lines, added=change)
        for (kind, _), change in sorted(entries.items(), key=lambda item: item[0])
    ]


def pending_paytable_changes(cardroom: Cardroom) -> QuerySet[PaytableChange]:
    return (
        PaytableChange.objects.filter(cardroom=cardroom, decision__isnull=True)
        .select_related("proposed_by")
        .order_by("proposed_at", "id")
    )


def paytable_change_history(cardroom: Cardroom) -> QuerySet[PaytableChange]:
    """Every proposal, newest first, with its decision if it has one."""
    return (
        PaytableChange.objects.filter(cardroom=cardroom)
        .select_related("proposed_by", "decision__decided_by")
        .order_by("-proposed_at", "-id")
    )


def check_catalogue(table: Table, values: Mapping[str, Any]) -> None:
    """R17: the table posts only paytables of its cardroom's catalogue; a refusal names the
    setting and lists what the catalogue holds for it."""
    catalogue = paytable_catalogue(table.cardroom)
    for kind in PaytableKind:
        allowed = [entry for entry in catalogue if entry.kind == kind.value]
        key = paytable_key(values[kind.value])
        if all(paytable_key(entry.lines) != key for entry in allowed):
            listed = "; ".join(entry.text for entry in allowed) or "none"
            raise DomainError(
                f"The {kind.label} paytable {figures.paytable_text(values[kind.value])} is not "
                f"in {table.cardroom}'s catalogue of approved paytables (approved: {listed}). "
                "A floor supervisor proposes it for the catalogue and another approves it "
                "first (R17).",
                field=kind.value,
            )


def catalogue_figures(kind: str, lines: Mapping[str, Any]) -> dict[str, Any]:
    """A paytable's figures in both bonus modes: the catalogue serves every table."""
    return {
        mode.value: figures.wager_json(figures.bonus_figures(kind, mode, lines))
        for mode in (BonusMode.PAYTABLE, BonusMode.VERSUS_DP)
    }


# --- writes ----------------------------------------------------------------------------------


def catalogue_seed(*, cardroom: Cardroom, by: User) -> list[PaytableChange]:
    """A new cardroom's catalogue: the new-table defaults of every banking kind, approved with
    the cardroom (origin ``default``), in the caller's transaction and audit event."""
    seen: set[tuple[str, Key]] = set()
    seeded = []
    now = timezone.now()
    for banking in Banking:
        defaults = rules.NEW_TABLE_DEFAULTS[banking]
        for kind in PaytableKind:
            lines = rules.parse_settings({kind.value: defaults[kind.value]})[kind.value]
            if (kind.value, paytable_key(lines)) in seen:
                continue
            seen.add((kind.value, paytable_key(lines)))
            change = PaytableChange.objects.create(
                cardroom=cardroom,
                kind=kind.value,
                lines=lines,
                action=PaytableChange.Action.ADD,
                origin=PaytableChange.Origin.DEFAULT,
                proposed_by=by,
                proposed_at=now,
                reason=f"A new {banking.value.replace('_', '-')} table's default.",
            )
            PaytableDecision.objects.create(
                change=change, outcome=PaytableDecision.Outcome.APPROVED, decided_at=now
            )
            seeded.append(change)
    return seeded


@transaction.atomic
def paytable_change_propose(
    *,
    cardroom: Cardroom,
    kind: str,
    lines: Mapping[str, Any],
    action: str = PaytableChange.Action.ADD,
    reason: str,
    by: User,
) -> PaytableChange:
    """R17: a floor supervisor proposes to add a paytable to the catalogue, or to retire one."""
    require_supervisor(by, action="propose a change to the catalogue of approved paytables")
    kind, lines = _paytable(kind, lines)
    if action not in PaytableChange.Action.values:
        raise DomainError("The action is 'add' or 'retire'.", field="action")
    if not reason or not reason.strip():
        raise DomainError("Say why the catalogue changes.", field="reason")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    _require_fits(cardroom, kind, lines, action)
    pending = [
        change
        for change in pending_paytable_changes(cardroom).filter(kind=kind)
        if paytable_key(change.lines) == paytable_key(lines)
    ]
    if pending:
        raise Conflict(
            f"Change #{pending[0].pk} to this paytable is waiting for a decision already.",
            field="lines",
        )
    change = PaytableChange.objects.create(
        cardroom=cardroom,
        kind=kind,
        lines=lines,
        action=action,
        proposed_by=by,
        proposed_at=timezone.now(),
        reason=reason.strip(),
    )
    audit_record(
        actor=by,
        action=AuditAction.PAYTABLE_CHANGE_PROPOSED,
        target=change,
        payload={
            "cardroom": cardroom.pk,
            "kind": kind,
            "lines": lines,
            "action": action,
            "reason": change.reason,
            "figures": catalogue_figures(kind, lines),
        },
    )
    return change


@signing
@transaction.atomic
def paytable_change_approve(
    *, change: PaytableChange, signature: SignatureInput | None, by: User
) -> PaytableDecision:
    """R17 dual control: a floor supervisor other than the proposer, and off the proposer's
    maker's line, approves and signs (the proposer only where the cardroom allows
    self-approval, and it says so)."""
    require_supervisor(by, action="approve a change to the catalogue of approved paytables")
    cardroom, change = _locked_pending(change)
    self_approved = change.proposed_by_id == by.pk
    if self_approved and not cardroom.self_approval_allowed:
        raise PermissionDenied(
            "A change to the catalogue needs approval by a different floor supervisor "
            "(R17 dual control)."
        )
    if not self_approved:
        require_independent(
            approver=by, proposer=change.proposed_by, what="A change to the catalogue"
        )
    signed = signature_verify(
        signature, capacity="approver", roles=(FLOOR_SUPERVISOR,), field="signature", signer=by
    )
    _require_fits(cardroom, change.kind, change.lines, change.action)
    decision = _decide(change, PaytableDecision.Outcome.APPROVED, by, self_approved=self_approved)
    signature_record(change, signed)
    return decision


@transaction.atomic
def paytable_change_reject(
    *, change: PaytableChange, by: User, reason: str = ""
) -> PaytableDecision:
    require_supervisor(by, action="reject a change to the catalogue of approved paytables")
    _, change = _locked_pending(change)
    return _decide(change, PaytableDecision.Outcome.REJECTED, by, reason=reason)


@transaction.atomic
def paytable_change_withdraw(*, change: PaytableChange, by: User) -> PaytableDecision:
    require_supervisor(by, action="withdraw a change to the catalogue of approved paytables")
    _, change = _locked_pending(change)
    if change.proposed_by_id != by.pk:
        raise PermissionDenied("Only the supervisor who proposed a change may withdraw it.")
    return _decide(change, PaytableDecision.Outcome.WITHDRAWN, by)


_DECIDED = {
    PaytableDecision.Outcome.APPROVED: AuditAction.PAYTABLE_CHANGE_APPROVED,
    PaytableDecision.Outcome.REJECTED: AuditAction.PAYTABLE_CHANGE_REJECTED,
    PaytableDecision.Outcome.WITHDRAWN: AuditAction.PAYTABLE_CHANGE_WITHDRAWN,
}


def _decide(
    change: PaytableChange,
    outcome: PaytableDecision.Outcome,
    by: User,
    *,
    self_approved: bool = False,
    reason: str = "",
) -> PaytableDecision:
    decision = PaytableDecision.objects.create(
        change=change,
        outcome=outcome,
        decided_by=by,
        decided_at=timezone.now(),
        self_approved=self_approved,
        reason=reason.strip(),
    )
    audit_record(
        actor=by,
        action=_DECIDED[outcome],
        target=change,
        payload={
            "cardroom": change.cardroom_id,
            "kind": change.kind,
            "lines": change.lines,
            "action": change.action,
            "proposed_by": change.proposed_by_id,
            "self_approved": self_approved,
            "reason": decision.reason,
        },
    )
    return decision


def _locked_pending(change: PaytableChange) -> tuple[Cardroom, PaytableChange]:
    """The cardroom's row locked (every catalogue change takes it first), then the change,
    which must still wait for its decision."""
    cardroom = Cardroom.objects.select_for_update().get(pk=change.cardroom_id)
    change = PaytableChange.objects.get(pk=change.pk)
    decision = PaytableDecision.objects.filter(change=change).first()
    if decision is not None:
        raise Conflict(f"This change was {decision.outcome} already.", field="status")
    return cardroom, change


def _require_fits(cardroom: Cardroom, kind: str, lines: Mapping[str, Any], action: str) -> None:
    """An added paytable is not in the catalogue yet; a retired one is in it."""
    held = any(
        entry.kind == kind and paytable_key(entry.lines) == paytable_key(lines)
        for entry in paytable_catalogue(cardroom)
    )
    text = figures.paytable_text(lines)
    if action == PaytableChange.Action.ADD and held:
        raise Conflict(f"{text} is in the catalogue already.", field="lines")
    if action == PaytableChange.Action.RETIRE and not held:
        raise Conflict(
            f"{text} is not in the catalogue: there is nothing to retire.", field="lines"
        )


def _paytable(kind: str, lines: object) -> tuple[str, dict[str, int]]:
    """The kind and the lines, checked as a table's paytable setting is (R10)."""
    if kind not in PaytableKind.values:
        raise DomainError(f"The kind is one of: {', '.join(PaytableKind.values)}.", field="kind")
    try:
        parsed: dict[str, int] = rules.parse_settings({kind: lines})[kind]
        lines = figures.paytable_lines(parsed)
        if kind == PaytableKind.FLUSH:  # the engine's own check of R10's lines
            TableRules(flush_paytable=lines)
        else:
            TableRules(straight_flush_paytable=lines)
    except DomainError as error:
        raise DomainError(error.message, field="lines") from None
    except RoundError as error:
        raise DomainError(error.message, field="lines") from None
    return kind, parsed
