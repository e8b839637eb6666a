"""Game math (shared/spec/game-math.md): exact distributions, bonus returns, the kept ante figure.

The exact figures are checked against the spec's tables, against identities every exact count
must meet, and against seeded simulations that deal hands with the engine's own evaluation
(``flush_key``, ``straight_flush_key``): a simulation must land within its 95% interval.
"""

from __future__ import annotations

import bisect
import itertools
import json
import math
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import RoundError
from engine import ante_raise_edge as kept
from engine.cards import hand_from_cards
from engine.deal_counts import _DealCount, count_below, versus_dp_lines
from engine.game_math import (
    ante_raise_figures,
    bonus_figures,
    format_figure,
    game_math_json,
    table_figures,
)
from engine.hand_counts import (
    DEALER_HANDS,
    DEALS,
    HANDS,
    Bonus,
    flush_size_distribution,
    longest_run_distribution,
    straight_flush_distribution,
)
from engine.hands import (
    FLUSH_KEYS,
    STRAIGHT_FLUSH_KEYS,
    flush_key,
    flush_size,
    run_length,
    straight_flush_key,
)
from engine.table import (
    DEFAULT_FLUSH_PAYTABLE,
    DEFAULT_STRAIGHT_FLUSH_PAYTABLE,
    BonusMode,
    TableRules,
)

ROOT = Path(__file__).resolve().parents[2]
PAYTABLE, VERSUS_DP = BonusMode.PAYTABLE, BonusMode.VERSUS_DP
FLUSH, STRAIGHT_FLUSH = Bonus.FLUSH, Bonus.STRAIGHT_FLUSH

# game-math.md, "Exact distributions": the spec's table, to check the computed counts against.
SPEC_FLUSH_SIZES = {7: 6_864, 6: 267_696, 5: 3_814_668, 4: 26_137_540, 3: 78_881_088, 2: 24_676_704}
SPEC_RUNS = {7: 32, 6: 1_592, 5: 39_960, 4: 676_196, 3: 8_642_932, 0: 124_423_848}

HOUSE_FLUSH = {4: 1, 5: 10, 6: 100, 7: 300}  # game-math.md: proposed for a new house table
DP_FLUSH = dict(DEFAULT_FLUSH_PAYTABLE)  # 4:2, 5:10, 6:50, 7:200
DP_STRAIGHT = dict(DEFAULT_STRAIGHT_FLUSH_PAYTABLE)  # 3:8, 4:60, 5:100, 6:500, 7:1000


# --- the distributions ----------------------------------------------------------------------


def test_it_counts_the_largest_flush_of_every_seven_card_hand_as_the_spec_table_r2():
    assert dict(flush_size_distribution()) == SPEC_FLUSH_SIZES
    assert sum(flush_size_distribution().values()) == HANDS == math.comb(52, 7)


def test_it_counts_the_longest_straight_flush_run_of_every_hand_as_the_spec_table_r3():
    assert dict(straight_flush_distribution()) == SPEC_RUNS
    runs = longest_run_distribution()
    assert sum(runs.values()) == HANDS
    assert runs[1] + runs[2] == SPEC_RUNS[0]  # no run of 3: no straight flush for the bonus


def test_it_agrees_with_the_engine_on_a_sample_of_hands_r2_r3():
    """The counts come from the engine's own per-suit tables; a random hand's flush size and
    run length, read by flush_key/straight_flush_key, falls in the support of each."""
    rng = random.Random(7)
    for _ in range(2_000):
        hand = hand_from_cards(rng.sample(range(52), 7))
        assert flush_size(flush_key(hand)) in flush_size_distribution()
        assert run_length(straight_flush_key(hand)) in longest_run_distribution()


# --- paytable mode (R10) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bonus", "paytable", "expected_return", "hit_frequency"),
    [
        (FLUSH, DP_FLUSH, "1.012121", "0.225936"),
        (FLUSH, HOUSE_FLUSH, "0.921928", "0.225936"),
        (STRAIGHT_FLUSH, DP_STRAIGHT, "0.926115", "0.069969"),
    ],
)
def test_it_returns_the_spec_worked_paytables_to_six_places_r10(
    bonus, paytable, expected_return, hit_frequency
):
    figures = bonus_figures(bonus, PAYTABLE, paytable)
    assert format_figure(figures.return_) == expected_return
    assert format_figure(figures.house_edge) == format_figure(1 - Fraction(expected_return))
    assert format_figure(figures.hit_frequency) == hit_frequency
    assert figures.method == "exact"


