"""Reads for tables: current settings, sessions, seats, the rotation log and its R16 check."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.utils import timezone

from core import days
from core.prepared import PreparedRead
from core.roles import COMPLIANCE_AUDITOR, DEALER, FLOOR_SUPERVISOR, role_of
from patrons.models import Cardroom

from .models import (
    GameStop,
    RotationRecord,
    Seating,
    StackEntry,
    Table,
    TableSession,
    TableSettings,
)

# The shift reads live in shift_selectors; named here too for the callers of selectors.
from .shift_selectors import WHOLE_DAY as WHOLE_DAY
from .shift_selectors import ShiftSpan as ShiftSpan
from .shift_selectors import day_shifts as day_shifts
from .shift_selectors import shift_bounds as shift_bounds
from .shift_selectors import shift_of as shift_of
from .shift_selectors import shift_spans as shift_spans
from .shift_selectors import shift_starts as shift_starts
from .staff_models import SelfApprovalChange, SettingChange


def gaming_day(cardroom: Cardroom, at: datetime) -> date:
    """The cardroom's business day of a moment (``core.days.day_of``)."""
    return days.day_of(cardroom.time_zone, cardroom.gaming_day_starts_at, at)


def gaming_day_bounds(cardroom: Cardroom, day: date) -> tuple[datetime, datetime]:
    """The moments a gaming day starts and ends (the next day's start), as aware datetimes."""
    return days.day_bounds(cardroom.time_zone, cardroom.gaming_day_starts_at, day)


def current_settings(table: Table) -> TableSettings:
    """The newest settings version: the one the next hand starts under (R17)."""
    found = _NEWEST_SETTINGS.first(table.pk)
    if found is None:
        raise TableSettings.DoesNotExist(f"{table} has no settings")
    return found


def open_session(table: Table) -> TableSession | None:
    return _OPEN_SESSION.first(table.pk)


# The reads every hand makes, compiled once per process (core.prepared).
_NEWEST_SETTINGS = PreparedRead(
    lambda key: TableSettings.objects.filter(table_id=key).order_by("-version")
)
_OPEN_SESSION = PreparedRead(
    lambda key: TableSession.objects.filter(table_id=key, closed_at=None).order_by("pk")
)


def seated(table: Table) -> QuerySet[Seating]:
    return Seating.objects.filter(table=table, left_at=None).select_related("player")


def hand_in_progress(table: Table, *, seating: Seating | None = None) -> bool:
    """Whether a hand at the table (with that seating in it, if given) is not yet over.

    Hands belong to the layer above (``wagers``); they are reached through the reverse
    relations ``Table.hands``, ``Seating.spots`` and ``Seating.hands_as_dp``, so that tables
    import nothing of wagers. A hand is over once it has its ``settled_at`` (settled, dead
    or cancelled).
    """
    return hand_number_in_progress(table, seating=seating) is not None


def hand_number_in_progress(table: Table, *, seating: Seating | None = None) -> int | None:
    """The number of the hand at the table (with that seating in it, if given) not yet over,
    or None: what a refusal that waits for the settlement names (``hand_in_progress``)."""
    hands = table.hands.filter(settled_at__isnull=True)
    if seating is not None:
        hands = hands.filter(Q(spots__seating=seating) | Q(dp_seating=seating))
    number: int | None = hands.order_by("number").values_list("number", flat=True).first()
    return number


def stack_history(seating: Seating) -> QuerySet[StackEntry]:
    return StackEntry.objects.filter(seating=seating).order_by("id")


def setting_change_history(table: Table) -> QuerySet[SettingChange]:
    return (
        SettingChange.objects.filter(table=table)
        .select_related("table", "proposed_by", "decision__decided_by")
        .order_by("-proposed_at", "-id")
    )


def rotation_log(table: Table, start: datetime, end: datetime) -> QuerySet[RotationRecord]:
    """Every offer of the position at the table in ``[start, end)``, oldest first."""
    return (
        RotationRecord.objects.filter(table=table, created_at__gte=start, created_at__lt=end)
        .select_related("player", "designated_player")
        .order_by("created_at", "id")
    )


@dataclass(frozen=True)
class RotationFlag:
    """A window of play in which fewer than two players (proposition player aside) held the
    designated-player position."""

    start: datetime
    end: datetime
    holders: tuple[str, ...]  # the players who held it, proposition player included
    hands: int


def game_stop_open(table: Table) -> GameStop | None:
    """The table's stopped game not yet restarted (R16, 2026), if any."""
    return _GAME_STOPPED.first(table.pk)


_GAME_STOPPED = PreparedRead(
    lambda key: GameStop.objects.filter(table_id=key, restarted_at__isnull=True)
)


def play_started(table: Table, session: TableSession) -> datetime:
    """When the session's play (as R16's window judges it) began: the session's opening, or
    the last restart of a stopped game."""
    restarts = GameStop.objects.filter(session=session, restarted_at__isnull=False)
    last = restarts.order_by("-restarted_at").values_list("restarted_at", flat=True).first()
    return max(session.opened_at, last) if last else session.opened_at


def _play_segments(
    session: TableSession, stops: Sequence[GameStop], end: datetime
) -> list[tuple[datetime, datetime]]:
    """A session's play, cut at each stopped game (``stops``, in order): from the opening (or
    a restart) to the stop (or the session's end)."""
    segments: list[tuple[datetime, datetime]] = []
    begin: datetime | None = session.opened_at
    for stop in stops:
        if begin is not None:
            segments.append((begin, stop.stopped_at))
        begin = stop.restarted_at
    if begin is not None:
        segments.append((begin, end))
    return segments


