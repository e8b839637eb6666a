"""R9–R15: settling a round, through the settle-json contract.

Every expected amount is worked out by hand in a comment from the rules; nothing here asks the
engine for an expected value. Each round is built by a ``round_…`` function so that R15 can be
checked over all of them at the end.
"""

from decimal import Decimal

import pytest

from engine import ConservationError, RoundError, settlement

from .builders import (
    DEALER_876_RUN,
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_DIAMONDS_AK92,
    FOUR_DIAMONDS_T764,
    FOUR_HEARTS_AT62,
    PUSH,
    RETURNED,
    THREE_DIAMONDS_Q85,
    THREE_HEARTS_QJ3,
    by_seat,
    dead_spot,
    dp_round,
    folded,
    house_round,
    line,
    r15_sum,
    raised,
    refused,
    refused_at,
    settled,
    spot,
)

NO_FEE = {"rake_mode": "none"}

# Hands used below besides the builders' catalogue; each comment names the flush (R2) and run (R3).
FIVE_HEARTS_AKQ53 = "Ah Kh Qh 5h 3h Jd 6c"  # hearts A-K-Q-5-3; run Q-K-A (3)
SIX_HEARTS = "Ah Kh Qh 5h 3h 2h Jd"  # hearts A-K-Q-5-3-2
FIVE_RUN_DIAMONDS = "9d 8d 7d 6d 5d Ac Kc"  # diamonds 9-8-7-6-5: flush 5, run 5 to the 9
TWO_CARDS_A5 = "Ah Kd Qc 5h 7d Tc 2s"  # best flush hearts A-5 (2); no run; fits DEALER_876_RUN
DEALER_FIVE_DIAMONDS = "Kd Qd 8d 5d 3d 2c 7h"  # diamonds K-Q-8-5-3: 5 cards, qualifies
FOUR_HEARTS_AT62_B = "Ah Th 6h 2h Js 4c 9c"  # hearts A-T-6-2 again, fits DEALER_FIVE_DIAMONDS


# ==== R9 ante and raise =========================================================================


def round_r9_fold():
    # A strong hand (4-card flush) that folds anyway.
    return dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62)], **NO_FEE)


def test_r9_a_fold_loses_the_ante():
    result = settled(round_r9_fold())
    got = result["spots"][0]
    assert got["status"] == "folded"
    assert got["ante"] == line("lose", "-10.00")
    assert got["raise"] is None
    assert got["net"] == "-10.00"
    assert result["dealer"]["net"] == "10.00"


def round_r9_fold_dealer_not_qualifying():
    return dp_round(DEALER_876_RUN, [folded(2, TWO_CARDS_A5)], **NO_FEE)


def test_r9_a_fold_loses_the_ante_even_when_the_dealer_does_not_qualify():
    result = settled(round_r9_fold_dealer_not_qualifying())
    assert result["dealer"]["qualifies"] is False
    assert result["spots"][0]["ante"] == line("lose", "-10.00")
    assert result["dealer"]["net"] == "10.00"


def round_r9_dealer_not_qualifying():
    # Dealer 8-7-6 (does not qualify); the spot holds only a 2-card flush, below the dealer's,
    # and raises 10 on a 10 ante.
    return dp_round(DEALER_876_RUN, [raised(2, TWO_CARDS_A5)], **NO_FEE)


def test_r9_dealer_not_qualifying_ante_wins_even_money_and_raise_pushes():
    result = settled(round_r9_dealer_not_qualifying())
    got = result["spots"][0]
    assert result["dealer"]["qualifies"] is False
    assert got["status"] == "played"
    assert got["ante"] == line("win", "10.00")  # +10 even money
    assert got["raise"] == PUSH
    assert got["net"] == "10.00"  # 10 + 0
    assert result["dealer"]["net"] == "-10.00"


def round_r9_higher():
    return dp_round(DEALER_K94, [raised(2, FOUR_HEARTS_AT62)], **NO_FEE)


def test_r9_dealer_qualifies_higher_flush_wins_ante_and_raise_even_money():
    # 4-card hearts beats the dealer's 3-card K-9-4: +10 ante, +10 raise.
    result = settled(round_r9_higher())
    got = result["spots"][0]
    assert result["dealer"]["qualifies"] is True
    assert got["ante"] == line("win", "10.00")
    assert got["raise"] == line("win", "10.00")
    assert got["net"] == "20.00"
    assert result["dealer"]["net"] == "-20.00"


def round_r9_lower():
    # hearts K-9-3 against spades K-9-4: the third card decides.
    return dp_round(DEALER_K94, [raised(2, "Kh 9h 3h Qd 5d As 6c")], **NO_FEE)


def test_r9_dealer_qualifies_lower_flush_loses_ante_and_raise():
    result = settled(round_r9_lower())
    got = result["spots"][0]
    assert got["ante"] == line("lose", "-10.00")
    assert got["raise"] == line("lose", "-10.00")
    assert got["net"] == "-20.00"
    assert result["dealer"]["net"] == "20.00"


def round_r9_tie():
    # hearts K-9-4 against spades K-9-4: equal size, equal ranks.
    return dp_round(DEALER_K94, [raised(2, "Kh 9h 4h Qd 5d As 6c")], **NO_FEE)


def test_r9_dealer_qualifies_tie_pushes_ante_and_raise():
    result = settled(round_r9_tie())
    got = result["spots"][0]
    assert got["ante"] == PUSH
    assert got["raise"] == PUSH
    assert got["net"] == "0.00"
    assert result["dealer"]["net"] == "0.00"


