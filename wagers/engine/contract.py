"""The settle-json contract (shared/spec/settle-json.md): JSON in, a ``Round``; a ``Settlement``,
JSON out. Every refusal names the JSON path of the value at fault.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, TypeVar

from .cards import parse_hand
from .errors import RoundError
from .fees import RakeMode
from .money import Cents, format_amount, parse_amount
from .round import DeadReason, Dealer, Decision, Misdeal, Round, Spot
from .settlement import DealerResult, Settlement, SpotResult, WagerResult, settle
from .table import Banking, BonusMode, TableRules, house_defaults

E = TypeVar("E", bound=StrEnum)
T = TypeVar("T")

_DIGITS = re.compile(r"[0-9]{1,9}")  # ASCII digits: "٥".isdigit() is true too
_TABLE_AMOUNTS = ("rake_amount", "ante_min", "ante_max", "bonus_min", "bonus_max", "chip_unit")


def settle_json(data: object) -> dict[str, Any]:
    """Settle one round given in the settle-json format; refusals come back as ``{"error"}``."""
    try:
        return settlement_to_json(settle(round_from_json(data)))
    except RoundError as error:
        return {"error": error.as_dict()}


def round_from_json(data: object) -> Round:
    root = _object(data, "", {"table", "dealer", "spots", "misdeal"}, required=("dealer", "spots"))
    table = table_from_json(root.get("table", {}))
    dealer = _dealer(root["dealer"])
    spots_data = root["spots"]
    if not isinstance(spots_data, list):
        raise RoundError("spots", "spots must be a list of spots.")
    spots = tuple(_spot(spot, f"spots[{i}]") for i, spot in enumerate(spots_data))
    misdeal = _optional(root, "misdeal", "misdeal", lambda v, f: _enum(Misdeal, v, f))
    return Round(table=table, dealer=dealer, spots=spots, misdeal=misdeal)


def settlement_to_json(settlement: Settlement) -> dict[str, Any]:
    dealer = settlement.dealer
    dealer_json: dict[str, Any] = {
        "seat": dealer.seat,
        "qualifies": dealer.qualifies,
        "net": format_amount(dealer.net),
        "rake": format_amount(dealer.rake),
    }
    _hand_json(dealer_json, dealer)
    return {
        "misdeal": settlement.misdeal and str(settlement.misdeal),
        "dealer": dealer_json,
        "spots": [_spot_json(spot) for spot in settlement.spots],
        "settlement_order": list(settlement.settlement_order),
        "house_rake": format_amount(settlement.house_rake),
    }


def _spot_json(spot: SpotResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seat": spot.seat,
        "status": str(spot.status),
        "dead_reason": spot.dead_reason and str(spot.dead_reason),
        "ante": _wager_json(spot.ante),
        "raise": _wager_json(spot.raise_),
        "flush_bonus": _wager_json(spot.flush_bonus),
        "straight_flush_bonus": _wager_json(spot.straight_flush_bonus),
        "rake": format_amount(spot.rake),
        "net": format_amount(spot.net),
    }
    _hand_json(out, spot)
    return out


def _hand_json(out: dict[str, Any], result: SpotResult | DealerResult) -> None:
    """A hand's flush and straight flush; a hand without cards has neither key."""
    flush, straight = result.flush, result.straight_flush
    if flush is not None and straight is not None:
        out["flush"] = {"size": flush.size, "cards": list(flush.cards)}
        out["straight_flush"] = {"length": straight.length, "high": straight.high}


def _wager_json(line: WagerResult | None) -> dict[str, str] | None:
    if line is None:
        return None
    return {"outcome": str(line.outcome), "net": format_amount(line.net)}


# --- input -------------------------------------------------------------------------------


_TABLE_KEYS = {
    *_TABLE_AMOUNTS,
    "banking",
    "bonus_mode",
    "rake_mode",
    "flush_paytable",
    "straight_flush_paytable",
    "max_aggregate_payout",
    "seats",
}


def table_from_json(data: object) -> TableRules:
    """The ``table`` object of settle-json; missing settings take the contract's defaults for
    its banking kind (a refusal names ``table.<key>``)."""
    raw = _object(data, "table", _TABLE_KEYS)
    settings = {**_banking_settings(raw), **_mode_settings(raw), **_amount_settings(raw)}
    return TableRules(**settings)


def _banking_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The banking kind, and the defaults that come with a house-banked table."""
    banking = _optional(raw, "banking", "table.banking", lambda v, f: _enum(Banking, v, f))
    if banking is None:
        return {}
    if banking is Banking.HOUSE:
        return {"banking": banking, **house_defaults()}
    return {"banking": banking}


def _mode_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The bonus and fee modes given, over any defaults of the banking kind."""
    settings: dict[str, Any] = {}
    if "bonus_mode" in raw:
        settings["bonus_mode"] = _enum(BonusMode, raw["bonus_mode"], "table.bonus_mode")
    if "rake_mode" in raw:
        settings["rake_mode"] = _enum(RakeMode, raw["rake_mode"], "table.rake_mode")
    return settings


