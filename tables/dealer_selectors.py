"""Reads of dealers' shifts: where each clocked-in dealer is and for how long, who is due for
a push or a break, the push rotation's plan, and each dealer's hours and hands per gaming day.

Minutes "on" run from the clock-in, or from the end of the dealer's last break: a break is due
once they reach the cardroom's ``break_after_minutes``. A push is due once a dealer has dealt
``push_minutes`` at their table. Hands dealt are the hands started at a table while the dealer
was assigned to it (hands are the layer above: reached through ``Table.hands``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta

from django.contrib.auth.models import User

from core.people import person_name
from patrons.models import Cardroom

from . import selectors
from .models import DealerAssignment, DealerShift, Table, TableSession

TABLE = DealerAssignment.Kind.TABLE
BREAK = DealerAssignment.Kind.BREAK
#: Where a plan sends a dealer who neither takes a table nor goes on break.
WAITING = "waiting"


def minutes_between(start: datetime, end: datetime) -> int:
    """Whole minutes from ``start`` to ``end`` (what the floor reads: 19 until the 20th ends)."""
    return max(0, int((end - start).total_seconds() // 60))


@dataclass(frozen=True)
class DealerRow:
    """A clocked-in dealer as the floor sees them."""

    shift: DealerShift
    assignment: DealerAssignment | None  # None: waiting for a table
    since: datetime  # at this place (table, break or waiting) since
    on_since: datetime  # on (not on break) since: clock-in or the end of the last break
    minutes_here: int
    minutes_on: int
    push_due: bool
    break_due: bool
    back_due: bool  # on break for the cardroom's break length or more

    @property
    def dealer(self) -> User:
        return self.shift.dealer

    @property
    def name(self) -> str:
        return person_name(self.shift.dealer)

    @property
    def where(self) -> str:
        if self.assignment is None:
            return WAITING
        return str(self.assignment.kind)

    @property
    def table(self) -> Table | None:
        return self.assignment.table if self.assignment is not None else None

    @property
    def due(self) -> bool:
        return self.push_due or self.break_due or self.back_due


def open_shift(dealer: User) -> DealerShift | None:
    return DealerShift.objects.filter(dealer=dealer, clocked_out_at=None).first()


def open_assignment(dealer: User) -> DealerAssignment | None:
    return (
        DealerAssignment.objects.select_related("table")
        .filter(dealer=dealer, ended_at=None)
        .first()
    )


def table_assignment(table: Table) -> DealerAssignment | None:
    return DealerAssignment.objects.filter(table=table, kind=TABLE, ended_at=None).first()


def dealer_board(cardroom: Cardroom, now: datetime) -> list[DealerRow]:
    """Every dealer clocked in at the cardroom: at a table (in table order), on break, then
    waiting (the one waiting longest first: the dealer due next)."""
    shifts = list(
        DealerShift.objects.filter(cardroom=cardroom, clocked_out_at=None).select_related("dealer")
    )
    open_at: dict[int, DealerAssignment] = {}
    last_end: dict[int, datetime] = {}
    last_break_end: dict[int, datetime] = {}
    assignments = DealerAssignment.objects.filter(shift__in=shifts).select_related("table")
    for assignment in assignments.order_by("started_at", "pk"):
        if assignment.ended_at is None:
            open_at[assignment.shift_id] = assignment
            continue
        last_end[assignment.shift_id] = assignment.ended_at
        if assignment.kind == BREAK:
            last_break_end[assignment.shift_id] = assignment.ended_at
    rows = [
        _row(cardroom, shift, open_at.get(shift.pk), last_end, last_break_end, now)
        for shift in shifts
    ]
    return sorted(rows, key=_board_order)


def _row(
    cardroom: Cardroom,
    shift: DealerShift,
    assignment: DealerAssignment | None,
    last_end: dict[int, datetime],
    last_break_end: dict[int, datetime],
    now: datetime,
) -> DealerRow:
    on_since = last_break_end.get(shift.pk, shift.clocked_in_at)
    if assignment is not None:
        since = assignment.started_at
    else:
        since = max(last_end.get(shift.pk, shift.clocked_in_at), shift.clocked_in_at)
    on_break = assignment is not None and assignment.kind == BREAK
    minutes_here, minutes_on = minutes_between(since, now), minutes_between(on_since, now)
    at_table = assignment is not None and assignment.kind == TABLE
    return DealerRow(
        shift=shift,
        assignment=assignment,
        since=since,
        on_since=on_since,
        minutes_here=minutes_here,
        minutes_on=0 if on_break else minutes_on,
        push_due=at_table and minutes_here >= cardroom.push_minutes,
        break_due=not on_break and minutes_on >= cardroom.break_after_minutes,
        back_due=on_break and minutes_here >= cardroom.break_minutes,
    )


def _board_order(row: DealerRow) -> tuple[int, int, datetime]:
    place = {str(TABLE): 0, str(BREAK): 1}.get(row.where, 2)
    table_id = row.assignment.table_id if row.assignment and row.assignment.table_id else 0
    return place, table_id, row.since


def dealers_due(cardroom: Cardroom, now: datetime) -> list[DealerRow]:
    """The dealers due for a push, a break or back from one, longest over first."""
    due = [row for row in dealer_board(cardroom, now) if row.due]
    return sorted(due, key=lambda row: row.since)


def waiting_dealers(cardroom: Cardroom, now: datetime) -> list[DealerRow]:
    """The dealers waiting for a table, the one waiting longest first (the dealer due next)."""
    rows = [row for row in dealer_board(cardroom, now) if row.assignment is None]
    return sorted(rows, key=lambda row: row.since)


# --- the push rotation -------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """One dealer's move in a push: to a table, on break, or to wait for the next table."""

    dealer: User
    to: str  # TABLE, BREAK or WAITING
    table: Table | None = None

    def words(self) -> str:
        name = person_name(self.dealer)
        if self.to == TABLE:
            return f"{name} takes {self.table}"
        if self.to == BREAK:
            return f"{name} goes on break"
        return f"{name} waits for the next table"


