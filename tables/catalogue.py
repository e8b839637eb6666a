"""A cardroom's catalogue of approved paytables (R17): a table may post only these.

A floor supervisor proposes to add a paytable or to retire one, with a reason; another floor
supervisor approves it (dual control; the proposer only where the cardroom allows
self-approval, recorded as such), or rejects it; the proposer may withdraw it: one kind of
two-person change (``tables.two_person``). Nothing here is ever edited: a proposal
(``PaytableChange``) and its decision are rows of their own, each written with its audit
event, and the catalogue is what the approved changes add up to, in the order they were
decided. A new cardroom's catalogue starts with the
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
from core.errors import Conflict, DomainError
from core.roles import FLOOR_SUPERVISOR
from engine.errors import RoundError
from engine.table import Banking, BonusMode, TableRules
from patrons.models import Cardroom

from . import figures, rules, two_person
from .models import PaytableKind, Table
from .signatures import SignatureInput, Signed
from .staff_models import PaytableChange, TwoPersonChange, TwoPersonDecision

KIND = TwoPersonChange.Kind.PAYTABLE

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
            cardroom=cardroom, decision__outcome=TwoPersonDecision.Outcome.APPROVED
        )
        .select_related("proposed_by", "decision__decided_by")
        .order_by("decision__id")
    )
    entries: dict[tuple[str, Key], PaytableChange] = {}
    for change in approved:
        key = (change.paytable, paytable_key(change.lines))
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
                kind=KIND,
                cardroom=cardroom,
                values={
                    "paytable": kind.value,
                    "lines": lines,
                    "action": PaytableChange.Action.ADD,
                    "origin": PaytableChange.Origin.DEFAULT,
                },
                proposed_by=by,
                proposed_at=now,
                reason=f"A new {banking.value.replace('_', '-')} table's default.",
            )
            TwoPersonDecision.objects.create(
                change=change, outcome=TwoPersonDecision.Outcome.APPROVED, decided_at=now
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
    two_person.require_role_to(KIND, "propose", by)
    kind, lines = _paytable(kind, lines)
    if action not in PaytableChange.Action.values:
        raise DomainError("The action is 'add' or 'retire'.", field="action")
    two_person.require_proposer(KIND, by, reason)
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    _require_fits(cardroom, kind, lines, action)
    pending = [
        change
        for change in pending_paytable_changes(cardroom).filter(values__paytable=kind)
        if paytable_key(change.lines) == paytable_key(lines)
    ]
    if pending:
        raise Conflict(
            f"Change #{pending[0].pk} to this paytable is waiting for a decision already.",
            field="lines",
        )
    change = two_person.change_propose(
        kind=KIND,
        values={"paytable": kind, "lines": lines, "action": action, "origin": "proposed"},
        reason=reason,
        by=by,
        cardroom_id=cardroom.pk,
    )
    assert isinstance(change, PaytableChange)
    return change


def paytable_change_approve(
    *, change: PaytableChange, signature: SignatureInput | None, by: User
) -> TwoPersonDecision:
    """R17 dual control: a floor supervisor other than the proposer, and off the proposer's
    maker's line, approves and signs (the proposer only where the cardroom allows
    self-approval, and it says so)."""
    return two_person.change_approve(change=change, signature=signature, by=by)


def paytable_change_reject(
    *, change: PaytableChange, by: User, reason: str = ""
) -> TwoPersonDecision:
    return two_person.change_reject(change=change, reason=reason, by=by)


def paytable_change_withdraw(*, change: PaytableChange, by: User) -> TwoPersonDecision:
    return two_person.change_withdraw(change=change, by=by)


# --- the kind --------------------------------------------------------------------------------


def _lock(change: TwoPersonChange) -> None:
    # Every catalogue change takes its cardroom's row first.
    Cardroom.objects.select_for_update().get(pk=two_person.cardroom_id(change))


def _self_approval_allowed(change: TwoPersonChange) -> bool:
    return bool(Cardroom.objects.get(pk=two_person.cardroom_id(change)).self_approval_allowed)


def _apply(change: TwoPersonChange, approver: User) -> dict[str, Any]:
    values = change.values
    cardroom = Cardroom.objects.get(pk=two_person.cardroom_id(change))
    _require_fits(cardroom, values["paytable"], values["lines"], values["action"])
    return {}


def _payload(
    change: TwoPersonChange, decision: TwoPersonDecision | None, signed: Signed | None
) -> dict[str, Any]:
    values = change.values
    said = {
        "cardroom": change.cardroom_id,
        "kind": values["paytable"],
        "lines": values["lines"],
        "action": values["action"],
    }
    if decision is None:
        figures_of = catalogue_figures(values["paytable"], values["lines"])
        return said | {"reason": change.reason, "figures": figures_of}
    return said | {
        "proposed_by": change.proposed_by_id,
        "self_approved": decision.self_approved,
        "reason": decision.reason,
    }


two_person.register(
    KIND,
    two_person.ChangeKind(
        "A change to the catalogue",
        (FLOOR_SUPERVISOR,),
        (FLOOR_SUPERVISOR,),
        _apply,
        model=PaytableChange,
        called="a change to the catalogue of approved paytables",
        why="Say why the catalogue changes.",
        lock=_lock,
        self_approval=_self_approval_allowed,
        own_approval_refused=(
            "A change to the catalogue needs approval by a different floor supervisor "
            "(R17 dual control)."
        ),
        proposer_rejects=True,
        reject_needs_reason=False,
        proposer_called="supervisor",
        withdraw_checks_role=True,
        actions={
            "proposed": AuditAction.PAYTABLE_CHANGE_PROPOSED,
            TwoPersonDecision.Outcome.APPROVED: AuditAction.PAYTABLE_CHANGE_APPROVED,
            TwoPersonDecision.Outcome.REJECTED: AuditAction.PAYTABLE_CHANGE_REJECTED,
            TwoPersonDecision.Outcome.WITHDRAWN: AuditAction.PAYTABLE_CHANGE_WITHDRAWN,
        },
        payload=_payload,
    ),
)


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
