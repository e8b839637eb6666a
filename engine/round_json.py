"""The settle-json contract's input (shared/spec/settle-json.md): JSON in, a ``Round``. Every
refusal names the JSON path of the value at fault.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, TypeVar

from .cards import parse_hand, plain_hand
from .errors import RoundError
from .fees import RakeMode
from .money import PARSED_AMOUNTS, Cents, parse_amount
from .round import DeadReason, Dealer, Decision, Misdeal, Round, Spot
from .table import Banking, BonusMode, TableRules, house_defaults

E = TypeVar("E", bound=StrEnum)
T = TypeVar("T")

_DIGITS = re.compile(r"[0-9]{1,9}")  # ASCII digits: "٥".isdigit() is true too
_TABLE_AMOUNTS = ("rake_amount", "ante_min", "ante_max", "bonus_min", "bonus_max", "chip_unit")


def round_from_json(data: object) -> Round:
    root = _object(data, "", _ROUND_KEYS, required=("dealer", "spots"))
    table = table_from_json(root.get("table", {}))
    dealer = _dealer(root["dealer"])
    spots_data = root["spots"]
    if not isinstance(spots_data, list):
        raise RoundError("spots", "spots must be a list of spots.")
    # A spot's path is spelt out only for one the fast path leaves to _spot.
    spots = tuple(
        [_plain_spot(spot) or _spot(spot, f"spots[{i}]") for i, spot in enumerate(spots_data)]
    )
    misdeal = root.get("misdeal")
    return Round(
        table, dealer, spots, None if misdeal is None else _enum(Misdeal, misdeal, "misdeal")
    )


_ROUND_KEYS = {"table", "dealer", "spots", "misdeal"}


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


# Rounds of one table repeat its settings line after line (settle_round --jsonl): each
# distinct ``table`` object is read and checked once. Bounded, as a stream of distinct tables
# could be endless.
_TABLES: dict[tuple[object, ...], TableRules] = {}
_MAX_TABLES = 256


def table_from_json(data: object) -> TableRules:
    """The ``table`` object of settle-json; missing settings take the contract's defaults for
    its banking kind (a refusal names ``table.<key>``)."""
    key = _table_key(data)
    try:
        known = None if key is None else _TABLES.get(key)
    except TypeError:  # an unhashable value, such as a list: not worth remembering
        key = known = None
    if known is not None:
        return known
    table = _read_table(data)
    if key is not None and len(_TABLES) < _MAX_TABLES:
        _TABLES[key] = table  # TableRules is frozen, and so are its paytables
    return table


def _table_key(data: object) -> tuple[object, ...] | None:
    """What makes two ``table`` objects read the same: their keys and values, and each value's
    type, since Python has ``1 == 1.0 == True`` and the contract does not (a paytable's too)."""
    if type(data) is not dict:
        return None
    return tuple(
        [
            (name, type(value), _table_key(value) if type(value) is dict else value)
            for name, value in data.items()
        ]
    )


def _read_table(data: object) -> TableRules:
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
    raw = _object(data, "dealer", _DEALER_KEYS)
    get = raw.get
    cards, seat, bank = get("cards"), get("seat"), get("bank")
    hand = None if cards is None else parse_hand(cards, field="dealer.cards")
    seat = None if seat is None else _int(seat, "dealer.seat")
    return Dealer(hand, seat, None if bank is None else parse_amount(bank, field="dealer.bank"))


_DEALER_KEYS = {"seat", "bank", "cards"}


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


_DECISIONS = {decision.value: decision for decision in Decision}
_DEAD_REASONS = {reason.value: reason for reason in DeadReason}


def _plain_spot(data: object) -> Spot | None:
    """The common spot, read in one pass; None for any other, which ``_spot`` reads or refuses.

    The fast path of settle_round --jsonl: ``_spot`` names the field of every value
    it reads, in case it refuses it, and that cost more than settling the spot. This takes only
    what ``_spot`` reads to the very same Spot (the tests compare them): plain types, cards
    written the usual way, amount texts already parsed once (``money.PARSED_AMOUNTS``).
    """
    if type(data) is not dict or not data.keys() <= _SPOT_KEYS:
        return None
    get, cents = data.get, PARSED_AMOUNTS.get
    seat, player, cards = get("seat"), get("player"), get("cards")
    flush_bonus, straight_flush_bonus, raised = (
        get("flush_bonus"),
        get("straight_flush_bonus"),
        get("raise"),
    )
    decision, dead = get("decision"), get("dead")
    try:
        # A lookup misses (None) for anything but a known text: a new amount, a number, a
        # misspelt decision... An unhashable value (a list) raises TypeError.
        ante = cents(get("ante"))
        flush_bonus = 0 if flush_bonus is None else cents(flush_bonus)
        straight_flush_bonus = 0 if straight_flush_bonus is None else cents(straight_flush_bonus)
        raised = 0 if raised is None else cents(raised)
        decision_read = None if decision is None else _DECISIONS.get(decision)
        dead_read = None if dead is None else _DEAD_REASONS.get(dead)
    except TypeError:
        return None
    hand = None if cards is None else plain_hand(cards)
    if (
        type(seat) is not int
        or ante is None
        or flush_bonus is None
        or straight_flush_bonus is None
        or raised is None
        or (cards is not None and hand is None)
        or (decision is not None and decision_read is None)
        or (dead is not None and dead_read is None)
        or (player is not None and not (type(player) is str and player.strip()))
    ):
        return None
    # tuple.__new__: the same Spot as Spot(...), without NamedTuple's Python-level constructor.
    return tuple.__new__(
        Spot,
        (
            seat,
            ante,
            player,
            flush_bonus,
            straight_flush_bonus,
            hand,
            decision_read,
            raised,
            dead_read,
        ),
    )


def _spot(data: object, path: str) -> Spot:
    raw = _object(data, path, _SPOT_KEYS, required=("seat", "ante"))
    get = raw.get
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
    if type(data) is dict and data.keys() <= keys:  # the common case, in one set operation
        for key in required:
            if key not in data:
                raise RoundError(f"{path}.{key}" if path else key, f"{key} is required.")
        return data
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