def test_r9_the_output_reports_the_hands_that_were_compared():
    result = settled(round_r9_tie())
    assert result["dealer"]["flush"] == {"size": 3, "cards": ["Ks", "9s", "4s"]}
    assert result["dealer"]["straight_flush"] == {"length": 2, "high": "3"}  # 2c-3c
    assert result["spots"][0]["flush"] == {"size": 3, "cards": ["Kh", "9h", "4h"]}


# ==== R10 bonus wagers, versus_dp =================================================================


def round_r10_fold_loses_bonuses():
    # A 5-card flush with a Q-K-A run that folds, with both bonuses up.
    return dp_round(
        DEALER_K94,
        [folded(2, FIVE_HEARTS_AKQ53, flush_bonus="5", straight_flush_bonus="5")],
        **NO_FEE,
    )


def test_r10_versus_dp_a_fold_loses_both_bonuses():
    got = settled(round_r10_fold_loses_bonuses())["spots"][0]
    assert got["flush_bonus"] == line("lose", "-5.00")
    assert got["straight_flush_bonus"] == line("lose", "-5.00")
    assert got["net"] == "-20.00"  # -10 ante - 5 - 5


def round_r10_below_every_line():
    # hearts A-K-T: a 3-card flush (no line; lines start at 4) that beats the dealer's 8-7-6,
    # and runs of 2 at most (lines start at 3).
    return dp_round(
        DEALER_876_RUN,
        [raised(2, "Ah Kh Th 5d 7c Qs 2d", flush_bonus="5", straight_flush_bonus="3")],
        **NO_FEE,
    )


def test_r10_versus_dp_a_hand_below_every_line_loses_the_bonus():
    got = settled(round_r10_below_every_line())["spots"][0]
    assert got["flush_bonus"] == line("lose", "-5.00")
    assert got["straight_flush_bonus"] == line("lose", "-3.00")
    assert got["net"] == "2.00"  # +10 ante (dealer not qualifying), raise push, -5, -3


def round_r10_higher_wins_at_odds():
    return dp_round(DEALER_K94, [raised(2, FOUR_HEARTS_AT62, flush_bonus="5")], **NO_FEE)


def test_r10_versus_dp_a_higher_flush_wins_the_bonus_at_the_paytable_odds():
    # 4-card flush: 2 to 1 on 5 = +10; ante +10, raise +10.
    got = settled(round_r10_higher_wins_at_odds())["spots"][0]
    assert got["flush_bonus"] == line("win", "10.00")
    assert got["net"] == "30.00"


def round_r10_equal_pushes():
    # Dealer hearts A-T-6-2, spot spades A-T-6-2.
    return dp_round(
        FOUR_HEARTS_AT62, [raised(2, "As Ts 6s 2s Jc 5d 9d", flush_bonus="5")], **NO_FEE
    )


def test_r10_versus_dp_an_equal_flush_pushes_the_bonus():
    got = settled(round_r10_equal_pushes())["spots"][0]
    assert got["ante"] == PUSH
    assert got["raise"] == PUSH
    assert got["flush_bonus"] == PUSH
    assert got["net"] == "0.00"


def round_r10_lower_loses():
    # The spot's 4-card flush reaches the 4 line, but the dealer holds 5 cards.
    return dp_round(
        DEALER_FIVE_DIAMONDS, [raised(2, FOUR_HEARTS_AT62_B, flush_bonus="5")], **NO_FEE
    )


def test_r10_versus_dp_a_flush_that_reaches_a_line_but_is_lower_than_the_dealer_loses():
    got = settled(round_r10_lower_loses())["spots"][0]
    assert got["flush_bonus"] == line("lose", "-5.00")
    assert got["net"] == "-25.00"  # -10 ante, -10 raise, -5 bonus


def round_r10_straight_flush_versus_non_qualifying_dealer():
    # The dealer (8-7-6 of spades, not qualifying) holds the run 6-7-8 (length 3, top 8).
    # Every spot raises 10 on 10 with a $5 Straight Flush Bonus.
    return dp_round(
        DEALER_876_RUN,
        [
            raised(1, "4h 3h 2h Kd Qc 5s Ts", straight_flush_bonus="5"),  # run 2-3-4: lower
            raised(2, "8h 7h 6h Ac Kc 3s 5c", straight_flush_bonus="5"),  # run 6-7-8: equal
            raised(3, "9d 8d 7d Qh Jh 3c 2s", straight_flush_bonus="5"),  # run 7-8-9: higher
            raised(5, "As Ks Qs Js 4c 6c Th", straight_flush_bonus="5"),  # run J-Q-K-A: longer
        ],
        **NO_FEE,
    )


def test_r10_versus_dp_straight_flush_is_compared_with_the_dealer_even_when_it_does_not_qualify():
    result = settled(round_r10_straight_flush_versus_non_qualifying_dealer())
    assert result["dealer"]["qualifies"] is False
    # Ante +10 and raise push everywhere (dealer not qualifying), then the bonus:
    # seat 1: 3 to the 4 < 3 to the 8: lose 5                     → 10 - 5   = 5
    # seat 2: 3 to the 8 = 3 to the 8: push                        → 10
    # seat 3: 3 to the 9 > 3 to the 8: 8 to 1 on 5 = +40           → 10 + 40  = 50
    # seat 5: 4 to the A > 3 to the 8: 60 to 1 on 5 = +300         → 10 + 300 = 310
    expected = {
        1: (line("lose", "-5.00"), "5.00"),
        2: (PUSH, "10.00"),
        3: (line("win", "40.00"), "50.00"),
        5: (line("win", "300.00"), "310.00"),
    }
    for seat, (bonus, net) in expected.items():
        got = by_seat(result, seat)
        assert got["ante"] == line("win", "10.00")
        assert got["raise"] == PUSH
        assert got["straight_flush_bonus"] == bonus, seat
        assert got["net"] == net, seat
    assert result["dealer"]["net"] == "-375.00"  # -(5 + 10 + 50 + 310)


