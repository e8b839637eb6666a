"""Dealers' shifts: clock-in and clock-out, a dealer put on a table, breaks, and the
cardroom's rotation settings. The push is in ``dealer_push``.

Floor supervisors make every change. A dealer is in one place at a time — at one table, on
break, or waiting for a table — which the database holds too (``DealerAssignment``'s
constraints); a table's dealer on duty changes only between hands (the session's change is
``sessions.table_dealer_change``). Each change is audited in its own transaction, on the
cardroom's chain (the event names the dealer's shift).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict
from core.people import person_name
from core.permissions import require_role, require_supervisor
from core.roles import DEALER
from patrons.models import DEALER_MINUTES_BOUNDS, DEALER_MINUTES_SETTINGS, Cardroom

from .. import selectors
from ..dealer_selectors import BREAK, TABLE
from ..models import DealerAssignment, DealerShift, Table
from .cardroom_minutes import cardroom_minutes_set
from .sessions import (
    require_between_hands,
    require_on_no_other_table,
    table_dealer_change,
    table_open,
)


def lock_shift(dealer: User) -> DealerShift:
    """The dealer's open shift, locked; refused by name when they are not clocked in."""
    shift = DealerShift.objects.select_for_update().filter(dealer=dealer, clocked_out_at=None)
    found = shift.first()
    if found is None:
        raise Conflict(f"{person_name(dealer)} is not clocked in.", field="dealer")
    return found


def lock_assignment(dealer: User) -> DealerAssignment | None:
    return (
        DealerAssignment.objects.select_for_update(of=("self",))
        .select_related("table")
        .filter(dealer=dealer, ended_at=None)
        .first()
    )


def audit_shift(shift: DealerShift, action: AuditAction, by: User, **payload: Any) -> None:
    audit_record(
        actor=by, action=action, target=shift, payload={"dealer": shift.dealer_id, **payload}
    )


def one_place_at_a_time(error: IntegrityError, dealer: User) -> Conflict:
    """A concurrent change that the database's constraints refused, as the floor reads it."""
    return Conflict(
        f"{person_name(dealer)} was just moved by someone else: look again.", field="dealer"
    )


@transaction.atomic
def dealer_clock_in(*, cardroom: Cardroom, dealer: User, by: User) -> DealerShift:
    """The dealer starts a shift; they wait for a table until one is given them."""
    require_supervisor(by, action="clock a dealer in")
    require_role(dealer, DEALER, action="deal at a table")
    if DealerShift.objects.filter(dealer=dealer, clocked_out_at=None).exists():
        raise Conflict(f"{person_name(dealer)} is clocked in already.", field="dealer")
    try:
        with transaction.atomic():
            shift = DealerShift.objects.create(
                cardroom=cardroom, dealer=dealer, clocked_in_at=timezone.now(), clocked_in_by=by
            )
    except IntegrityError:  # clocked in by someone else a moment ago
        raise Conflict(f"{person_name(dealer)} is clocked in already.", field="dealer") from None
    audit_shift(shift, AuditAction.DEALER_CLOCKED_IN, by)
    return shift


@transaction.atomic
def dealer_clock_out(*, dealer: User, by: User) -> DealerShift:
    """The shift ends: refused while the dealer is at a table (push them off first); a
    dealer on break or waiting clocks out."""
    require_supervisor(by, action="clock a dealer out")
    shift = lock_shift(dealer)
    assignment = lock_assignment(dealer)
    if assignment is not None and assignment.kind == TABLE:
        raise Conflict(
            f"{person_name(dealer)} deals at {assignment.table}: push them off it first.",
            field="dealer",
        )
    require_on_no_other_table(dealer, None)
    now = timezone.now()
    if assignment is not None:
        assignment.ended_at = now
        assignment.save(update_fields=["ended_at"])
    shift.clocked_out_at, shift.clocked_out_by = now, by
    shift.save(update_fields=["clocked_out_at", "clocked_out_by"])
    audit_shift(shift, AuditAction.DEALER_CLOCKED_OUT, by)
    return shift


