"""How a table's cards come, in words, for every screen that says it (the dealer's, the
floor's table and hand pages).

A table with an active shuffler (``tables.device_selectors.active_device``) takes its cards
from it: the dealer screen waits for the shuffler's hands and offers no picker. Any other table is
dealt physically and the dealer enters the cards with the picker; the system's own deal stays
beside the picker for electronic and training tables, labelled so (docs/screens.md)."""

from __future__ import annotations

from typing import Any

from tables.device_selectors import active_device
from tables.models import Table
from wagers.models import Hand
from wagers.shuffler_selectors import last_shuffler_refusal

ENTERED = "Cards entered by the dealer"
SYSTEM = "Cards dealt by the system (electronic table)"
SHUFFLER = "Cards read by the table's shuffler"
#: What the system's deal button says: what it is for, in plain words.
SYSTEM_DEAL = "Deal by the system (electronic or training table)"

_BY_SOURCE: dict[str, str] = {
    Hand.CardSource.ENTERED: ENTERED,
    Hand.CardSource.SYSTEM: SYSTEM,
    Hand.CardSource.SHUFFLER: SHUFFLER,
}


def device_words(device: Any) -> str:
    """The device as the floor knows it: "Shuffle Master Deck Mate 2, serial DM2-0042"."""
    return f"{device.make} {device.model}, serial {device.serial}"


def table_card_source(table: Table, device: Any = None) -> str:
    """How this table's cards come now: its shuffler's (named), else the dealer's entry."""
    device = device if device is not None else active_device(table)
    if device is not None:
        return f"{SHUFFLER} ({device_words(device)})"
    return ENTERED


def hand_card_source(hand: Hand) -> str:
    """How a hand's cards came ("" before they are dealt)."""
    return _BY_SOURCE.get(hand.card_source, "") if hand.card_source else ""


def cards_context(table: Table, hand: Hand | None) -> dict[str, Any]:
    """The dealer screen's cards part: the table's source, the shuffler when it has one and,
    while its hand waits for cards, the last message of the shuffler that was refused."""
    device = active_device(table)
    waiting = hand is not None and hand.status == Hand.Status.WAGERING
    return {
        "shuffler": device,
        "card_source": table_card_source(table, device),
        "system_deal": SYSTEM_DEAL,
        "shuffler_refusal": last_shuffler_refusal(hand) if device and waiting and hand else None,
    }