def round_r10_flush_versus_non_qualifying_dealer_with_a_three_line():
    # A paytable with a 3-card line; the dealer's 8-7-6 does not qualify but still compares.
    paytable = {"3": 1, "4": 2, "5": 10, "6": 50, "7": 200}
    return dp_round(
        DEALER_876_RUN,
        [
            raised(1, "7h 5h 2h Kd Qc As Ts", flush_bonus="5"),  # 7-5-2 < 8-7-6: lose
            raised(2, "8d 7d 6d Ah Kc 3s 5c", flush_bonus="5"),  # 8-7-6 = 8-7-6: push
            raised(3, "Th 9h 3h 4c 2d Js Qs", flush_bonus="5"),  # T-9-3 > 8-7-6: 1 to 1
        ],
        flush_paytable=paytable,
        **NO_FEE,
    )


def test_r10_versus_dp_flush_is_compared_with_the_dealer_even_when_it_does_not_qualify():
    result = settled(round_r10_flush_versus_non_qualifying_dealer_with_a_three_line())
    # Ante +10, raise push each; bonus -5 / 0 / +5.
    assert by_seat(result, 1)["flush_bonus"] == line("lose", "-5.00")
    assert by_seat(result, 2)["flush_bonus"] == PUSH
    assert by_seat(result, 3)["flush_bonus"] == line("win", "5.00")
    assert [s["net"] for s in result["spots"]] == ["5.00", "10.00", "15.00"]
    assert result["dealer"]["net"] == "-30.00"


def round_r10_one_line_only():
    return dp_round(
        DEALER_K94,
        [
            raised(2, SIX_HEARTS, flush_bonus="2"),
            raised(5, FIVE_RUN_DIAMONDS, straight_flush_bonus="1"),
        ],
        **NO_FEE,
    )


def test_r10_a_bonus_pays_one_line_only_never_a_sum_of_lines():
    result = settled(round_r10_one_line_only())
    # 6-card flush: the 6 line, 50 to 1 on 2 = 100 (a sum of the 4, 5, 6 lines would be 124).
    assert by_seat(result, 2)["flush_bonus"] == line("win", "100.00")
    # Run of 5: the 5 line, 100 to 1 on 1 = 100 (a sum of the 3, 4, 5 lines would be 168).
    assert by_seat(result, 5)["straight_flush_bonus"] == line("win", "100.00")
    # Each also wins ante 10 and raise 10: 120 each; the dealer pays 240.
    assert [s["net"] for s in result["spots"]] == ["120.00", "120.00"]
    assert result["dealer"]["net"] == "-240.00"


def round_r10_size_without_a_line():
    # Only a 5 line is posted; all three flushes beat the dealer's 3-card K-9-4.
    return dp_round(
        DEALER_K94,
        [
            raised(1, FOUR_HEARTS_AT62, flush_bonus="5"),  # 4 cards: no line
            raised(2, "Ad Kd Qd 8d 4d Qs 6c", flush_bonus="5"),  # 5 cards: 10 to 1
            raised(3, "Ac Kc Qc Jc 7c 4c 5h", flush_bonus="5"),  # 6 cards: no line
        ],
        flush_paytable={"5": 10},
        **NO_FEE,
    )


def test_r10_a_size_that_has_no_line_in_the_paytable_loses():
    result = settled(round_r10_size_without_a_line())
    assert by_seat(result, 1)["flush_bonus"] == line("lose", "-5.00")
    assert by_seat(result, 2)["flush_bonus"] == line("win", "50.00")
    assert by_seat(result, 3)["flush_bonus"] == line("lose", "-5.00")
    # +20 ante and raise each: 15, 70, 15; the dealer pays 100.
    assert [s["net"] for s in result["spots"]] == ["15.00", "70.00", "15.00"]
    assert result["dealer"]["net"] == "-100.00"


# ==== R10 bonus wagers, paytable mode =============================================================


def round_r10_paytable_fold():
    return dp_round(
        DEALER_K94,
        [folded(2, FIVE_HEARTS_AKQ53, flush_bonus="5", straight_flush_bonus="5")],
        bonus_mode="paytable",
        **NO_FEE,
    )


def test_r10_paytable_mode_a_fold_keeps_the_bonuses_in_action():
    got = settled(round_r10_paytable_fold())["spots"][0]
    assert got["status"] == "folded"
    assert got["ante"] == line("lose", "-10.00")
    assert got["flush_bonus"] == line("win", "50.00")  # 5 cards: 10 to 1 on 5
    assert got["straight_flush_bonus"] == line("win", "40.00")  # run of 3: 8 to 1 on 5
    assert got["net"] == "80.00"  # -10 + 50 + 40


def round_r10_paytable_ignores_the_dealer():
    return dp_round(
        DEALER_FIVE_DIAMONDS,
        [raised(2, FOUR_HEARTS_AT62_B, flush_bonus="5")],
        bonus_mode="paytable",
        **NO_FEE,
    )


def test_r10_paytable_mode_judges_the_bonus_on_the_spot_hand_alone():
    # The dealer's 5-card flush beats the spot's 4: ante -10, raise -10; the bonus still pays
    # the 4 line, 2 to 1 on 5 = +10: net -10.
    result = settled(round_r10_paytable_ignores_the_dealer())
    got = result["spots"][0]
    assert got["ante"] == line("lose", "-10.00")
    assert got["flush_bonus"] == line("win", "10.00")
    assert got["net"] == "-10.00"
    assert result["dealer"]["net"] == "10.00"


def round_r10_house_default_paytable():
    return house_round(DEALER_K94, [folded(3, FIVE_HEARTS_AKQ53, flush_bonus="5")])


