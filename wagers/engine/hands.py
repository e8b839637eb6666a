"""R2–R4: flush, straight flush and qualifying, on per-suit rank bitmasks.

Both evaluations reduce a hand to one comparable integer, looked up per suit in tables built
once for the 8,192 rank subsets of a suit:

* flush key ``size << 13 | ranks`` (R2). At equal size, comparing the rank bitmasks as integers
  is comparing the ranks from the top down: the highest rank in which two sets differ decides.
* straight-flush key ``length << 4 | top`` (R3): the longest run, then its top card, with the
  ace playing high (bit 12) or low (below the 2), never both, and no wrap.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import RANKS, card_name

SUIT_MASK = 0x1FFF
_ACE = 1 << 12

#: R4: the smallest qualifying flush, a three-card 9-high (9-3-2).
QUALIFYING_FLUSH_KEY = 3 << 13 | 1 << RANKS.index("9") | 1 << RANKS.index("3") | 1 << 0


def _flush_key(ranks: int) -> int:
    return ranks.bit_count() << 13 | ranks


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
    return length << 4 | (tops.bit_length() - 2)


FLUSH_KEYS = tuple(_flush_key(m) for m in range(1 << 13))
STRAIGHT_FLUSH_KEYS = tuple(_straight_flush_key(m) for m in range(1 << 13))


def flush_key(hand: int) -> int:
    """R2: the best of the four suits' flushes, as a key that orders hands."""
    # An unrolled max of four table lookups: the hot path of every settlement.
    _keys = FLUSH_KEYS
    a, b = _keys[hand & SUIT_MASK], _keys[hand >> 13 & SUIT_MASK]
    c, d = _keys[hand >> 26 & SUIT_MASK], _keys[hand >> 39]
    if b > a:
        a = b
    if d > c:
        c = d
    return a if a > c else c


def straight_flush_key(hand: int) -> int:
    """R3: the longest run of one suit, then the higher top card."""
    _keys = STRAIGHT_FLUSH_KEYS
    a, b = _keys[hand & SUIT_MASK], _keys[hand >> 13 & SUIT_MASK]
    c, d = _keys[hand >> 26 & SUIT_MASK], _keys[hand >> 39]
    if b > a:
        a = b
    if d > c:
        c = d
    return a if a > c else c


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
    ranks = flush & SUIT_MASK
    suit = next(s for s in (3, 2, 1, 0) if FLUSH_KEYS[hand >> 13 * s & SUIT_MASK] == flush)
    cards = tuple(card_name(suit * 13 + r) for r in range(12, -1, -1) if ranks >> r & 1)
    return Flush(flush >> 13, cards)


def describe_straight_flush(straight_flush: int) -> StraightFlush:
    return StraightFlush(straight_flush >> 4, RANKS[straight_flush & 0xF])
