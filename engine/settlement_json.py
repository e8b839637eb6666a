"""The settle-json contract's output (shared/spec/settle-json.md): a ``Settlement`` as JSON,
as dicts or written directly as text.
"""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Any, TypeVar

from .hands import describe_straight_flush, flush_of_suit, flush_suit, straight_flush_key
from .money import format_amount
from .results import DealerResult, Settlement, SpotResult, SpotStatus, WagerResult
from .round import DeadReason

E = TypeVar("E", bound=StrEnum)
T = TypeVar("T")


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
# settle_round writes settlements by the thousand (--jsonl), and building settlement_to_json's
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