def test_r10_a_house_banked_table_defaults_to_paytable_mode():
    # Folded 5-card flush: -10 ante, +50 bonus (10 to 1 on 5) = +40; the house pays 40.
    result = settled(round_r10_house_default_paytable())
    assert result["spots"][0]["flush_bonus"] == line("win", "50.00")
    assert result["spots"][0]["net"] == "40.00"
    assert result["dealer"]["seat"] is None
    assert result["dealer"]["net"] == "-40.00"


# ==== R11 aggregate payout cap ====================================================================


def round_r11_cap(bank="1000"):
    # Dealer 8-7-6 does not qualify: antes win, raises push. Bonus wins before the cap:
    # seat 2, 5-card flush, 10 to 1 on 5 = 50; seat 5, 4-card flush, 2 to 1 on 20 = 40.
    return dp_round(
        DEALER_876_RUN,
        [
            raised(2, "Ah Kh 7h 5h 3h Qd 2d", flush_bonus="5"),
            raised(5, "Kc Qc 7c 5c Ad 8d Ts", flush_bonus="20"),
        ],
        bank=bank,
        max_aggregate_payout="10.00",
        **NO_FEE,
    )


def test_r11_each_bonus_win_is_scaled_by_cap_over_total_and_rounded_down():
    result = settled(round_r11_cap())
    # Total 90 > cap 10. Seat 2: 50 × 10/90 = 5.555… → 5.55; seat 5: 40 × 10/90 = 4.444… → 4.44.
    assert by_seat(result, 2)["flush_bonus"] == line("win", "5.55")
    assert by_seat(result, 5)["flush_bonus"] == line("win", "4.44")
    # Ante and raise are not capped: +10 and push each.
    assert by_seat(result, 2)["ante"] == line("win", "10.00")
    assert by_seat(result, 2)["net"] == "15.55"
    assert by_seat(result, 5)["net"] == "14.44"


def test_r11_the_cents_left_over_by_the_cap_stay_with_the_payer():
    # Paid 5.55 + 4.44 = 9.99 of the 10.00 cap, plus antes 20: the dealer loses 29.99.
    assert settled(round_r11_cap())["dealer"]["net"] == "-29.99"


def round_r11_seven_card_straight_flush(cap):
    # A 7-card run to the 8: 1000 to 1 on 25 = 25,000, above the default $20,000 cap.
    table = {} if cap == "default" else {"max_aggregate_payout": cap}
    return dp_round(
        DEALER_876_RUN,
        [raised(2, "8h 7h 6h 5h 4h 3h 2h", straight_flush_bonus="25")],
        bank="30000",
        **table,
        **NO_FEE,
    )


def test_r11_a_null_cap_means_no_cap():
    result = settled(round_r11_seven_card_straight_flush(None))
    got = result["spots"][0]
    assert got["straight_flush_bonus"] == line("win", "25000.00")
    assert got["net"] == "25010.00"  # +10 ante, raise push, +25,000
    assert result["dealer"]["net"] == "-25010.00"


def test_r11_the_default_cap_is_twenty_thousand():
    # One win of 25,000: scaled by 20,000 / 25,000 → 20,000.
    result = settled(round_r11_seven_card_straight_flush("default"))
    got = result["spots"][0]
    assert got["straight_flush_bonus"] == line("win", "20000.00")
    assert got["net"] == "20010.00"
    assert result["dealer"]["net"] == "-20010.00"


def test_r11_a_spot_that_then_dies_for_dp_funds_keeps_its_share_unpaid():
    # Order from DP seat 4: seat 2, then seat 5. Bank 20: seat 2's 15.55 is paid (4.45 left);
    # seat 5's 14.44 is not covered, so that spot is dead. Seat 2 keeps its capped 5.55: the cap
    # is not worked out again without seat 5 (which would give seat 2 the whole 10.00).
    result = settled(round_r11_cap(bank="20"))
    first, second = by_seat(result, 2), by_seat(result, 5)
    assert first["flush_bonus"] == line("win", "5.55")
    assert first["net"] == "15.55"
    assert second["status"] == "dead"
    assert second["dead_reason"] == "dealer_funds"
    assert second["flush_bonus"] == RETURNED
    assert second["net"] == "0.00"
    assert result["dealer"]["net"] == "-15.55"


# ==== R12 collection fee ==========================================================================


def round_r12(mode):
    # $2 fee. Seat 1 dead (wrong card count); seat 2 folds (-10); seat 5 raises and beats the
    # dealer's K-9-4 with a 4-card flush (+20).
    return dp_round(
        DEALER_K94,
        [dead_spot(1), folded(2, THREE_DIAMONDS_Q85), raised(5, FOUR_HEARTS_AT62)],
        bank="500",
        rake_mode=mode,
        rake_amount="2",
    )


@pytest.mark.parametrize(
    ("mode", "spot_fee", "dp_fee", "fold_net", "win_net", "dealer_net", "house"),
    [
        # every live spot and the DP pay 2: -10-2, +20-2; DP +10-20-2; house 2+2+2
        ("all_players", "2.00", "2.00", "-12.00", "18.00", "-12.00", "6.00"),
        # live spots pay 2: -12, +18; DP +10-20 = -10; house 2+2
        ("players_not_dp", "2.00", "0.00", "-12.00", "18.00", "-10.00", "4.00"),
        # only the DP pays 2: -10, +20; DP -10-2; house 2
        ("dp_only", "0.00", "2.00", "-10.00", "20.00", "-12.00", "2.00"),
        # nobody pays
        ("none", "0.00", "0.00", "-10.00", "20.00", "-10.00", "0.00"),
    ],
)
def test_r12_fee_modes_charge_live_spots_folds_included_and_never_a_dead_spot(
    mode, spot_fee, dp_fee, fold_net, win_net, dealer_net, house
):
    result = settled(round_r12(mode))
    dead, fold, win = by_seat(result, 1), by_seat(result, 2), by_seat(result, 5)
    assert dead["status"] == "dead"
    assert dead["rake"] == "0.00"
    assert dead["net"] == "0.00"
    assert fold["status"] == "folded"
    assert fold["rake"] == spot_fee
    assert fold["net"] == fold_net
    assert win["rake"] == spot_fee
    assert win["net"] == win_net
    assert result["dealer"]["rake"] == dp_fee
    assert result["dealer"]["net"] == dealer_net
    assert result["house_rake"] == house


