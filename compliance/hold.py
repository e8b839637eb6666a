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
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from typing import Any

from django.conf import settings as django_settings
from django.db.models import Count, QuerySet, Sum

from core.errors import DomainError
from core.money import ZERO, money_text
from engine.game_math import TableFigures, format_figure
from engine.results import Outcome
from tables.figures import settings_figures
from tables.models import Cardroom, Player, Table, TableSettings
from tables.selectors import day_shifts, gaming_day_bounds, shift_bounds
from wagers.models import Settlement, WagerSettlement

CENT = Decimal("0.01")
DEFAULT_Z = Decimal(3)
#: The wager types theory is worked out for; the ante and raise go together (R8, R9).
LINES = ("ante_raise", "flush_bonus", "straight_flush_bonus")
LINE_LABELS = {
    "ante_raise": "Ante and raise",
    "flush_bonus": "Flush Bonus",
    "straight_flush_bonus": "Straight Flush Bonus",
}
_LINE_OF = {
    "ante": "ante_raise",
    "raise": "ante_raise",
    "flush_bonus": "flush_bonus",
    "straight_flush_bonus": "straight_flush_bonus",
}
#: Who banks the wagers of a report's part.
HOUSE, DESIGNATED_PLAYERS, DESIGNATED_PLAYER, PROPOSITION_PLAYER = (
    "house",
    "designated_players",
    "designated_player",
    "proposition_player",
)


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
class LineHold:
    """One wager type (or the ante and raise together) of one bank over the period."""

    wager: str
    wagers: int  # n: how many wagers (antes for the ante and raise)
    handle: Decimal
    handle_by_wager: dict[str, Decimal]  # ante and raise apart; one entry for a bonus
    win: Decimal
    theoretical_win: Decimal
    band_low: Decimal
    band_high: Decimal
    hold: Fraction | None  # win ÷ handle; None without handle
    theoretical_hold: Fraction | None
    flag: str = ""  # why the win is outside its band; empty when it is inside

    @property
    def label(self) -> str:
        return LINE_LABELS[self.wager]

    @property
    def flagged(self) -> bool:
        return bool(self.flag)


@dataclass
class BankHold:
    """Everything one bank (the house, every DP together, or one DP player) held."""

    bank: str
    player: Player | None
    hands: int
    lines: list[LineHold]

    @property
    def name(self) -> str:
        if self.player is not None:
            suffix = " (proposition player)" if self.bank == PROPOSITION_PLAYER else ""
            return f"{self.player.name}{suffix}"
        return "the house" if self.bank == HOUSE else "every designated player"

    @property
    def handle(self) -> Decimal:
        return sum((line.handle for line in self.lines), ZERO)

    @property
    def win(self) -> Decimal:
        return sum((line.win for line in self.lines), ZERO)

    @property
    def theoretical_win(self) -> Decimal:
        return sum((line.theoretical_win for line in self.lines), ZERO)

    @property
    def hold(self) -> Fraction | None:
        return _ratio(self.win, self.handle)

    @property
    def flags(self) -> list[str]:
        return [line.flag for line in self.lines if line.flag]


@dataclass
class HoldReport:
    table: Table
    period: Period
    z: Decimal
    total: BankHold  # the table's bank: the house, or every designated player together
    players: list[BankHold] = field(default_factory=list)  # each DP player, on a DP table

    @property
    def banks(self) -> list[BankHold]:
        return [self.total, *self.players]

    @property
    def flags(self) -> list[str]:
        return [flag for bank in self.banks for flag in bank.flags]


