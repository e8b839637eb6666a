"""A table's settings as values: parsed from input, checked against the rules, and turned into
the engine's ``TableRules``. The engine's own table check (R5, R10, R12) is the one that runs;
this module adds the R16 settings the engine does not use and maps field names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from core.errors import DomainError
from core.money import cents, money, money_text
from engine.cards import SUITS
from engine.errors import RoundError
from engine.fees import RakeMode
from engine.table import Banking, BonusMode, TableRules

from .models import Table, TableSettings

MONEY = (
    "ante_min",
    "ante_max",
    "bonus_min",
    "bonus_max",
    "chip_unit",
    "rake_amount",
    "dp_min_bank",
)
CHOICES = {"bonus_mode": BonusMode, "rake_mode": RakeMode}
PAYTABLES = ("flush_paytable", "straight_flush_paytable")
WHOLE = {"dp_max_consecutive": (1, 100), "dp_rotation_window": (1, 24 * 60)}
#: Everything a floor supervisor may change (R17); the order is the order of the forms.
SETTINGS = (
    *MONEY[:5],
    "bonus_mode",
    *PAYTABLES,
    "max_aggregate_payout",
    "rake_mode",
    "rake_amount",
    "dp_min_bank",
    "dp_max_consecutive",
    "draw_suit_order",
    "dp_rotation_window",
)


_COMMON_DEFAULTS: dict[str, Any] = {
    "ante_min": "5.00",
    "ante_max": "100.00",
    "bonus_min": "1.00",
    "bonus_max": "25.00",
    "chip_unit": "1.00",
    "flush_paytable": {"4": 2, "5": 10, "6": 50, "7": 200},
    "straight_flush_paytable": {"3": 8, "4": 60, "5": 100, "6": 500, "7": 1000},
    "max_aggregate_payout": "20000.00",
    "dp_min_bank": "0.00",
    "dp_max_consecutive": 2,
    "draw_suit_order": "cdhs",
    "dp_rotation_window": 40,
}
#: What a new table is proposed, per banking kind: the one place these defaults live. (The
#: engine keeps the settle-json contract's own defaults, which never change: a stored round
#: must settle the same way forever.) A house-banked table has paytable bonuses and no fee
#: (R10, R12); a designated-player table plays its bonuses against the DP and charges a fee.
#: The house-banked Flush Bonus is 4:1, 5:10, 6:100, 7:300 (returns 92.1928% in paytable
#: mode, game-math.md): the contract's 4:2, 5:10, 6:50, 7:200 returns 101.2121% there, which
#: a house-banked table may not pay (R17 guardrail, ``tables.figures``). A designated-player
#: table keeps it: in versus_dp mode it returns 92.7577%, and the DP, not the house, pays.
NEW_TABLE_DEFAULTS: dict[Banking, dict[str, Any]] = {
    Banking.DESIGNATED_PLAYER: _COMMON_DEFAULTS
    | {"bonus_mode": "versus_dp", "rake_mode": "all_players", "rake_amount": "1.00"},
    Banking.HOUSE: _COMMON_DEFAULTS
    | {
        "bonus_mode": "paytable",
        "flush_paytable": {"4": 1, "5": 10, "6": 100, "7": 300},
        "rake_mode": "none",
        "rake_amount": "0.00",
    },
}


def defaults_for(banking: str) -> dict[str, Any]:
    """A new table's settings, parsed like any proposed values."""
    return parse_settings(NEW_TABLE_DEFAULTS[Banking(banking)])


def parse_settings(values: Mapping[str, Any]) -> dict[str, Any]:
    """Typed values from input, each error naming its setting. Unknown names are refused,
    which is how a percentage fee or any other unsupported setting is turned away (R12)."""
    parsed: dict[str, Any] = {}
    for name, value in values.items():
        if name not in SETTINGS:
            raise DomainError(
                f"'{name}' is not a table setting; settings are: {', '.join(SETTINGS)}.",
                field=name,
            )
        parsed[name] = _parse(name, value)
    return parsed


