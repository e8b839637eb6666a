"""R5 limits, R6 two spots, R8 the raise: which wagers a round may hold.

R7 (chips to complete the hand) is not here: ``settle_round`` checks the round, not the players'
stacks (settle-json), so R7 belongs to the persisted hand's tests.
"""

import pytest

from engine.checks import check_ante, check_bonus, check_raise, raise_cap_multiple
from engine.errors import RoundError
from engine.table import TableRules

from .builders import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    by_seat,
    dp_round,
    folded,
    house_round,
    line,
    raised,
    refused,
    refused_at,
    settled,
    spot,
)

NO_FEE = {"rake_mode": "none"}

# --- R5 ante limits ----------------------------------------------------------------------------


def test_r5_antes_at_the_posted_minimum_and_maximum_are_accepted():
    # Default posted limits $5–$100. Both spots fold: each loses its ante (R9).
    result = settled(
        dp_round(
            DEALER_K94,
            [folded(2, THREE_DIAMONDS_Q85, ante="5"), folded(5, FOUR_HEARTS_AT62, ante="100")],
            **NO_FEE,
        )
    )
    assert by_seat(result, 2)["ante"] == line("lose", "-5.00")
    assert by_seat(result, 5)["ante"] == line("lose", "-100.00")


@pytest.mark.parametrize("ante", ["4", "4.99", "0", "101", "100.01"])
def test_r5_an_ante_outside_the_default_posted_limits_is_refused_at_that_ante(ante):
    rnd = dp_round(
        DEALER_K94, [folded(2, THREE_DIAMONDS_Q85), folded(5, FOUR_HEARTS_AT62, ante=ante)]
    )
    assert refused_at(rnd) == "spots[1].ante"


@pytest.mark.parametrize(
    ("ante", "accepted"), [("9", False), ("10", True), ("50", True), ("51", False)]
)
def test_r5_an_ante_must_lie_within_the_table_own_posted_limits(ante, accepted):
    rnd = dp_round(
        DEALER_K94, [folded(2, FOUR_HEARTS_AT62, ante=ante)], ante_min="10", ante_max="50"
    )
    if accepted:
        assert settled(rnd)["spots"][0]["ante"] == line("lose", f"-{ante}.00")
    else:
        assert refused_at(rnd) == "spots[0].ante"


# --- R5 bonus limits ---------------------------------------------------------------------------


def test_r5_bonuses_at_the_posted_minimum_and_maximum_are_accepted():
    # Folded, versus_dp: both bonuses lose their stake (R10): net -10 - 1 - 25 = -36.
    rnd = dp_round(
        DEALER_K94,
        [folded(2, FOUR_HEARTS_AT62, flush_bonus="1", straight_flush_bonus="25")],
        **NO_FEE,
    )
    got = settled(rnd)["spots"][0]
    assert got["flush_bonus"] == line("lose", "-1.00")
    assert got["straight_flush_bonus"] == line("lose", "-25.00")
    assert got["net"] == "-36.00"


@pytest.mark.parametrize("key", ["flush_bonus", "straight_flush_bonus"])
@pytest.mark.parametrize("amount", ["26", "25.01", "0.99"])
def test_r5_a_bonus_outside_the_default_posted_limits_is_refused_at_that_bonus(key, amount):
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62, **{key: amount})])
    assert refused_at(rnd) == f"spots[0].{key}"


@pytest.mark.parametrize(
    ("amount", "accepted"), [("4", False), ("5", True), ("10", True), ("11", False)]
)
def test_r5_a_bonus_must_lie_within_the_table_own_bonus_limits(amount, accepted):
    rnd = dp_round(
        DEALER_K94,
        [folded(2, FOUR_HEARTS_AT62, straight_flush_bonus=amount)],
        bonus_min="5",
        bonus_max="10",
    )
    if accepted:
        assert settled(rnd)["spots"][0]["straight_flush_bonus"] == line("lose", f"-{amount}.00")
    else:
        assert refused_at(rnd) == "spots[0].straight_flush_bonus"


