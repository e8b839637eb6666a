"""R1: cards, their notation, and what makes a set of hands a legal round."""

import pytest

from engine.cards import card_name, hand_from_cards, parse_card, parse_hand
from engine.errors import RoundError

from .builders import (
    DEALER_K94,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    dead_spot,
    dp_round,
    folded,
    house_round,
    raised,
    refused,
    refused_at,
    settled,
)

# --- notation ------------------------------------------------------------------------------


def test_r1_a_card_is_rank_then_suit_and_reads_back_canonically():
    for text in ("As", "Kd", "Qh", "Jc", "Td", "9h", "2c"):
        assert card_name(parse_card(text, field="f")) == text


def test_r1_the_deck_has_52_distinct_cards():
    names = {card_name(parse_card(r + s, field="f")) for r in "23456789TJQKA" for s in "cdhs"}
    assert len(names) == 52


def test_r1_ten_may_be_written_10_and_is_output_as_t():
    assert parse_card("10d", field="f") == parse_card("Td", field="f")
    assert card_name(parse_card("10d", field="f")) == "Td"


@pytest.mark.parametrize("text", ["as", "AS", "aS", "As"])
def test_r1_any_letter_case_is_accepted(text):
    assert card_name(parse_card(text, field="f")) == "As"


@pytest.mark.parametrize("text", ["td", "TD", "tD", "10D", "10d"])
def test_r1_any_case_of_the_ten_is_output_as_td(text):
    assert card_name(parse_card(text, field="f")) == "Td"


@pytest.mark.parametrize("text", ["Zz", "1h", "11h", "Ax", "A", "s", "", "As5", "T10"])
def test_r1_bad_notation_is_refused_naming_the_field(text):
    with pytest.raises(RoundError) as caught:
        parse_card(text, field="spots[3].cards")
    assert caught.value.field == "spots[3].cards"


def test_r1_a_hand_may_be_a_string_with_spaces_or_commas_or_a_list():
    expected = hand_from_cards(
        parse_card(t, field="f") for t in ("As", "Td", "9h", "8c", "7d", "3s", "2h")
    )
    assert parse_hand("As Td 9h 8c 7d 3s 2h", field="f") == expected
    assert parse_hand("As,10d,9h, 8c,7D,3S,2h", field="f") == expected
    assert parse_hand(["as", "td", "9H", "8c", "7d", "3s", "2h"], field="f") == expected
    # 52-bit mask: one bit a card.
    assert expected.bit_count() == 7


def test_r1_output_is_canonical_whatever_the_input_notation():
    # The spot's flush is hearts Q-J-T-9 (4 cards); input in lower case and with 10.
    rnd = dp_round(DEALER_K94, [raised(2, "qh jh 10h 9H 2d 3s 5s")], rake_mode="none")
    assert settled(rnd)["spots"][0]["flush"] == {"size": 4, "cards": ["Qh", "Jh", "Th", "9h"]}


# --- 7 distinct cards ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "cards",
    [
        "Ah Th 6h 2h Jd 5c",  # 6 cards
        "Ah Th 6h 2h Jd 5c 9c Qd",  # 8 cards
    ],
)
def test_r1_a_spot_hand_that_is_not_7_cards_is_refused_at_its_cards(cards):
    rnd = dp_round(DEALER_K94, [folded(2, THREE_DIAMONDS_Q85), folded(5, cards)])
    assert refused_at(rnd) == "spots[1].cards"


def test_r1_a_card_written_twice_in_one_hand_is_refused():
    rnd = dp_round(DEALER_K94, [folded(2, "Ah Th 6h 2h Jd 5c ah")])
    assert refused_at(rnd) == "spots[0].cards"


def test_r1_a_dealer_hand_that_is_not_7_cards_is_refused_at_dealer_cards():
    rnd = dp_round("Ks 9s 4s 2c 7h 8c", [folded(2, FOUR_HEARTS_AT62)])
    assert refused_at(rnd) == "dealer.cards"


def test_r1_a_hand_of_7_distinct_cards_is_accepted():
    result = settled(dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62)]))
    assert result["spots"][0]["status"] == "folded"


# --- one deck: a card in two hands -------------------------------------------------------------


def test_r1_a_card_in_two_spots_is_refused_at_the_later_spot():
    # Ah is in both spots; the later one in the input is spots[1], whatever its seat.
    rnd = dp_round(
        DEALER_K94,
        [folded(5, FOUR_HEARTS_AT62), folded(2, "Ah Kd Qd 5d 6c Js Ts")],
    )
    error = refused(rnd)
    assert error["field"] == "spots[1].cards"
    assert "Ah" in error["message"]


def test_r1_a_card_in_the_dealer_hand_and_a_spot_is_refused_at_the_spot():
    # Ks is the dealer's.
    rnd = dp_round(DEALER_K94, [folded(2, "Ks Ah Th 6h 2h Jd 5c")])
    assert refused_at(rnd) == "spots[0].cards"


def test_r1_the_same_card_in_a_different_case_is_still_the_same_card():
    # "ks" and "10H" are the dealer's Ks and the first spot's Th.
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62), folded(5, "ks Qd 8d 5d As 6c 4h")])
    assert refused_at(rnd) == "spots[1].cards"
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62), folded(5, "10H Qd 8d 5d As 6c 4h")])
    assert refused_at(rnd) == "spots[1].cards"


# --- bad notation in a round -------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["Zz", "1h", "Ahh", "Ax"])
def test_r1_bad_notation_in_a_spot_is_refused_at_that_spot_cards(bad):
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62), folded(5, f"Qd 8d 5d As 6c 4h {bad}")])
    assert refused_at(rnd) == "spots[1].cards"


def test_r1_bad_notation_in_the_dealer_hand_is_refused_at_dealer_cards():
    rnd = dp_round("Ks 9s 4s 2c 7h 8c Xc", [folded(2, FOUR_HEARTS_AT62)])
    assert refused_at(rnd) == "dealer.cards"


# --- at most 6 spots -------------------------------------------------------------------------


def test_r1_a_round_has_at_most_6_spots():
    # 7 spots and the dealer would need 56 cards; the count alone is refused.
    rnd = house_round(DEALER_K94, [dead_spot(seat) for seat in range(1, 8)])
    assert refused_at(rnd) == "spots"


def test_r1_six_spots_are_accepted():
    result = settled(house_round(DEALER_K94, [dead_spot(seat) for seat in range(1, 7)]))
    assert len(result["spots"]) == 6
