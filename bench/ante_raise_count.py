"""The count behind ``bench.ante_raise_edge``: per spot hand, the dealer hands of the other 45
cards that do not qualify (R4), are below the spot's flush and at most it (R2), counted per suit
without dealing them; in pure Python (the reference), and by the C helper
``bench/ante_raise_edge.c``, checked against it."""

from __future__ import annotations

import random
import shutil
import subprocess
from collections.abc import Callable, Iterator, Sequence
from math import comb, prod
from pathlib import Path

from engine.cards import SUIT_MASK, hand_from_cards, suit_ranks
from engine.deal_counts import count_below
from engine.hand_counts import DEALER_HANDS
from engine.hands import FLUSH_KEYS, QUALIFYING_FLUSH_KEY, flush_ranks, flush_size

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "ante_raise_edge.c"


SEED = 20261201
SAMPLE_HANDS = 300  # checked against the Python count
BRUTE_HANDS = 2  # checked against dealing all C(45, 7) dealer hands (a few seconds each)

Counts = tuple[int, int, int]  # dealer hands: not qualifying, below the spot, at most the spot


# --- the count, in Python: the reference the helper is checked against ---------------------


def dealer_below(suits: Sequence[int], size: int, limit: int) -> int:
    """Dealer hands from the ranks the spot's ``suits`` leave whose flush key is below
    ``size << 13 | limit``: fewer cards in every suit, or exactly ``size`` in a suit whose
    ranks are below ``limit`` (R2)."""
    product = [1] + [0] * 7
    for ranks in suits:
        free = SUIT_MASK & ~ranks
        left = free.bit_count()
        poly = [
            comb(left, d) if d < size else count_below(free, size, limit) if d == size else 0
            for d in range(8)
        ]
        product = [sum(product[i] * poly[n - i] for i in range(n + 1)) for n in range(8)]
    return product[7]


def suits_of(hand: int) -> tuple[int, int, int, int]:
    clubs, diamonds, hearts, spades = (suit_ranks(hand, suit) for suit in range(4))
    return clubs, diamonds, hearts, spades


def counts(suits: Sequence[int]) -> Counts:
    key = max(FLUSH_KEYS[ranks] for ranks in suits)
    size, ranks = flush_size(key), flush_ranks(key)
    not_qualifying = dealer_below(
        suits, flush_size(QUALIFYING_FLUSH_KEY), flush_ranks(QUALIFYING_FLUSH_KEY)
    )
    return not_qualifying, dealer_below(suits, size, ranks), dealer_below(suits, size, ranks + 1)


def raise_cap(size: int) -> int:
    """R8: up to 1× the ante with a 2–4 card flush, 2× with 5, 3× with 6–7."""
    return 1 if size <= 4 else 2 if size == 5 else 3


def best_play(key: int, not_qualifying: int, below: int, at_most: int) -> tuple[int, int, int]:
    """(decision 0 fold / 1 raise 1× / 2 raise the cap, EV, E[result²]), the last two in units
    of 1/C(45, 7) per unit of ante. R9: a dealer who does not qualify pays the ante and pushes
    the raise; else the higher flush wins ante and raise, a tie pushes both."""
    if key >= QUALIFYING_FLUSH_KEY:
        win, lose = below - not_qualifying, DEALER_HANDS - at_most
    else:  # every qualifying dealer hand is above the spot's
        win, lose = 0, DEALER_HANDS - not_qualifying
    cap = raise_cap(flush_size(key))
    best = (0, -DEALER_HANDS, DEALER_HANDS)
    for decision, multiple in ((1, 1), (2, cap)):
        ev = not_qualifying + (1 + multiple) * (win - lose)
        if ev > best[1]:
            best = (decision, ev, not_qualifying + (1 + multiple) ** 2 * (win + lose))
    return best


# --- every spot hand, once per suit pattern ---------------------------------------------------


