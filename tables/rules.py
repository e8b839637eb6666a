"""A table's settings as values: parsed from input, checked against the rules, and turned into
the engine's ``TableRules``. The engine's own table check (R5, R10, R12) is the one that runs;
this module adds the R16 settings the engine does not use and maps field names.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from cardroom.kernel.errors import DomainError
from cardroom.kernel.money import cents, money, money_text
from wagers.engine.cards import SUITS
from wagers.engine.errors import RoundError
from wagers.engine.fees import RakeMode
from wagers.engine.table import Banking, BonusMode, TableRules

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


def defaults_for(banking: str) -> dict[str, Any]:
    """A new table's settings: a house-banked table has paytable bonuses and no fee (R12)."""
    house = banking == Banking.HOUSE
    values = {f.name: f.get_default() for f in TableSettings._meta.fields if f.name in SETTINGS}
    values["bonus_mode"] = BonusMode.PAYTABLE if house else BonusMode.VERSUS_DP
    values["rake_mode"] = RakeMode.NONE if house else RakeMode.ALL_PLAYERS
    values["rake_amount"] = Decimal("0.00") if house else Decimal("1.00")
    return parse_settings(values)


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
    if name in MONEY:
        return money(value, field=name)
    if name == "max_aggregate_payout":
        return None if value is None else money(value, field=name)
    if name in CHOICES:
        kind = CHOICES[name]
        try:
            return kind(value).value
        except ValueError:
            allowed = ", ".join(m.value for m in kind)
            raise DomainError(f"'{value}' is not one of: {allowed}.", field=name) from None
    if name in PAYTABLES:
        if not isinstance(value, Mapping) or not value:
            raise DomainError('A paytable maps a size to "N to 1" odds, like {"4": 2}.', field=name)
        table = {}
        for size, odds in value.items():
            if not str(size).isdigit() or isinstance(odds, bool) or not isinstance(odds, int):
                raise DomainError(
                    f"Paytable line {size!r}: odds {odds!r} must be a whole number N (N to 1), "
                    "for a size given as a number.",
                    field=name,
                )
            table[str(int(size))] = odds
        return table
    if name in WHOLE:
        low, high = WHOLE[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise DomainError(f"{name} must be a whole number from {low} to {high}.", field=name)
        return value
    # draw_suit_order
    if not isinstance(value, str) or sorted(value.lower()) != sorted(SUITS):
        raise DomainError(
            "The draw's suit order lists c, d, h and s once each, lowest first (R16).",
            field=name,
        )
    return value.lower()