def test_it_computes_the_return_as_an_exact_fraction_of_the_spec_counts_r10():
    counts = SPEC_FLUSH_SIZES
    expected = Fraction(sum(counts[size] * (odds + 1) for size, odds in DP_FLUSH.items()), HANDS)
    figures = bonus_figures(FLUSH, PAYTABLE, DP_FLUSH)
    assert figures.return_ == expected
    assert figures.house_edge == 1 - expected  # a player edge of 1.21%: negative house edge
    assert format_figure(figures.house_edge) == "-0.012121"


def test_it_reports_the_variance_of_the_net_result_per_unit_staked_r10():
    figures = bonus_figures(STRAIGHT_FLUSH, PAYTABLE, DP_STRAIGHT)
    # Outcomes by hand: +odds on a paid line, -1 on every other hand.
    outcomes = [(Fraction(SPEC_RUNS[n], HANDS), odds) for n, odds in DP_STRAIGHT.items()]
    outcomes.append((Fraction(SPEC_RUNS[0], HANDS), -1))
    mean = sum(p * x for p, x in outcomes)
    assert mean == figures.return_ - 1
    assert figures.variance == sum(p * (x - mean) ** 2 for p, x in outcomes)


@settings(max_examples=60, deadline=None)
@given(
    bonus=st.sampled_from([FLUSH, STRAIGHT_FLUSH]),
    mode=st.sampled_from([PAYTABLE, VERSUS_DP]),
    more=st.integers(1, 50),
    data=st.data(),
)
def test_every_line_moves_the_return_by_its_probability_per_unit_of_odds_r10(
    bonus, mode, more, data
):
    sizes = range(2, 8) if bonus is FLUSH else range(3, 8)
    paytable = data.draw(st.dictionaries(st.sampled_from(sizes), st.integers(1, 2000)))
    line = data.draw(st.sampled_from(sizes))
    before = bonus_figures(bonus, mode, paytable)
    after = bonus_figures(bonus, mode, {**paytable, line: paytable.get(line, 0) + more})
    if mode is PAYTABLE:
        hands = flush_size_distribution() if bonus is FLUSH else straight_flush_distribution()
        paid, push = Fraction(hands[line], HANDS), Fraction(0)  # P(line)
    else:
        paid, push = versus_dp_lines(bonus)[line].win, versus_dp_lines(bonus)[line].push
    if line in paytable:
        # Each unit of odds on a line adds the probability of being paid on it.
        assert after.return_ - before.return_ == paid * more
    else:
        # A new line also gives back the stakes it wins or pushes, which lost before.
        assert after.return_ - before.return_ == paid * (more + 1) + push


def test_a_paytable_with_no_lines_loses_every_stake_r10():
    for mode in (PAYTABLE, VERSUS_DP):
        figures = bonus_figures(FLUSH, mode, {})
        assert (figures.return_, figures.hit_frequency, figures.variance) == (0, 0, 0)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(1), "1.000000"),
        (Fraction(5, 10**7), "0.000000"),  # half to even: down to 0
        (Fraction(15, 10**7), "0.000002"),  # half to even: up to 2
        (Fraction(25, 10**7), "0.000002"),
        (Fraction(-121212, 10**7), "-0.012121"),
        (Fraction(-4, 10**7), "0.000000"),
        (Fraction(2, 3), "0.666667"),
    ],
)
def test_figures_print_with_six_places_rounded_half_even(value, text):
    assert format_figure(value) == text


def simulate_paytable(bonus, paytable, *, hands, seed):
    """Deal ``hands`` random hands; the mean return per unit staked and its 95% half-width."""
    rng = random.Random(seed)
    deck = range(52)
    total = square = 0
    for _ in range(hands):
        hand = hand_from_cards(rng.sample(deck, 7))
        line = (
            flush_size(flush_key(hand)) if bonus is FLUSH else run_length(straight_flush_key(hand))
        )
        back = paytable.get(line, -1) + 1
        total += back
        square += back * back
    mean = total / hands
    return mean, 1.96 * math.sqrt((square / hands - mean * mean) / hands)


