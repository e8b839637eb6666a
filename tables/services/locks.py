"""The first locks of a change at an open table: the table's row, or a seating's.

Lock order, everywhere: the table → its hand → the seatings (ascending id) → the table's rack
(``tables.Rack``, services/racks.py) → the audit chain (``audit_record``, last). A change
takes the locks it needs in that order and never goes back up it, so two changes at one table
wait for each other instead of deadlocking.
"""

from __future__ import annotations

from django.contrib.auth.models import User

from core.errors import Conflict, NotFound
from core.permissions import require_table_staff
from core.prepared import PreparedRead

from .. import selectors
from ..holds import require_floor_for_held
from ..models import (
    Seating,
    Table,
    TableSession,
)

#: The first read of every change at an open table (compiled once: core.prepared). The
#: cardroom comes with it but is not locked (``of``): every table of the room would wait on it.
_LOCKED_TABLE = PreparedRead(
    lambda key: (
        Table.objects.select_for_update(of=("self",)).select_related("cardroom").filter(pk=key)
    )
)


def table_lock_open(table: Table, *, by: User, action: str) -> tuple[Table, TableSession]:
    """The table's row, locked, for a change at an open table (a hand, a seat, the rotation).

    Every such change takes this lock first, so that changes at one table happen one at a
    time while other tables go on; ``by`` must be a floor supervisor or the table's dealer on
    duty, and the table must be open.
    """
    locked = _LOCKED_TABLE.first(table.pk)
    if locked is None:
        raise NotFound(f"There is no table {table.pk}.")
    table = locked
    session = selectors.open_session(table)
    require_table_staff(by, session, action=action)
    if session is None:
        raise Conflict(f"{table} is closed: open it to {action}.")
    return table, session


def seating_lock_for_change(seating: Seating, by: User, action: str) -> Seating:
    seating = (
        Seating.objects.select_for_update().select_related("table", "player").get(pk=seating.pk)
    )
    require_table_staff(by, selectors.open_session(seating.table), action=action)
    require_seated(seating)
    require_floor_for_held(seating, by=by)  # a held seat changes by the floor's hand only
    return seating


def require_seated(seating: Seating) -> None:
    if seating.left_at is not None:
        raise Conflict(f"{seating.player} has left seat {seating.seat}.")