def hold_report(table: Table, period: Period, *, z: Decimal | None = None) -> HoldReport:
    """Hold against theoretical at a table over the period: the table's bank, and on a DP
    table each designated player (the proposition player apart). Four queries, whatever the
    number of hands: the sums are the database's, by wager type, settings version and DP."""
    z = band_z() if z is None else z
    wagers = _in_force(table, period)
    groups = list(_groups(wagers))
    versions = _figures_by_version(table, {group.settings for group in groups})
    hands = _hands(wagers)
    house = table.banking == "house"
    kind = HOUSE if house else DESIGNATED_PLAYERS
    total = _bank(kind, None, sum(hands.values()), groups, versions, table, z)
    players: list[BankHold] = []
    if not house:
        dps = {key: count for key, count in hands.items() if key[0] is not None}
        names = Player.objects.in_bulk([player for player, _ in dps])
        for (player, proposition), count in sorted(
            dps.items(), key=lambda item: (names[item[0][0]].name, item[0])
        ):
            own = [g for g in groups if (g.dp_player, g.proposition) == (player, proposition)]
            kind = PROPOSITION_PLAYER if proposition else DESIGNATED_PLAYER
            players.append(_bank(kind, names[player], count, own, versions, table, z))
    return HoldReport(table=table, period=period, z=z, total=total, players=players)


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


# --- reading the settlements -----------------------------------------------------------------


_HAND = "spot_settlement__settlement__hand"
# The DP as the rotation recorded it (a snapshot), else as seated: (player, proposition).
_DP_FIELDS = (
    f"{_HAND}__rotation__player_id",
    f"{_HAND}__rotation__proposition_player",
    f"{_HAND}__dp_seating__player_id",
    f"{_HAND}__dp_seating__proposition_player",
)


@dataclass(frozen=True, slots=True)
class _Group:
    """The sums of one wager type at one settings version under one DP."""

    wager: str
    settings: int
    dp_player: int | None
    proposition: bool
    wagers: int
    stake: Decimal
    net: Decimal  # the players'; the bank won -net