@pytest.mark.parametrize(
    ("bonus", "paytable"), [(FLUSH, DP_FLUSH), (FLUSH, HOUSE_FLUSH), (STRAIGHT_FLUSH, DP_STRAIGHT)]
)
def test_a_seeded_simulation_of_paytable_mode_lands_within_its_95_percent_interval_r10(
    bonus, paytable
):
    estimate, ci95 = simulate_paytable(bonus, paytable, hands=100_000, seed=20261201)
    exact = bonus_figures(bonus, PAYTABLE, paytable).return_
    assert abs(estimate - float(exact)) <= ci95
    assert (estimate, ci95) == simulate_paytable(bonus, paytable, hands=100_000, seed=20261201)


# --- versus_dp mode (R10) ----------------------------------------------------------------------


def test_it_prices_the_default_versus_dp_paytables_exactly_r10():
    flush = bonus_figures(FLUSH, VERSUS_DP, DP_FLUSH)
    straight = bonus_figures(STRAIGHT_FLUSH, VERSUS_DP, DP_STRAIGHT)
    assert (flush.method, straight.method) == ("exact", "exact")
    assert "raises whenever its hand reaches a paid line" in str(flush.strategy)
    assert [format_figure(f) for f in (flush.return_, flush.hit_frequency)] == [
        "0.927577",
        "0.199282",
    ]
    assert [format_figure(f) for f in (straight.return_, straight.hit_frequency)] == [
        "0.900399",
        "0.067183",
    ]


@pytest.mark.parametrize("bonus", [FLUSH, STRAIGHT_FLUSH])
def test_each_lines_win_push_and_loss_add_up_to_the_lines_probability_r10(bonus):
    hands = flush_size_distribution() if bonus is FLUSH else straight_flush_distribution()
    for line, outcome in versus_dp_lines(bonus).items():
        assert min(outcome.win, outcome.push, outcome.lose) >= 0
        assert outcome.win + outcome.push + outcome.lose == Fraction(hands[line], HANDS)
        assert (outcome.win * DEALS).denominator == 1  # a whole number of deals


def test_over_every_flush_size_the_spot_wins_as_often_as_the_dealer_r2_r10():
    """Spot and dealer both hold 7 cards: over all deals, spot-higher and dealer-higher deals
    are equally many. Every hand has a flush of 2 to 7 cards, so the lines cover every deal."""
    lines = versus_dp_lines(FLUSH)
    assert set(lines) == set(range(2, 8))
    assert sum(o.win for o in lines.values()) == sum(o.lose for o in lines.values())
    assert sum(o.win + o.push + o.lose for o in lines.values()) == 1


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 8191), st.integers(0, 7), st.integers(0, 8192))
def test_counting_suits_below_a_flush_agrees_with_the_engines_keys_r2(allowed, size, limit):
    subsets = [r for r in range(8192) if r & ~allowed == 0 and r.bit_count() == size]
    assert count_below(allowed, size, limit) == sum(r < limit for r in subsets)
    if limit < 8192 and limit.bit_count() == size:
        key = FLUSH_KEYS[limit]
        assert count_below(allowed, size, limit) == sum(FLUSH_KEYS[r] < key for r in subsets)


@pytest.mark.parametrize("k", [4, 5, 6, 7])
def test_the_short_form_of_the_deal_count_equals_the_direct_one(k):
    deals = _DealCount(k)
    rng = random.Random(k)
    for _ in range(20):
        point = (rng.randrange(2000), rng.randrange(2000), rng.randrange(10**6))
        assert deals(*point) == deals._direct(*point)


