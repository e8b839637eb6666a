"""The dealer screen's settlement: per spot its hand and the flush that counts, each wager's
result with the rule's case in words (the paytable line that paid), and what the dealer does
there — pay, take, collect the fee, or hand the chips back — and what a spot the designated
player's bank could not cover would have won (R13)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from core.money import dollars_text
from engine.contract import settle_json
from wagers import selectors
from wagers.models import Hand, Settlement

from .settlement_words import (
    STATUS_WORDS,
    ZERO,
    Terms,
    dealer_words,
    line_words,
    stakes_of,
)

#: The settlement's wager columns, by the wager each holds.
WAGER_LABELS = {
    "ante": "Ante",
    "raise": "Raise",
    "flush_bonus": "Flush bonus",
    "straight_flush_bonus": "Straight flush bonus",
}


def settlement_context(hand: Hand, settlement: Settlement) -> dict[str, Any]:
    """What the settlement panel shows of the hand's settlement in force."""
    misdeal = bool(settlement.result.get("misdeal"))
    return {
        "settlement_rows": settlement_rows(hand, settlement),
        "misdeal_returns": misdeal_returns(settlement) if misdeal else "",
    }


def settlement_rows(hand: Hand, settlement: Settlement) -> list[dict[str, Any]]:
    """The settlement per spot as the dealer pays it: the player's name, the spot's cards and
    flush, each wager line with why it came out so (R9–R11), and what to pay the player, take
    from them, collect as the fee (R12) or return (R14); for a spot made dead because the DP's
    bank could not cover it (R13), what its wagers would have won."""
    result = settlement.result
    names = {spot.seat: spot.player for spot in hand.spots.select_related("player")}
    placed = {spot["seat"]: spot for spot in settlement.round.get("spots", [])}
    terms = Terms(settlement.round.get("table", {}))
    would = _would_have_won(hand, result)
    rows = []
    for line in result["spots"]:
        spot = placed.get(line["seat"], {})
        stakes = stakes_of(spot)
        says, kind = dealer_words(line, stakes)
        rows.append(
            line
            | {
                "player": names.get(line["seat"], ""),
                "status_words": STATUS_WORDS.get(line["status"], line["status"]),
                "cards": spot.get("cards", ""),
                "flush_cards": " ".join((line.get("flush") or {}).get("cards", [])),
                "lines": [
                    (label, _line(wager, line, stakes, result["dealer"], terms))
                    for wager, label in WAGER_LABELS.items()
                ],
                "dealer_says": says,
                "dealer_kind": kind,
                "would_have_won": would.get(line["seat"]),
            }
        )
    return rows


def _line(
    wager: str,
    line: dict[str, Any],
    stakes: dict[str, Decimal],
    dealer: dict[str, Any],
    terms: Terms,
) -> dict[str, Any] | None:
    result = line.get(wager)
    if not result:
        return None
    return {
        "outcome": result["outcome"],
        "net": result["net"],
        "stake": stakes.get(wager, ZERO),
        "why": line_words(wager, line, stakes, dealer, terms),
    }


def misdeal_returns(settlement: Settlement) -> str:
    """R14: a misdeal makes every hand dead: every wager goes back, and no fee is taken
    (the DP's neither, R12). "Return every wager: $45.00 in all; no fee is taken."."""
    total = sum(
        (sum(stakes_of(spot).values(), ZERO) for spot in settlement.round.get("spots", [])),
        ZERO,
    )
    return f"Return every wager: {dollars_text(total)} in all; no fee is taken."


def _would_have_won(hand: Hand, result: dict[str, Any]) -> dict[int, Decimal]:
    """R13: a spot the DP's bank could not cover is dead (R14), its wagers returned; what it
    would have won is its wagers' net had the bank been big enough. The stored settlement does
    not hold it: the round is settled again by the engine with a bank that covers every spot
    (a spot's wager lines do not depend on the bank), and the spot's net plus its fee read."""
    short = [s["seat"] for s in result["spots"] if s.get("dead_reason") == "dealer_funds"]
    if not short:
        return {}
    data = selectors.round_of(hand)
    data["dealer"]["bank"] = "9999999999.00"
    covered = settle_json(data)
    return {
        s["seat"]: Decimal(s["net"]) + Decimal(s["rake"])
        for s in covered.get("spots", [])
        if s["seat"] in short and s["status"] != "dead"
    }
