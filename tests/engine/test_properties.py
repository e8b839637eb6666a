"""Properties over random legal rounds and hands (hypothesis)."""

import json
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from engine import settle_json
from engine.cards import CARD_NAMES, RANKS, hand_from_cards
from engine.hands import flush_key, run_length, run_top, straight_flush_key

from .strategies import rounds

hands = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)


def reference_flush(cards):
    """R2 read literally: per suit, ranks high to low; more cards, then top-down ranks."""
    suits = {}
    for card in cards:
        suits.setdefault(card // 13, []).append(card % 13)
    return max((len(r), sorted(r, reverse=True)) for r in suits.values())


def reference_straight_flush(cards):
    """R3 read literally: every run of one suit (ace high or low, no wrap): longest, then top."""
    best = (0, -1)
    for suit in range(4):
        ranks = {card % 13 for card in cards if card // 13 == suit}
        values = {r + 2 for r in ranks} | ({1} if 12 in ranks else set())  # ace is 14 or 1
        for top in values:
            length = 1
            while top - length in values:
                length += 1
            best = max(best, (length, top - 2 if top >= 2 else 12))
    return best


@given(st.lists(hands, min_size=2, max_size=30))
def test_r2_flush_comparison_is_a_total_order_that_agrees_with_sorting(hand_list):
    by_reference = sorted(hand_list, key=reference_flush)
    keys = [flush_key(hand_from_cards(h)) for h in by_reference]
    assert keys == sorted(keys)
    for a, b in zip(by_reference, by_reference[1:], strict=False):
        # equal keys exactly when the rules call the flushes a tie
        assert (flush_key(hand_from_cards(a)) == flush_key(hand_from_cards(b))) == (
            reference_flush(a) == reference_flush(b)
        )


@given(st.lists(hands, min_size=2, max_size=30))
def test_r3_straight_flush_comparison_agrees_with_a_literal_reading_of_the_rule(hand_list):
    for hand in hand_list:
        key = straight_flush_key(hand_from_cards(hand))
        length, top = reference_straight_flush(hand)
        assert (run_length(key), RANKS[run_top(key)]) == (length, RANKS[top])


@settings(max_examples=300)
@given(rounds())
def test_r15_money_is_conserved_to_the_cent_in_every_random_round(round_):
    result = settle_json(round_)
    assert "error" not in result, result
    spots_net = sum(Decimal(spot["net"]) for spot in result["spots"])
    dealer = result["dealer"]
    assert spots_net + Decimal(dealer["net"]) + Decimal(result["house_rake"]) == 0
    # and the parts add up: each spot's net is its wager lines less its fee
    for spot in result["spots"]:
        lines = [spot[k] for k in ("ante", "raise", "flush_bonus", "straight_flush_bonus")]
        wagers = sum(Decimal(line["net"]) for line in lines if line is not None)
        assert wagers - Decimal(spot["rake"]) == Decimal(spot["net"])
    rakes = sum(Decimal(spot["rake"]) for spot in result["spots"]) + Decimal(dealer["rake"])
    assert rakes == Decimal(result["house_rake"])


@settings(max_examples=200)
@given(rounds(), st.randoms(use_true_random=False))
def test_the_result_does_not_depend_on_the_order_spots_or_cards_are_listed(round_, rng):
    shuffled = json.loads(json.dumps(round_))
    rng.shuffle(shuffled["spots"])
    for hand in [shuffled["dealer"], *shuffled["spots"]]:
        if "cards" in hand:
            cards = hand["cards"].split()
            rng.shuffle(cards)
            hand["cards"] = " ".join(cards)
    assert settle_json(shuffled) == settle_json(round_)


def test_the_reference_readings_are_themselves_checked_on_known_hands():
    # Guards the oracles above: A-4-3-2 beats K-Q-J-T (R2), A-2-3 is a 3-run topped by 3 (R3).
    def cards(text):
        return [CARD_NAMES.index(c) for c in text.split()]

    assert reference_flush(cards("Ah 4h 3h 2h Kc Qd Js")) > reference_flush(
        cards("Ks Qs Js Ts 2c 3d 4h")
    )
    assert reference_straight_flush(cards("Ad 2d 3d 9c Jh 5s 7c")) == (3, RANKS.index("3"))
    assert reference_straight_flush(cards("Kd Ad 2d 9c Jh 5s 7c")) == (2, RANKS.index("A"))