def check_settings(table: Table, values: Mapping[str, Any]) -> TableRules:
    """R5, R10, R12 (through the engine) and R16's own settings, on a complete set of values."""
    rules = table_rules(table, values)
    if values["dp_min_bank"] % values["chip_unit"]:
        raise DomainError(
            "The DP's minimum bank must be a whole multiple of the chip unit (R5).",
            field="dp_min_bank",
        )
    return rules


def table_rules(table: Table, values: Mapping[str, Any] | TableSettings) -> TableRules:
    """The engine's view of a table's settings; a refusal names the setting at fault."""
    get = values.__getitem__ if isinstance(values, Mapping) else values.__getattribute__
    cap = get("max_aggregate_payout")
    try:
        return TableRules(
            banking=Banking(table.banking),
            bonus_mode=BonusMode(get("bonus_mode")),
            rake_mode=RakeMode(get("rake_mode")),
            rake_amount=cents(get("rake_amount")),
            ante_min=cents(get("ante_min")),
            ante_max=cents(get("ante_max")),
            bonus_min=cents(get("bonus_min")),
            bonus_max=cents(get("bonus_max")),
            chip_unit=cents(get("chip_unit")),
            flush_paytable={int(k): v for k, v in get("flush_paytable").items()},
            straight_flush_paytable={int(k): v for k, v in get("straight_flush_paytable").items()},
            max_aggregate_payout=None if cap is None else cents(cap),
            seats=table.seat_count,
        )
    except RoundError as error:
        # "table.ante_min" -> "ante_min"; "table.flush_paytable.9" -> "flush_paytable"
        raise DomainError(error.message, field=error.field.split(".")[1]) from None


def settings_values(settings: TableSettings) -> dict[str, Any]:
    return {name: getattr(settings, name) for name in SETTINGS}


def as_json(values: Mapping[str, Any]) -> dict[str, Any]:
    """Settings for a JSON column or an audit payload: money as two-decimal strings."""
    return {
        name: money_text(value) if isinstance(value, Decimal) else value
        for name, value in values.items()
    }


def _parse(name: str, value: Any) -> Any:
    return _PARSERS[name](name, value)


def _money(name: str, value: Any) -> Decimal:
    return money(value, field=name)


def _cap(name: str, value: Any) -> Decimal | None:
    """R11: the aggregate payout cap, or None for no cap."""
    return None if value is None else money(value, field=name)


def _choice(name: str, value: Any) -> str:
    kind = CHOICES[name]
    try:
        return kind(value).value
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise DomainError(f"'{value}' is not one of: {allowed}.", field=name) from None


def _paytable(name: str, value: Any) -> dict[str, int]:
    """R10: a paytable maps a flush size or run length to N-to-1 odds."""
    if not isinstance(value, Mapping) or not value:
        raise DomainError('A paytable maps a size to "N to 1" odds, like {"4": 2}.', field=name)
    table = {}
    for size, odds in value.items():
        # ASCII digits only: str.isdigit() and int() would also take "٥" as 5.
        if not re.fullmatch(r"[0-9]{1,3}", str(size)) or type(odds) is not int:
            raise DomainError(
                f"Paytable line {size!r}: odds {odds!r} must be a whole number N (N to 1), "
                "for a size given as a number.",
                field=name,
            )
        table[str(int(size))] = odds
    return table


def _whole(name: str, value: Any) -> int:
    low, high = WHOLE[name]
    if type(value) is not int or not low <= value <= high:
        raise DomainError(f"{name} must be a whole number from {low} to {high}.", field=name)
    return value


def _suit_order(name: str, value: Any) -> str:
    """R16: the high-card draw's tie-break, lowest suit first."""
    if not isinstance(value, str) or sorted(value.lower()) != sorted(SUITS):
        raise DomainError(
            "The draw's suit order lists c, d, h and s once each, lowest first (R16).",
            field=name,
        )
    return value.lower()


_PARSERS: dict[str, Callable[[str, Any], Any]] = {
    **dict.fromkeys(MONEY, _money),
    "max_aggregate_payout": _cap,
    **dict.fromkeys(CHOICES, _choice),
    **dict.fromkeys(PAYTABLES, _paytable),
    **dict.fromkeys(WHOLE, _whole),
    "draw_suit_order": _suit_order,
}
