"""What a table's settings pay players in the long run (game-math.md), and the guardrail a
house-banked table's settings must pass before they are approved (R17).

The figures come from the engine's exact game math (``engine.game_math``), which keeps
every paytable's figures once computed (a paytable's are a few milliseconds, a versus_dp
table's under a second the first time in a process). Only the bonus mode and the two
paytables change them: the ante and raise under the optimal strategy are one figure for every
table (R8, R9; computed offline, ``bench/ante_raise_edge.py``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from fractions import Fraction
from typing import Any

from core.errors import DomainError
from engine import game_math
from engine.game_math import TableFigures, WagerFigures
from engine.hand_counts import Bonus
from engine.table import Banking, BonusMode

from .models import TableSettings
from .staff_models import SettingChange

#: The two bonus wagers: the figures' name, what a person calls it, the setting of its paytable.
BONUSES = (
    ("flush_bonus", "Flush Bonus", "flush_paytable"),
    ("straight_flush_bonus", "Straight Flush Bonus", "straight_flush_paytable"),
)
_BONUS_OF = {"flush_paytable": Bonus.FLUSH, "straight_flush_paytable": Bonus.STRAIGHT_FLUSH}


def paytable_lines(paytable: Mapping[Any, Any]) -> dict[int, int]:
    """A paytable as a setting holds it (``{"4": 1, …}``) as the engine reads it."""
    return {int(size): int(odds) for size, odds in paytable.items()}


def paytable_text(paytable: Mapping[Any, Any]) -> str:
    """``{"4": 1, "5": 10}`` → ``"4:1, 5:10"``: size to odds (N to 1), smallest size first."""
    return ", ".join(f"{size}:{odds}" for size, odds in sorted(paytable_lines(paytable).items()))


def bonus_figures(kind: str, mode: BonusMode | str, paytable: Mapping[Any, Any]) -> WagerFigures:
    """One bonus's figures: ``kind`` is the paytable's setting name (R10)."""
    return game_math.bonus_figures(_BONUS_OF[kind], BonusMode(mode), paytable_lines(paytable))


def settings_figures(values: Mapping[str, Any] | TableSettings) -> TableFigures:
    """Every wager's figures under a table's settings (a version, or values as proposed):
    only ``bonus_mode`` and the two paytables count."""
    get = values.__getitem__ if isinstance(values, Mapping) else values.__getattribute__
    mode = BonusMode(get("bonus_mode"))
    return TableFigures(
        flush_bonus=bonus_figures("flush_paytable", mode, get("flush_paytable")),
        straight_flush_bonus=bonus_figures(
            "straight_flush_paytable", mode, get("straight_flush_paytable")
        ),
        ante_raise=game_math.ante_raise_figures(),
    )


#: The settings the figures depend on (R10): the bonus mode and the two paytables.
FIGURE_SETTINGS = ("bonus_mode", "flush_paytable", "straight_flush_paytable")


def figure_values(settings: TableSettings) -> dict[str, Any]:
    return {name: getattr(settings, name) for name in FIGURE_SETTINGS}


def setting_change_figures(
    change: SettingChange, current: TableSettings | None = None
) -> dict[str, TableFigures]:
    """R17: the figures of the settings a change makes (``proposed``) next to those it
    replaces (``in_force``). Pending: on top of the settings in force now (``current``, the
    table's newest version); approved: the version it made and the one it replaced; rejected
    or withdrawn: on top of the version it was proposed on. No query beyond ``current``: the
    change and its decision keep the figure settings of the versions they name."""
    decision = change.decided
    if decision is not None and decision.approved:
        after = dict(decision.values["made"])
        before = after | _figure_subset(decision.values["old"])
    else:
        pending = decision is None and current is not None
        before = figure_values(current) if pending and current else dict(change.values["base"])
        after = before | _figure_subset(change.values["new"])
    return {"proposed": settings_figures(after), "in_force": settings_figures(before)}


def _figure_subset(values: Mapping[str, Any]) -> dict[str, Any]:
    return {name: values[name] for name in FIGURE_SETTINGS if name in values}


def wager_json(wager: WagerFigures) -> dict[str, Any]:
    """A bonus's figures as ``manage.py game_math`` prints them (6-place decimal strings,
    fractions of 1), with its ``variance`` per unit staked."""
    return wager.to_json() | {"variance": game_math.format_figure(wager.variance)}


def figures_json(figures: TableFigures) -> dict[str, Any]:
    """Every wager's figures as ``manage.py game_math`` prints them, with their variances."""
    return {
        "flush_bonus": wager_json(figures.flush_bonus),
        "straight_flush_bonus": wager_json(figures.straight_flush_bonus),
        "ante_raise": figures.ante_raise.to_json()
        | {"variance": game_math.format_figure(figures.ante_raise.variance)},
    }


def percent(value: Fraction, places: int = 4) -> str:
    """``Fraction(1012121, 1000000)`` → ``"101.2121%"`` (rounded half-even)."""
    return f"{game_math.format_figure(value * 100, places)}%"


def check_house_return(
    banking: Banking | str, values: Mapping[str, Any], *, changed: Collection[str] = ()
) -> None:
    """R17 guardrail: on a house-banked table every wager returns players less than 100%.

    ``values`` are the complete settings the table would have; the refusal names the setting to
    change (the paytable, or the bonus mode when that is what the change touched) and the
    figure. A designated-player table is not refused: there the DP, not the house, pays.
    """
    if Banking(banking) is not Banking.HOUSE:
        return
    figures = settings_figures(values)
    for name, label, setting in BONUSES:
        wager: WagerFigures = getattr(figures, name)
        if wager.return_ >= 1:
            field = "bonus_mode" if "bonus_mode" in changed and setting not in changed else setting
            raise DomainError(
                f"{label} returns {percent(wager.return_)} to players with the paytable "
                f"{paytable_text(values[setting])} in {values['bonus_mode']} mode: the house "
                "would lose money on it. A house-banked table's every wager must return less "
                "than 100% (R17).",
                field=field,
            )
    # The ante and raise keep 2.6645% per ante under the optimal strategy whatever the
    # settings (R8, R9, one figure for every table): no setting takes them to 100%.