@dataclass(frozen=True)
class PushPlan:
    """What a push does: the table pushed, and every move in the order made."""

    table: Table
    moves: list[Move] = field(default_factory=list)

    def sentence(self) -> str:
        return "; ".join(move.words() for move in self.moves) + "."

    @property
    def tables(self) -> list[Table]:
        return [move.table for move in self.moves if move.table is not None]


def open_tables(cardroom: Cardroom) -> list[Table]:
    """The cardroom's open tables in the rotation's order (the order they were made in)."""
    open_ids = TableSession.objects.filter(table__cardroom=cardroom, closed_at=None).values(
        "table_id"
    )
    return list(Table.objects.filter(cardroom=cardroom, pk__in=open_ids).order_by("pk"))


def push_plan(cardroom: Cardroom, now: datetime, table: Table | None = None) -> PushPlan | None:
    """The push of ``table`` (by default the open table whose dealer is longest over the
    push interval), or None when no table is due and none was named.

    The dealer due next (waiting longest) takes the table. The relieved dealer goes on break
    if due for one; otherwise to the next table in order whose dealer is due for a push too
    (that table's dealer is relieved in turn), unless its hand is in progress or no table
    is due: then they wait for the next table. A plan with no waiting dealer has no moves.
    """
    board = dealer_board(cardroom, now)
    at_table = {
        row.assignment.table_id: row
        for row in board
        if row.assignment is not None and row.assignment.table_id is not None
    }
    tables = open_tables(cardroom)
    if table is None:
        due = sorted(
            (pk for pk, r in at_table.items() if r.push_due), key=lambda pk: at_table[pk].since
        )
        table = next((t for t in tables if due and t.pk == due[0]), None)
        if table is None:
            return None
    waiting = sorted((r for r in board if r.assignment is None), key=lambda r: r.since)
    if not waiting:
        return PushPlan(table=table)
    moves = [Move(waiting[0].dealer, TABLE, table)]
    relieved, visited = at_table.get(table.pk), {table.pk}
    order = [t for t in tables if t.pk != table.pk]
    start = next((i for i, t in enumerate(order) if t.pk > table.pk), 0)
    ahead = order[start:] + order[:start]  # the tables after this one, round the room
    while relieved is not None:
        if relieved.break_due:
            moves.append(Move(relieved.dealer, BREAK))
            break
        following = next(
            (t for t in ahead if t.pk not in visited and _takes_the_relieved(t, at_table)), None
        )
        if following is None or selectors.hand_in_progress(following):
            moves.append(Move(relieved.dealer, WAITING))
            break
        moves.append(Move(relieved.dealer, TABLE, following))
        visited.add(following.pk)
        relieved = at_table.get(following.pk)
    return PushPlan(table=table, moves=moves)


