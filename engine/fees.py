"""R12: who pays the collection fee. Pure rules: the settlement engine applies them, and the
hand services reserve and book fees with the same functions.

The fee is a fixed amount per hand, set before the hand starts; it is never a percentage of
wagers or wins, which is why nothing here takes a wager or a win as input.
"""

from __future__ import annotations

from decimal import Decimal
from enum import StrEnum
from typing import TypeVar

# Cents in the engine, Decimal in the database; a fee not due is a zero of the same kind.
Amount = TypeVar("Amount", int, Decimal)


class RakeMode(StrEnum):
    ALL_PLAYERS = "all_players"  # every live spot and the designated player
    PLAYERS_NOT_DP = "players_not_dp"  # every live spot
    DP_ONLY = "dp_only"  # only the designated player
    NONE = "none"  # the only mode a house-banked table may use


def spot_fee(mode: RakeMode, amount: Amount) -> Amount:
    """What each live spot pays (folded spots are live; dead ones pay nothing, R14)."""
    return amount if mode in (RakeMode.ALL_PLAYERS, RakeMode.PLAYERS_NOT_DP) else amount * 0


def dealer_fee(mode: RakeMode, amount: Amount) -> Amount:
    """What the designated player pays before the deal; returned if every spot ends dead."""
    return amount if mode in (RakeMode.ALL_PLAYERS, RakeMode.DP_ONLY) else amount * 0
