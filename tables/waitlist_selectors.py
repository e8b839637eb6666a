"""Reads of the waitlist: the lists and who is on them, the tables a list fills, the seats
open now and who is called to them, and the public board's names."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import OuterRef, Prefetch, QuerySet, Subquery
from django.utils import timezone

from patrons.models import Cardroom

from . import selectors
from .models import Seating, Table, TableSettings, Waitlist, WaitlistEntry


def waitlists(cardroom: Cardroom) -> QuerySet[Waitlist]:
    """The cardroom's lists, each with the entries still on it in their order."""
    return all_waitlists().filter(cardroom=cardroom)


def all_waitlists() -> QuerySet[Waitlist]:
    """Every list, each with the entries still on it in their order (``on_list``)."""
    on_list = WaitlistEntry.objects.filter(status__in=WaitlistEntry.ON_LIST).select_related(
        "player", "called_table"
    )
    return Waitlist.objects.order_by("cardroom", "pk").prefetch_related(
        Prefetch("entries", queryset=on_list.order_by("position", "id"), to_attr="on_list")
    )


def entries_on_list(waitlist: Waitlist) -> QuerySet[WaitlistEntry]:
    return WaitlistEntry.objects.filter(
        waitlist=waitlist, status__in=WaitlistEntry.ON_LIST
    ).order_by("position", "id")


def table_fits(table: Table, waitlist: Waitlist) -> bool:
    """A list's game is its table kind (R1) and ante limits (R5): the table's current ones."""
    if table.cardroom_id != waitlist.cardroom_id or table.banking != waitlist.banking:
        return False
    current = selectors.current_settings(table)
    return (current.ante_min, current.ante_max) == (waitlist.ante_min, waitlist.ante_max)


def games(cardroom: Cardroom) -> list[tuple[str, TableSettings]]:
    """The games the cardroom's tables offer now: (banking, current settings), one per kind
    and limits (what a list may be opened for)."""
    seen: dict[tuple[str, object, object], tuple[str, TableSettings]] = {}
    for table in Table.objects.filter(cardroom=cardroom).order_by("pk"):
        current = selectors.current_settings(table)
        seen.setdefault(
            (table.banking, current.ante_min, current.ante_max), (table.banking, current)
        )
    return list(seen.values())


@dataclass
class SeatOpening:
    """An empty seat at an open table, the list it fills, and who is called to it."""

    table: Table
    seat: int
    waitlist: Waitlist | None
    called: WaitlistEntry | None
    waiting: int
    minutes_left: int | None = None
    time_up: bool = False


@dataclass
class _Room:
    lists: list[Waitlist] = field(default_factory=list)
    calls: dict[tuple[int, int], WaitlistEntry] = field(default_factory=dict)


def seat_openings(cardroom: Cardroom, *, now: datetime | None = None) -> list[SeatOpening]:
    """Every empty seat at the cardroom's open tables, with the list of its game (if one is
    open), how many wait on it, and the player called to it with the whole minutes left."""
    return _openings(cardroom, now or timezone.now(), listed_only=False).listed


@dataclass
class ListedOpenings:
    """The empty seats a list waits for (as ``seat_openings`` has them), and how many others."""

    listed: list[SeatOpening]
    unlisted: int

    def __bool__(self) -> bool:
        return bool(self.listed or self.unlisted)


def listed_openings(cardroom: Cardroom, *, now: datetime | None = None) -> ListedOpenings:
    """The dashboard's open seats: those a list waits for, and the others only counted (a
    room of hundreds of tables has hundreds of them)."""
    return _openings(cardroom, now or timezone.now(), listed_only=True)


def _openings(cardroom: Cardroom, now: datetime, *, listed_only: bool) -> ListedOpenings:
    room = _room(cardroom)
    tables = Table.objects.filter(cardroom=cardroom, sessions__closed_at=None).order_by("name")
    taken: dict[int, set[int]] = {}
    for table_id, seat in Seating.objects.filter(
        table__cardroom=cardroom, left_at=None
    ).values_list("table_id", "seat"):
        taken.setdefault(table_id, set()).add(seat)
    limits = _ante_limits(tables) if room.lists else {}
    found = ListedOpenings([], 0)
    for table in tables:
        game = (table.cardroom_id, table.banking, limits.get(table.pk))
        waitlist = next(
            (w for w in room.lists if (w.cardroom_id, w.banking, (w.ante_min, w.ante_max)) == game),
            None,
        )
        seated = taken.get(table.pk, set())
        if waitlist is None and listed_only:
            found.unlisted += len(set(range(1, table.seat_count + 1)) - seated)
            continue
        waiting = len([e for e in getattr(waitlist, "on_list", []) if e.status == "waiting"])
        for seat in range(1, table.seat_count + 1):
            if seat in seated:
                continue
            called = room.calls.get((table.pk, seat))
            opening = SeatOpening(table, seat, waitlist, called, waiting)
            if called is not None and called.call_expires_at is not None:
                left = (called.call_expires_at - now).total_seconds()
                opening.minutes_left = max(0, int(left // 60) + (1 if left % 60 else 0))
                opening.time_up = left <= 0
            found.listed.append(opening)
    return found


def _ante_limits(tables: QuerySet[Table]) -> dict[int, tuple[object, object]]:
    """Each table's ante limits in force (its newest settings version, as ``table_fits``
    reads them), in one query for the whole room."""
    newest = TableSettings.objects.filter(table_id=OuterRef("table_id")).order_by("-version")
    return {
        table: (low, high)
        for table, low, high in TableSettings.objects.filter(
            table__in=tables.values("pk"), version=Subquery(newest.values("version")[:1])
        ).values_list("table_id", "ante_min", "ante_max")
    }


def _room(cardroom: Cardroom) -> _Room:
    room = _Room(lists=list(waitlists(cardroom)))
    for waitlist in room.lists:
        for entry in waitlist.on_list:  # type: ignore[attr-defined]
            if entry.status == WaitlistEntry.Status.CALLED and entry.called_table_id:
                room.calls[(entry.called_table_id, entry.called_seat or 0)] = entry
    return room


def board_name(name: str) -> str:
    """What the public board shows of a person: the first name and the last initial
    (``Kit Young`` → ``Kit Y.``), never more."""
    words = name.split()
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    return f"{words[0]} {words[-1][0].upper()}."


@dataclass(frozen=True)
class BoardRow:
    place: int
    name: str
    called: bool


@dataclass(frozen=True)
class BoardList:
    title: str
    rows: list[BoardRow]


def board(cardroom: Cardroom) -> list[BoardList]:
    """The public board: each list's title and, in order, only what a screen in the room may
    show: a place, a first name with its last initial, and whether the player is called."""
    return [
        BoardList(
            title=str(waitlist),
            rows=[
                BoardRow(
                    place=place,
                    name=board_name(entry.name),
                    called=entry.status == WaitlistEntry.Status.CALLED,
                )
                for place, entry in enumerate(waitlist.on_list, start=1)  # type: ignore[attr-defined]
            ],
        )
        for waitlist in waitlists(cardroom)
    ]