def test_r12_the_fee_is_a_fixed_amount_whatever_the_wager():
    # $5 and $100 antes both pay the $2 fee: -7 and -102.
    rnd = dp_round(
        DEALER_K94,
        [folded(2, THREE_DIAMONDS_Q85, ante="5"), folded(5, FOUR_HEARTS_AT62, ante="100")],
        rake_mode="players_not_dp",
        rake_amount="2",
    )
    result = settled(rnd)
    assert [s["rake"] for s in result["spots"]] == ["2.00", "2.00"]
    assert [s["net"] for s in result["spots"]] == ["-7.00", "-102.00"]


def round_r12_every_spot_dead(mode):
    return dp_round(DEALER_K94, [dead_spot(1), dead_spot(2)], rake_mode=mode, rake_amount="2")


@pytest.mark.parametrize("mode", ["all_players", "dp_only"])
def test_r12_the_dp_fee_is_returned_when_every_spot_is_dead(mode):
    result = settled(round_r12_every_spot_dead(mode))
    assert result["dealer"]["rake"] == "0.00"
    assert result["dealer"]["net"] == "0.00"
    assert result["house_rake"] == "0.00"


def round_r12_dp_fee_outside_the_bank(bank):
    # $2 fee from the DP; one spot wins 20 (4-card flush over K-9-4, raise 10).
    return dp_round(
        DEALER_K94,
        [raised(2, FOUR_HEARTS_AT62)],
        bank=bank,
        rake_mode="all_players",
        rake_amount="2",
    )


def test_r12_the_dp_fee_is_not_part_of_the_bank_that_pays_winners():
    # Bank 22 - fee 2 = 20 covers the 20 won: the spot is paid, 20 - 2 = 18; DP -20 - 2 = -22.
    result = settled(round_r12_dp_fee_outside_the_bank("22"))
    assert result["spots"][0]["status"] == "played"
    assert result["spots"][0]["net"] == "18.00"
    assert result["dealer"]["net"] == "-22.00"
    assert result["house_rake"] == "4.00"


def test_r12_a_bank_that_covers_a_winner_only_with_the_fee_kills_it_and_returns_the_fee():
    # Bank 21 - fee 2 = 19 < 20: the spot is dead (R13); with every spot dead, the DP's fee is
    # returned (R12): nothing moves.
    result = settled(round_r12_dp_fee_outside_the_bank("21"))
    got = result["spots"][0]
    assert got["status"] == "dead"
    assert got["dead_reason"] == "dealer_funds"
    assert got["rake"] == "0.00"
    assert got["net"] == "0.00"
    assert result["dealer"]["rake"] == "0.00"
    assert result["dealer"]["net"] == "0.00"
    assert result["house_rake"] == "0.00"


@pytest.mark.parametrize("mode", ["all_players", "players_not_dp", "dp_only"])
def test_r12_a_house_banked_table_with_a_fee_is_refused(mode):
    rnd = house_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62)], rake_mode=mode)
    error = refused(rnd)
    assert error["field"] == "table.rake_mode"
    assert "R12" in error["message"]


def test_r12_a_house_banked_table_takes_no_fee_by_default():
    # Default rake_mode none on a house table, though a rake_amount is posted: fold -10, no fee.
    rnd = house_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62)], rake_amount="1")
    result = settled(rnd)
    assert result["spots"][0]["rake"] == "0.00"
    assert result["spots"][0]["net"] == "-10.00"
    assert result["house_rake"] == "0.00"


@pytest.mark.parametrize("mode", ["all_players", "dp_only"])
def test_r12_a_bank_smaller_than_the_dp_fee_is_refused(mode):
    rnd = dp_round(
        DEALER_K94, [folded(2, FOUR_HEARTS_AT62)], bank="4", rake_mode=mode, rake_amount="5"
    )
    assert refused_at(rnd) == "dealer.bank"


def round_r12_bank_equal_to_the_fee():
    return dp_round(
        DEALER_K94,
        [folded(2, FOUR_HEARTS_AT62)],
        bank="5",
        rake_mode="all_players",
        rake_amount="5",
    )


def test_r12_a_bank_equal_to_the_dp_fee_is_accepted():
    # Bank 5 - fee 5 = 0; the fold pays the DP 10 and the fee 5: spot -15, DP +10-5 = +5,
    # house 5 + 5 = 10.
    result = settled(round_r12_bank_equal_to_the_fee())
    assert result["spots"][0]["net"] == "-15.00"
    assert result["dealer"]["net"] == "5.00"
    assert result["house_rake"] == "10.00"


def test_r12_a_dp_that_pays_no_fee_needs_no_bank_for_it():
    # players_not_dp: the DP pays nothing, so a $0 bank is not below its fee.
    rnd = dp_round(
        DEALER_K94,
        [folded(2, FOUR_HEARTS_AT62)],
        bank="0",
        rake_mode="players_not_dp",
        rake_amount="5",
    )
    result = settled(rnd)
    assert result["dealer"]["net"] == "10.00"
    assert result["spots"][0]["net"] == "-15.00"


