"""Hold against theoretical, one bank's lines: each wager type's handle and win summed over
settings versions against the game math's edge and band, and how a line reads."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Context, Decimal
from fractions import Fraction
from typing import Any

from core.money import ZERO, money_text
from engine.game_math import TableFigures, format_figure
from patrons.models import Player
from tables.models import Table

from .hold_rows import CENT, Group

#: The wager types theory is worked out for; the ante and raise go together (R8, R9).
LINES = ("ante_raise", "flush_bonus", "straight_flush_bonus")
LINE_LABELS = {
    "ante_raise": "Ante and raise",
    "flush_bonus": "Flush Bonus",
    "straight_flush_bonus": "Straight Flush Bonus",
}
LINE_OF = {
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
class _Tally:
    """One line of one settings version: what theory needs."""

    wagers: int = 0  # n
    theory_handle: Decimal = ZERO  # the handle the edge applies to: antes only for ante_raise
    handle: dict[str, Decimal] = field(default_factory=dict)
    win: Decimal = ZERO


def bank_hold(
    bank: str,
    player: Player | None,
    hands: int,
    groups: list[Group],
    versions: dict[int, TableFigures],
    table: Table,
    z: Decimal,
) -> BankHold:
    tallies: dict[tuple[str, int], _Tally] = {}
    for group in groups:
        line = LINE_OF[group.wager]
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
