"""The dealer screen's settlement: per spot what the dealer pays the player or takes from
them, and what a spot the designated player's bank could not cover would have won (R13)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from engine.contract import settle_json
from wagers import selectors
from wagers.models import Hand


def settlement_rows(hand: Hand, result: dict[str, Any]) -> list[dict[str, Any]]:
    """The settlement per spot as the dealer pays it: the player's name, the net as what to pay
    the player or take from them, and, for a spot made dead because the DP's bank could not
    cover it (R13), what its wagers would have won."""
    names = {spot.seat: spot.player for spot in hand.spots.select_related("player")}
    would = _would_have_won(hand, result)
    rows = []
    for line in result["spots"]:
        net = Decimal(line["net"])
        rows.append(
            line
            | {
                "player": names.get(line["seat"], ""),
                "pay": net if net > 0 else None,
                "take": -net if net < 0 else None,
                "would_have_won": would.get(line["seat"]),
            }
        )
    return rows


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