@transaction.atomic
def dealer_assign(*, table: Table, dealer: User, by: User) -> DealerAssignment:
    """A waiting dealer takes a table: a closed table opens with them; an open one changes its
    dealer on duty between hands, and the dealer relieved (if on the clock) waits."""
    require_supervisor(by, action="put a dealer on a table")
    table = Table.objects.select_for_update().get(pk=table.pk)
    shift = lock_shift(dealer)
    if shift.cardroom_id != table.cardroom_id:
        raise Conflict(f"{person_name(dealer)} is clocked in at another cardroom.", field="dealer")
    current = lock_assignment(dealer)
    if current is not None:
        where = current.table if current.kind == TABLE else "on break"
        raise Conflict(
            f"{person_name(dealer)} is {'at ' if current.kind == TABLE else ''}{where}: "
            "only a waiting dealer takes a table.",
            field="dealer",
        )
    require_on_no_other_table(dealer, table)
    now = timezone.now()
    if selectors.open_session(table) is None:
        table_open(table=table, dealer=dealer, by=by)
    else:
        require_between_hands(table)
        relieved = DealerAssignment.objects.select_for_update().filter(
            table=table, kind=TABLE, ended_at=None
        )
        relieved.update(ended_at=now)
        table_dealer_change(table=table, dealer=dealer, by=by)
    try:
        with transaction.atomic():
            assignment = DealerAssignment.objects.create(
                shift=shift, dealer=dealer, kind=TABLE, table=table, started_at=now, started_by=by
            )
    except IntegrityError as error:
        raise one_place_at_a_time(error, dealer) from None
    audit_shift(shift, AuditAction.DEALER_ASSIGNED, by, table=table.pk)
    return assignment


@transaction.atomic
def dealer_break_start(*, dealer: User, by: User) -> DealerAssignment:
    """A waiting dealer goes on break (a dealer at a table goes through a push, which sends
    them on break when they are due)."""
    require_supervisor(by, action="send a dealer on break")
    shift = lock_shift(dealer)
    current = lock_assignment(dealer)
    if current is not None:
        why = f"deals at {current.table}: a push relieves them" if current.kind == TABLE else ""
        raise Conflict(
            f"{person_name(dealer)} {why or 'is on break already'}.",
            field="dealer",
        )
    try:
        with transaction.atomic():
            assignment = DealerAssignment.objects.create(
                shift=shift, dealer=dealer, kind=BREAK, started_at=timezone.now(), started_by=by
            )
    except IntegrityError as error:
        raise one_place_at_a_time(error, dealer) from None
    audit_shift(shift, AuditAction.DEALER_BREAK_STARTED, by)
    return assignment


@transaction.atomic
def dealer_break_end(*, dealer: User, by: User) -> DealerAssignment:
    """The dealer is back from break and waits for a table; their minutes on start again."""
    require_supervisor(by, action="bring a dealer back from break")
    shift = lock_shift(dealer)
    current = lock_assignment(dealer)
    if current is None or current.kind != BREAK:
        raise Conflict(f"{person_name(dealer)} is not on break.", field="dealer")
    current.ended_at = timezone.now()
    current.save(update_fields=["ended_at"])
    minutes = int((current.ended_at - current.started_at).total_seconds() // 60)
    audit_shift(shift, AuditAction.DEALER_BREAK_ENDED, by, minutes=minutes)
    return current


def cardroom_dealer_rotation_set(
    *, cardroom: Cardroom, values: dict[str, object], by: User
) -> Cardroom:
    """The push interval and the break rule (``push_minutes``, ``break_after_minutes``,
    ``break_minutes``: whole minutes, 1 to a day); a setting not named keeps its value."""
    require_supervisor(by, action="set the dealers' rotation")
    return cardroom_minutes_set(
        cardroom=cardroom,
        values=values,
        labels={name: name.replace("_", " ") for name in DEALER_MINUTES_SETTINGS},
        bounds=DEALER_MINUTES_BOUNDS,
        group="rotation",
        action=AuditAction.CARDROOM_DEALER_ROTATION_SET,
        by=by,
    )
