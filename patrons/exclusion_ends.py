"""How an exclusion ends before its term: by whom, and how.

A state list's entry is the state's: nobody at the cardroom ends it; it ends at its term, or
(a lifetime above all) by the state's removal, read from the state list's import with its
reference (``state_removal_apply``). A house bar ends only by a two-person change
(``tables.services.exclusion_ends``: one floor supervisor proposes, another approves). The
cardroom's own self-exclusions and self-restrictions end by a floor supervisor or compliance.
Nobody ends, on the day it was recorded, an entry they recorded themselves.
"""

from __future__ import annotations

from datetime import date, timedelta
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_role

from .exclusions import KEEPERS
from .models import Exclusion

STATE_LIST_KEPT = (
    "A state list's entry is the state's: nobody at the cardroom can end it. It ends at its "
    "term, or by the state's removal, imported with the state list."
)
HOUSE_BAR_KEPT = (
    "A house bar ends only by a two-person change: propose its end, and a second floor "
    "supervisor approves it."
)


def is_house_bar(row: Exclusion) -> bool:
    return row.source == Exclusion.Source.CARDROOM and row.kind == Exclusion.Kind.BARRED


def ending_check(
    row: Exclusion, *, ends_on: date, reason: str, by: User, proposal: bool = False
) -> None:
    """What every early end meets: a reason, an end within the term, and not the recorder's
    own shortcut on the day they recorded it (a proposal, which a second person decides,
    may be theirs)."""
    if not reason.strip():
        raise DomainError("Say why the term ends.", field="reason")
    if ends_on < row.starts_on:
        raise DomainError("A term ends on or after its start.", field="ends_on")
    if row.ends_on is not None and row.ends_on <= ends_on:
        raise Conflict(f"This term ends on {row.ends_on:%Y-%m-%d} already.", field="ends_on")
    zone = ZoneInfo(row.cardroom.time_zone) if row.cardroom is not None else None
    recorded_on = timezone.localtime(row.created_at, zone).date()
    if (
        not proposal
        and row.created_by_id == by.pk
        and recorded_on == timezone.localdate(timezone=zone)
    ):
        raise Conflict(
            "You recorded this entry today: someone else ends it, or you end it another day.",
            field="exclusion",
        )


@transaction.atomic
def exclusion_end(*, exclusion: Exclusion, ends_on: date, reason: str, by: User) -> Exclusion:
    """The cardroom's own self-exclusion or self-restriction ended early (never before it
    started); a state list's entry and a house bar are refused (field ``exclusion``)."""
    require_role(by, *KEEPERS, action="end an exclusion")
    row = (
        Exclusion.objects.select_for_update(of=("self",))
        .select_related("cardroom")
        .get(pk=exclusion.pk)
    )
    if row.source == Exclusion.Source.STATE_LIST:
        raise Conflict(STATE_LIST_KEPT, field="exclusion")
    if is_house_bar(row):
        raise Conflict(HOUSE_BAR_KEPT, field="exclusion")
    ending_check(row, ends_on=ends_on, reason=reason, by=by)
    return _end(row, ends_on=ends_on, reason=reason, by=by, reference="")


def house_bar_end_check(*, exclusion: Exclusion, ends_on: date, reason: str, by: User) -> None:
    """A proposal to end ``exclusion``: a house bar, its end within its term."""
    row = Exclusion.objects.select_related("cardroom").get(pk=exclusion.pk)
    if not is_house_bar(row):
        raise DomainError("Only a house bar ends by a two-person change.", field="exclusion")
    ending_check(row, ends_on=ends_on, reason=reason, by=by, proposal=True)


def house_bar_end(
    *, exclusion_id: int, ends_on: date, reason: str, by: User, reference: str
) -> Exclusion:
    """A house bar's end, approved by the second person ``by`` (inside the approval's
    transaction, ``tables.services.exclusion_ends``)."""
    row = (
        Exclusion.objects.select_for_update(of=("self",))
        .select_related("cardroom")
        .get(pk=exclusion_id)
    )
    if not is_house_bar(row):
        raise DomainError("Only a house bar ends by a two-person change.", field="exclusion")
    ending_check(row, ends_on=ends_on, reason=reason, by=by)
    return _end(row, ends_on=ends_on, reason=reason, by=by, reference=reference)


def _end(row: Exclusion, *, ends_on: date, reason: str, by: User, reference: str) -> Exclusion:
    was = row.ends_on
    row.ends_on, row.ended_by, row.ended_at = ends_on, by, timezone.now()
    row.end_reason, row.end_reference = reason.strip(), reference
    row.save(update_fields=["ends_on", "ended_by", "ended_at", "end_reason", "end_reference"])
    audit_record(
        actor=by,
        action=AuditAction.EXCLUSION_ENDED,
        target=row,
        payload={"ends_on": ends_on, "was": was, "reason": row.end_reason, "by": reference},
    )
    return row


@transaction.atomic
def state_removal_apply(
    *, reference: str, removal_reference: str, removed_on: date, by: User, line: int
) -> Exclusion | None:
    """The state removed its entry ``reference`` on ``removed_on``: in force until the day
    before. None when it ended by then already (a list imported again)."""
    row = (
        Exclusion.objects.select_for_update()
        .filter(source=Exclusion.Source.STATE_LIST, reference=reference)
        .order_by("id")
        .first()
    )
    if row is None:
        raise DomainError(
            f"Line {line}, reference: no state list entry {reference!r} is on file.",
            field="file",
        )
    ends_on = max(row.starts_on, removed_on - timedelta(days=1))
    if row.ends_on is not None and row.ends_on <= ends_on:
        return None
    was = row.ends_on
    row.ends_on, row.ended_by, row.ended_at = ends_on, by, timezone.now()
    row.end_reason, row.end_reference = "Removed by the state", removal_reference
    row.save(update_fields=["ends_on", "ended_by", "ended_at", "end_reason", "end_reference"])
    audit_record(
        actor=by,
        action=AuditAction.EXCLUSION_ENDED,  # the state-law check reads every end from these
        target=row,
        payload={"ends_on": ends_on, "was": was, "reason": row.end_reason, "by": removal_reference},
    )
    return row