@pytest.mark.parametrize("absent", [None, "0", 0])
def test_r5_a_bonus_that_is_null_or_zero_was_not_placed(absent):
    # Not placed: no limit applies (bonus_min is $5), and its line is null.
    rnd = dp_round(
        DEALER_K94, [folded(2, FOUR_HEARTS_AT62, flush_bonus=absent)], bonus_min="5", **NO_FEE
    )
    got = settled(rnd)["spots"][0]
    assert got["flush_bonus"] is None
    assert got["net"] == "-10.00"


# --- R5 regulatory bounds on the posted limits ---------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("ante_min", "2"),
        ("ante_min", "2.99"),
        ("ante_min", "101"),
        ("ante_max", "100.01"),
        ("ante_max", "150"),
        ("bonus_min", "0"),
        ("bonus_min", "0.99"),
        ("bonus_max", "26"),
        ("bonus_max", "25.01"),
    ],
)
def test_r5_table_limits_outside_the_regulatory_bounds_are_refused_at_that_limit(key, value):
    # Ante limits within $3.00–$100.00, bonus limits within $1.00–$25.00. Cents allowed by the
    # chip unit, so that only the bound is at fault.
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62)], chip_unit="0.01", **{key: value})
    assert refused_at(rnd) == f"table.{key}"


def test_r5_the_regulatory_bounds_are_inclusive():
    # Posted $3–$100 ante and $1–$25 bonus; a $3 ante with both bonuses at the bounds, folded:
    # -3 - 1 - 25 = -29.
    rnd = dp_round(
        DEALER_K94,
        [folded(2, FOUR_HEARTS_AT62, ante="3", flush_bonus="1", straight_flush_bonus="25")],
        ante_min="3",
        ante_max="100",
        bonus_min="1",
        bonus_max="25",
        **NO_FEE,
    )
    assert settled(rnd)["spots"][0]["net"] == "-29.00"


# --- R5 chip unit ---------------------------------------------------------------------------------


def test_r5_an_ante_that_is_not_a_multiple_of_the_chip_unit_is_refused():
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62, ante="10.50")])
    assert refused_at(rnd) == "spots[0].ante"


def test_r5_a_smaller_chip_unit_allows_cents():
    # $0.50 chips: a $10.50 ante folds and loses 10.50.
    rnd = dp_round(
        DEALER_K94, [folded(2, FOUR_HEARTS_AT62, ante="10.50")], chip_unit="0.50", **NO_FEE
    )
    assert settled(rnd)["spots"][0]["ante"] == line("lose", "-10.50")


def test_r5_a_bonus_that_is_not_a_multiple_of_the_chip_unit_is_refused():
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62, flush_bonus="2.50")])
    assert refused_at(rnd) == "spots[0].flush_bonus"


def test_r5_a_raise_that_is_not_a_multiple_of_the_chip_unit_is_refused():
    # A 5-card flush may raise up to 2× a $10 ante; $10.50 is inside the cap but off the chips.
    rnd = dp_round(DEALER_K94, [raised(2, "Ah Kh Qh 5h 3h Jd 6c", raise_="10.50")])
    assert refused_at(rnd) == "spots[0].raise"


def test_r5_amounts_must_be_multiples_of_a_five_dollar_chip():
    table = {"chip_unit": "5", "ante_min": "5", "bonus_min": "5", "rake_amount": "5"}
    assert refused_at(dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62, ante="12")], **table)) == (
        "spots[0].ante"
    )
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62, ante="15")], **table)
    assert settled(rnd)["spots"][0]["ante"] == line("lose", "-15.00")


def test_r5_posted_limits_must_be_multiples_of_the_chip_unit():
    # $3 lies within the bounds but is not a multiple of $5.
    rnd = dp_round(
        DEALER_K94,
        [folded(2, FOUR_HEARTS_AT62)],
        chip_unit="5",
        ante_min="3",
        bonus_min="5",
        rake_amount="5",
    )
    assert refused_at(rnd) == "table.ante_min"


