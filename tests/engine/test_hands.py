"""R2 flush, R3 straight flush, R4 qualifying: the evaluator on single hands."""

import pytest

from engine.cards import RANKS, SUITS, parse_hand, suit_ranks
from engine.hands import (
    QUALIFYING_FLUSH_KEY,
    describe_flush,
    describe_straight_flush,
    flush_key,
    flush_ranks,
    flush_size,
    qualifies,
    run_length,
    run_top,
    straight_flush_key,
)


def hand(text: str) -> int:
    return parse_hand(text, field="hand")


def flush(text: str):
    """The hand's flush as (size, cards high to low)."""
    h = hand(text)
    return tuple(describe_flush(h, flush_key(h)))


def run(text: str):
    """The hand's straight flush as (length, top rank)."""
    return tuple(describe_straight_flush(straight_flush_key(hand(text))))


def beats(a: str, b: str) -> bool:
    return flush_key(hand(a)) > flush_key(hand(b))


def ties(a: str, b: str) -> bool:
    return flush_key(hand(a)) == flush_key(hand(b))


# --- R2 flush -------------------------------------------------------------------------------


def test_r2_the_flush_is_the_suit_with_the_most_cards_ranked_high_to_low():
    # hearts 5 cards; clubs 1; diamonds 1; spades 0.
    assert flush("3h Kh 9h 2c Ah 7h Qd") == (5, ("Ah", "Kh", "9h", "7h", "3h"))


def test_r2_more_cards_wins_whatever_the_ranks():
    # 4-card 5-4-3-2 of hearts against 3-card A-K-Q of spades.
    assert beats("5h 4h 3h 2h Kc Qd Js", "As Ks Qs 2c 3d 4c 6d")


def test_r2_a_four_three_two_beats_king_queen_jack_ten():
    assert beats("Ah 4h 3h 2h Kc 9d 7s", "Kd Qd Jd Td 8c 6h 5s")
    assert not beats("Kd Qd Jd Td 8c 6h 5s", "Ah 4h 3h 2h Kc 9d 7s")


def test_r2_king_jack_nine_beats_king_jack_eight():
    assert beats("Kh Jh 9h 2c 4d 6s 7c", "Kd Jd 8d 2h 4c 6c 7s")
    assert not beats("Kd Jd 8d 2h 4c 6c 7s", "Kh Jh 9h 2c 4d 6s 7c")


def test_r2_ranks_are_compared_from_the_top_down_first_difference_decides():
    # Q-8-7-3 against Q-8-6-5: the third card decides, though the last card is lower.
    assert beats("Qh 8h 7h 3h Ac Kd Js", "Qd 8d 6d 5d Ah Kc Jc")
    # A-5-4 against K-Q-J: the top card decides.
    assert beats("Ah 5h 4h 9c 2d 3s 7c", "Kd Qd Jd 9h 2c 3c 7s")


def test_r2_the_ace_is_always_high_in_a_flush():
    # A-3-2 is a 3-card ace-high, above K-Q-J.
    assert beats("Ah 3h 2h 9c 5d 6s 7c", "Kd Qd Jd 9h 5c 6c 7s")


def test_r2_equal_size_and_equal_ranks_in_different_suits_is_a_tie():
    a = "Kh 9h 4h 2c 7d 8s 3c"
    b = "Ks 9s 4s 2d 7c 8h 3d"
    assert ties(a, b)
    assert not beats(a, b)
    assert not beats(b, a)


def test_r2_of_two_suits_of_equal_size_in_one_hand_the_better_is_the_flush():
    # hearts K-Q-2 and spades A-4-3: both 3 cards, A-4-3 is higher.
    h = "Kh Qh 2h As 4s 3s 5c"
    assert flush(h) == (3, ("As", "4s", "3s"))
    assert ties(h, "Ad 4d 3d Kc 9h 7s 2s")


def test_r2_cards_outside_the_flush_never_matter():
    # Same hearts A-T-6-2; the off-suit cards go from low to aces and kings.
    assert ties("Ah Th 6h 2h 3c 4d 5s", "Ah Th 6h 2h Ac Ad As")
    assert ties("Ah Th 6h 2h 3c 4d 5s", "Ah Th 6h 2h Kc Qc Ks")


def test_r2_every_7_card_hand_has_a_flush_of_at_least_2_cards():
    # 2 + 2 + 2 + 1: three suits tie at A-K (either may be named), spades holds only the ace.
    size, cards = flush("Ah Kh Ac Kc Ad Kd As")
    assert size == 2
    assert [card[0] for card in cards] == ["A", "K"]
    assert cards[0][1] == cards[1][1] != "s"


def test_r2_a_seven_card_flush_holds_every_card():
    assert flush("2h 9h 4h Jh 7h Ah 5h") == (7, ("Ah", "Jh", "9h", "7h", "5h", "4h", "2h"))


# --- R3 straight flush ------------------------------------------------------------------------


def test_r3_ace_plays_low_a_2_3_is_a_run_with_top_card_3():
    assert run("Ah 2h 3h 9c Jd 5s Kc") == (3, "3")


def test_r3_ace_plays_high_q_k_a_is_a_run_with_top_card_ace():
    assert run("Qh Kh Ah 9c 7d 5s 2c") == (3, "A")


def test_r3_runs_do_not_wrap_k_a_2_is_not_a_run_of_three():
    # hearts K-A-2: K-A and A-2 are runs of two, never one run of three.
    assert run("Kh Ah 2h 5c 7d 9s Jc") == (2, "A")


