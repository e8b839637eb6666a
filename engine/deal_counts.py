"""Game math, a spot against the dealer (shared/spec/game-math.md): exact counts over every deal.

A spot's hand and a dealer's hand dealt from the same deck are a *pair* of disjoint rank
subsets per suit, so counts over all C(52, 7) · C(45, 7) deals are the coefficient of u^7 v^7
in (Σ per-suit pair count · u^s v^d)^4. ``versus_dp`` bonuses (R10) compare the spot's hand
with the dealer's in the category; the per-line probabilities of winning and pushing are
counted exactly, under the strategy that a spot raises whenever its hand reaches a paid line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from .cards import SUIT_MASK
from .hand_counts import (
    DEALER_HANDS,
    DEALS,
    FLUSH_SHIFT,
    HAND_SIZE,
    RANKS_PER_SUIT,
    RUN_SHIFT,
    Bonus,
    line_hands,
)
from .hands import FLUSH_KEYS, STRAIGHT_FLUSH_KEYS, flush_ranks
from .table import FLUSH_SIZES, RUN_LENGTHS

Table = list[list[int]]  # [spot cards in the suit][dealer cards in the suit] -> count


def _deal_coefficient(table: Table) -> int:
    """[u^7 v^7] of (Σ table[s][d] u^s v^d)^4: the deals whose four suits each hold s of the
    spot's cards and d of the dealer's, counted by ``table`` per suit."""
    entries = [(s, d, n) for s, row in enumerate(table) for d, n in enumerate(row) if n]
    square = [[0] * 8 for _ in range(8)]
    for s1, d1, n1 in entries:
        for s2, d2, n2 in entries:
            if s1 + s2 <= HAND_SIZE and d1 + d2 <= HAND_SIZE:
                square[s1 + s2][d1 + d2] += n1 * n2
    return sum(square[s][d] * square[7 - s][7 - d] for s in range(8) for d in range(8))


def _all_pairs(s: int, d: int) -> int:
    """One suit: the ways to give the spot s of its 13 ranks and the dealer d others."""
    return comb(RANKS_PER_SUIT, s) * comb(RANKS_PER_SUIT - s, d)


def count_below(allowed: int, size: int, limit: int) -> int:
    """How many ``size``-card subsets of the rank set ``allowed`` are below ``limit`` as rank
    bitmasks: at equal size, R2's order of flushes (FLUSH_KEYS is ``size << 13 | ranks``)."""
    if limit >> RANKS_PER_SUIT:  # above every subset of the suit
        return comb(allowed.bit_count(), size)
    below, taken = 0, 0
    for rank in range(RANKS_PER_SUIT - 1, -1, -1):
        if limit >> rank & 1:
            # Equal to ``limit`` above this rank, without it: any choice of the rest is lower.
            below += comb((allowed & ((1 << rank) - 1)).bit_count(), size - taken)
            if not allowed >> rank & 1:
                return below
            taken += 1
            if taken > size:
                return below
    return below


class _DealCount:
    """``[u^7 v^7] (table)^4`` for the size-k block of flush thresholds, fast.

    With the spot's flush at most the alpha-th size-k key and the dealer's at most the
    beta-th, one suit's table is: all pairs for s, d < k; alpha · C(13-k, d) for s = k > d;
    beta · C(13-k, s) for d = k > s; delta (disjoint size-k pairs under both bounds) at s = d = k.
    """

    def __init__(self, k: int) -> None:
        self.k = k
        if k >= 4:
            # A product of four suits' entries takes at most one from row k (two would be 8+
            # of the spot's cards) and at most one from column k: the coefficient is
            # c0 + c1·alpha + c2·beta + c3·delta + c4·alpha·beta, read off five evaluations.
            g0 = self._direct(0, 0, 0)
            ga, gb = self._direct(1, 0, 0), self._direct(0, 1, 0)
            self.terms = (g0, ga - g0, gb - g0, self._direct(0, 0, 1) - g0)
            self.cross = self._direct(1, 1, 0) - ga - gb + g0

    def _direct(self, alpha: int, beta: int, delta: int) -> int:
        k = self.k
        table = [[0] * 8 for _ in range(8)]
        for s in range(k + 1):
            for d in range(k + 1):
                if s < k and d < k:
                    table[s][d] = _all_pairs(s, d)
                elif s == k and d < k:
                    table[s][d] = alpha * comb(RANKS_PER_SUIT - k, d)
                elif d == k and s < k:
                    table[s][d] = beta * comb(RANKS_PER_SUIT - k, s)
                else:
                    table[s][d] = delta
        return _deal_coefficient(table)

    def __call__(self, alpha: int, beta: int, delta: int) -> int:
        if self.k < 4:
            return self._direct(alpha, beta, delta)
        c0, c1, c2, c3 = self.terms
        return c0 + c1 * alpha + c2 * beta + c3 * delta + self.cross * alpha * beta


