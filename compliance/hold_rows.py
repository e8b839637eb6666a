"""Hold against theoretical: reading the settlements in force at a table over a period, summed
by the database per wager type, settings version and designated player."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.db.models import Count, QuerySet, Sum

from core.money import ZERO
from engine.game_math import TableFigures
from engine.results import Outcome
from tables.figures import settings_figures
from tables.models import Table, TableSettings
from wagers.models import Settlement, WagerSettlement

CENT = Decimal("0.01")
_HAND = "spot_settlement__settlement__hand"
# The DP as the rotation recorded it (a snapshot), else as seated: (player, proposition).
_DP_FIELDS = (
    f"{_HAND}__rotation__player_id",
    f"{_HAND}__rotation__proposition_player",
    f"{_HAND}__dp_seating__player_id",
    f"{_HAND}__dp_seating__proposition_player",
)


@dataclass(frozen=True, slots=True)
class Group:
    """The sums of one wager type at one settings version under one DP."""

    wager: str
    settings: int
    dp_player: int | None
    proposition: bool
    wagers: int
    stake: Decimal
    net: Decimal  # the players'; the bank won -net


def in_force(table: Table, start: datetime, end: datetime) -> QuerySet[WagerSettlement]:
    """Every wager in action of the hands settled at the table in the period, from the
    settlement in force (an original or a correction no later entry reversed)."""
    return (
        WagerSettlement.objects.filter(
            spot_settlement__settlement__hand__table=table,
            spot_settlement__settlement__hand__settled_at__gte=start,
            spot_settlement__settlement__hand__settled_at__lt=end,
            spot_settlement__settlement__reversed_by__isnull=True,
        )
        .exclude(spot_settlement__settlement__kind=Settlement.Kind.REVERSAL)
        .exclude(outcome=Outcome.RETURNED)  # R14: a dead hand's wagers are not in action
        .order_by()
    )


def _dp(row: dict[str, Any]) -> tuple[int | None, bool]:
    recorded, prop, seated, seated_prop = (row[name] for name in _DP_FIELDS)
    if recorded is not None:
        return recorded, bool(prop)
    return seated, bool(seated_prop)


def wager_groups(wagers: QuerySet[WagerSettlement]) -> Iterator[Group]:
    rows = wagers.values("wager", f"{_HAND}__settings_id", *_DP_FIELDS).annotate(
        n=Count("id"), stake=Sum("stake"), net=Sum("net")
    )
    for row in rows:
        player, proposition = _dp(row)
        yield Group(
            row["wager"],
            row[f"{_HAND}__settings_id"],
            player,
            proposition,
            row["n"],
            _exact(row["stake"]),
            _exact(row["net"]),
        )


def hands_by_dp(wagers: QuerySet[WagerSettlement]) -> dict[tuple[int | None, bool], int]:
    """Hands with a wager in action, by DP (one key, (None, False), on a house-banked table)."""
    counts: dict[tuple[int | None, bool], int] = {}
    for row in wagers.values(*_DP_FIELDS).annotate(hands=Count(_HAND, distinct=True)):
        key = _dp(row)
        counts[key] = counts.get(key, 0) + row["hands"]
    return counts


def _exact(total: Decimal | None) -> Decimal:
    """A database sum as exact cents: SQLite adds decimals as floating point (as
    ``rake.selectors`` does for fees); every amount summed is whole cents."""
    return (total or ZERO).quantize(CENT)


def figures_by_version(table: Table, versions: set[int]) -> dict[int, TableFigures]:
    """Each settings version's figures (the engine keeps each paytable's once computed)."""
    return {
        settings.pk: settings_figures(settings)
        for settings in TableSettings.objects.filter(table=table, pk__in=versions)
    }
