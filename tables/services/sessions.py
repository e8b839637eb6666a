"""Table sessions: opening with a dealer on duty, changing the dealer, closing."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, PermissionDenied
from core.people import person_name
from core.permissions import require_role, require_supervisor
from core.roles import DEALER, TABLE_STAFF
from engine.table import Banking

from .. import selectors
from ..models import (
    Seating,
    Table,
    TableSession,
)
from .seating import seating_end


@transaction.atomic
def table_open(*, table: Table, dealer: User, by: User) -> TableSession:
    """A floor supervisor opens a table with any dealer on duty; a dealer opens one only as
    its own dealer on duty."""
    role = require_role(by, *TABLE_STAFF, action="open a table")
    if role == DEALER and dealer.pk != by.pk:
        raise PermissionDenied("A dealer opens a table only as its own dealer on duty.")
    require_role(dealer, DEALER, action="deal at a table")
    table = Table.objects.select_for_update().get(pk=table.pk)
    if selectors.open_session(table) is not None:
        raise Conflict(f"{table} is open already.")
    session = TableSession.objects.create(
        table=table, dealer=dealer, opened_by=by, opened_at=timezone.now()
    )
    audit_record(
        actor=by,
        action=AuditAction.TABLE_OPENED,
        target=session,
        payload={"table": table.pk, "dealer": dealer.pk},
    )
    return session


def require_between_hands(table: Table) -> None:
    """The dealer on duty changes between hands, never while one is open (the caller holds
    the table's lock: a hand cannot start meanwhile)."""
    number = selectors.hand_number_in_progress(table)
    if number is not None:
        raise Conflict(
            f"{table} has hand {number} in progress: its dealer changes between hands.",
            field="table",
        )


def require_on_no_other_table(dealer: User, table: Table | None) -> None:
    """Never on two tables: not the dealer on duty at another open table either (a table
    opened with them before they clocked in)."""
    elsewhere = TableSession.objects.filter(dealer=dealer, closed_at=None).select_related("table")
    if table is not None:
        elsewhere = elsewhere.exclude(table=table)
    session = elsewhere.first()
    if session is not None:
        raise Conflict(
            f"{person_name(dealer)} is the dealer on duty at {session.table}: "
            "put another dealer there first.",
            field="dealer",
        )


@transaction.atomic
def table_dealer_change(*, table: Table, dealer: User, by: User) -> TableSession:
    """The dealer on duty changes (a break, a shift) between hands, to a dealer on duty at no
    other open table; the session goes on."""
    require_supervisor(by, action="change the dealer on duty")
    require_role(dealer, DEALER, action="deal at a table")
    table = Table.objects.select_for_update().get(pk=table.pk)
    session = _open_session_locked(table)
    require_between_hands(table)
    require_on_no_other_table(dealer, table)
    previous, session.dealer = session.dealer_id, dealer
    session.save(update_fields=["dealer"])
    audit_record(
        actor=by,
        action=AuditAction.TABLE_DEALER_CHANGED,
        target=session,
        payload={"table": table.pk, "from": previous, "to": dealer.pk},
    )
    return session


@transaction.atomic
def table_close(*, table: Table, by: User) -> TableSession:
    """Close the table: refused while a hand is in progress; seated players cash out. A
    house-banked table closes only with its closing count, which calls this (Nevada MICS
    table games; N.J.A.C. 13:69D-1.21): a table closed without one would leave its shift,
    and so its gaming day, a closing count short."""
    require_supervisor(by, action="close a table")
    session = _open_session_locked(table)
    if table.banking == Banking.HOUSE and session.rack_count_kind != "closing":
        first = "" if session.rack_count_kind else "count the rack at opening, then "
        raise Conflict(
            f"{table} is house-banked: {first}take the closing count: it closes the table.",
            field="table",
        )
    if selectors.hand_in_progress(table):
        raise Conflict(f"{table} has a hand in progress: settle it or declare it dead first.")
    for seating in Seating.objects.select_for_update().filter(table=table, left_at__isnull=True):
        seating_end(seating, by)
    session.closed_by, session.closed_at = by, timezone.now()
    session.save(update_fields=["closed_by", "closed_at"])
    audit_record(
        actor=by, action=AuditAction.TABLE_CLOSED, target=session, payload={"table": table.pk}
    )
    return session


def _open_session_locked(table: Table) -> TableSession:
    session = TableSession.objects.select_for_update().filter(table=table, closed_at=None).first()
    if session is None:
        raise Conflict(f"{table} is closed.")
    return session
