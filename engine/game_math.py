"""Game math (shared/spec/game-math.md): what each wager of a table returns in the long run.

Everything here is exact: probabilities are ``Fraction``s of hand counts. The counts come from
``hand_counts`` (one hand's largest flush and longest run: ``paytable`` bonuses, R10) and
``deal_counts`` (a spot's hand against the dealer's over every deal: ``versus_dp`` bonuses,
R10). The ante and raise (R8, R9) under the optimal strategy is an enumeration run once,
offline, by ``python -m bench.ante_raise_edge``; its result is kept in ``ante_raise_edge.py``.

Pure Python, standard library only; everything expensive is computed once per process.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from . import ante_raise_edge
from .deal_counts import versus_dp_lines
from .hand_counts import HANDS, PLACES, Bonus, line_hands
from .round_json import table_from_json
from .table import BonusMode, TableRules


def format_figure(value: Fraction, places: int = PLACES) -> str:
    """A figure as a decimal string with ``places`` places, rounded half-even (game-math.md)."""
    scaled = round(value * 10**places)  # Fraction.__round__ rounds half to even
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{part:0{places}d}"


VERSUS_DP_STRATEGY = (
    "a spot raises whenever its hand reaches a paid line of this paytable (R10: the bonus "
    "needs a raise; a hand on no line loses the bonus whatever the spot does)"
)


@dataclass(frozen=True, slots=True)
class WagerFigures:
    """What one bonus wager returns per unit staked: exact ``Fraction``s.

    ``variance`` is the variance of the wager's net result per unit staked (win: +odds,
    push: 0, loss: -1): σ² for the hold bands of game-math.md.
    """

    mode: BonusMode
    return_: Fraction
    hit_frequency: Fraction
    variance: Fraction
    method: str = "exact"
    strategy: str | None = None

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.return_

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": str(self.mode),
            "return": format_figure(self.return_),
            "house_edge": format_figure(self.house_edge),
            "hit_frequency": format_figure(self.hit_frequency),
            "method": self.method,
        }
        if self.strategy is not None:
            out["strategy"] = self.strategy
        return out


def _figures(
    mode: BonusMode,
    outcomes: Mapping[int, tuple[Fraction, Fraction]],
    paytable: Mapping[int, int],
    strategy: str | None,
) -> WagerFigures:
    """``outcomes[line] = (P(win on line), P(push on line))``; every other deal loses."""
    back = hit = pushes = second = Fraction(0)
    for line, odds in paytable.items():
        win, push = outcomes[line]
        back += win * (odds + 1) + push  # a push returns the stake
        hit += win
        pushes += push
        second += win * odds * odds
    lose = 1 - hit - pushes
    mean = back - 1
    return WagerFigures(mode, back, hit, second + lose - mean * mean, strategy=strategy)


@cache
def _bonus_figures(
    bonus: Bonus, mode: BonusMode, lines: tuple[tuple[int, int], ...]
) -> WagerFigures:
    paytable = dict(lines)
    if mode is BonusMode.PAYTABLE:
        # R10 paytable: the spot's own hand against the paytable alone, fold or not.
        hands = line_hands(bonus)
        outcomes = {line: (Fraction(hands[line], HANDS), Fraction(0)) for line in paytable}
        return _figures(mode, outcomes, paytable, None)
    # R10 versus_dp: on its line the spot's hand must beat the dealer's in the category.
    table = versus_dp_lines(bonus)
    outcomes = {line: (table[line].win, table[line].push) for line in paytable}
    return _figures(mode, outcomes, paytable, VERSUS_DP_STRATEGY)


def bonus_figures(bonus: Bonus, mode: BonusMode, paytable: Mapping[int, int]) -> WagerFigures:
    """Return, hit frequency and variance of a bonus wager with this paytable (R10)."""
    return _bonus_figures(bonus, mode, tuple(sorted(paytable.items())))


@dataclass(frozen=True, slots=True)
class AnteRaiseFigures:
    """R8/R9: the ante and raise per unit of ante under the optimal raise/fold strategy."""

    house_edge: Fraction
    variance: Fraction  # of the net result of ante and raise together, per unit of ante
    strategy: str
    method: str

    def to_json(self) -> dict[str, Any]:
        return {
            "house_edge": format_figure(self.house_edge),
            "strategy": self.strategy,
            "method": self.method,
        }


def ante_raise_figures() -> AnteRaiseFigures:
    """The figure ``python -m bench.ante_raise_edge`` computed offline (see ante_raise_edge)."""
    kept = ante_raise_edge
    return AnteRaiseFigures(
        house_edge=Fraction(kept.HOUSE_EDGE_NUMERATOR, kept.HOUSE_EDGE_DENOMINATOR),
        variance=Fraction(kept.VARIANCE_NUMERATOR, kept.VARIANCE_DENOMINATOR),
        strategy=kept.STRATEGY,
        method=kept.METHOD,
    )


@dataclass(frozen=True, slots=True)
class TableFigures:
    """game-math.md's figures object for one table's settings."""

    flush_bonus: WagerFigures
    straight_flush_bonus: WagerFigures
    ante_raise: AnteRaiseFigures

    def to_json(self) -> dict[str, Any]:
        return {
            "flush_bonus": self.flush_bonus.to_json(),
            "straight_flush_bonus": self.straight_flush_bonus.to_json(),
            "ante_raise": self.ante_raise.to_json(),
        }


def table_figures(rules: TableRules) -> TableFigures:
    """Every wager's figures under a table's settings (bonus mode and paytables, R10)."""
    return TableFigures(
        flush_bonus=bonus_figures(Bonus.FLUSH, rules.bonus_mode, rules.flush_paytable),
        straight_flush_bonus=bonus_figures(
            Bonus.STRAIGHT_FLUSH, rules.bonus_mode, rules.straight_flush_paytable
        ),
        ante_raise=ante_raise_figures(),
    )


def game_math_json(data: object) -> dict[str, Any]:
    """``manage.py game_math`` for one settle-json ``table`` object: the JSON-ready figures.

    Missing settings take the settle-json contract's defaults for the table's banking kind;
    a bad object raises ``RoundError`` naming ``table.<field>``.
    """
    return table_figures(table_from_json(data)).to_json()


__all__: Sequence[str] = (
    "AnteRaiseFigures",
    "TableFigures",
    "WagerFigures",
    "ante_raise_figures",
    "bonus_figures",
    "format_figure",
    "game_math_json",
    "table_figures",
)
