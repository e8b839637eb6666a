"""A table's rules as the engine sees them, and the regulatory bounds they must respect (R5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from .errors import RoundError
from .fees import RakeMode
from .money import Cents, format_amount


class Banking(StrEnum):
    DESIGNATED_PLAYER = "designated_player"
    HOUSE = "house"


class BonusMode(StrEnum):
    VERSUS_DP = "versus_dp"
    PAYTABLE = "paytable"


# R5: the regulatory bounds every table's posted limits must lie within, in cents.
ANTE_BOUNDS = (300, 10_000)
BONUS_BOUNDS = (100, 2_500)
# R1: 7 hands of 7 cards fit in a 52-card deck; a round has at most 6 spots and the dealer.
MAX_SEATS = 7
MAX_SPOTS = 6
# R10: which sizes and lengths a paytable may have a line for.
FLUSH_SIZES = range(2, 8)
RUN_LENGTHS = range(3, 8)  # R3: only runs of 3 or more count for the bonus

DEFAULT_FLUSH_PAYTABLE = MappingProxyType({4: 2, 5: 10, 6: 50, 7: 200})
DEFAULT_STRAIGHT_FLUSH_PAYTABLE = MappingProxyType({3: 8, 4: 60, 5: 100, 6: 500, 7: 1000})


@dataclass(frozen=True, slots=True)
class TableRules:
    """Everything about a table that changes how a hand is settled. Amounts are cents."""

    banking: Banking = Banking.DESIGNATED_PLAYER
    bonus_mode: BonusMode = BonusMode.VERSUS_DP
    rake_mode: RakeMode = RakeMode.ALL_PLAYERS
    rake_amount: Cents = 100
    ante_min: Cents = 500
    ante_max: Cents = 10_000
    bonus_min: Cents = 100
    bonus_max: Cents = 2_500
    chip_unit: Cents = 100
    flush_paytable: Mapping[int, int] = field(default_factory=lambda: DEFAULT_FLUSH_PAYTABLE)
    straight_flush_paytable: Mapping[int, int] = field(
        default_factory=lambda: DEFAULT_STRAIGHT_FLUSH_PAYTABLE
    )
    max_aggregate_payout: Cents | None = 2_000_000
    seats: int = MAX_SEATS

    # Derived once, for settlement's hot path: odds indexed by flush size or run length
    # (0: no line), and the banking as a flag.
    flush_odds: tuple[int, ...] = field(init=False, repr=False, compare=False)
    straight_flush_odds: tuple[int, ...] = field(init=False, repr=False, compare=False)
    is_house_banked: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_table(self)  # a TableRules that exists is one the rules allow
        derived = {
            "flush_paytable": MappingProxyType(dict(self.flush_paytable)),
            "straight_flush_paytable": MappingProxyType(dict(self.straight_flush_paytable)),
            "flush_odds": _odds(self.flush_paytable),
            "straight_flush_odds": _odds(self.straight_flush_paytable),
            "is_house_banked": self.banking is Banking.HOUSE,
        }
        for name, value in derived.items():
            object.__setattr__(self, name, value)


def _odds(paytable: Mapping[int, int]) -> tuple[int, ...]:
    return tuple(paytable.get(size, 0) for size in range(8))


def house_defaults() -> dict[str, object]:
    """A house-banked table defaults to paytable bonuses and no fee (settle-json)."""
    return {"bonus_mode": BonusMode.PAYTABLE, "rake_mode": RakeMode.NONE}


def check_table(table: TableRules) -> None:
    """R5, R10 and R12: refuse posted limits, paytables and fees the rules do not allow."""
    unit = table.chip_unit
    if unit <= 0:
        raise RoundError("table.chip_unit", "The chip unit must be more than $0.00.")
    if not 1 <= table.seats <= MAX_SEATS:
        raise RoundError("table.seats", f"A table has between 1 and {MAX_SEATS} seats (R1).")
    _check_limits(table, "ante", table.ante_min, table.ante_max, ANTE_BOUNDS)
    _check_limits(table, "bonus", table.bonus_min, table.bonus_max, BONUS_BOUNDS)
    if table.banking is Banking.HOUSE and table.rake_mode is not RakeMode.NONE:
        raise RoundError(
            "table.rake_mode",
            "A house-banked table takes no collection fee: its rake_mode must be 'none' (R12).",
        )
    if table.rake_mode is not RakeMode.NONE:  # with no fee, its amount is never charged
        check_multiple(table, table.rake_amount, field="table.rake_amount", what="The fee")
    if table.max_aggregate_payout is not None and table.max_aggregate_payout <= 0:
        raise RoundError(
            "table.max_aggregate_payout",
            "The aggregate payout cap must be more than $0.00, or null for no cap (R11).",
        )
    _check_paytable(table.flush_paytable, "table.flush_paytable", FLUSH_SIZES, "flush size")
    _check_paytable(
        table.straight_flush_paytable, "table.straight_flush_paytable", RUN_LENGTHS, "run length"
    )


def check_multiple(table: TableRules, amount: Cents, *, field: str, what: str) -> None:
    """R5: every amount is a whole multiple of the table's chip unit."""
    if amount % table.chip_unit:
        raise RoundError(
            field,
            f"{what} ${format_amount(amount)} is not a whole multiple of the "
            f"${format_amount(table.chip_unit)} chip unit (R5).",
        )


def _check_limits(
    table: TableRules, name: str, low: Cents, high: Cents, bounds: tuple[Cents, Cents]
) -> None:
    lowest, highest = bounds
    span = f"${format_amount(lowest)}–${format_amount(highest)}"
    for key, value in ((f"{name}_min", low), (f"{name}_max", high)):
        if not lowest <= value <= highest:
            raise RoundError(
                f"table.{key}",
                f"The posted {name} limit ${format_amount(value)} is outside the regulatory "
                f"bounds {span} (R5).",
            )
        check_multiple(table, value, field=f"table.{key}", what=f"The posted {name} limit")
    if low > high:
        raise RoundError(
            f"table.{name}_max",
            f"The {name} maximum ${format_amount(high)} is below the minimum "
            f"${format_amount(low)} (R5).",
        )


def _check_paytable(paytable: Mapping[int, int], field: str, keys: range, what: str) -> None:
    for key, odds in paytable.items():
        if key not in keys:
            raise RoundError(
                f"{field}.{key}",
                f"A paytable line is for a {what} from {keys.start} to {keys.stop - 1} (R10).",
            )
        if isinstance(odds, bool) or not isinstance(odds, int) or odds <= 0:
            raise RoundError(
                f"{field}.{key}", "Paytable odds are a whole number N, read as N to 1 (R10)."
            )