class LineSampler:
    """Uniform over the 7-card hands whose best suit value (flush size, or run length) is
    exactly ``line``: such a hand has one first suit at ``line``, the suits before it below,
    the suits after it at most ``line``; pick that suit and the suit sizes by their number of
    hands, then each suit's ranks uniformly among those allowed."""

    def __init__(self, value_of, line):
        by_rule = {}
        for rule, keep in (
            ("below", lambda v: v < line),
            ("at", lambda v: v == line),
            ("upto", lambda v: v <= line),
        ):
            pools = [[] for _ in range(8)]
            for ranks in range(8192):
                if ranks.bit_count() <= 7 and keep(value_of(ranks)):
                    pools[ranks.bit_count()].append(ranks)
            by_rule[rule] = pools
        self.choices, self.weights = [], []
        total = 0
        for first in range(4):
            rules = ["below"] * first + ["at"] + ["upto"] * (3 - first)
            for sizes in itertools.product(range(8), repeat=4):
                if sum(sizes) != 7:
                    continue
                pools = [by_rule[rule][size] for rule, size in zip(rules, sizes, strict=True)]
                weight = math.prod(len(pool) for pool in pools)
                if weight:
                    total += weight
                    self.choices.append(pools)
                    self.weights.append(total)
        self.hands = total

    def sample(self, rng):
        pools = self.choices[bisect.bisect_right(self.weights, rng.randrange(self.hands))]
        hand = 0
        for suit, pool in enumerate(pools):
            hand |= rng.choice(pool) << 13 * suit
        return hand


def _value_of(bonus):
    if bonus is FLUSH:
        return lambda ranks: flush_size(FLUSH_KEYS[ranks])
    return lambda ranks: run_length(STRAIGHT_FLUSH_KEYS[ranks])


def simulate_versus_dp(bonus, paytable, *, hands, seed):
    """Stratified by line (R10 versus_dp): for each paid line, spot hands drawn exactly on that
    line, each against a dealer hand of 7 of the other 45 cards, compared with the engine's
    key for the category. Lines get hands in proportion to P(line) × (odds + 1).

    Returns the estimated return, the 95% half-width and the per-line (hands, wins, pushes).
    """
    rng = random.Random(seed)
    key_of = flush_key if bonus is FLUSH else straight_flush_key
    exact_hands = flush_size_distribution() if bonus is FLUSH else straight_flush_distribution()
    share = {line: exact_hands[line] * (odds + 1) for line, odds in paytable.items()}
    estimate = variance = 0.0
    tallies = {}
    for line, odds in sorted(paytable.items()):
        sampler = LineSampler(_value_of(bonus), line)
        assert sampler.hands == exact_hands[line]  # an independent count of the line's hands
        n = max(200, round(hands * share[line] / sum(share.values())))
        wins = pushes = 0
        for _ in range(n):
            spot = sampler.sample(rng)
            rest = [card for card in range(52) if not spot >> card & 1]
            dealer = hand_from_cards(rng.sample(rest, 7))
            mine, theirs = key_of(spot), key_of(dealer)
            wins += mine > theirs
            pushes += mine == theirs
        p_line = exact_hands[line] / HANDS
        mean = ((odds + 1) * wins + pushes) / n
        second = ((odds + 1) ** 2 * wins + pushes) / n
        estimate += p_line * mean
        variance += p_line**2 * (second - mean * mean) / n
        tallies[line] = (n, wins, pushes)
    return estimate, 1.96 * math.sqrt(variance), tallies


@pytest.mark.parametrize(("bonus", "paytable"), [(FLUSH, DP_FLUSH), (STRAIGHT_FLUSH, DP_STRAIGHT)])
def test_a_seeded_stratified_simulation_of_versus_dp_lands_within_its_interval_r10(bonus, paytable):
    exact = bonus_figures(bonus, VERSUS_DP, paytable).return_
    estimate, ci95, tallies = simulate_versus_dp(bonus, paytable, hands=20_000, seed=1)
    assert abs(estimate - float(exact)) <= ci95
    # Reproducible from its seed; another seed deals other hands.
    assert simulate_versus_dp(bonus, paytable, hands=20_000, seed=1) == (estimate, ci95, tallies)
    assert simulate_versus_dp(bonus, paytable, hands=20_000, seed=2)[2] != tallies


@pytest.mark.slow
@pytest.mark.parametrize(("bonus", "paytable"), [(FLUSH, DP_FLUSH), (STRAIGHT_FLUSH, DP_STRAIGHT)])
def test_a_ten_times_larger_simulation_of_versus_dp_lands_within_its_interval_r10(bonus, paytable):
    """Hands enough for a 95% half-width of at most 0.001, then ten times as many: both land
    within their interval of the exact figure, and so does each line's win rate."""
    exact = bonus_figures(bonus, VERSUS_DP, paytable).return_
    base = 320_000 if bonus is FLUSH else 100_000
    estimate, ci95, _ = simulate_versus_dp(bonus, paytable, hands=base, seed=11)
    assert ci95 <= 0.001
    assert abs(estimate - float(exact)) <= ci95
    estimate, ci95, tallies = simulate_versus_dp(bonus, paytable, hands=10 * base, seed=12)
    assert ci95 <= 0.001 / math.sqrt(10) * 1.1
    assert abs(estimate - float(exact)) <= ci95
    lines = versus_dp_lines(bonus)
    for line, (n, wins, _) in tallies.items():
        p = float(lines[line].win / (lines[line].win + lines[line].push + lines[line].lose))
        assert abs(wins / n - p) <= 1.96 * math.sqrt(p * (1 - p) / n) + 1 / n


