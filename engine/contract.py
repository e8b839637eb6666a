"""The settle-json contract (shared/spec/settle-json.md): JSON in, a ``Round``; a ``Settlement``,
JSON out. Every refusal names the JSON path of the value at fault.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any, TypeVar

from .cards import parse_hand, plain_hand
from .errors import RoundError
from .fees import RakeMode
from .hands import describe_straight_flush, flush_of_suit, flush_suit, straight_flush_key
from .money import PARSED_AMOUNTS, Cents, format_amount, parse_amount
from .round import DeadReason, Dealer, Decision, Misdeal, Round, Spot
from .settlement import DealerResult, Settlement, SpotResult, SpotStatus, WagerResult, settle
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


def settle_json_text(data: object) -> tuple[str, bool]:
    """``settle_json`` as JSON text, exactly ``json.dumps(settle_json(data))``, and whether the
    round was refused: what ``settle_round`` prints, written without the dicts in between."""
    try:
        return settlement_to_json_text(settle(round_from_json(data))), False
    except RoundError as error:
        return json.dumps({"error": error.as_dict()}), True


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


# --- output as JSON text ------------------------------------------------------------------
# settle_round writes settlements by the thousand (issue 16), and building settlement_to_json's
# dicts and encoding them cost more than settling. settlement_to_json_text writes the same text
# directly: exactly json.dumps(settlement_to_json(s)), default separators (the tests compare
# them). No string in a settlement needs escaping: card names, enum values, amounts.

_NULL = "null"
_LITERAL = {True: "true", False: "false", None: _NULL}
# Enum values as JSON strings, looked up: formatting an enum member costs several times that.
_STATUS_TEXT = {status: json.dumps(str(status)) for status in SpotStatus}
_DEAD_REASON_TEXT: dict[DeadReason | None, str] = {None: _NULL}
_DEAD_REASON_TEXT.update({reason: json.dumps(str(reason)) for reason in DeadReason})
# Wager lines and hands' flushes and runs repeat from spot to spot: each text is written once,
# and a spot reads its four lines straight from _WAGER_TEXT (a function call apiece costs).
# Bounded like money's memos.
_MEMO = 1 << 16
_WAGER_TEXT: dict[WagerResult | None, str] = {None: _NULL}  # a line not placed is null
_HAND_TEXT: dict[int, str] = {}  # by _hand_text's key
# By settlement order: at most 8 dealer seats (or none) × 128 sets of spot seats.
_ORDER_TEXT: dict[tuple[int, ...], str] = {}


def settlement_to_json_text(settlement: Settlement) -> str:
    dealer = settlement.dealer
    misdeal = _NULL if settlement.misdeal is None else f'"{settlement.misdeal}"'
    seat = _NULL if dealer.seat is None else dealer.seat
    spots = ", ".join([_spot_text(spot) for spot in settlement.spots])
    order = _ORDER_TEXT.get(settlement.settlement_order)
    if order is None:
        order = _ORDER_TEXT[settlement.settlement_order] = json.dumps(settlement.settlement_order)
    return (
        f'{{"misdeal": {misdeal}, "dealer": {{"seat": {seat}, '
        f'"qualifies": {_LITERAL[dealer.qualifies]}, "net": "{format_amount(dealer.net)}", '
        f'"rake": "{format_amount(dealer.rake)}"{_hand_text(dealer.hand, dealer.flush_key)}}}, '
        f'"spots": [{spots}], "settlement_order": {order}, '
        f'"house_rake": "{format_amount(settlement.house_rake)}"}}'
    )


def _spot_text(spot: SpotResult) -> str:
    seat, status, dead_reason, ante, raise_, flush_bonus, straight_bonus, rake, net, hand, flush = (
        spot
    )
    known = _WAGER_TEXT.get
    return (
        f'{{"seat": {seat}, "status": {_STATUS_TEXT[status]}, '
        f'"dead_reason": {_DEAD_REASON_TEXT[dead_reason]}, '
        f'"ante": {known(ante) or _wager_text(ante)}, '
        f'"raise": {known(raise_) or _wager_text(raise_)}, '
        f'"flush_bonus": {known(flush_bonus) or _wager_text(flush_bonus)}, '
        f'"straight_flush_bonus": {known(straight_bonus) or _wager_text(straight_bonus)}, '
        f'"rake": "{format_amount(rake)}", "net": "{format_amount(net)}"{_hand_text(hand, flush)}}}'
    )


def _wager_text(line: WagerResult | None) -> str:
    """A wager line's text, written for the first time."""
    if line is None:
        return _NULL
    text = f'{{"outcome": "{line.outcome}", "net": "{format_amount(line.net)}"}}'
    if len(_WAGER_TEXT) < _MEMO:
        _WAGER_TEXT[line] = text
    return text


def _hand_text(hand: int | None, flush: int) -> str:
    """A hand's flush and straight flush, as ``_hand_json`` gives them; nothing without cards."""
    if hand is None:
        return ""
    suit, straight = flush_suit(hand, flush), straight_flush_key(hand)
    key = (flush << 2 | suit) << 8 | straight  # a flush key has 16 bits, a run's 7
    text = _HAND_TEXT.get(key)
    if text is None:
        size, cards = flush_of_suit(suit, flush)
        length, high = describe_straight_flush(straight)
        text = (
            f', "flush": {json.dumps({"size": size, "cards": cards})}, '
            f'"straight_flush": {json.dumps({"length": length, "high": high})}'
        )
        if len(_HAND_TEXT) < _MEMO:
            _HAND_TEXT[key] = text
    return text


# --- input -------------------------------------------------------------------------------

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


# Rounds of one table repeat its settings line after line (issue 16): each distinct ``table``
# object is read and checked once. Bounded, as a stream of distinct tables could be endless.
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

    The fast path of issue 16 (settle_round --jsonl): ``_spot`` names the field of every value
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
