"""Game math (shared/spec/game-math.md): what each wager of a table returns in the long run.

Everything here is exact: probabilities are ``Fraction``s of hand counts, and the counts are
worked out from the engine's own per-suit tables (``FLUSH_KEYS``, ``STRAIGHT_FLUSH_KEYS``), never
copied in. The idea throughout: a 7-card hand is one rank subset per suit, the suits' subsets are
independent given how many cards each suit holds, so a count over all C(52, 7) hands is the
coefficient of x^7 in (Σ per-suit count · x^size)^4. A spot's hand and a dealer's hand dealt
from the same deck are a *pair* of disjoint subsets per suit, so counts over all
C(52, 7) · C(45, 7) deals are the coefficient of u^7 v^7 in (Σ per-suit pair count · u^s v^d)^4.

* ``paytable`` bonuses (R10) need only the distribution of one hand's largest flush (R2) and
  longest straight-flush run (R3).
* ``versus_dp`` bonuses (R10) compare the spot's hand with the dealer's in the category; the
  per-line probabilities of winning and pushing are counted exactly over every deal, under the
  strategy that a spot raises whenever its hand reaches a paid line.
* The ante and raise (R8, R9) under the optimal strategy is an enumeration run once, offline,
  by ``python -m bench.ante_raise_edge``; its result is kept in ``ante_raise_edge.py``.

Pure Python, standard library only; everything expensive is computed once per process.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from . import ante_raise_edge
from .cards import SUIT_MASK
from .contract import table_from_json
from .hands import FLUSH_KEYS, STRAIGHT_FLUSH_KEYS, flush_ranks
from .table import FLUSH_SIZES, RUN_LENGTHS, BonusMode, TableRules

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
_RUN_SHIFT = 4
_FLUSH_SHIFT = 13  # the flush key ``size << 13 | ranks`` of FLUSH_KEYS (R2)

Table = list[list[int]]  # [spot cards in the suit][dealer cards in the suit] -> count


class Bonus(StrEnum):
    """The two bonus wagers of R10 and the category each is judged on."""

    FLUSH = "flush_bonus"  # R2: largest flush size
    STRAIGHT_FLUSH = "straight_flush_bonus"  # R3: longest run


# --- one hand: the exact distributions ------------------------------------------------------


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
        size = FLUSH_KEYS[ranks] >> _FLUSH_SHIFT
        if size <= HAND_SIZE:
            counts[size][STRAIGHT_FLUSH_KEYS[ranks] >> _RUN_SHIFT] += 1
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


def _line_hands(bonus: Bonus) -> Mapping[int, int]:
    """Hands per paytable line: the flush size or the run length a line pays on (R10)."""
    if bonus is Bonus.FLUSH:
        return flush_size_distribution()
    return {k: v for k, v in straight_flush_distribution().items() if k}


# --- a spot against the dealer: exact counts over every deal (versus_dp) --------------------


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
        keys = sorted(key for key in FLUSH_KEYS if key >> _FLUSH_SHIFT == k)
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
    runs = [
        ranks
        for ranks in range(1 << RANKS_PER_SUIT)
        if STRAIGHT_FLUSH_KEYS[ranks] >> _RUN_SHIFT >= 3 and ranks.bit_count() <= HAND_SIZE
    ]
    keys = sorted({STRAIGHT_FLUSH_KEYS[ranks] for ranks in runs})
    index = {key: i for i, key in enumerate(keys)}
    is_run = bytearray(1 << RANKS_PER_SUIT)
    for ranks in runs:
        is_run[ranks] = 1
    n = len(keys)

    # both[i][j][s][d]: disjoint (spot, dealer) suits with runs, keys i and j, sizes s and d;
    # kept as sums by the key that is larger (row: spot's, column: dealer's) and the diagonal.
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

    def table(spot_above: list[int], dealer_above: list[int], both: Table) -> Table:
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

    wins = dict.fromkeys(RUN_LENGTHS, 0)
    pushes = dict.fromkeys(RUN_LENGTHS, 0)
    # Walking down the keys: the suits with a key above a (x = a) and above a⁻ (x = a - 1).
    above = [0] * 8  # suits with a key above a, by size
    both_above = [[0] * 8 for _ in range(8)]  # pairs with both keys above a
    for i in range(n - 1, -1, -1):
        # Pairs with the dealer's key exactly i and the spot's above: the transpose of row i.
        column = [[row_above[i][d][s] for d in range(8)] for s in range(8)]
        at_or_above = [above[s] + above_by_size[i][s] for s in range(8)]
        spot_above_dealer_at = [
            [both_above[s][d] + column[s][d] for d in range(8)] for s in range(8)
        ]
        both_at_or_above = [
            [spot_above_dealer_at[s][d] + row_above[i][s][d] + diagonal[i][s][d] for d in range(8)]
            for s in range(8)
        ]
        both_at = _deal_coefficient(table(above, above, both_above))  # G(a, a)
        spot_at = _deal_coefficient(table(above, at_or_above, spot_above_dealer_at))  # G(a, a⁻)
        below = _deal_coefficient(table(at_or_above, at_or_above, both_at_or_above))  # G(a⁻, a⁻)
        length = keys[i] >> _RUN_SHIFT
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
    hands = _line_hands(bonus)
    out = {}
    for line, (wins, pushes) in deals.items():
        on_line = hands[line] * DEALER_HANDS
        out[line] = LineOutcomes(
            Fraction(wins, DEALS), Fraction(pushes, DEALS), Fraction(on_line - wins - pushes, DEALS)
        )
    return out


# --- figures --------------------------------------------------------------------------------


def format_figure(value: Fraction, places: int = PLACES) -> str:
    """A figure as a decimal string with ``places`` places, rounded half-even (game-math.md)."""
    scaled = round(value * 10**places)  # Fraction.__round__ rounds half to even
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{part:0{places}d}"


VERSUS_DP_STRATEGY = (
    "a spot raises whenever its hand reaches a paid line of this paytable (R10: the bonus "
    "needs a raise; a hand on no line loses the bonus whatever the spot does)"
)


@dataclass(frozen=True, slots=True)
class WagerFigures:
    """What one bonus wager returns per unit staked: exact ``Fraction``s.

    ``variance`` is the variance of the wager's net result per unit staked (win: +odds,
    push: 0, loss: -1): σ² for the hold bands of game-math.md.
    """

    mode: BonusMode
    return_: Fraction
    hit_frequency: Fraction
    variance: Fraction
    method: str = "exact"
    strategy: str | None = None

    @property
    def house_edge(self) -> Fraction:
        return 1 - self.return_

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "mode": str(self.mode),
            "return": format_figure(self.return_),
            "house_edge": format_figure(self.house_edge),
            "hit_frequency": format_figure(self.hit_frequency),
            "method": self.method,
        }
        if self.strategy is not None:
            out["strategy"] = self.strategy
        return out


def _figures(
    mode: BonusMode,
    outcomes: Mapping[int, tuple[Fraction, Fraction]],
    paytable: Mapping[int, int],
    strategy: str | None,
) -> WagerFigures:
    """``outcomes[line] = (P(win on line), P(push on line))``; every other deal loses."""
    back = hit = pushes = second = Fraction(0)
    for line, odds in paytable.items():
        win, push = outcomes[line]
        back += win * (odds + 1) + push  # a push returns the stake
        hit += win
        pushes += push
        second += win * odds * odds
    lose = 1 - hit - pushes
    mean = back - 1
    return WagerFigures(mode, back, hit, second + lose - mean * mean, strategy=strategy)


@cache
def _bonus_figures(
    bonus: Bonus, mode: BonusMode, lines: tuple[tuple[int, int], ...]
) -> WagerFigures:
    paytable = dict(lines)
    if mode is BonusMode.PAYTABLE:
        # R10 paytable: the spot's own hand against the paytable alone, fold or not.
        hands = _line_hands(bonus)
        outcomes = {line: (Fraction(hands[line], HANDS), Fraction(0)) for line in paytable}
        return _figures(mode, outcomes, paytable, None)
    # R10 versus_dp: on its line the spot's hand must beat the dealer's in the category.
    table = versus_dp_lines(bonus)
    outcomes = {line: (table[line].win, table[line].push) for line in paytable}
    return _figures(mode, outcomes, paytable, VERSUS_DP_STRATEGY)


def bonus_figures(bonus: Bonus, mode: BonusMode, paytable: Mapping[int, int]) -> WagerFigures:
    """Return, hit frequency and variance of a bonus wager with this paytable (R10)."""
    return _bonus_figures(bonus, mode, tuple(sorted(paytable.items())))


@dataclass(frozen=True, slots=True)
class AnteRaiseFigures:
    """R8/R9: the ante and raise per unit of ante under the optimal raise/fold strategy."""

    house_edge: Fraction
    variance: Fraction  # of the net result of ante and raise together, per unit of ante
    strategy: str
    method: str

    def to_json(self) -> dict[str, Any]:
        return {
            "house_edge": format_figure(self.house_edge),
            "strategy": self.strategy,
            "method": self.method,
        }


def ante_raise_figures() -> AnteRaiseFigures:
    """The figure ``python -m bench.ante_raise_edge`` computed offline (see ante_raise_edge)."""
    kept = ante_raise_edge
    return AnteRaiseFigures(
        house_edge=Fraction(kept.HOUSE_EDGE_NUMERATOR, kept.HOUSE_EDGE_DENOMINATOR),
        variance=Fraction(kept.VARIANCE_NUMERATOR, kept.VARIANCE_DENOMINATOR),
        strategy=kept.STRATEGY,
        method=kept.METHOD,
    )


@dataclass(frozen=True, slots=True)
class TableFigures:
    """game-math.md's figures object for one table's settings."""

    flush_bonus: WagerFigures
    straight_flush_bonus: WagerFigures
    ante_raise: AnteRaiseFigures

    def to_json(self) -> dict[str, Any]:
        return {
            "flush_bonus": self.flush_bonus.to_json(),
            "straight_flush_bonus": self.straight_flush_bonus.to_json(),
            "ante_raise": self.ante_raise.to_json(),
        }


def table_figures(rules: TableRules) -> TableFigures:
    """Every wager's figures under a table's settings (bonus mode and paytables, R10)."""
    return TableFigures(
        flush_bonus=bonus_figures(Bonus.FLUSH, rules.bonus_mode, rules.flush_paytable),
        straight_flush_bonus=bonus_figures(
            Bonus.STRAIGHT_FLUSH, rules.bonus_mode, rules.straight_flush_paytable
        ),
        ante_raise=ante_raise_figures(),
    )


def game_math_json(data: object) -> dict[str, Any]:
    """``manage.py game_math`` for one settle-json ``table`` object: the JSON-ready figures.

    Missing settings take the settle-json contract's defaults for the table's banking kind;
    a bad object raises ``RoundError`` naming ``table.<field>``.
    """
    return table_figures(table_from_json(data)).to_json()


__all__: Sequence[str] = (
    "AnteRaiseFigures",
    "Bonus",
    "LineOutcomes",
    "TableFigures",
    "WagerFigures",
    "ante_raise_figures",
    "bonus_figures",
    "count_below",
    "flush_size_distribution",
    "format_figure",
    "game_math_json",
    "longest_run_distribution",
    "straight_flush_distribution",
    "table_figures",
    "versus_dp_lines",
)