# ==== R13 settlement order and the DP's funds =====================================================

SIX_HANDS = [
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    FOUR_CLUBS_KQJ4,
    FOUR_DIAMONDS_AK92,
    FOUR_DIAMONDS_T764,
    THREE_HEARTS_QJ3,
]


def round_r13_everyone_folds(dp_seat, seats=7):
    others = [s for s in range(seats, 0, -1) if s != dp_seat]  # given out of seat order
    spots = [folded(seat, hand) for seat, hand in zip(others, SIX_HANDS, strict=False)]
    table = {} if seats == 7 else {"seats": seats}
    return dp_round(DEALER_K94, spots, seat=dp_seat, **table, **NO_FEE)


@pytest.mark.parametrize(
    ("dp_seat", "order"),
    [
        (4, [3, 2, 1, 7, 6, 5]),  # below the DP descending, then from the top seat down
        (1, [7, 6, 5, 4, 3, 2]),  # nobody below: from the top seat down
        (7, [6, 5, 4, 3, 2, 1]),  # nobody above
        (2, [1, 7, 6, 5, 4, 3]),
        (6, [5, 4, 3, 2, 1, 7]),
    ],
)
def test_r13_settlement_starts_at_the_dp_right_and_goes_counter_clockwise(dp_seat, order):
    result = settled(round_r13_everyone_folds(dp_seat))
    assert result["settlement_order"] == order
    # Spots are listed by ascending seat, whatever the input order.
    assert [s["seat"] for s in result["spots"]] == sorted(order)
    assert result["dealer"]["net"] == "60.00"  # six folded antes of 10


def test_r13_the_order_wraps_at_the_table_top_seat():
    # A 5-seat table, DP at 3: 2, 1, then 5, 4.
    result = settled(round_r13_everyone_folds(3, seats=5))
    assert result["settlement_order"] == [2, 1, 5, 4]


def round_r13_house_order():
    return house_round(
        DEALER_K94,
        [folded(2, FOUR_HEARTS_AT62), folded(7, THREE_DIAMONDS_Q85), folded(5, FOUR_CLUBS_KQJ4)],
    )


def test_r13_a_house_banked_table_settles_in_descending_seat_order():
    result = settled(round_r13_house_order())
    assert result["settlement_order"] == [7, 5, 2]
    assert result["dealer"]["seat"] is None


def round_r13_funds_run_out(with_loser=True):
    # $1 fee each (all_players); bank 31 - DP fee 1 = 30 to pay winners. DP at seat 4: the
    # order is 3, 2, 1, 6, 5. Dealer K-9-4 qualifies.
    spots = [
        raised(3, FOUR_HEARTS_AT62),  # 4 cards beat K-9-4: +10 +10 = 20
        raised(1, FOUR_CLUBS_KQJ4),  # +20
        raised(6, FOUR_DIAMONDS_AK92, flush_bonus="5"),  # +20, bonus 2 to 1 on 5: +10 = 30
        raised(5, FOUR_DIAMONDS_T764, ante="5"),  # +5 +5 = 10
    ]
    if with_loser:
        spots.append(raised(2, THREE_DIAMONDS_Q85))  # Q-8-5 < K-9-4: -20
    return dp_round(DEALER_K94, spots, bank="31", rake_mode="all_players", rake_amount="1")


def test_r13_an_earlier_loser_refills_the_bank_and_a_later_winner_it_cannot_cover_is_dead():
    result = settled(round_r13_funds_run_out())
    assert result["settlement_order"] == [3, 2, 1, 6, 5]
    # bank 30 → seat 3 +20 → 10 → seat 2 -20 → 30 → seat 1 +20 → 10
    #        → seat 6 +30 > 10: dead → seat 5 +10 ≤ 10: paid → 0
    assert by_seat(result, 3)["net"] == "19.00"  # 20 - fee 1
    assert by_seat(result, 2)["net"] == "-21.00"  # -20 - fee 1
    assert by_seat(result, 1)["net"] == "19.00"
    assert by_seat(result, 5)["net"] == "9.00"  # 10 - fee 1
    dead = by_seat(result, 6)
    assert dead["status"] == "dead"
    assert dead["dead_reason"] == "dealer_funds"
    assert dead["ante"] == RETURNED
    assert dead["raise"] == RETURNED
    assert dead["flush_bonus"] == RETURNED
    assert dead["straight_flush_bonus"] is None  # never placed
    assert dead["rake"] == "0.00"
    assert dead["net"] == "0.00"
    assert dead["flush"]["size"] == 4  # a dead spot with cards still reports its hand
    # DP: -(20 - 20 + 20 + 10) - fee 1 = -31, its whole bank; house 4 spot fees + 1.
    assert result["dealer"]["net"] == "-31.00"
    assert result["dealer"]["rake"] == "1.00"
    assert result["house_rake"] == "5.00"


def test_r13_without_the_earlier_loser_the_bank_cannot_cover_the_next_winner():
    result = settled(round_r13_funds_run_out(with_loser=False))
    # bank 30 → seat 3 +20 → 10 → seat 1 +20 > 10: dead → seat 6 +30 > 10: dead
    #        → seat 5 +10 ≤ 10: paid → 0
    assert by_seat(result, 1)["dead_reason"] == "dealer_funds"
    assert by_seat(result, 6)["dead_reason"] == "dealer_funds"
    assert by_seat(result, 3)["net"] == "19.00"
    assert by_seat(result, 5)["net"] == "9.00"
    # DP: -(20 + 10) - 1 = -31; house: fees of seats 3 and 5, and the DP's = 3.
    assert result["dealer"]["net"] == "-31.00"
    assert result["house_rake"] == "3.00"


