"""A seat change: a seated player moves to another seat, at this table or another, and the
stack goes with them: colour up at the old seat, the same chips bought in at the new one
(tender chips), through the stack ledger of both, under one audit event for the change.

Lock order: both tables (ascending id), then the seating (``locks``).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict
from core.permissions import require_supervisor

from .. import selectors
from ..models import Seating, Table, Tender
from .incidents import alerting
from .locks import seating_lock_for_change, table_lock_open
from .seating import _seat_player, seating_end


def seating_move(*, seating: Seating, table: Table, seat: int, by: User) -> Seating:
    """Move a seated player to ``seat`` at ``table`` (the floor's), between hands: the new
    seating holds the old one's stack to the cent; the player is screened as at any seat."""
    with alerting(by), transaction.atomic():
        require_supervisor(by, action="change a player's seat")
        old = Seating.objects.select_related("table").get(pk=seating.pk)
        tables_lock([old.table, table], by=by, action="change a player's seat")
        return seating_move_locked(seating=old, table=table, seat=seat, by=by)


def tables_lock(tables: Iterable[Table], *, by: User, action: str) -> None:
    """Lock every table of a change that spans tables, in ascending id (the lock order)."""
    for pk in sorted({table.pk for table in tables}):
        table_lock_open(Table(pk=pk), by=by, action=action)


def seating_move_locked(*, seating: Seating, table: Table, seat: int, by: User) -> Seating:
    """The move, for a caller that holds both tables' locks."""
    old = seating_lock_for_change(seating, by, "change a player's seat")
    number = selectors.hand_number_in_progress(old.table, seating=old)
    if number is not None:
        raise Conflict(
            f"{old.player} is in hand {number} at {old.table}: the seat changes once it settles.",
            field="seating",
        )
    if (old.table_id, old.seat) == (table.pk, seat):
        raise Conflict(f"{old.player} is in seat {seat} at {old.table} already.", field="seat")
    stack = old.stack
    seating_end(old, by)
    new = _seat_player(
        table=table, seat=seat, player=old.player, buy_in=stack, tender=Tender.CHIPS, by=by
    )
    audit_record(
        actor=by,
        action=AuditAction.SEAT_CHANGED,
        target=new,
        payload={
            "player": old.player_id,
            "from_table": old.table_id,
            "from_seat": old.seat,
            "from_seating": old.pk,
            "to_table": new.table_id,
            "to_seat": new.seat,
            "to_seating": new.pk,
            "stack": stack,
        },
    )
    return new