@cache
def _flush_versus_deals() -> Mapping[int, tuple[int, int]]:
    """R10 versus_dp, Flush Bonus: per flush size k, the deals in which the spot's largest
    flush has k cards and beats (R2) the dealer's, and those in which the two are equal.

    G(x, y) counts the deals with the spot's flush key at most x and the dealer's at most y.
    Over the spot's possible keys a, in R2 order: wins = Σ G(a, a⁻) - G(a⁻, a⁻) and
    pushes = Σ G(a, a) - 2·G(a, a⁻) + G(a⁻, a⁻) (G is symmetric: both hands hold 7 cards).
    """
    out: dict[int, tuple[int, int]] = {}
    for k in FLUSH_SIZES:
        keys = sorted(key for key in FLUSH_KEYS if key >> FLUSH_SHIFT == k)
        deals = _DealCount(k)
        wins = pushes = 0
        delta = 0  # disjoint pairs of size-k suits, both below the current key
        for i, key in enumerate(keys):
            ranks = flush_ranks(key)
            # Size-k suits disjoint from this one and below it: each is a pair (this, lower)
            # with the spot above, and a pair (lower, this) with the dealer above.
            lower = count_below(SUIT_MASK & ~ranks, k, ranks)
            below = deals(i, i, delta)  # G(a⁻, a⁻): i keys of size k allowed on each side
            spot_at = deals(i + 1, i, delta + lower)  # G(a, a⁻)
            both_at = deals(i + 1, i + 1, delta + 2 * lower)  # G(a, a)
            wins += spot_at - below
            pushes += both_at - 2 * spot_at + below
            delta += 2 * lower
        out[k] = (wins, pushes)
    return out


def _suited_runs() -> tuple[list[int], list[int]]:
    """One suit's rank subsets (up to 7 cards) holding a run of 3+, and their sorted keys."""
    runs = [
        ranks
        for ranks in range(1 << RANKS_PER_SUIT)
        if STRAIGHT_FLUSH_KEYS[ranks] >> RUN_SHIFT >= 3 and ranks.bit_count() <= HAND_SIZE
    ]
    return runs, sorted({STRAIGHT_FLUSH_KEYS[ranks] for ranks in runs})


def _run_pairs(
    runs: list[int], keys: list[int]
) -> tuple[list[Table], list[Table], list[list[int]]]:
    """both[i][j][s][d]: disjoint (spot, dealer) suits with runs, keys i and j, sizes s and d;
    kept as sums by the key that is larger (row: spot's, column: dealer's) and the diagonal,
    with the suits of each key by size."""
    index = {key: i for i, key in enumerate(keys)}
    is_run = bytearray(1 << RANKS_PER_SUIT)
    for ranks in runs:
        is_run[ranks] = 1
    n = len(keys)
    row_above = [[[0] * 8 for _ in range(8)] for _ in range(n)]  # spot key i, dealer key > i
    diagonal = [[[0] * 8 for _ in range(8)] for _ in range(n)]  # both keys i
    above_by_size = [[0] * 8 for _ in range(n)]  # suits with run key i, by size
    for spot in runs:
        i, s = index[STRAIGHT_FLUSH_KEYS[spot]], spot.bit_count()
        above_by_size[i][s] += 1
        free = SUIT_MASK & ~spot
        dealer = free
        while dealer:
            if is_run[dealer]:
                j, d = index[STRAIGHT_FLUSH_KEYS[dealer]], dealer.bit_count()
                if j > i:
                    row_above[i][s][d] += 1
                elif j == i:
                    diagonal[i][s][d] += 1
            dealer = (dealer - 1) & free
    return row_above, diagonal, above_by_size