def test_r5_a_fee_that_is_not_a_multiple_of_the_chip_unit_is_refused():
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62)], rake_amount="0.50")
    assert refused_at(rnd) == "table.rake_amount"


@pytest.mark.parametrize("banking", ["house", "designated_player"])
def test_r5_a_table_that_takes_no_fee_is_not_refused_for_the_default_fee_amount(banking):
    # $5 chips and no fee (rake_mode none, the house default): no fee is charged, so the
    # default $1.00 rake_amount is not a fee that must be a multiple of the chip unit.
    # A $5 ante folds and loses 5.00.
    table = {"chip_unit": "5", "ante_min": "5", "bonus_min": "5", "rake_mode": "none"}
    hand = folded(2, FOUR_HEARTS_AT62, ante="5")
    rnd = (
        house_round(DEALER_K94, [hand], **table)
        if banking == "house"
        else dp_round(DEALER_K94, [hand], **table)
    )
    assert settled(rnd)["spots"][0]["ante"] == line("lose", "-5.00")


def test_r5_an_amount_given_as_a_json_float_is_refused():
    rnd = dp_round(DEALER_K94, [folded(2, FOUR_HEARTS_AT62, ante=10.0)])
    assert refused_at(rnd) == "spots[0].ante"


def test_r5_check_ante_and_check_bonus_name_the_field_they_are_given():
    table = TableRules()  # $5–$100 ante, $1–$25 bonus
    check_ante(table, 500, field="x")
    check_ante(table, 10_000, field="x")
    with pytest.raises(RoundError) as caught:
        check_ante(table, 499, field="spots[4].ante")
    assert caught.value.field == "spots[4].ante"
    check_bonus(table, 0, field="y", name="Flush Bonus")  # not placed
    with pytest.raises(RoundError) as caught:
        check_bonus(table, 2_501, field="spots[0].flush_bonus", name="Flush Bonus")
    assert caught.value.field == "spots[0].flush_bonus"


# --- R6 two spots ------------------------------------------------------------------------------


def test_r6_a_player_on_two_spots_at_double_the_minimum_is_accepted():
    # Table minimum $5 → $10 on each spot; both fold and lose 10.
    rnd = dp_round(
        DEALER_K94,
        [
            folded(2, THREE_DIAMONDS_Q85, ante="10", player="ana"),
            folded(5, FOUR_HEARTS_AT62, ante="10", player="ana"),
        ],
        **NO_FEE,
    )
    result = settled(rnd)
    assert [s["ante"] for s in result["spots"]] == [line("lose", "-10.00")] * 2


@pytest.mark.parametrize(
    ("antes", "field"), [(("10", "9"), "spots[1].ante"), (("9", "10"), "spots[0].ante")]
)
def test_r6_a_player_on_two_spots_below_double_the_minimum_is_refused(antes, field):
    rnd = dp_round(
        DEALER_K94,
        [
            folded(2, THREE_DIAMONDS_Q85, ante=antes[0], player="ana"),
            folded(5, FOUR_HEARTS_AT62, ante=antes[1], player="ana"),
        ],
    )
    error = refused(rnd)
    assert error["field"] == field
    assert "R6" in error["message"]


def test_r6_the_double_minimum_follows_the_posted_minimum():
    # Posted minimum $10 → $20 on each of two spots.
    def two_spots(second_ante):
        return dp_round(
            DEALER_K94,
            [
                folded(2, THREE_DIAMONDS_Q85, ante="20", player="ana"),
                folded(5, FOUR_HEARTS_AT62, ante=second_ante, player="ana"),
            ],
            ante_min="10",
        )

    assert refused_at(two_spots("19")) == "spots[1].ante"
    assert settled(two_spots("20"))["spots"][1]["ante"] == line("lose", "-20.00")


def test_r6_different_players_need_only_the_table_minimum():
    rnd = dp_round(
        DEALER_K94,
        [
            folded(2, THREE_DIAMONDS_Q85, ante="5", player="ana"),
            folded(5, FOUR_HEARTS_AT62, ante="5", player="bo"),
        ],
    )
    assert [s["ante"] for s in settled(rnd)["spots"]] == [line("lose", "-5.00")] * 2


