"""Exact combinatorics of 7-card hands, counted with the engine's own evaluation (R2, R4).

Each suit's 2^13 rank subsets are evaluated once; a 7-card hand is one subset per suit whose
sizes sum to 7, so the counts over all C(52, 7) hands are sums of products over suit patterns.
"""

import itertools
import math
from collections import Counter

import pytest

from engine.cards import RANKS_PER_SUIT
from engine.hands import flush_key, flush_size, qualifies


@pytest.fixture(scope="module")
def counts():
    """For each suit size k: how many rank subsets there are, and how many do not qualify."""
    subsets, not_qualifying = Counter(), Counter()
    for suit in range(4):
        for ranks in range(1 << RANKS_PER_SUIT):
            size = ranks.bit_count()
            # a hand holding only this suit's cards
            key = flush_key(ranks << RANKS_PER_SUIT * suit)
            assert flush_size(key) == size
            subsets[suit, size] += 1
            not_qualifying[suit, size] += not qualifies(key)
    patterns = [p for p in itertools.product(range(8), repeat=4) if sum(p) == 7]

    def hands(pattern, table):
        return math.prod(table[suit, size] for suit, size in enumerate(pattern))

    return patterns, subsets, not_qualifying, hands


def test_the_suit_patterns_count_every_seven_card_hand_once(counts):
    patterns, subsets, _, hands = counts
    assert sum(hands(p, subsets) for p in patterns) == math.comb(52, 7) == 133_784_560


def test_r2_6864_hands_hold_a_seven_card_flush(counts):
    patterns, subsets, _, hands = counts
    assert sum(hands(p, subsets) for p in patterns if 7 in p) == 6_864


def test_r2_24676704_hands_hold_at_most_a_two_card_flush(counts):
    patterns, subsets, _, hands = counts
    assert sum(hands(p, subsets) for p in patterns if max(p) <= 2) == 24_676_704


def test_r4_100825036_hands_qualify_the_published_75_36_percent(counts):
    patterns, subsets, not_qualifying, hands = counts
    # A hand fails to qualify only when no suit's flush qualifies.
    qualifying = sum(hands(p, subsets) - hands(p, not_qualifying) for p in patterns)
    assert qualifying == 100_825_036
    assert round(qualifying / math.comb(52, 7) * 100, 2) == 75.36