def _run_table(spot_above: list[int], dealer_above: list[int], both: Table) -> Table:
    """One suit's pairs: all, less the spot's suit above x, less the dealer's above y, plus
    both above."""
    return [
        [
            _all_pairs(s, d)
            - spot_above[s] * comb(RANKS_PER_SUIT - s, d)
            - dealer_above[d] * comb(RANKS_PER_SUIT - d, s)
            + both[s][d]
            for d in range(8)
        ]
        for s in range(8)
    ]


@cache
def _straight_flush_versus_deals() -> Mapping[int, tuple[int, int]]:
    """R10 versus_dp, Straight Flush Bonus: per run length L (3 to 7), the deals in which the
    spot's longest run has L cards and beats the dealer's (R3: length, then top card), and
    those in which they are equal.

    Same G as for the flush, over STRAIGHT_FLUSH_KEYS. Every threshold is at least the best
    2-card run, so the suits above it are those holding a run of 3+: one suit's table is all
    pairs, less those with the spot's suit above x, less those with the dealer's above y, plus
    those with both above (enumerated: a few hundred thousand pairs of suits with runs).
    """
    runs, keys = _suited_runs()
    row_above, diagonal, above_by_size = _run_pairs(runs, keys)
    wins = dict.fromkeys(RUN_LENGTHS, 0)
    pushes = dict.fromkeys(RUN_LENGTHS, 0)
    # Walking down the keys: the suits with a key above a (x = a) and above a⁻ (x = a - 1).
    above = [0] * 8  # suits with a key above a, by size
    both_above = [[0] * 8 for _ in range(8)]  # pairs with both keys above a
    for i in range(len(keys) - 1, -1, -1):
        at_or_above = [above[s] + above_by_size[i][s] for s in range(8)]
        # Pairs with the dealer's key exactly i and the spot's above: the transpose of row i.
        spot_above_dealer_at = [
            [both_above[s][d] + row_above[i][d][s] for d in range(8)] for s in range(8)
        ]
        both_at_or_above = [
            [spot_above_dealer_at[s][d] + row_above[i][s][d] + diagonal[i][s][d] for d in range(8)]
            for s in range(8)
        ]
        both_at = _deal_coefficient(_run_table(above, above, both_above))  # G(a, a)
        # G(a, a⁻), then G(a⁻, a⁻)
        spot_at = _deal_coefficient(_run_table(above, at_or_above, spot_above_dealer_at))
        below = _deal_coefficient(_run_table(at_or_above, at_or_above, both_at_or_above))
        length = keys[i] >> RUN_SHIFT
        wins[length] += spot_at - below
        pushes[length] += both_at - 2 * spot_at + below
        above, both_above = at_or_above, both_at_or_above
    return {length: (wins[length], pushes[length]) for length in RUN_LENGTHS}


@dataclass(frozen=True, slots=True)
class LineOutcomes:
    """R10 versus_dp: over every deal, the probability that the spot's hand is on this line and
    beats, equals or loses to the dealer's hand in the bonus's category."""

    win: Fraction
    push: Fraction
    lose: Fraction


@cache
def versus_dp_lines(bonus: Bonus) -> Mapping[int, LineOutcomes]:
    """Exact per-line outcomes of a versus_dp bonus; they do not depend on the odds, so one
    table serves every paytable."""
    deals = _flush_versus_deals() if bonus is Bonus.FLUSH else _straight_flush_versus_deals()
    hands = line_hands(bonus)
    out = {}
    for line, (wins, pushes) in deals.items():
        on_line = hands[line] * DEALER_HANDS
        out[line] = LineOutcomes(
            Fraction(wins, DEALS), Fraction(pushes, DEALS), Fraction(on_line - wins - pushes, DEALS)
        )
    return out


__all__: Sequence[str] = ("LineOutcomes", "count_below", "versus_dp_lines")