def test_r6_spots_without_a_player_are_each_their_own_player():
    rnd = dp_round(
        DEALER_K94,
        [folded(2, THREE_DIAMONDS_Q85, ante="5"), folded(5, FOUR_HEARTS_AT62, ante="5")],
    )
    assert [s["ante"] for s in settled(rnd)["spots"]] == [line("lose", "-5.00")] * 2


def test_r6_a_third_spot_is_refused_at_that_spot_player():
    rnd = dp_round(
        DEALER_K94,
        [
            folded(1, FOUR_CLUBS_KQJ4, ante="10", player="ana"),
            folded(2, THREE_DIAMONDS_Q85, ante="10", player="ana"),
            folded(5, FOUR_HEARTS_AT62, ante="10", player="ana"),
        ],
    )
    error = refused(rnd)
    assert error["field"] == "spots[2].player"
    assert "R6" in error["message"]


# --- R8 the raise ---------------------------------------------------------------------------------

# Hands by flush size, none sharing a card with DEALER_K94 (spades K-9-4, which qualifies).
BY_SIZE = {
    2: "Ah Kd Qc 5h Jd Tc 6s",  # best 2: A-5 of hearts; loses to K-9-4
    3: THREE_DIAMONDS_Q85,  # Q-8-5; loses to K-9-4
    4: FOUR_HEARTS_AT62,  # the rest beat K-9-4
    5: "Ah Kh Qh 5h 3h Jd 6c",
    6: "Ah Kh Qh 5h 3h 2h Jd",
    7: "Ah Kh Qh Jh 5h 3h 2h",
}
# R8 caps on a $10 ante: 2–4 cards 1×, 5 cards 2×, 6–7 cards 3×.
CAP_ON_TEN = {2: 10, 3: 10, 4: 10, 5: 20, 6: 30, 7: 30}


@pytest.mark.parametrize("size", sorted(BY_SIZE))
def test_r8_a_raise_at_the_flush_size_cap_is_accepted(size):
    cap = CAP_ON_TEN[size]
    rnd = dp_round(DEALER_K94, [raised(2, BY_SIZE[size], raise_=str(cap))], **NO_FEE)
    got = settled(rnd)["spots"][0]
    # The dealer qualifies: 2 and 3 cards lose to K-9-4, 4+ cards beat it (R9).
    expected = line("lose", f"-{cap}.00") if size <= 3 else line("win", f"{cap}.00")
    assert got["raise"] == expected
    assert got["flush"]["size"] == size


@pytest.mark.parametrize("size", sorted(BY_SIZE))
def test_r8_a_raise_one_chip_above_the_flush_size_cap_is_refused(size):
    over = CAP_ON_TEN[size] + 1
    rnd = dp_round(DEALER_K94, [raised(2, BY_SIZE[size], raise_=str(over))])
    error = refused(rnd)
    assert error["field"] == "spots[0].raise"
    assert "R8" in error["message"]


def test_r8_a_four_card_flush_may_not_raise_double():
    rnd = dp_round(DEALER_K94, [raised(2, FOUR_HEARTS_AT62, raise_="20")])
    assert refused_at(rnd) == "spots[0].raise"


def test_r8_a_five_card_flush_may_raise_between_one_and_two_times():
    # 15 on a $10 ante: inside 1×–2×; the 5-card flush beats K-9-4: raise +15.
    rnd = dp_round(DEALER_K94, [raised(2, BY_SIZE[5], raise_="15")], **NO_FEE)
    assert settled(rnd)["spots"][0]["raise"] == line("win", "15.00")


@pytest.mark.parametrize("amount", ["9", "5", "0"])
def test_r8_a_raise_below_the_ante_is_refused(amount):
    rnd = dp_round(DEALER_K94, [spot(2, BY_SIZE[6], "raise", raise_=amount)])
    assert refused_at(rnd) == "spots[0].raise"


