"""R8: each raise-or-fold decision valued exactly against the best play for the spot's cards,
the dealer's hand unknown: the per-suit count agrees with the offline enumeration's reference
and with dealing every dealer hand; a fold is clearly right with a two-card flush and a raise of
the cap with a five-card one; a versus_dp fold loses the bonuses; a player's second spot's
cards are removed too (R6)."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations
from math import comb

from bench.ante_raise_count import counts, suits_of
from engine.cards import SUIT_MASK, hand_from_cards, parse_hand
from engine.decisions import _chances, dealer_hands_below, decision_value, round_decisions
from engine.hands import FLUSH_KEYS, QUALIFYING_FLUSH_KEY, STRAIGHT_FLUSH_KEYS
from engine.round import Dealer, Decision, Round, Spot
from engine.table import BonusMode, TableRules

PAYTABLE = TableRules(bonus_mode=BonusMode.PAYTABLE)
VERSUS_DP = TableRules(bonus_mode=BonusMode.VERSUS_DP)
TWO_CARD_FLUSH = "Ah 9h Kd 7d Qc 5c Js"  # at most two cards of a suit: fold (R8, R9)
FIVE_CARD_FLUSH = "Ah Kh 9h 6h 3h 2c 4d"  # five hearts: raise the cap, 2× (R8)


def hand(text: str) -> int:
    return parse_hand(text, field="cards")


def spot(cards: str, decision: Decision, raised: int = 0, **bonuses: int) -> Spot:
    return Spot(
        seat=1, ante=1000, hand=hand(cards), decision=decision, raise_amount=raised, **bonuses
    )


def test_the_flush_counts_agree_with_the_offline_enumeration_s_reference_count():
    rng = random.Random(26)
    for _ in range(40):
        cards = hand_from_cards(rng.sample(range(52), 7))
        chances = _chances(cards, cards)
        assert chances.total == comb(45, 7)
        assert (chances.not_qualifying, chances.flush_below, chances.flush_at_most) == counts(
            suits_of(cards)
        )


def test_the_per_suit_count_equals_dealing_every_dealer_hand_of_a_small_deck():
    # Fourteen unseen cards (C(14, 7) = 3,432 dealer hands), for flushes and for runs alike.
    unseen = [0b1011001000111, 0b0000110000010, 0b0100000000001, 0b1000000001000]
    cards = [(suit, rank) for suit in range(4) for rank in range(13) if unseen[suit] >> rank & 1]
    assert len(cards) == 14
    for keys, kind in ((FLUSH_KEYS, 0), (STRAIGHT_FLUSH_KEYS, 1)):
        for threshold in sorted(set(keys))[::97] + [QUALIFYING_FLUSH_KEY]:
            dealt = 0
            for dealer in combinations(cards, 7):
                masks = [0, 0, 0, 0]
                for suit, rank in dealer:
                    masks[suit] |= 1 << rank
                dealt += max(keys[m & SUIT_MASK] for m in masks) < threshold
            assert dealer_hands_below(unseen, kind, threshold) == dealt


def test_with_a_two_card_flush_folding_is_right_and_a_raise_costs_what_it_gives_up():
    folded = decision_value(spot(TWO_CARD_FLUSH, Decision.FOLD), PAYTABLE, hand(TWO_CARD_FLUSH))
    assert folded.best_play == "fold"
    assert folded.cost == 0
    assert folded.fold == -1000  # the ante is lost (R9)
    raised = decision_value(
        spot(TWO_CARD_FLUSH, Decision.RAISE, 1000), PAYTABLE, hand(TWO_CARD_FLUSH)
    )
    assert raised.taken == raised.raise_once < raised.fold
    assert raised.cost == raised.fold - raised.raise_once > 0
    # A two-card flush never beats a qualifying dealer: raising wins only the ante, against a
    # dealer who does not qualify, and loses both wagers to every other hand.
    c = _chances(hand(TWO_CARD_FLUSH), hand(TWO_CARD_FLUSH))
    assert raised.raise_once == Fraction(
        1000 * c.not_qualifying - 2000 * (c.total - c.not_qualifying), c.total
    )


def test_with_a_five_card_flush_raising_the_cap_is_right():
    best = decision_value(
        spot(FIVE_CARD_FLUSH, Decision.RAISE, 2000), PAYTABLE, hand(FIVE_CARD_FLUSH)
    )
    assert best.cap == 2
    assert best.best_play == "raise 2×"
    assert best.cost == 0
    once = decision_value(
        spot(FIVE_CARD_FLUSH, Decision.RAISE, 1000), PAYTABLE, hand(FIVE_CARD_FLUSH)
    )
    assert 0 < once.cost == best.raise_cap - best.raise_once
    folded = decision_value(spot(FIVE_CARD_FLUSH, Decision.FOLD), PAYTABLE, hand(FIVE_CARD_FLUSH))
    assert folded.cost == best.raise_cap + 1000
    walked = decision_value(
        spot(FIVE_CARD_FLUSH, Decision.WALKED_AWAY), PAYTABLE, hand(FIVE_CARD_FLUSH)
    )
    assert walked.cost == folded.cost  # R8: walking away is folding


def test_in_versus_dp_mode_a_fold_loses_the_bonuses_and_a_raise_keeps_them_in_action():
    played = spot(FIVE_CARD_FLUSH, Decision.FOLD, flush_bonus=500, straight_flush_bonus=500)
    value = decision_value(played, VERSUS_DP, hand(FIVE_CARD_FLUSH))
    assert value.fold == -2000
    plain = decision_value(spot(FIVE_CARD_FLUSH, Decision.FOLD), VERSUS_DP, hand(FIVE_CARD_FLUSH))
    c = _chances(hand(FIVE_CARD_FLUSH), hand(FIVE_CARD_FLUSH))
    # Flush Bonus 5:10 against the dealer's flush (R10); no run of three: the SF bonus loses.
    flush_bonus = Fraction(500 * 10 * c.flush_below - 500 * (c.total - c.flush_at_most), c.total)
    assert value.raise_cap == plain.raise_cap + flush_bonus - 500
    # In paytable mode the bonuses are the same whatever the spot does: left out.
    same = decision_value(played, PAYTABLE, hand(FIVE_CARD_FLUSH))
    assert same.fold == -1000


def test_a_player_s_second_spot_s_cards_are_removed_too():
    first = Spot(seat=1, ante=1000, player="7", hand=hand(FIVE_CARD_FLUSH), decision=Decision.FOLD)
    second = Spot(
        seat=3,
        ante=1000,
        player="7",
        hand=hand("Ts Td 7d Qc 5c Js 8h"),
        decision=Decision.FOLD,
    )
    alone = Spot(seat=5, ante=1000, hand=hand("2s 3s 4s 5d 6d 7c 8c"), decision=Decision.FOLD)
    values = round_decisions(Round(PAYTABLE, Dealer(), (alone, second, first)))
    assert [v.seat for v in values] == [1, 3, 5]
    assert values[0].dealer_hands == values[1].dealer_hands == comb(52 - 14, 7)
    assert values[2].dealer_hands == comb(45, 7)


def test_the_best_play_agrees_with_the_strategy_the_offline_enumeration_found():
    # engine/ante_raise_edge.py: a 3-card flush raises 1× with J-3-2 or better and folds with
    # 9-8-7 or worse; a 4-card flush raises 1×.
    for cards, play in (
        ("Jh 3h 2h Kd 8d Qc 6s", "raise 1×"),
        ("9h 8h 7h Kd 5d Qc 2s", "fold"),
        ("9h 8h 7h 6h Kd 5d Qc", "raise 1×"),
    ):
        value = decision_value(spot(cards, Decision.FOLD), PAYTABLE, hand(cards))
        assert value.best_play == play, cards