# --- ante and raise (R8/R9) ------------------------------------------------------------------


def test_the_kept_ante_raise_figure_is_the_one_the_offline_script_wrote_r8_r9():
    result = json.loads((ROOT / "bench" / "ante_raise_edge.json").read_text())
    assert result["house_edge"] == kept.HOUSE_EDGE
    assert result["house_edge_fraction"] == [kept.HOUSE_EDGE_NUMERATOR, kept.HOUSE_EDGE_DENOMINATOR]
    assert result["variance"] == kept.VARIANCE
    assert result["variance_fraction"] == [kept.VARIANCE_NUMERATOR, kept.VARIANCE_DENOMINATOR]
    assert (
        result["strategy"],
        result["method"],
        result["run_on"],
    ) == (kept.STRATEGY, kept.METHOD, kept.RUN_ON)
    assert f"on {result['run_on']}" in " ".join(str(kept.__doc__).split())
    # The figure is exact over every (spot, dealer) deal, as the sums it was made from say.
    sums = result["sums"]
    assert sums["hands"] == HANDS and result["deals"] == DEALS == HANDS * DEALER_HANDS
    assert Fraction(-sums["ev"], DEALS) == Fraction(*result["house_edge_fraction"])


def test_the_ante_raise_edge_is_near_the_published_figure_under_optimal_play_r8_r9():
    figures = ante_raise_figures()
    assert Fraction("0.026") < figures.house_edge < Fraction("0.027")  # published: 2.6–2.7%
    assert format_figure(figures.house_edge) == kept.HOUSE_EDGE
    assert figures.variance > 1
    assert "J-3-2 or better" in figures.strategy and "exact" in figures.method


# --- the figures of a table ---------------------------------------------------------------------


def test_a_tables_figures_follow_its_bonus_mode_and_paytables_r10():
    rules = TableRules(bonus_mode=PAYTABLE, flush_paytable=HOUSE_FLUSH)
    out = table_figures(rules).to_json()
    assert out["flush_bonus"] == {
        "mode": "paytable",
        "return": "0.921928",
        "house_edge": "0.078072",
        "hit_frequency": "0.225936",
        "method": "exact",
    }
    assert out["straight_flush_bonus"]["return"] == "0.926115"
    assert set(out["ante_raise"]) == {"house_edge", "strategy", "method"}


def test_missing_settings_take_the_contracts_defaults_for_the_banking_kind_r10():
    dp = game_math_json({})
    assert dp["flush_bonus"]["mode"] == "versus_dp"
    assert dp["flush_bonus"]["return"] == "0.927577"
    house = game_math_json({"banking": "house"})
    # The contract's default paytable, not the one proposed for new tables (game-math.md).
    assert house["flush_bonus"]["mode"] == "paytable"
    assert house["flush_bonus"]["return"] == "1.012121"
    assert house["straight_flush_bonus"]["return"] == "0.926115"


@pytest.mark.parametrize(
    ("table", "field"),
    [
        ({"flush_paytable": {"1": 5}}, "table.flush_paytable.1"),
        ({"straight_flush_paytable": {"4": 0}}, "table.straight_flush_paytable.4"),
        ({"flush_paytable": [4, 2]}, "table.flush_paytable"),
        ({"bonus_mode": "sometimes"}, "table.bonus_mode"),
        ({"banking": "house", "rake_mode": "all_players"}, "table.rake_mode"),
        ({"odds": 3}, "table.odds"),
        ([], "table"),
    ],
)
def test_a_bad_table_is_refused_naming_its_field(table, field):
    with pytest.raises(RoundError) as refused:
        game_math_json(table)
    assert refused.value.field == field
