"""A round as the engine takes it: the table, the dealer's hand, the spots.

Amounts are cents; a hand is the 52-bit mask of its cards (``cards.hand_from_cards``).
NamedTuples, not dataclasses: immutable, and cheap enough to build millions of.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .money import Cents
from .table import TableRules


class Decision(StrEnum):
    RAISE = "raise"
    FOLD = "fold"
    WALKED_AWAY = "walked_away"  # R8: a player who walks away without acting has folded


class DeadReason(StrEnum):
    WRONG_CARD_COUNT = "wrong_card_count"
    DEALER_FUNDS = "dealer_funds"
    MISDEAL = "misdeal"


class Misdeal(StrEnum):
    DEALER_CARD_COUNT = "dealer_card_count"
    SHUFFLER_FAULT = "shuffler_fault"


class Dealer(NamedTuple):
    """The designated player (seat and bank), or the house dealer (neither)."""

    hand: int | None = None
    seat: int | None = None
    bank: Cents | None = None


class Spot(NamedTuple):
    seat: int
    ante: Cents
    player: str | None = None  # R6: None means the spot is its own player
    flush_bonus: Cents = 0  # 0: not placed
    straight_flush_bonus: Cents = 0
    hand: int | None = None
    decision: Decision | None = None
    raise_amount: Cents = 0
    dead: DeadReason | None = None  # declared before settlement: only WRONG_CARD_COUNT


class Round(NamedTuple):
    table: TableRules
    dealer: Dealer
    spots: tuple[Spot, ...]
    misdeal: Misdeal | None = None