def _window_at(versions: list[TableSettings], at: datetime) -> timedelta:
    """The ``dp_rotation_window`` of the settings version in force at ``at`` (the newest made
    by then: the one a hand starting then started under)."""
    chosen = versions[0]
    for version in versions:
        if version.created_at <= at:
            chosen = version
    return timedelta(minutes=chosen.dp_rotation_window)


def rotation_compliance_flags(
    table: Table, start: datetime, end: datetime, *, window: timedelta | None = None
) -> list[RotationFlag]:
    """R16's compliance check over ``[start, end)``: every window of ``dp_rotation_window``
    minutes of play (inside one table session, between stopped games) in which fewer than
    two players other than a proposition player held the position. Each window's width is
    that of the settings in force where it starts (not today's; ``window`` overrides). Windows
    are anchored at the start of play and just after each hand, which are the only places
    where a window's set of hands can shrink."""
    versions = list(TableSettings.objects.filter(table=table).order_by("version"))
    sessions = TableSession.objects.filter(table=table, opened_at__lt=end).exclude(
        closed_at__lte=start
    )
    stops: dict[int, list[GameStop]] = {}
    for stop in GameStop.objects.filter(table=table, stopped_at__lt=end).order_by("stopped_at"):
        stops.setdefault(stop.session_id, []).append(stop)
    flags: list[RotationFlag] = []
    for session in sessions.order_by("opened_at"):
        finish_all = session.closed_at or timezone.now()
        for begin, finish in _play_segments(session, stops.get(session.pk, []), finish_all):
            play_start, play_end = max(begin, start), min(finish, end)
            if play_start >= play_end:
                continue
            flags += _segment_flags(
                table,
                session,
                play_start,
                play_end,
                lambda at: window or _window_at(versions, at),
            )
    return flags


def _segment_flags(
    table: Table,
    session: TableSession,
    play_start: datetime,
    play_end: datetime,
    width_at: Callable[[datetime], timedelta],
) -> list[RotationFlag]:
    hands = [
        (record.created_at, record.player, record.proposition_player)
        for record in rotation_log(table, play_start, play_end).filter(
            session=session, designated_player__isnull=False
        )
        if record.player is not None
    ]
    step = timedelta(microseconds=1)
    anchors = [play_start] + [at + step for at, _, _ in hands]
    seen: set[tuple[int, ...]] = set()
    flags: list[RotationFlag] = []
    for anchor in anchors:
        width = width_at(anchor)
        if anchor + width > play_end:
            continue
        indexes = tuple(i for i, h in enumerate(hands) if anchor <= h[0] < anchor + width)
        if not indexes or indexes in seen:
            continue
        seen.add(indexes)
        inside = [hands[i] for i in indexes]
        counted = {player.pk for _, player, prop in inside if not prop}
        if len(counted) < 2:
            flags.append(
                RotationFlag(
                    start=anchor,
                    end=anchor + width,
                    holders=tuple(sorted({player.name for _, player, _ in inside})),
                    hands=len(inside),
                )
            )
    return flags


def self_approval_pending(cardroom: Cardroom) -> QuerySet[SelfApprovalChange]:
    """The cardroom's self-approval change waiting for a decision (at most one)."""
    return SelfApprovalChange.objects.filter(cardroom=cardroom, decision__isnull=True)


def self_approval_history(cardroom: Cardroom) -> QuerySet[SelfApprovalChange]:
    """Every self-approval change of the cardroom, newest first, with its decision."""
    return (
        SelfApprovalChange.objects.filter(cardroom=cardroom)
        .select_related("decision", "cardroom")
        .order_by("-proposed_at", "-id")
    )


# --- who sees what of a table ------------------------------------------------


@dataclass(frozen=True)
class Viewer:
    """What one user may read of the tables, decided once per request (one query for the
    role, one for the tables where the user deals now). The rules:

    - a table's stacks, seatings and rotation, and its cage records (rack counts, slips): its
      staff (the dealer on duty there), floor supervisors and compliance auditors;
    - the hole cards of a hand not yet settled: the dealer on duty at its table and floor
      supervisors only (not compliance, not another table's dealer); once settled, everyone
      who reads hands.
    """

    role: str | None
    on_duty_at: frozenset[int]

    def sees_stacks(self, table_id: int) -> bool:
        return self.role in (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR) or self._deals(table_id)

    def sees_cage_records(self, table_id: int) -> bool:
        """A table's rack counts and its fill and credit slips: the same people as its stacks
        (another table's dealer, or one off duty, does not)."""
        return self.sees_stacks(table_id)

    def sees_live_cards(self, table_id: int) -> bool:
        return self.role == FLOOR_SUPERVISOR or self._deals(table_id)

    def _deals(self, table_id: int) -> bool:
        return self.role == DEALER and table_id in self.on_duty_at


def viewer(user: AbstractBaseUser | AnonymousUser | None) -> Viewer:
    role = role_of(user)
    if role != DEALER or user is None:
        return Viewer(role=role, on_duty_at=frozenset())
    tables = TableSession.objects.filter(dealer_id=user.pk, closed_at=None)
    return Viewer(role=role, on_duty_at=frozenset(tables.values_list("table_id", flat=True)))
