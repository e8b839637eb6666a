"""A settled spot's wager lines in a dealer's words: why each line won, lost or pushed (R9,
R10, R11), and what the dealer does at the spot: pay, take, collect the fee (R12) or hand the
chips back (R14).

The outcome is the engine's (the stored settlement); these words only name the rule's case
that gave it, from the same round: the spot's flush, the dealer's, the posted paytable line.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from core.money import dollars_text
from engine.table import (
    DEFAULT_FLUSH_PAYTABLE,
    DEFAULT_STRAIGHT_FLUSH_PAYTABLE,
    Banking,
    BonusMode,
)

ZERO = Decimal("0.00")

#: A spot's wagers, in the order of the settlement's columns, and the word for each stake in a
#: return sentence ("return $45.00 (ante 10, raise 30, bonus 5)").
WAGERS = ("ante", "raise", "flush_bonus", "straight_flush_bonus")
STAKE_WORDS = {
    "ante": "ante",
    "raise": "raise",
    "flush_bonus": "bonus",
    "straight_flush_bonus": "straight flush bonus",
}
#: A spot's status in the settlement (settle-json) as the dealer says it.
STATUS_WORDS = {"played": "raised", "folded": "folded", "dead": "dead"}


class Terms:
    """The round's bonus terms (R10) as the stored round gives them: a key the round leaves
    out has the settlement contract's default, as the engine read it."""

    def __init__(self, table: Mapping[str, Any]) -> None:
        house = table.get("banking") == Banking.HOUSE
        self.versus_dp = table.get("bonus_mode", "paytable" if house else "versus_dp") == (
            BonusMode.VERSUS_DP
        )
        self.paytables = {
            "flush_bonus": _odds(table.get("flush_paytable", DEFAULT_FLUSH_PAYTABLE)),
            "straight_flush_bonus": _odds(
                table.get("straight_flush_paytable", DEFAULT_STRAIGHT_FLUSH_PAYTABLE)
            ),
        }


def _odds(paytable: Mapping[Any, Any]) -> dict[int, int]:
    return {int(size): int(odds) for size, odds in paytable.items()}


def short_amount(amount: Decimal) -> str:
    """A stake in a list of stakes: ``10``, ``2.50``, ``1,000`` (whole dollars lose ``.00``)."""
    return f"{amount:,.2f}".removesuffix(".00")


def stakes_of(spot: Mapping[str, Any]) -> dict[str, Decimal]:
    """The chips on a spot of the stored round, by wager (only those placed)."""
    stakes = {name: Decimal(str(spot.get(name) or 0)) for name in WAGERS}
    return {name: amount for name, amount in stakes.items() if amount}


def return_words(stakes: Mapping[str, Decimal]) -> str:
    """R14: a dead spot's wagers go back: "return $45.00 (ante 10, raise 30, bonus 5)"."""
    total = sum(stakes.values(), ZERO)
    parts = ", ".join(f"{STAKE_WORDS[name]} {short_amount(stakes[name])}" for name in stakes)
    return f"return {dollars_text(total)} ({parts})" if parts else "nothing to return"


def dealer_words(line: Mapping[str, Any], stakes: Mapping[str, Decimal]) -> tuple[str, str]:
    """What the dealer does at a settled spot, and its kind (``pay``, ``take``, ``return``,
    ``fee`` or ``""``): the wagers' result and the fee said apart, so that a net does not hide
    the fee (R12): "pay $30.00, collect the $1.00 fee"; a dead spot's chips go back (R14)."""
    if line["status"] == "dead":
        return return_words(stakes), "return"
    fee = Decimal(line["rake"])
    wagers = Decimal(line["net"]) + fee  # the wager lines' sum: the net before the fee
    words = []
    if wagers > 0:
        words.append(f"pay {dollars_text(wagers)}")
    elif wagers < 0:
        words.append(f"take {dollars_text(-wagers)}")
    if fee:
        words.append(f"collect the {dollars_text(fee)} fee")
    kind = "pay" if wagers > 0 else "take" if wagers < 0 else "fee" if fee else ""
    return ", ".join(words), kind


def line_words(
    wager: str,
    spot: Mapping[str, Any],
    stakes: Mapping[str, Decimal],
    dealer: Mapping[str, Any],
    terms: Terms,
) -> str:
    """Why one wager line of a settled spot (the settlement's line) came out as it did, in
    words; empty for a line not placed."""
    result = spot.get(wager)
    if not result:
        return ""
    outcome = result["outcome"]
    if outcome == "returned":
        return ""  # the stake itself is the line's amount (R14)
    if wager in ("ante", "raise"):
        return _ante_raise_words(wager, outcome, spot, dealer)
    return _bonus_words(wager, result, spot, stakes, dealer, terms)


def _ante_raise_words(
    wager: str, outcome: str, spot: Mapping[str, Any], dealer: Mapping[str, Any]
) -> str:
    """R9: a fold loses the ante; against a dealer who does not qualify the ante wins even
    money and the raise pushes; else the flushes compare (R2)."""
    if spot["status"] == "folded":
        return "folded"
    if not dealer.get("qualifies"):
        return "the dealer did not qualify" + (", 1 to 1" if outcome == "win" else "")
    return {
        "win": "beats the dealer's flush, 1 to 1",
        "lose": "the dealer's flush is higher",
        "push": "ties the dealer's flush",
    }.get(outcome, "")


def _bonus_words(
    wager: str,
    result: Mapping[str, Any],
    spot: Mapping[str, Any],
    stakes: Mapping[str, Decimal],
    dealer: Mapping[str, Any],
    terms: Terms,
) -> str:
    """R10: the paytable line the spot's flush (or longest run) reaches, and against the
    dealer's in the versus-the-DP mode; R11: a win cut by the hand's cap on bonus wins."""
    outcome = result["outcome"]
    size, hand_words = _category(wager, spot)
    odds = terms.paytables[wager].get(size)
    if outcome == "win":
        words = f"{hand_words}, {odds} to 1"
        full = stakes.get(wager, ZERO) * (odds or 0)
        if Decimal(result["net"]) < full:
            words += f" (cut from {dollars_text(full)}: the hand's cap on bonus wins)"
        return words
    if outcome == "push":
        return f"{hand_words}, ties the dealer's"
    if terms.versus_dp and spot["status"] == "folded":
        return "lost with the fold"
    if odds is None:
        return f"{hand_words}: no paytable line" if size else "no straight flush"
    return f"{hand_words}, lower than the dealer's {_category(wager, dealer)[1]}"


def _category(wager: str, hand: Mapping[str, Any]) -> tuple[int, str]:
    """The size the bonus is judged on and its words: "6-card flush", "4-card straight
    flush" (R2, R3: runs of 3 or more count)."""
    if wager == "flush_bonus":
        size = int((hand.get("flush") or {}).get("size", 0))
        return size, f"{size}-card flush"
    length = int((hand.get("straight_flush") or {}).get("length", 0))
    if length < 3:
        return 0, "no straight flush"
    return length, f"{length}-card straight flush"