def _in_force(table: Table, period: Period) -> QuerySet[WagerSettlement]:
    """Every wager in action of the hands settled at the table in the period, from the
    settlement in force (an original or a correction no later entry reversed)."""
    return (
        WagerSettlement.objects.filter(
            spot_settlement__settlement__hand__table=table,
            spot_settlement__settlement__hand__settled_at__gte=period.start,
            spot_settlement__settlement__hand__settled_at__lt=period.end,
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


def _groups(wagers: QuerySet[WagerSettlement]) -> Iterator[_Group]:
    rows = wagers.values("wager", f"{_HAND}__settings_id", *_DP_FIELDS).annotate(
        n=Count("id"), stake=Sum("stake"), net=Sum("net")
    )
    for row in rows:
        player, proposition = _dp(row)
        yield _Group(
            row["wager"],
            row[f"{_HAND}__settings_id"],
            player,
            proposition,
            row["n"],
            _exact(row["stake"]),
            _exact(row["net"]),
        )


def _hands(wagers: QuerySet[WagerSettlement]) -> dict[tuple[int | None, bool], int]:
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


def _figures_by_version(table: Table, versions: set[int]) -> dict[int, TableFigures]:
    """Each settings version's figures (the engine keeps each paytable's once computed)."""
    return {
        settings.pk: settings_figures(settings)
        for settings in TableSettings.objects.filter(table=table, pk__in=versions)
    }


# --- the sums --------------------------------------------------------------------------------


@dataclass
class _Tally:
    """One line of one settings version: what theory needs."""

    wagers: int = 0  # n
    theory_handle: Decimal = ZERO  # the handle the edge applies to: antes only for ante_raise
    handle: dict[str, Decimal] = field(default_factory=dict)
    win: Decimal = ZERO


def _bank(
    bank: str,
    player: Player | None,
    hands: int,
    groups: list[_Group],
    versions: dict[int, TableFigures],
    table: Table,
    z: Decimal,
) -> BankHold:
    tallies: dict[tuple[str, int], _Tally] = {}
    for group in groups:
        line = _LINE_OF[group.wager]
        tally = tallies.setdefault((line, group.settings), _Tally())
        tally.handle[group.wager] = tally.handle.get(group.wager, ZERO) + group.stake
        tally.win -= group.net
        if group.wager != "raise":  # the ante and raise's edge and variance are per ante
            tally.wagers += group.wagers
            tally.theory_handle += group.stake
    holder = BankHold(bank, player, hands, [])
    for line in LINES:
        parts = [(versions[v], t) for (name, v), t in tallies.items() if name == line]
        holder.lines.append(_line(line, parts, z, f"{table}, {holder.name}"))
    return holder


def _line(line: str, parts: list[tuple[TableFigures, _Tally]], z: Decimal, who: str) -> LineHold:
    by_wager: dict[str, Decimal] = (
        {"ante": ZERO, "raise": ZERO} if line == "ante_raise" else {line: ZERO}
    )
    theoretical, variance, wagers, win = Fraction(0), Fraction(0), 0, ZERO
    for figures, tally in parts:
        edge, sigma2 = _edge_and_variance(figures, line)
        handle = Fraction(tally.theory_handle)
        theoretical += handle * edge
        variance += sigma2 * handle * handle / tally.wagers  # σ²·n·(average wager)²
        wagers += tally.wagers
        win += tally.win
        for name, amount in tally.handle.items():
            by_wager[name] += amount
    handle_total = sum(by_wager.values(), ZERO)
    half = z * _sqrt(variance)
    theory = _cents(theoretical)
    low, high = (theory - half).quantize(CENT), (theory + half).quantize(CENT)
    result = LineHold(
        wager=line,
        wagers=wagers,
        handle=handle_total,
        handle_by_wager=by_wager,
        win=win,
        theoretical_win=theory,
        band_low=low,
        band_high=high,
        hold=_ratio(win, handle_total),
        theoretical_hold=_ratio(theoretical, handle_total),
    )
    if wagers and not low <= win <= high:
        result.flag = _flag_text(result, who, z)
    return result


def _edge_and_variance(figures: TableFigures, line: str) -> tuple[Fraction, Fraction]:
    if line == "ante_raise":
        return figures.ante_raise.house_edge, figures.ante_raise.variance
    wager = getattr(figures, line)
    return wager.house_edge, wager.variance


def _flag_text(line: LineHold, who: str, z: Decimal) -> str:
    beyond = line.win - line.band_high if line.win > line.band_high else line.band_low - line.win
    side = "above" if line.win > line.band_high else "below"
    return (
        f"{who}: {line.label} won {dollars(line.win)} on {dollars(line.handle)} handle "
        f"({line.wagers} wagers), hold {percent(line.hold)} against "
        f"{percent(line.theoretical_hold)} theoretical (theoretical win "
        f"{dollars(line.theoretical_win)}); the band at z = {z} is {dollars(line.band_low)} "
        f"to {dollars(line.band_high)}, and the win is {dollars(beyond)} {side} it."
    )


def dollars(amount: Decimal) -> str:
    """``Decimal("-10")`` → ``"-$10.00"``."""
    return f"-${money_text(-amount)}" if amount < 0 else f"${money_text(amount)}"


def percent(value: Fraction | None, places: int = 2) -> str:
    """``Fraction(1, 8)`` → ``"12.50%"``; a dash without handle."""
    return "–" if value is None else f"{format_figure(value * 100, places)}%"


def figure(value: Fraction | None) -> str | None:
    """A hold as a fraction of 1 with 6 places, like every figure in the API."""
    return None if value is None else format_figure(value)


def _ratio(numerator: Decimal | Fraction, denominator: Decimal) -> Fraction | None:
    return Fraction(numerator) / Fraction(denominator) if denominator else None


def _cents(value: Fraction) -> Decimal:
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        CENT, rounding=ROUND_HALF_EVEN
    )


def _sqrt(value: Fraction) -> Decimal:
    """√value in Decimal arithmetic (34 digits), never float."""
    context = Context(prec=34)
    return context.sqrt(context.divide(Decimal(value.numerator), Decimal(value.denominator)))


def line_json(line: LineHold) -> dict[str, Any]:
    """A line as the API and the CSV export give it: money as strings, holds as fractions."""
    return {
        "wager": line.wager,
        "wagers": line.wagers,
        "handle": line.handle,
        "handle_by_wager": line.handle_by_wager,
        "win": line.win,
        "hold": figure(line.hold),
        "theoretical_win": line.theoretical_win,
        "theoretical_hold": figure(line.theoretical_hold),
        "band_low": line.band_low,
        "band_high": line.band_high,
        "flagged": line.flagged,
        "flag": line.flag,
    }
