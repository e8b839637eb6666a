"""R2–R4: flush, straight flush and qualifying, on per-suit rank bitmasks.

Both evaluations reduce a hand to one comparable integer, a *key*, looked up per suit in tables
built once for the 8,192 rank subsets of a suit (``cards.suit_ranks``). The key layouts, the one
place they are defined; read them only through the functions below:

* flush key (R2): ``size << FLUSH_SIZE_SHIFT | ranks``, the flush's card count above its 13-bit
  rank mask (``flush_size``, ``flush_ranks``). At equal size, comparing the rank masks as
  integers is comparing the ranks from the top down: the highest rank in which two sets differ
  decides.
* straight-flush key (R3): ``length << RUN_LENGTH_SHIFT | top``, the longest run's length above
  the rank of its top card (``run_length``, ``run_top``), with the ace playing high (rank 12) or
  low (below the 2), never both, and no wrap.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

from .cards import RANKS, RANKS_PER_SUIT, SUIT_MASK, SUITS, card_name

#: Flush key: the size sits above the suit's rank mask.
FLUSH_SIZE_SHIFT = RANKS_PER_SUIT
#: Straight-flush key: the length sits above the top rank, 0..12, which needs 4 bits.
RUN_LENGTH_SHIFT = 4
_RUN_TOP_MASK = (1 << RUN_LENGTH_SHIFT) - 1

_ACE = 1 << RANKS.index("A")
# Where the suits' ranks start in a hand, for the evaluators' unrolled lookups (cards.py).
_DIAMONDS_AT, _HEARTS_AT, _SPADES_AT = (RANKS_PER_SUIT * SUITS.index(s) for s in "dhs")


def flush_size(key: int) -> int:
    """The number of cards in the flush a flush key stands for."""
    return key >> FLUSH_SIZE_SHIFT


def flush_ranks(key: int) -> int:
    """The rank mask of the flush a flush key stands for."""
    return key & SUIT_MASK


def run_length(key: int) -> int:
    """The length of the run a straight-flush key stands for (1: no two cards in a row)."""
    return key >> RUN_LENGTH_SHIFT


def run_top(key: int) -> int:
    """The rank (0..12 for 2..A) of the top card of the run a straight-flush key stands for."""
    return key & _RUN_TOP_MASK


def _flush_key(ranks: int) -> int:
    return ranks.bit_count() << FLUSH_SIZE_SHIFT | ranks


def _straight_flush_key(ranks: int) -> int:
    """Longest run and its top rank; the empty suit is 0, below every other key."""
    if not ranks:
        return 0
    # Bit 0 is the ace playing low, bits 1..13 the ranks 2..A; a run is a block of set bits.
    bits = ranks << 1 | (1 if ranks & _ACE else 0)
    length, tops = 0, bits
    while bits:
        # After k steps a bit survives only where it ends a run of more than k bits.
        tops, bits = bits, bits & (bits << 1)
        length += 1
    top = tops.bit_length() - 2  # back from the ace-low layout to ranks 0..12
    return length << RUN_LENGTH_SHIFT | top


FLUSH_KEYS = tuple(_flush_key(m) for m in range(1 << RANKS_PER_SUIT))
STRAIGHT_FLUSH_KEYS = tuple(_straight_flush_key(m) for m in range(1 << RANKS_PER_SUIT))

#: R4: the smallest qualifying flush, a three-card 9-high (9-3-2).
QUALIFYING_FLUSH_KEY = _flush_key(sum(1 << RANKS.index(rank) for rank in "932"))


def flush_key(hand: int) -> int:
    """R2: the best of the four suits' flushes, as a key that orders hands."""
    # An unrolled max of four table lookups: the hot path of every settlement. Spades are the
    # hand's top bits, so they need no mask.
    keys = FLUSH_KEYS
    clubs, diamonds = keys[hand & SUIT_MASK], keys[hand >> _DIAMONDS_AT & SUIT_MASK]
    hearts, spades = keys[hand >> _HEARTS_AT & SUIT_MASK], keys[hand >> _SPADES_AT]
    low = clubs if clubs > diamonds else diamonds
    high = hearts if hearts > spades else spades
    return low if low > high else high


def straight_flush_key(hand: int) -> int:
    """R3: the longest run of one suit, then the higher top card."""
    # The same unrolled max as flush_key's, over the straight-flush table.
    keys = STRAIGHT_FLUSH_KEYS
    clubs, diamonds = keys[hand & SUIT_MASK], keys[hand >> _DIAMONDS_AT & SUIT_MASK]
    hearts, spades = keys[hand >> _HEARTS_AT & SUIT_MASK], keys[hand >> _SPADES_AT]
    low = clubs if clubs > diamonds else diamonds
    high = hearts if hearts > spades else spades
    return low if low > high else high


def qualifies(flush: int) -> bool:
    """R4: any flush of 4+ cards, or a 3-card flush whose top card is 9 or higher."""
    return flush >= QUALIFYING_FLUSH_KEY


class Flush(NamedTuple):
    size: int
    cards: tuple[str, ...]


class StraightFlush(NamedTuple):
    length: int
    high: str


def describe_flush(hand: int, flush: int) -> Flush:
    """The flush's cards, high to low. Where two suits tie exactly the spec allows either; we
    name the higher suit in c < d < h < s order, so the answer never depends on card order."""
    return flush_of_suit(flush_suit(hand, flush), flush)


def flush_suit(hand: int, flush: int) -> int:
    """The suit (0..3 for c d h s) of the hand's flush ``flush``; of two that tie, the higher."""
    # Unrolled from the top suit down, as flush_key is: output asks it of every hand.
    keys = FLUSH_KEYS
    if keys[hand >> _SPADES_AT] == flush:
        return 3
    if keys[hand >> _HEARTS_AT & SUIT_MASK] == flush:
        return 2
    if keys[hand >> _DIAMONDS_AT & SUIT_MASK] == flush:
        return 1
    return 0  # flush_key is the best of the four suits: clubs, when no other suit has it


@cache  # at most 4 suits × 8,192 rank sets; output names the same flushes over and over
def flush_of_suit(suit: int, flush: int) -> Flush:
    """The flush ``flush`` in ``suit``: its size and its cards, high to low."""
    ranks = flush_ranks(flush)
    cards = tuple(
        card_name(suit * RANKS_PER_SUIT + rank)
        for rank in reversed(range(RANKS_PER_SUIT))
        if ranks >> rank & 1
    )
    return Flush(flush_size(flush), cards)


def describe_straight_flush(straight_flush: int) -> StraightFlush:
    return StraightFlush(run_length(straight_flush), RANKS[run_top(straight_flush)])