def test_r8_a_raise_without_its_amount_is_refused():
    rnd = dp_round(DEALER_K94, [spot(2, FOUR_HEARTS_AT62, "raise")])
    assert refused_at(rnd) == "spots[0].raise"


@pytest.mark.parametrize("decision", ["fold", "walked_away"])
def test_r8_only_a_spot_that_raises_has_a_raise_amount(decision):
    rnd = dp_round(DEALER_K94, [spot(2, FOUR_HEARTS_AT62, decision, raise_="10")])
    assert refused_at(rnd) == "spots[0].raise"


def test_r8_walking_away_counts_as_a_fold():
    # The hand would beat the dealer, but a walk-away has folded: the ante (10) and, versus_dp,
    # the flush bonus (5) are lost: -15; no raise line.
    def with_decision(decision):
        return dp_round(
            DEALER_K94,
            [spot(2, FOUR_HEARTS_AT62, decision, flush_bonus="5")],
            **NO_FEE,
        )

    walked = settled(with_decision("walked_away"))
    got = walked["spots"][0]
    assert got["status"] == "folded"
    assert got["ante"] == line("lose", "-10.00")
    assert got["raise"] is None
    assert got["flush_bonus"] == line("lose", "-5.00")
    assert got["net"] == "-15.00"
    assert walked == settled(with_decision("fold"))


def test_r8_walking_away_keeps_a_paytable_bonus_in_action_like_a_fold():
    # paytable mode: a 4-card flush pays 2 to 1 on the $5 bonus (+10) though the ante (10) is
    # lost: net 0.
    rnd = dp_round(
        DEALER_K94,
        [spot(2, FOUR_HEARTS_AT62, "walked_away", flush_bonus="5")],
        bonus_mode="paytable",
        **NO_FEE,
    )
    got = settled(rnd)["spots"][0]
    assert got["status"] == "folded"
    assert got["flush_bonus"] == line("win", "10.00")
    assert got["net"] == "0.00"


def test_r8_an_unknown_decision_is_refused():
    rnd = dp_round(DEALER_K94, [spot(2, FOUR_HEARTS_AT62, "check")])
    assert refused_at(rnd) == "spots[0].decision"


@pytest.mark.parametrize(("size", "multiple"), [(2, 1), (3, 1), (4, 1), (5, 2), (6, 3), (7, 3)])
def test_r8_the_raise_cap_multiple_by_flush_size(size, multiple):
    assert raise_cap_multiple(size) == multiple


def test_r8_check_raise_accepts_the_cap_and_refuses_one_cent_over():
    table = TableRules(chip_unit=1)  # 1-cent chips: only the cap is at fault
    check_raise(table, 1_000, 2_000, 5, field="r")  # 2× on 5 cards
    with pytest.raises(RoundError) as caught:
        check_raise(table, 1_000, 2_001, 5, field="spots[1].raise")
    assert caught.value.field == "spots[1].raise"
    with pytest.raises(RoundError):
        check_raise(table, 1_000, 999, 7, field="r")  # below the ante


# --- several faults ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fault", "field"),
    [
        # spot 0's own faults, in the order the rules are checked: seat, ante, bonus, raise
        ({"seat": 4}, "spots[0].seat"),
        ({"ante": "4"}, "spots[0].ante"),
        ({"flush_bonus": "26"}, "spots[0].flush_bonus"),
        ({"raise": "30"}, "spots[0].raise"),
    ],
)
def test_a_round_with_several_faults_is_refused_at_the_first_spot_by_spot(fault, field):
    # Spot 1 is at fault too (its ante is off the limits, R5), but spot 0 is checked first.
    # The DP sits at seat 4; a 4-card flush may raise only 1× the ante (R8).
    first = raised(2, FOUR_HEARTS_AT62) | fault
    rnd = dp_round(DEALER_K94, [first, raised(5, FOUR_CLUBS_KQJ4, ante="101")], **NO_FEE)
    assert refused_at(rnd) == field