def _takes_the_relieved(table: Table, at_table: dict[int, DealerRow]) -> bool:
    """A table the relieved dealer moves on to: its dealer is due for a push, or it has no
    dealer assigned (it was opened with one who is not on the clock)."""
    row = at_table.get(table.pk)
    return row is None or row.push_due


# --- hours and hands per gaming day ------------------------------------------------------


@dataclass(frozen=True)
class DealerDay:
    """A dealer's gaming day: minutes on the clock, at tables and on break; hands dealt."""

    dealer: User
    day: date
    minutes_clocked: int
    minutes_at_tables: int
    minutes_on_break: int
    hands_dealt: int

    @property
    def name(self) -> str:
        return person_name(self.dealer)

    @property
    def hours(self) -> str:
        """Hours on the clock as the floor reads them: ``7:45``."""
        return f"{self.minutes_clocked // 60}:{self.minutes_clocked % 60:02d}"


def _overlap(start: datetime, end: datetime | None, lo: datetime, hi: datetime) -> timedelta:
    finish = min(end or hi, hi)
    begin = max(start, lo)
    return max(finish - begin, timedelta(0))


@dataclass
class _Tally:
    dealer: User
    clocked: timedelta = timedelta(0)
    at_tables: timedelta = timedelta(0)
    on_break: timedelta = timedelta(0)
    hands: int = 0

    def of(self, day: date) -> DealerDay:
        return DealerDay(
            dealer=self.dealer,
            day=day,
            minutes_clocked=int(self.clocked.total_seconds() // 60),
            minutes_at_tables=int(self.at_tables.total_seconds() // 60),
            minutes_on_break=int(self.on_break.total_seconds() // 60),
            hands_dealt=self.hands,
        )


def dealer_days(cardroom: Cardroom, day: date, now: datetime) -> list[DealerDay]:
    """Each dealer who was on the clock in gaming ``day``: their minutes and hands, by name."""
    lo, hi = selectors.gaming_day_bounds(cardroom, day)
    hi = min(hi, now)
    shifts = DealerShift.objects.filter(cardroom=cardroom, clocked_in_at__lt=hi).exclude(
        clocked_out_at__lt=lo
    )
    tallies: dict[int, _Tally] = {}
    for shift in shifts.select_related("dealer"):
        tally = tallies.setdefault(shift.dealer_id, _Tally(shift.dealer))
        tally.clocked += _overlap(shift.clocked_in_at, shift.clocked_out_at, lo, hi)
    assignments = DealerAssignment.objects.filter(shift__in=shifts, started_at__lt=hi).exclude(
        ended_at__lt=lo
    )
    for assignment in assignments.select_related("table"):
        tally = tallies[assignment.dealer_id]
        span = _overlap(assignment.started_at, assignment.ended_at, lo, hi)
        if assignment.kind == BREAK:
            tally.on_break += span
        else:
            tally.at_tables += span
            tally.hands += _hands_started(assignment, lo, hi)
    return sorted((tally.of(day) for tally in tallies.values()), key=lambda row: row.name)


def _hands_started(assignment: DealerAssignment, lo: datetime, hi: datetime) -> int:
    start = max(assignment.started_at, lo)
    end = min(assignment.ended_at or hi, hi)
    table = assignment.table
    assert table is not None
    # A hand started at the very moment of a push belongs to the dealer who took the table.
    return int(table.hands.filter(started_at__gte=start, started_at__lt=end).count())
