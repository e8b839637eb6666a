"""A house-banked table's rack by the books (``tables.Rack``): the guard of every move that
takes chips out of it, the reset a count makes, and the count each session needs before play.

Nevada MICS (table games: openers and closers), N.J.A.C. 13:69D-1.21 (table inventory) and
25 CFR 543.10: a table's rack is counted before play opens and at each shift change, and
nothing is sold or paid from chips the rack does not hold. The callers hold the locks that
come first (lock order: tables/services/locks.py); the rack's row is locked last, before the
audit chain.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal

from django.db.models import F
from django.utils import timezone

from core.errors import Conflict
from core.money import cents, money_text
from engine.table import Banking

from ..models import Rack, Table, TableSession

CENT = Decimal("0.01")


def rack_require_counted(table: Table, session: TableSession, *, field: str, action: str) -> None:
    """Refuse ``action`` ("start a hand", "sell chips for cash") at a house-banked table whose
    rack has not been counted in the current shift: its opening count, or the shift-change
    count once a new shift has begun while it is open. Reads only the session's row, which
    every caller holds already. A designated-player table has no rack: nothing to count."""
    if table.banking != Banking.HOUSE:
        return
    until = session.rack_counted_until
    if until is not None and timezone.now() < until:
        return
    missing = "shift-change" if session.rack_count_kind else "opening"
    raise Conflict(
        f"{table}'s rack has no {missing} count in this shift: the dealer counts it and a "
        f"floor supervisor verifies it before anyone may {action}.",
        field=field,
    )


def rack_value_move(*, table_id: int, amount: Decimal, field: str, what: str) -> None:
    """Chips into the rack (``amount`` > 0: a player's losing wagers, net) or out of it (< 0:
    a chip sale, the house's payouts), by value: one guarded UPDATE, so that two moves at once
    can never both take the last chips (PostgreSQL re-reads the row when the other commits).
    Refused, naming ``field``, with what the rack holds, when it would go below zero. A table
    whose rack was never counted has no books yet: nothing to move."""
    moved = cents(amount)
    if moved >= 0:
        Rack.objects.filter(table_id=table_id).update(cents=F("cents") + moved)
        return
    if Rack.objects.filter(table_id=table_id, cents__gte=-moved).update(cents=F("cents") + moved):
        return
    held = Rack.objects.filter(table_id=table_id).values_list("cents", flat=True).first()
    if held is None:
        return
    raise Conflict(
        f"The rack holds ${money_text(held * CENT)} by the books: {what} of "
        f"${money_text(-amount)} would take more than it has. Fill the rack first.",
        field=field,
    )


def rack_pieces_move(*, table: Table, pieces: Mapping[str, int], sign: int, field: str) -> None:
    """A fill (``sign`` +1) or a credit (−1), by denomination: the row locked, every
    denomination checked before any moves. A credit that takes more pieces of one
    denomination than the books hold is refused naming ``field.<denomination>``; one worth
    more than the rack holds, naming ``field``."""
    rack = Rack.objects.select_for_update().filter(table=table).first()
    if rack is None:
        if sign < 0:
            return  # never counted: no books to check against (the first count starts them)
        rack = Rack(table=table)
    if sign < 0:
        _credit_check(rack, pieces, field)
    total = _value(pieces)
    held = dict(rack.pieces)
    for denomination, number in pieces.items():
        held[denomination] = held.get(denomination, 0) + sign * number
    rack.pieces, rack.cents = held, rack.cents + sign * cents(total)
    rack.save()


def rack_credit_check(*, table: Table, pieces: Mapping[str, int], field: str) -> None:
    """A credit's refusal when it is requested, as its delivery would refuse it (which checks
    again, under the rack's lock)."""
    rack = Rack.objects.filter(table=table).first()
    if rack is not None:
        _credit_check(rack, pieces, field)


def _credit_check(rack: Rack, pieces: Mapping[str, int], field: str) -> None:
    held = rack.pieces
    for denomination, number in pieces.items():
        if number > held.get(denomination, 0):
            raise Conflict(
                f"The rack holds {held.get(denomination, 0)} × ${denomination} by the books: "
                f"a credit of {number} would take more than it has.",
                field=f"{field}.{denomination}",
            )
    total = _value(pieces)
    if cents(total) > rack.cents:
        raise Conflict(
            f"The rack holds ${money_text(rack.cents * CENT)} by the books: a credit of "
            f"${money_text(total)} would take more than it has.",
            field=field,
        )


def _value(pieces: Mapping[str, int]) -> Decimal:
    return sum((Decimal(d) * n for d, n in pieces.items()), Decimal(0))


def rack_books_set(*, table: Table, pieces: Mapping[str, int], total: Decimal) -> None:
    """A count resets the books to what was counted (its difference from them is kept on the
    count, and in the shift's figures)."""
    Rack.objects.update_or_create(
        table=table, defaults={"pieces": dict(pieces), "cents": cents(total)}
    )


def rack_counted(
    *,
    table: Table,
    session: TableSession,
    pieces: Mapping[str, int],
    total: Decimal,
    kind: str,
    until: datetime,
) -> None:
    """A count of the session's rack: the books reset, and the session marked counted until
    ``until`` (the end of the shift the count opens), the mark play is checked against."""
    rack_books_set(table=table, pieces=pieces, total=total)
    session.rack_count_kind, session.rack_counted_until = kind, until
    session.save(update_fields=["rack_count_kind", "rack_counted_until"])