def _amount_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Limits, fee, paytables, the payout cap and the seat count, as far as given."""
    settings: dict[str, Any] = {}
    for key in _TABLE_AMOUNTS:
        if key in raw:
            settings[key] = parse_amount(raw[key], field=f"table.{key}")
    for key in ("flush_paytable", "straight_flush_paytable"):
        if key in raw:
            settings[key] = _paytable(raw[key], f"table.{key}")
    if "max_aggregate_payout" in raw:
        cap = raw["max_aggregate_payout"]
        settings["max_aggregate_payout"] = (
            None if cap is None else parse_amount(cap, field="table.max_aggregate_payout")
        )
    if "seats" in raw:
        settings["seats"] = _int(raw["seats"], "table.seats")
    return settings


def _dealer(data: object) -> Dealer:
    raw = _object(data, "dealer", {"seat", "bank", "cards"})
    return Dealer(
        hand=_optional(raw, "cards", "dealer.cards", _cards),
        seat=_optional(raw, "seat", "dealer.seat", _int),
        bank=_optional(raw, "bank", "dealer.bank", _amount),
    )


_SPOT_KEYS = {
    "seat",
    "player",
    "ante",
    "flush_bonus",
    "straight_flush_bonus",
    "cards",
    "decision",
    "raise",
    "dead",
}


def _spot(data: object, path: str) -> Spot:
    raw = _object(data, path, _SPOT_KEYS, required=("seat", "ante"))
    get = raw.get
    # A field's path is spelt out only for a key that is there (issue 16: per-line cost).
    return Spot(
        seat=_int(raw["seat"], f"{path}.seat"),
        ante=parse_amount(raw["ante"], field=f"{path}.ante"),
        player=None if get("player") is None else _player(raw["player"], f"{path}.player"),
        flush_bonus=_amount_at(raw, "flush_bonus", path),
        straight_flush_bonus=_amount_at(raw, "straight_flush_bonus", path),
        hand=None if get("cards") is None else _cards(raw["cards"], f"{path}.cards"),
        decision=None
        if get("decision") is None
        else _enum(Decision, raw["decision"], f"{path}.decision"),
        raise_amount=_amount_at(raw, "raise", path),
        dead=None if get("dead") is None else _enum(DeadReason, raw["dead"], f"{path}.dead"),
    )


def _amount_at(raw: Mapping[str, Any], key: str, path: str) -> Cents:
    """An optional amount (0 when absent or null)."""
    value = raw.get(key)
    return 0 if value is None else parse_amount(value, field=f"{path}.{key}") or 0


def _object(
    data: object, path: str, keys: set[str], required: tuple[str, ...] = ()
) -> Mapping[str, Any]:
    where = path or "the round"
    if not isinstance(data, dict):
        raise RoundError(path, f"{where} must be a JSON object.")
    for key in data:
        if key not in keys:
            field = f"{path}.{key}" if path else key
            raise RoundError(
                field, f"Unknown key '{key}' in {where}; expected one of {', '.join(sorted(keys))}."
            )
    for key in required:
        if key not in data:
            raise RoundError(f"{path}.{key}" if path else key, f"{key} is required.")
    return data


def _optional(
    raw: Mapping[str, Any], key: str, field: str, parse: Callable[[Any, str], T]
) -> T | None:
    value = raw.get(key)
    return None if value is None else parse(value, field)


def _amount(value: object, field: str) -> Cents:
    return parse_amount(value, field=field)


def _cards(value: object, field: str) -> int:
    return parse_hand(value, field=field)


def _int(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoundError(field, f"{field.rsplit('.', 1)[-1]} must be a whole number.")
    return value


def _player(value: object, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise RoundError(field, "player must be a non-empty string that names the person.")
    return value


def _enum(kind: type[E], value: object, field: str) -> E:
    if isinstance(value, str):
        found = kind._value2member_map_.get(value)
        if found is not None:
            return found  # type: ignore[return-value]
    for member in kind:
        if member.value == value:
            return member
    allowed = ", ".join(member.value for member in kind)
    raise RoundError(field, f"'{value}' is not one of: {allowed}.")


def _paytable(value: object, field: str) -> dict[int, int]:
    if not isinstance(value, dict):
        raise RoundError(field, 'A paytable maps a size to "N to 1" odds, like {"4": 2}.')
    table: dict[int, int] = {}
    for key, odds in value.items():
        # ASCII digits only: str.isdigit() and int() would also take "٥" as 5.
        if not (isinstance(key, str) and _DIGITS.fullmatch(key)):
            raise RoundError(f"{field}.{key}", f"'{key}' is not a flush size or run length.")
        if isinstance(odds, str) and _DIGITS.fullmatch(odds):
            odds = int(odds)
        table[int(key)] = odds
    return table