def patterns() -> Iterator[tuple[tuple[int, int, int, int], int]]:
    """Suit sizes high to low, each with the number of suit orders it stands for."""
    for a in range(7, -1, -1):
        for b in range(a, -1, -1):
            for c in range(b, -1, -1):
                d = 7 - a - b - c
                if 0 <= d <= c:
                    sizes = (a, b, c, d)
                    orders = 24 // prod(prod(range(1, sizes.count(n) + 1)) for n in set(sizes))
                    yield sizes, orders


def enumerate_in_python(progress: Callable[[str], None]) -> str:
    """The helper's ``all`` output, computed in Python."""
    by_size: list[list[int]] = [[] for _ in range(8)]
    for ranks in range(1 << 13):
        if ranks.bit_count() <= 7:
            by_size[ranks.bit_count()].append(ranks)
    names = ("hands", "ev", "square", "dealer_not_qualifying", "dealer_below", "dealer_above")
    sums = dict.fromkeys((*names, "dealer_equal"), 0)
    decisions: dict[int, list[int]] = {}
    for (a, b, c, d), weight in patterns():
        for s0 in by_size[a]:
            for s1 in by_size[b]:
                for s2 in by_size[c]:
                    for s3 in by_size[d]:
                        suits = (s0, s1, s2, s3)
                        key = max(FLUSH_KEYS[ranks] for ranks in suits)
                        nq, lt, le = counts(suits)
                        decision, ev, square = best_play(key, nq, lt, le)
                        decisions.setdefault(key, [0, 0, 0])[decision] += weight
                        sums["hands"] += weight
                        sums["ev"] += weight * ev
                        sums["square"] += weight * square
                        sums["dealer_not_qualifying"] += weight * nq
                        sums["dealer_below"] += weight * lt
                        sums["dealer_above"] += weight * (DEALER_HANDS - le)
                        sums["dealer_equal"] += weight * (le - lt)
        progress(f"pattern {a}{b}{c}{d} done")
    lines = [f"SUM {name} {value}" for name, value in sums.items()]
    lines += [f"KEY {key} {' '.join(map(str, n))}" for key, n in sorted(decisions.items())]
    return "\n".join(lines) + "\n"


# --- the C helper -------------------------------------------------------------------------------


def compile_helper(directory: Path) -> Path:
    gcc = shutil.which("gcc") or shutil.which("cc")
    if gcc is None:
        raise SystemExit("no C compiler found: rerun with --python (slow) or install gcc")
    binary = directory / "ante_raise_edge"
    subprocess.run(
        [gcc, "-O2", f"-DQUALIFYING={QUALIFYING_FLUSH_KEY}", "-o", str(binary), str(SOURCE)],
        check=True,
    )
    return binary


def run_helper(binary: Path, mode: str, hands: Sequence[int] = ()) -> str:
    text = "".join(f"{hand}\n" for hand in hands)
    return subprocess.run(
        [str(binary), mode], input=text, capture_output=True, text=True, check=True
    ).stdout


def parse_counts(text: str) -> list[Counts]:
    out = []
    for line in text.splitlines():
        nq, lt, le = map(int, line.split())
        out.append((nq, lt, le))
    return out


def check_helper(binary: Path, progress: Callable[[str], None]) -> dict[str, object]:
    rng = random.Random(SEED)
    hands = [hand_from_cards(rng.sample(range(52), 7)) for _ in range(SAMPLE_HANDS)]
    fast = parse_counts(run_helper(binary, "count", hands))
    expected = [counts(suits_of(hand)) for hand in hands]
    if fast != expected:
        raise SystemExit("the C helper's counts differ from the Python count")
    progress(f"helper = Python count on {SAMPLE_HANDS} seeded hands")
    brute = parse_counts(run_helper(binary, "brute", hands[:BRUTE_HANDS]))
    if brute != fast[:BRUTE_HANDS]:
        raise SystemExit("the fast count differs from dealing every dealer hand")
    progress(f"fast count = every dealer hand dealt, for {BRUTE_HANDS} hands")
    return {
        "seed": SEED,
        "hands_checked_against_python": SAMPLE_HANDS,
        "hands_checked_by_dealing_every_dealer_hand": BRUTE_HANDS,
    }