def round_r13_house_bank_unlimited():
    # paytable mode (house default). Dealer K-9-4 qualifies.
    return house_round(
        DEALER_K94,
        [
            # 5 cards beat K-9-4: +10 ante, +20 raise (2×); run of 5: 100 to 1 on 25 = 2500
            raised(2, FIVE_RUN_DIAMONDS, raise_="20", straight_flush_bonus="25"),
            # 4 cards: +10, +10; 2 to 1 on 25 = 50
            raised(6, FOUR_HEARTS_AT62, flush_bonus="25"),
        ],
    )


def test_r13_a_house_bank_is_unlimited():
    result = settled(round_r13_house_bank_unlimited())
    assert [s["status"] for s in result["spots"]] == ["played", "played"]
    assert by_seat(result, 2)["net"] == "2530.00"
    assert by_seat(result, 6)["net"] == "70.00"
    assert result["dealer"]["net"] == "-2600.00"
    assert result["settlement_order"] == [6, 2]


# ==== R14 dead hands ==============================================================================


def round_r14_wrong_card_count():
    # $1 fee (all_players). Seat 2 dead with both bonuses up; seat 5 wins 20.
    return dp_round(
        DEALER_K94,
        [
            dead_spot(2, flush_bonus="5", straight_flush_bonus="5"),
            raised(5, FOUR_HEARTS_AT62),
        ],
        rake_mode="all_players",
        rake_amount="1",
    )


def test_r14_a_spot_dealt_a_wrong_number_of_cards_is_dead_and_every_wager_returned():
    result = settled(round_r14_wrong_card_count())
    got = by_seat(result, 2)
    assert got["status"] == "dead"
    assert got["dead_reason"] == "wrong_card_count"
    assert got["ante"] == RETURNED
    assert got["raise"] is None  # it never acted
    assert got["flush_bonus"] == RETURNED
    assert got["straight_flush_bonus"] == RETURNED
    assert got["rake"] == "0.00"
    assert got["net"] == "0.00"
    assert "flush" not in got and "straight_flush" not in got
    # The other spot settles as usual: 20 - 1 = 19; the DP -20 - 1 = -21; house 1 + 1.
    assert by_seat(result, 5)["net"] == "19.00"
    assert result["dealer"]["net"] == "-21.00"
    assert result["house_rake"] == "2.00"


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"cards": FOUR_HEARTS_AT62}, "spots[0].cards"),
        ({"decision": "fold"}, "spots[0].decision"),
    ],
)
def test_r14_a_spot_dead_for_its_card_count_takes_no_cards_or_decision(extra, field):
    rnd = dp_round(DEALER_K94, [dead_spot(2, **extra)])
    assert refused_at(rnd) == field


@pytest.mark.parametrize("reason", ["dealer_funds", "misdeal"])
def test_r14_only_a_wrong_card_count_is_declared_dead_in_the_input(reason):
    rnd = dp_round(DEALER_K94, [spot(2, ante="10", dead=reason)])
    assert refused_at(rnd) == "spots[0].dead"


def round_r14_misdeal_dealer_card_count(dealer_cards):
    return dp_round(
        dealer_cards,
        [
            raised(2, FOUR_HEARTS_AT62, flush_bonus="5"),
            spot(5, ante="10"),  # no cards dealt yet
            folded(6, THREE_DIAMONDS_Q85),
        ],
        misdeal="dealer_card_count",
        rake_mode="all_players",
        rake_amount="1",
    )


@pytest.mark.parametrize(
    "dealer_cards",
    ["Ks 9s 4s 2c 7h 8c", "Ks 9s 4s 2c 7h 8c 3c Qc"],  # 6 and 8 cards
)
def test_r14_a_misdeal_for_the_dealer_card_count_kills_every_spot_and_charges_nothing(
    dealer_cards,
):
    result = settled(round_r14_misdeal_dealer_card_count(dealer_cards))
    assert result["misdeal"] == "dealer_card_count"
    for got in result["spots"]:
        assert got["status"] == "dead"
        assert got["dead_reason"] == "misdeal"
        assert got["ante"] == RETURNED
        assert got["rake"] == "0.00"
        assert got["net"] == "0.00"
    assert by_seat(result, 2)["raise"] == RETURNED
    assert by_seat(result, 2)["flush_bonus"] == RETURNED
    assert by_seat(result, 2)["flush"]["size"] == 4  # dealt cards are still reported
    assert by_seat(result, 5)["raise"] is None
    assert "flush" not in by_seat(result, 5)
    assert by_seat(result, 6)["raise"] is None
    dealer = result["dealer"]
    assert dealer["qualifies"] is None
    assert dealer["net"] == "0.00"
    assert dealer["rake"] == "0.00"
    assert "flush" not in dealer
    assert result["house_rake"] == "0.00"


def round_r14_shuffler_fault():
    return dp_round(
        None,
        [spot(2, ante="10", flush_bonus="5"), spot(5, ante="20")],
        misdeal="shuffler_fault",
        rake_mode="all_players",
        rake_amount="1",
    )


def test_r14_a_shuffler_fault_kills_every_spot_and_charges_nothing():
    result = settled(round_r14_shuffler_fault())
    assert result["misdeal"] == "shuffler_fault"
    assert [s["dead_reason"] for s in result["spots"]] == ["misdeal", "misdeal"]
    assert [s["net"] for s in result["spots"]] == ["0.00", "0.00"]
    assert by_seat(result, 2)["flush_bonus"] == RETURNED
    assert result["dealer"]["rake"] == "0.00"
    assert result["dealer"]["qualifies"] is None
    assert result["house_rake"] == "0.00"
    assert result["settlement_order"] == [2, 5]  # from DP seat 4: 2, then 5


