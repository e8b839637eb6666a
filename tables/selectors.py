"""Reads for tables: current settings, sessions, seats, the rotation log and its R16 check."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db.models import Q, QuerySet
from django.utils import timezone

from .models import (
    Cardroom,
    RotationRecord,
    Seating,
    SettingChange,
    StackEntry,
    Table,
    TableSession,
    TableSettings,
)


def gaming_day(cardroom: Cardroom, at: datetime) -> date:
    """The cardroom's business day of a moment: its local date, but a day starts at the
    cardroom's day-start hour (06:00 by default), so 02:00 belongs to the day before."""
    day = at.astimezone(ZoneInfo(cardroom.time_zone)).date()
    # Judged against the day's own bounds, so that the two always agree, also when the
    # day-start hour falls in a daylight-saving gap or overlap (02:30 on a spring-forward day).
    start, _ = gaming_day_bounds(cardroom, day)
    return day if at.astimezone(UTC) >= start.astimezone(UTC) else day - timedelta(days=1)


def gaming_day_bounds(cardroom: Cardroom, day: date) -> tuple[datetime, datetime]:
    """The moments a gaming day starts and ends (the next day's start), as aware datetimes."""
    zone = ZoneInfo(cardroom.time_zone)
    start = datetime.combine(day, cardroom.gaming_day_starts_at, tzinfo=zone)
    end = datetime.combine(day + timedelta(days=1), cardroom.gaming_day_starts_at, tzinfo=zone)
    return start, end


def current_settings(table: Table) -> TableSettings:
    """The newest settings version: the one the next hand starts under (R17)."""
    return TableSettings.objects.filter(table=table).latest("version")


def open_session(table: Table) -> TableSession | None:
    return TableSession.objects.filter(table=table, closed_at=None).first()


def seated(table: Table) -> QuerySet[Seating]:
    return Seating.objects.filter(table=table, left_at=None).select_related("player")


def hand_in_progress(table: Table, *, seating: Seating | None = None) -> bool:
    """Whether a hand at the table (with that seating in it, if given) is not yet over.

    Hands belong to the layer above (``wagers``); they are reached through the reverse
    relations ``Table.hands``, ``Seating.spots`` and ``Seating.hands_as_dp``, so that tables
    import nothing of wagers. A hand is over once it has its ``settled_at`` (settled, dead
    or cancelled).
    """
    hands = table.hands.filter(settled_at__isnull=True)
    if seating is not None:
        hands = hands.filter(Q(spots__seating=seating) | Q(dp_seating=seating))
    return bool(hands.exists())


def stack_history(seating: Seating) -> QuerySet[StackEntry]:
    return StackEntry.objects.filter(seating=seating).order_by("id")


def setting_change_history(table: Table) -> QuerySet[SettingChange]:
    return SettingChange.objects.filter(table=table).select_related(
        "table", "proposed_by", "decided_by", "result", "based_on"
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


def rotation_compliance_flags(
    table: Table, start: datetime, end: datetime, *, window: timedelta | None = None
) -> list[RotationFlag]:
    """R16's compliance check over ``[start, end)``: every window of ``dp_rotation_window``
    minutes of play (inside one table session) in which fewer than two players other than a
    proposition player held the position. Windows are anchored at the start of play and just
    after each hand, which are the only places where a window's set of hands can shrink."""
    width = window or timedelta(minutes=current_settings(table).dp_rotation_window)
    sessions = TableSession.objects.filter(table=table, opened_at__lt=end).exclude(
        closed_at__lte=start
    )
    flags: list[RotationFlag] = []
    for session in sessions.order_by("opened_at"):
        play_start = max(session.opened_at, start)
        play_end = min(session.closed_at or timezone.now(), end)
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
        for anchor in anchors:
            if anchor + width > play_end:
                break
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
