"""Hold against theoretical (game-math.md): over a period, what each bank held on each wager
type, next to what the game math says it should hold, and the band chance allows.

For a table over ``[start, end)`` (the hands *settled* in it; a corrected hand counts with its
settlement in force, in the period it was first settled):

- **handle** per wager type (ante, raise, Flush Bonus, Straight Flush Bonus): the amounts
  wagered, pushes included; wagers returned by a dead hand (R14) are not wagered;
- **win**: what the bank won on those wagers, fees apart: the house on a house-banked table,
  the designated player on a DP table (each DP player, and the proposition player, apart);
- **hold %** = win ÷ handle;
- **theoretical win** = Σ handle × house edge, per wager type and per settings version each
  hand was played under (the ante and raise together, on the ante's handle: their edge is
  quoted per unit of ante, R8/R9);
- **band** = theoretical ± z·σ·√n·(average wager) per wager type, σ² the per-wager variance
  under the version's settings (summed over versions as variances add:
  z·√(Σ σ²·n·average²)); z is ``settings.HOLD_BAND_Z`` (3 unless set).

A win outside its band is **flagged**, with the figures that raised it; a flag changes
nothing. Selectors only: nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from django.conf import settings as django_settings

from core.errors import DomainError
from core.replica import ReadSource, reporting
from patrons.models import Cardroom, Player
from tables.models import Table
from tables.selectors import day_shifts, gaming_day_bounds, shift_bounds

from .hold_lines import (
    DESIGNATED_PLAYER,
    DESIGNATED_PLAYERS,
    HOUSE,
    PROPOSITION_PLAYER,
    BankHold,
    bank_hold,
)
from .hold_rows import figures_by_version, hands_by_dp, in_force, wager_groups

DEFAULT_Z = Decimal(3)


def band_z() -> Decimal:
    """z of the hold bands: ``settings.HOLD_BAND_Z``, 3 by default (game-math.md)."""
    return Decimal(str(getattr(django_settings, "HOLD_BAND_Z", DEFAULT_Z)))


# --- periods -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """A report's period: ``[start, end)``, with what it is called."""

    kind: str  # day, month (to date), shift, range
    label: str
    start: datetime
    end: datetime


def day_period(cardroom: Cardroom, day: date) -> Period:
    start, end = gaming_day_bounds(cardroom, day)
    return Period("day", f"gaming day {day.isoformat()}", start, end)


def month_to_date_period(cardroom: Cardroom, day: date) -> Period:
    """From the start of the month's first gaming day to the end of ``day``."""
    start, _ = gaming_day_bounds(cardroom, day.replace(day=1))
    _, end = gaming_day_bounds(cardroom, day)
    return Period("month", f"{day:%B %Y} to {day.isoformat()}", start, end)


def shift_period(cardroom: Cardroom, day: date, shift: str) -> Period:
    """A shift of a gaming day (the cardroom's shifts, e.g. day / swing / grave; a cardroom
    that defines none has one, ``day``, the whole gaming day)."""
    start, end = shift_bounds(cardroom, day, shift)
    return Period("shift", f"{shift} shift of gaming day {day.isoformat()}", start, end)


def day_shift_periods(cardroom: Cardroom, day: date) -> list[Period]:
    """Every shift of a gaming day, in order."""
    return [
        Period("shift", f"{span.shift} shift of gaming day {day.isoformat()}", span.start, span.end)
        for span in day_shifts(cardroom, day)
    ]


def range_period(start: datetime, end: datetime) -> Period:
    if start >= end:
        raise DomainError("The period must end after it starts.", field="to")
    return Period("range", f"{start.isoformat()} to {end.isoformat()}", start, end)


# --- the report --------------------------------------------------------------------------------


@dataclass
class HoldReport:
    table: Table
    period: Period
    z: Decimal
    total: BankHold  # the table's bank: the house, or every designated player together
    players: list[BankHold] = field(default_factory=list)  # each DP player, on a DP table
    source: ReadSource = field(default_factory=ReadSource)  # the replica, or the primary

    @property
    def banks(self) -> list[BankHold]:
        return [self.total, *self.players]

    @property
    def flags(self) -> list[str]:
        return [flag for bank in self.banks for flag in bank.flags]


def hold_report(table: Table, period: Period, *, z: Decimal | None = None) -> HoldReport:
    """Hold against theoretical at a table over the period: the table's bank, and on a DP
    table each designated player (the proposition player apart). Four queries, whatever the
    number of hands: the sums are the database's, by wager type, settings version and DP.
    Read from the replica when one is configured (``core.replica``)."""
    with reporting() as source:
        return _hold_report(table, period, band_z() if z is None else z, source)


def _hold_report(table: Table, period: Period, z: Decimal, source: ReadSource) -> HoldReport:
    wagers = in_force(table, period.start, period.end)
    groups = list(wager_groups(wagers))
    versions = figures_by_version(table, {group.settings for group in groups})
    hands = hands_by_dp(wagers)
    house = table.banking == "house"
    kind = HOUSE if house else DESIGNATED_PLAYERS
    total = bank_hold(kind, None, sum(hands.values()), groups, versions, table, z)
    players: list[BankHold] = []
    if not house:
        dps = {key: count for key, count in hands.items() if key[0] is not None}
        names = Player.objects.in_bulk([player for player, _ in dps])
        for (player, proposition), count in sorted(
            dps.items(), key=lambda item: (names[item[0][0]].name, item[0])
        ):
            own = [g for g in groups if (g.dp_player, g.proposition) == (player, proposition)]
            kind = PROPOSITION_PLAYER if proposition else DESIGNATED_PLAYER
            players.append(bank_hold(kind, names[player], count, own, versions, table, z))
    return HoldReport(table=table, period=period, z=z, total=total, players=players, source=source)


def hold_reports(period: Period, *, tables: Iterable[Table] | None = None) -> Iterator[HoldReport]:
    """Every table with a hand settled in the period (or those given), by cardroom and name."""
    if tables is None:
        tables = (
            Table.objects.filter(
                hands__settled_at__gte=period.start, hands__settled_at__lt=period.end
            )
            .distinct()
            .select_related("cardroom")
            .order_by("cardroom__name", "name")
        )
    for table in tables:
        yield hold_report(table, period)