def round_r14_house_misdeal():
    return house_round(
        None, [spot(3, ante="10"), spot(6, ante="10", flush_bonus="5")], misdeal="shuffler_fault"
    )


def test_r14_a_misdeal_on_a_house_banked_table():
    result = settled(round_r14_house_misdeal())
    assert [s["dead_reason"] for s in result["spots"]] == ["misdeal", "misdeal"]
    assert result["dealer"] == {"seat": None, "qualifies": None, "net": "0.00", "rake": "0.00"}


def test_r14_without_a_misdeal_the_dealer_needs_7_cards():
    rnd = dp_round("Ks 9s 4s 2c 7h 8c", [folded(2, FOUR_HEARTS_AT62)])
    assert refused_at(rnd) == "dealer.cards"


# ==== R15 money is conserved ======================================================================

SCENARIOS = {
    "r9_fold": round_r9_fold,
    "r9_fold_dealer_not_qualifying": round_r9_fold_dealer_not_qualifying,
    "r9_dealer_not_qualifying": round_r9_dealer_not_qualifying,
    "r9_higher": round_r9_higher,
    "r9_lower": round_r9_lower,
    "r9_tie": round_r9_tie,
    "r10_fold_loses_bonuses": round_r10_fold_loses_bonuses,
    "r10_below_every_line": round_r10_below_every_line,
    "r10_higher_wins_at_odds": round_r10_higher_wins_at_odds,
    "r10_equal_pushes": round_r10_equal_pushes,
    "r10_lower_loses": round_r10_lower_loses,
    "r10_straight_flush_vs_dealer": round_r10_straight_flush_versus_non_qualifying_dealer,
    "r10_flush_vs_dealer": round_r10_flush_versus_non_qualifying_dealer_with_a_three_line,
    "r10_one_line_only": round_r10_one_line_only,
    "r10_size_without_a_line": round_r10_size_without_a_line,
    "r10_paytable_fold": round_r10_paytable_fold,
    "r10_paytable_ignores_the_dealer": round_r10_paytable_ignores_the_dealer,
    "r10_house_default_paytable": round_r10_house_default_paytable,
    "r11_cap": round_r11_cap,
    "r11_cap_then_dp_funds": lambda: round_r11_cap(bank="20"),
    "r11_no_cap": lambda: round_r11_seven_card_straight_flush(None),
    "r11_default_cap": lambda: round_r11_seven_card_straight_flush("default"),
    "r12_all_players": lambda: round_r12("all_players"),
    "r12_players_not_dp": lambda: round_r12("players_not_dp"),
    "r12_dp_only": lambda: round_r12("dp_only"),
    "r12_none": lambda: round_r12("none"),
    "r12_every_spot_dead": lambda: round_r12_every_spot_dead("all_players"),
    "r12_dp_fee_outside_the_bank": lambda: round_r12_dp_fee_outside_the_bank("22"),
    "r12_dp_fee_returned": lambda: round_r12_dp_fee_outside_the_bank("21"),
    "r12_bank_equal_to_the_fee": round_r12_bank_equal_to_the_fee,
    "r13_order": lambda: round_r13_everyone_folds(4),
    "r13_house_order": round_r13_house_order,
    "r13_funds_run_out": round_r13_funds_run_out,
    "r13_funds_run_out_no_loser": lambda: round_r13_funds_run_out(with_loser=False),
    "r13_house_bank_unlimited": round_r13_house_bank_unlimited,
    "r14_wrong_card_count": round_r14_wrong_card_count,
    "r14_misdeal_dealer_card_count": lambda: round_r14_misdeal_dealer_card_count(
        "Ks 9s 4s 2c 7h 8c"
    ),
    "r14_shuffler_fault": round_r14_shuffler_fault,
    "r14_house_misdeal": round_r14_house_misdeal,
}


@pytest.mark.parametrize("build", list(SCENARIOS.values()), ids=list(SCENARIOS))
def test_r15_spot_nets_dealer_net_and_house_rake_sum_to_zero(build):
    assert r15_sum(settled(build())) == Decimal(0)


@pytest.mark.parametrize("build", list(SCENARIOS.values()), ids=list(SCENARIOS))
def test_r15_a_spot_net_is_its_wager_nets_minus_its_rake(build):
    # settle-json: a spot's net is the sum of its wager nets minus its rake.
    for got in settled(build())["spots"]:
        lines = [got[k] for k in ("ante", "raise", "flush_bonus", "straight_flush_bonus")]
        wagers = sum((Decimal(w["net"]) for w in lines if w is not None), Decimal(0))
        assert wagers - Decimal(got["rake"]) == Decimal(got["net"])


@pytest.mark.parametrize("build", list(SCENARIOS.values()), ids=list(SCENARIOS))
def test_r15_the_house_rake_is_every_fee_collected(build):
    result = settled(build())
    fees = sum((Decimal(s["rake"]) for s in result["spots"]), Decimal(result["dealer"]["rake"]))
    assert fees == Decimal(result["house_rake"])


def test_r15_a_settlement_that_does_not_balance_is_a_defect_not_a_refusal(monkeypatch):
    # A defect that books one cent too many to the house: R15 catches it before anything is
    # returned, as a ConservationError (never a RoundError, so never shown as a dealer's fault).
    real_finish = settlement._finish

    def a_cent_off(misdeal, dealer, results, order, house_rake):
        return real_finish(misdeal, dealer, results, order, house_rake + 1)

    monkeypatch.setattr(settlement, "_finish", a_cent_off)
    with pytest.raises(ConservationError, match="R15"):
        settled(round_r9_higher())
    assert issubclass(ConservationError, Exception)
    assert not issubclass(ConservationError, (RoundError, AssertionError))
