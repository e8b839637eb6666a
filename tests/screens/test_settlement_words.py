"""A settled spot's lines in words (``cardroom.screens.settlement_words``), from settle-json
lines as the engine answers them: the rule's case behind each outcome (R9–R11), what the
dealer does at the spot (R12, R14)."""

from __future__ import annotations

from decimal import Decimal

from cardroom.screens.settlement_words import (
    Terms,
    dealer_words,
    line_words,
    return_words,
    stakes_of,
)

DP_TABLE = Terms({"banking": "designated_player"})  # versus_dp, the contract's paytables
HOUSE_TABLE = Terms({"banking": "house"})  # paytable mode
DEALER = {"qualifies": True, "flush": {"size": 4}, "straight_flush": {"length": 3}}


def _spot(status: str = "played", **lines) -> dict:
    base = {"status": status, "flush": {"size": 4}, "straight_flush": {"length": 2}}
    return base | lines


def test_a_straight_flush_bonus_names_its_paytable_line_r10():
    spot = _spot(
        straight_flush={"length": 4},
        straight_flush_bonus={"outcome": "win", "net": "300.00"},
    )
    stakes = {"straight_flush_bonus": Decimal("5")}
    words = line_words("straight_flush_bonus", spot, stakes, DEALER, DP_TABLE)
    assert words == "4-card straight flush, 60 to 1"


def test_a_run_of_two_is_no_straight_flush_r3():
    spot = _spot(straight_flush_bonus={"outcome": "lose", "net": "-5.00"})
    stakes = {"straight_flush_bonus": Decimal("5")}
    assert line_words("straight_flush_bonus", spot, stakes, DEALER, DP_TABLE) == (
        "no straight flush"
    )


def test_a_bonus_below_the_dealers_hand_loses_versus_the_dp_r10():
    spot = _spot(flush={"size": 4}, flush_bonus={"outcome": "lose", "net": "-5.00"})
    dealer = DEALER | {"flush": {"size": 5}}
    words = line_words("flush_bonus", spot, {"flush_bonus": Decimal("5")}, dealer, DP_TABLE)
    assert words == "4-card flush, lower than the dealer's 5-card flush"


def test_a_bonus_without_a_paytable_line_says_so_r10():
    spot = _spot(flush={"size": 3}, flush_bonus={"outcome": "lose", "net": "-5.00"})
    words = line_words("flush_bonus", spot, {"flush_bonus": Decimal("5")}, DEALER, HOUSE_TABLE)
    assert words == "3-card flush: no paytable line"


def test_a_fold_loses_the_bonus_versus_the_dp_but_not_on_the_paytable_r10():
    lost = _spot("folded", flush_bonus={"outcome": "lose", "net": "-5.00"})
    stakes = {"flush_bonus": Decimal("5")}
    assert line_words("flush_bonus", lost, stakes, DEALER, DP_TABLE) == "lost with the fold"
    paid = _spot("folded", flush_bonus={"outcome": "win", "net": "10.00"})
    house = Terms({"banking": "house", "flush_paytable": {"4": 2, "5": 10}})
    assert line_words("flush_bonus", paid, stakes, DEALER, house) == "4-card flush, 2 to 1"


def test_a_bonus_win_cut_by_the_cap_says_so_r11():
    spot = _spot(flush={"size": 7}, flush_bonus={"outcome": "win", "net": "4000.00"})
    words = line_words("flush_bonus", spot, {"flush_bonus": Decimal("25")}, DEALER, DP_TABLE)
    assert words == "7-card flush, 200 to 1 (cut from $5,000.00: the hand's cap on bonus wins)"


def test_the_ante_and_raise_say_their_r9_case():
    dealer_out = DEALER | {"qualifies": False}
    ante = _spot(ante={"outcome": "win", "net": "10.00"})
    pushed = _spot(**{"raise": {"outcome": "push", "net": "0.00"}})
    assert line_words("ante", ante, {}, dealer_out, DP_TABLE) == (
        "the dealer did not qualify, 1 to 1"
    )
    assert line_words("raise", pushed, {}, dealer_out, DP_TABLE) == "the dealer did not qualify"
    lost = _spot(ante={"outcome": "lose", "net": "-10.00"})
    assert line_words("ante", lost, {}, DEALER, DP_TABLE) == "the dealer's flush is higher"
    tied = _spot(ante={"outcome": "push", "net": "0.00"})
    assert line_words("ante", tied, {}, DEALER, DP_TABLE) == "ties the dealer's flush"


def test_a_line_not_placed_says_nothing():
    assert line_words("flush_bonus", _spot(flush_bonus=None), {}, DEALER, DP_TABLE) == ""


def test_what_the_dealer_does_at_each_spot_r12_r14():
    won = {"status": "played", "rake": "1.00", "net": "29.00"}
    assert dealer_words(won, {}) == ("pay $30.00, collect the $1.00 fee", "pay")
    pushed = {"status": "played", "rake": "1.00", "net": "-1.00"}
    assert dealer_words(pushed, {}) == ("collect the $1.00 fee", "fee")
    no_fee = {"status": "folded", "rake": "0.00", "net": "-10.00"}
    assert dealer_words(no_fee, {}) == ("take $10.00", "take")
    big = {"status": "played", "rake": "0.00", "net": "20000.00"}
    assert dealer_words(big, {}) == ("pay $20,000.00", "pay")
    dead = {"status": "dead", "rake": "0.00", "net": "0.00"}
    stakes = stakes_of({"ante": "10.00", "raise": "30.00", "flush_bonus": "5.00"})
    assert dealer_words(dead, stakes) == ("return $45.00 (ante 10, raise 30, bonus 5)", "return")


def test_a_return_names_cents_and_both_bonuses_r14():
    stakes = stakes_of({"ante": "7.50", "flush_bonus": "2.50", "straight_flush_bonus": "1000"})
    assert return_words(stakes) == (
        "return $1,010.00 (ante 7.50, bonus 2.50, straight flush bonus 1,000)"
    )
