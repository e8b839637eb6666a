"""R8: what each raise-or-fold decision was worth, exactly, for the spot's own cards.

A spot that has seen its 7 cards either folds or raises between 1× the ante and the R8 cap.
Its expectation is taken over every hand the dealer may hold: every 7 of the cards the player
has not seen (the dealer's cards unknown; the spot's own cards, and those of the player's
other spot in the same hand (R6), removed). The count is exact: like
``bench.ante_raise_count``, per suit and without dealing the hands, as the coefficient of x^7
in the product over the four suits of the dealer's subsets of that suit's unseen ranks whose
key (R2's flush, or R3's run) stays below a threshold (the dealer's best key is below it only
if every suit's is).

What the decision moves: the ante and raise (R9) and, in ``versus_dp`` mode, the bonuses,
which a fold loses and a raise keeps in action against the dealer's hand (R10). A ``paytable``
bonus is the same whatever the spot does, so it is left out. Two things are left out because
they depend on the other spots of the hand, not on this one's cards: the aggregate payout cap
(R11) and a designated player's bank running out (R13).

The expectation is linear in the raise, so the best play is one of: fold, raise 1×, raise the
cap; the **cost** of a decision is the best's expectation minus the expectation of the play
made (0 when the play was the best). Amounts are cents, as ``Fraction``s.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

from .cards import HAND_SIZE, SUIT_MASK, suit_ranks
from .hands import (
    FLUSH_KEYS,
    QUALIFYING_FLUSH_KEY,
    STRAIGHT_FLUSH_KEYS,
    flush_key,
    flush_size,
    run_length,
    straight_flush_key,
)
from .money import Cents
from .round import Decision, Round, Spot
from .table import BonusMode, TableRules

_FLUSH, _RUN = 0, 1
_KEY_TABLES = (FLUSH_KEYS, STRAIGHT_FLUSH_KEYS)


def raise_cap(flush: int) -> int:
    """R8: the raise is at most 1× the ante with a 2–4 card flush, 2× with 5, 3× with 6–7."""
    size = flush_size(flush)
    return 1 if size <= 4 else 2 if size == 5 else 3


@cache  # 4 suits × at most 8,192 unseen rank sets × 2 kinds of key
def _suit_keys(unseen: int, kind: int) -> tuple[tuple[int, ...], ...]:
    """The keys of every subset of ``unseen`` ranks, by subset size (0..7), sorted."""
    table = _KEY_TABLES[kind]
    by_size: list[list[int]] = [[] for _ in range(HAND_SIZE + 1)]
    subset = unseen
    while True:
        size = subset.bit_count()
        if size <= HAND_SIZE:
            by_size[size].append(table[subset])
        if not subset:
            break
        subset = (subset - 1) & unseen
    return tuple(tuple(sorted(keys)) for keys in by_size)


def dealer_hands_below(unseen: Sequence[int], kind: int, threshold: int) -> int:
    """Dealer hands (7 of the unseen cards; ``unseen`` is each suit's unseen ranks) whose best
    key of ``kind`` (flush or run) is below ``threshold``."""
    product = [1] + [0] * HAND_SIZE
    for ranks in unseen:
        keys = _suit_keys(ranks, kind)
        poly = [bisect_left(keys[size], threshold) for size in range(HAND_SIZE + 1)]
        product = [sum(product[i] * poly[n - i] for i in range(n + 1)) for n in range(8)]
    return product[HAND_SIZE]


@dataclass(frozen=True, slots=True)
class DecisionValue:
    """One spot's decision against the best play for its cards: expectations in cents."""

    seat: int
    decision: Decision  # as recorded; walking away is a fold (R8)
    raise_amount: Cents
    fold: Fraction
    raise_once: Fraction  # a raise of 1× the ante
    raise_cap: Fraction  # a raise of the R8 cap
    cap: int  # the R8 cap, as a multiple of the ante
    taken: Fraction  # the expectation of the play made
    dealer_hands: int  # how many hands the dealer may hold: every value is n / dealer_hands

    @property
    def best(self) -> Fraction:
        return max(self.fold, self.raise_once, self.raise_cap)

    @property
    def best_play(self) -> str:
        """``fold``, ``raise 1×`` or ``raise 3×`` (the cap); the smaller play on a tie."""
        if self.fold >= max(self.raise_once, self.raise_cap):
            return "fold"
        if self.raise_once >= self.raise_cap:
            return "raise 1×"
        return f"raise {self.cap}×"

    @property
    def cost(self) -> Fraction:
        """The expected value given up against the best play (never negative)."""
        return self.best - self.taken


@dataclass(frozen=True, slots=True)
class _Chances:
    """Dealer hands, out of ``total``, by how they meet the spot's hand."""

    total: int
    not_qualifying: int  # R4
    flush_below: int  # R2: the dealer's flush below the spot's
    flush_at_most: int
    run_below: int  # R3: the dealer's longest run below the spot's
    run_at_most: int


def _chances(hand: int, seen: int) -> _Chances:
    unseen = [SUIT_MASK & ~suit_ranks(seen, suit) for suit in range(4)]
    flush, run = flush_key(hand), straight_flush_key(hand)
    return _Chances(
        total=comb(sum(ranks.bit_count() for ranks in unseen), HAND_SIZE),
        not_qualifying=dealer_hands_below(unseen, _FLUSH, QUALIFYING_FLUSH_KEY),
        flush_below=dealer_hands_below(unseen, _FLUSH, flush),
        flush_at_most=dealer_hands_below(unseen, _FLUSH, flush + 1),
        run_below=dealer_hands_below(unseen, _RUN, run),
        run_at_most=dealer_hands_below(unseen, _RUN, run + 1),
    )


def _bonus_if_raised(stake: Cents, odds: int, below: int, at_most: int, total: int) -> Fraction:
    """R10 versus_dp: the bonus of a spot that raised, against the dealer in the category."""
    if not stake:
        return Fraction(0)
    if not odds:
        return Fraction(-stake)
    return Fraction(stake * odds * below - stake * (total - at_most), total)


def _raise_values(
    spot: Spot, rules: TableRules, chances: _Chances, flush: int
) -> Callable[[int], Fraction]:
    """The expectation of raising ``amount`` cents, as a function of the amount."""
    c = chances
    if flush >= QUALIFYING_FLUSH_KEY:
        win, lose = c.flush_below - c.not_qualifying, c.total - c.flush_at_most
    else:  # every qualifying dealer hand is above the spot's
        win, lose = 0, c.total - c.not_qualifying
    bonuses = Fraction(0)
    if rules.bonus_mode is not BonusMode.PAYTABLE:
        assert spot.hand is not None
        flush_odds = rules.flush_paytable.get(flush_size(flush), 0)
        run_odds = rules.straight_flush_paytable.get(run_length(straight_flush_key(spot.hand)), 0)
        bonuses = _bonus_if_raised(
            spot.flush_bonus, flush_odds, c.flush_below, c.flush_at_most, c.total
        ) + _bonus_if_raised(
            spot.straight_flush_bonus, run_odds, c.run_below, c.run_at_most, c.total
        )

    def raised(amount: int) -> Fraction:
        # R9: the ante wins against a dealer who does not qualify and the raise pushes.
        ante_and_raise = Fraction(
            c.not_qualifying * spot.ante + (win - lose) * (spot.ante + amount), c.total
        )
        return ante_and_raise + bonuses

    return raised


def decision_value(spot: Spot, rules: TableRules, seen: int) -> DecisionValue:
    """The decision of a live spot that has its cards and a decision; ``seen`` is every card
    the player has seen (this spot's, and the player's other spot's)."""
    assert spot.hand is not None and spot.decision is not None
    flush = flush_key(spot.hand)
    chances = _chances(spot.hand, seen)
    raised = _raise_values(spot, rules, chances, flush)
    fold = Fraction(-spot.ante)
    if rules.bonus_mode is not BonusMode.PAYTABLE:
        fold -= spot.flush_bonus + spot.straight_flush_bonus  # R10: a fold loses them
    cap = raise_cap(flush)
    values = (raised(spot.ante), raised(cap * spot.ante))
    taken = raised(spot.raise_amount) if spot.decision is Decision.RAISE else fold
    return DecisionValue(
        seat=spot.seat,
        decision=spot.decision,
        raise_amount=spot.raise_amount,
        fold=fold,
        raise_once=values[0],
        raise_cap=values[1],
        cap=cap,
        taken=taken,
        dealer_hands=chances.total,
    )


def round_decisions(rnd: Round) -> list[DecisionValue]:
    """Every decision of a round: each live spot with cards and a decision, by seat."""
    if rnd.misdeal is not None:
        return []
    seen_by: dict[str, int] = {}
    for spot in rnd.spots:
        if spot.hand is not None:
            owner = spot.player or f"seat {spot.seat}"
            seen_by[owner] = seen_by.get(owner, 0) | spot.hand
    return [
        decision_value(spot, rnd.table, seen_by[spot.player or f"seat {spot.seat}"])
        for spot in sorted(rnd.spots, key=lambda s: s.seat)
        if spot.dead is None and spot.hand is not None and spot.decision is not None
    ]


__all__ = ["DecisionValue", "dealer_hands_below", "decision_value", "raise_cap", "round_decisions"]
