"""Compliance reports, per table and gaming day in the cardroom's time zone.

Selectors only: they read what the services wrote and never change anything. They read from
the replica when one is configured (``core.replica.reporting``); each report says where from.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.db.models import Q, QuerySet

from core.replica import ReadSource, reporting
from patrons.models import Player
from rake.selectors import fees_by_mode
from tables.models import RotationRecord, Seating, StackEntry, Table
from tables.selectors import gaming_day_bounds, rotation_compliance_flags, rotation_log
from tables.staff_models import SettingChange
from wagers.models import Hand, SpotSettlement


@dataclass
class TableDayReport:
    table: Table
    day: date
    start: datetime
    end: datetime
    fees_by_mode: dict[str, Decimal]
    fees_total: Decimal
    hands_played: int  # settled (not misdealt) hands
    dead_spots_by_reason: dict[str, int]  # R14: wrong_card_count, dealer_funds, misdeal
    misdeals: dict[str, int]  # by reason: dealer_card_count, shuffler_fault
    rotation: list[RotationRecord] = field(default_factory=list)
    rotation_flags: list = field(default_factory=list)
    setting_changes: list[SettingChange] = field(default_factory=list)
    source: ReadSource = field(default_factory=ReadSource)


def table_day_report(table: Table, day: date) -> TableDayReport:
    """Everything compliance reads about one table's gaming day."""
    with reporting() as source:
        return _table_day_report(table, day, source)


def _table_day_report(table: Table, day: date, source: ReadSource) -> TableDayReport:
    start, end = gaming_day_bounds(table.cardroom, day)
    fees = fees_by_mode(table, day, day).get(day, {})
    hands = Hand.objects.filter(table=table, settled_at__gte=start, settled_at__lt=end)
    # The settlement in force: an original or a correction that no later entry reversed.
    dead = (
        SpotSettlement.objects.filter(
            settlement__hand__in=hands, settlement__reversed_by__isnull=True, status="dead"
        )
        .exclude(settlement__kind="reversal")
        .values_list("dead_reason", flat=True)
    )
    return TableDayReport(
        table=table,
        day=day,
        start=start,
        end=end,
        fees_by_mode=fees,
        fees_total=sum(fees.values(), Decimal("0.00")),
        hands_played=hands.filter(status=Hand.Status.SETTLED).count(),
        dead_spots_by_reason=dict(Counter(dead)),
        misdeals=dict(Counter(hands.exclude(misdeal="").values_list("misdeal", flat=True))),
        rotation=list(rotation_log(table, start, end)),
        rotation_flags=rotation_compliance_flags(table, start, end)
        if table.banking == "designated_player"
        else [],
        setting_changes=list(
            SettingChange.objects.filter(table=table)
            .filter(
                Q(proposed_at__gte=start, proposed_at__lt=end)
                | Q(decision__decided_at__gte=start, decision__decided_at__lt=end)
            )
            .select_related("table", "proposed_by", "decision__decided_by")
            .order_by("proposed_at")
        ),
        source=source,
    )


@dataclass
class PlayerReport:
    player: Player
    seatings: list[Seating]
    movements: QuerySet[StackEntry]
    source: ReadSource = field(default_factory=ReadSource)


def player_report(player: Player, start: datetime, end: datetime) -> PlayerReport:
    """A player's sessions at the tables (seatings overlapping the period) and every stack
    movement in it (read, when the movements are listed, where the sessions were)."""
    with reporting() as source:
        return _player_report(player, start, end, source)


def _player_report(
    player: Player, start: datetime, end: datetime, source: ReadSource
) -> PlayerReport:
    seatings = (
        Seating.objects.filter(player=player, sat_at__lt=end)
        .exclude(left_at__lt=start)
        .select_related("table")
        .order_by("sat_at")
    )
    movements = (
        StackEntry.objects.filter(seating__player=player, created_at__gte=start, created_at__lt=end)
        .select_related("seating__table", "actor")
        .order_by("created_at", "id")
        .using(source.alias)
    )
    return PlayerReport(player=player, seatings=list(seatings), movements=movements, source=source)
