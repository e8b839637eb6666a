"""Game math, one hand (shared/spec/game-math.md): exact counts over the C(52, 7) hands.

The counts are worked out from the engine's own per-suit tables (``FLUSH_KEYS``,
``STRAIGHT_FLUSH_KEYS``), never copied in: a 7-card hand is one rank subset per suit, the suits'
subsets are independent given how many cards each suit holds, so a count over all hands is the
coefficient of x^7 in (Σ per-suit count · x^size)^4. ``paytable`` bonuses (R10) need only the
distribution of one hand's largest flush (R2) and longest straight-flush run (R3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from functools import cache
from math import comb

from .hands import FLUSH_KEYS, STRAIGHT_FLUSH_KEYS
from .table import RUN_LENGTHS

RANKS_PER_SUIT = 13
SUITS = 4
HAND_SIZE = 7
#: Every 7-card hand of the 52-card deck (R1).
HANDS = comb(52, HAND_SIZE)
#: Every dealer hand once a spot's 7 cards are out of the deck.
DEALER_HANDS = comb(52 - HAND_SIZE, HAND_SIZE)
#: Every (spot, dealer) deal of two disjoint 7-card hands.
DEALS = HANDS * DEALER_HANDS
#: Figures are printed with this many decimal places, as fractions of 1 (game-math.md).
PLACES = 6
#: The longest-run key ``length << 4 | top`` of STRAIGHT_FLUSH_KEYS (R3).
RUN_SHIFT = 4
#: The flush key ``size << 13 | ranks`` of FLUSH_KEYS (R2).
FLUSH_SHIFT = 13


class Bonus(StrEnum):
    """The two bonus wagers of R10 and the category each is judged on."""

    FLUSH = "flush_bonus"  # R2: largest flush size
    STRAIGHT_FLUSH = "straight_flush_bonus"  # R3: longest run


def _power_coefficient(poly: Sequence[int], degree: int = HAND_SIZE) -> int:
    """[x^degree] of poly(x)^4: four suits whose card counts add up to ``degree``."""
    square = [0] * (degree + 1)
    for i, a in enumerate(poly[: degree + 1]):
        if a:
            for j, b in enumerate(poly[: degree + 1 - i]):
                square[i + j] += a * b
    return sum(square[i] * square[degree - i] for i in range(degree + 1))


@cache
def _suit_subsets() -> tuple[tuple[int, ...], ...]:
    """``[size][run length]``: how many of one suit's rank subsets of up to 7 cards have that
    many cards (R2, read off FLUSH_KEYS) and that longest run (R3, off STRAIGHT_FLUSH_KEYS)."""
    counts = [[0] * (HAND_SIZE + 1) for _ in range(HAND_SIZE + 1)]
    for ranks in range(1 << RANKS_PER_SUIT):
        size = FLUSH_KEYS[ranks] >> FLUSH_SHIFT
        if size <= HAND_SIZE:
            counts[size][STRAIGHT_FLUSH_KEYS[ranks] >> RUN_SHIFT] += 1
    return tuple(tuple(row) for row in counts)


@cache
def flush_size_distribution() -> Mapping[int, int]:
    """R2: how many of the C(52, 7) hands have each largest flush size, 2 to 7."""
    subsets = _suit_subsets()
    at_most = [
        _power_coefficient([sum(subsets[size]) if size <= k else 0 for size in range(8)])
        for k in range(8)
    ]
    return {k: at_most[k] - at_most[k - 1] for k in range(1, 8) if at_most[k] > at_most[k - 1]}


@cache
def longest_run_distribution() -> Mapping[int, int]:
    """R3: how many of the C(52, 7) hands have each longest straight-flush run, 1 to 7 (a run
    of 1 is a hand with no two suited cards in sequence; the ace plays high or low)."""
    subsets = _suit_subsets()
    at_most = [
        _power_coefficient([sum(subsets[size][: k + 1]) for size in range(8)]) for k in range(8)
    ]
    return {k: at_most[k] - at_most[k - 1] for k in range(1, 8)}


@cache
def straight_flush_distribution() -> Mapping[int, int]:
    """R3: hands by longest run, with runs under 3 cards (no straight flush) under key 0."""
    runs = longest_run_distribution()
    lengths = {length: runs[length] for length in RUN_LENGTHS}
    return {0: HANDS - sum(lengths.values()), **lengths}


def line_hands(bonus: Bonus) -> Mapping[int, int]:
    """Hands per paytable line: the flush size or the run length a line pays on (R10)."""
    if bonus is Bonus.FLUSH:
        return flush_size_distribution()
    return {k: v for k, v in straight_flush_distribution().items() if k}


__all__: Sequence[str] = (
    "DEALER_HANDS",
    "DEALS",
    "FLUSH_SHIFT",
    "HANDS",
    "HAND_SIZE",
    "PLACES",
    "RANKS_PER_SUIT",
    "RUN_SHIFT",
    "SUITS",
    "Bonus",
    "flush_size_distribution",
    "line_hands",
    "longest_run_distribution",
    "straight_flush_distribution",
)