def test_r3_the_ace_never_plays_high_and_low_at_once():
    # hearts Q-K-A-2-3: two runs of three sharing the ace, not a run of five.
    assert run("Qh Kh Ah 2h 3h 8c 5d") == (3, "A")


def test_r3_cards_of_different_suits_make_no_run():
    # 5-6-7-8-9 across suits; no two consecutive ranks share a suit.
    assert run("5h 6d 7h 8d 9s Kc 2c") == (1, "K")


def test_r3_the_longest_run_wins_over_a_higher_shorter_one():
    # diamonds 2-3-4-5 (4) against spades Q-K-A (3).
    assert run("2d 3d 4d 5d Qs Ks As") == (4, "5")
    assert straight_flush_key(hand("2d 3d 4d 5d 9c Jh Kh")) > straight_flush_key(
        hand("Qs Ks As 9c Jh 2h 4c")
    )


def test_r3_at_equal_length_the_higher_top_card_wins():
    assert straight_flush_key(hand("Qs Ks As 2c 5d 7h 9c")) > straight_flush_key(
        hand("Jd Qd Kd 2h 5c 7s 9s")
    )
    # A-2-3 has top card 3, so 2-3-4 beats it.
    assert straight_flush_key(hand("2h 3h 4h Kc 9d 7s Jc")) > straight_flush_key(
        hand("Ad 2d 3d Kc 9h 7s Jc")
    )


def test_r3_equal_runs_in_different_suits_tie():
    assert straight_flush_key(hand("6h 7h 8h Kc 2d 4s Jc")) == straight_flush_key(
        hand("6s 7s 8s Kd 2c 4h Jd")
    )


def test_r3_of_two_runs_in_one_hand_the_best_is_the_straight_flush():
    # hearts 4-5-6 and clubs 9-T-J: both 3, J is the higher top.
    assert run("4h 5h 6h 9c Tc Jc 2d") == (3, "J")


def test_r3_a_hand_without_a_run_reports_length_1_and_its_highest_rank():
    # No two consecutive ranks in one suit; the highest card is the queen.
    assert run("Qh 8h 3d 4c Td 6s Js") == (1, "Q")


def test_r3_a_seven_card_straight_flush():
    assert run("8h 7h 6h 5h 4h 3h 2h") == (7, "8")


# --- R4 qualifying ---------------------------------------------------------------------------


def dealer_qualifies(text: str) -> bool:
    return qualifies(flush_key(hand(text)))


def test_r4_nine_three_two_qualifies():
    # hearts 9-3-2 (3); clubs K-8, diamonds 4, spades 6.
    assert dealer_qualifies("9h 3h 2h Kc 4d 6s 8c")


def test_r4_eight_seven_six_does_not_qualify():
    # hearts 8-7-6 (3); clubs K-2, diamonds 4, spades Q.
    assert not dealer_qualifies("8h 7h 6h Kc 4d Qs 2c")


def test_r4_a_three_card_flush_above_nine_high_qualifies():
    assert dealer_qualifies("Th 3h 2h Kc 4d 6s 8c")
    assert dealer_qualifies("9h 4h 2h Kc 5d 6s 8c")


def test_r4_a_three_card_flush_below_nine_high_does_not_qualify():
    assert not dealer_qualifies("8h 3h 2h Kc 4d 6s Ac")


@pytest.mark.parametrize(
    "text",
    [
        "5h 4h 3h 2h Kc Qd Js",  # the lowest 4-card flush
        "6d 4d 3d 2d Ac Kh Qs",
        "7c 5c 4c 3c 2c Ah Kd",  # 5 cards
    ],
)
def test_r4_any_flush_of_four_or_more_cards_qualifies(text):
    assert dealer_qualifies(text)


def test_r4_a_two_card_flush_never_qualifies():
    # 2 + 2 + 2 + 1: aces and kings everywhere, yet only 2-card flushes.
    assert not dealer_qualifies("Ah Kh Ac Kc Ad Kd As")


# --- the key layouts -------------------------------------------------------------------------


def ranks_of(text: str) -> int:
    """A rank mask, bit r for rank r (2 = bit 0 … A = bit 12)."""
    return sum(1 << RANKS.index(rank) for rank in text)


def test_a_hand_holds_each_suits_ranks_as_a_13_bit_mask():
    h = hand("Ah Th 6h 2h Jd 5c 9c")
    assert [suit_ranks(h, SUITS.index(s)) for s in SUITS] == [
        ranks_of("95"),
        ranks_of("J"),
        ranks_of("AT62"),
        0,
    ]


def test_a_flush_key_reads_back_as_its_size_and_ranks():
    key = flush_key(hand("Ah Th 6h 2h Jd 5c 9c"))
    assert (flush_size(key), flush_ranks(key)) == (4, ranks_of("AT62"))


def test_a_straight_flush_key_reads_back_as_its_length_and_top_rank():
    key = straight_flush_key(hand("Ah 2h 3h 9c Jd 5s Kc"))  # A-2-3: the ace plays low (R3)
    assert (run_length(key), RANKS[run_top(key)]) == (3, "3")


def test_r4_the_qualifying_key_is_the_three_card_nine_high():
    assert flush_key(hand("9h 3h 2h Kc 4d 6s 8c")) == QUALIFYING_FLUSH_KEY
