"""Engine throughput on one core: hand evaluations and 6-spot rounds settled per second.

    ./dev bench                 # or: .venv/bin/python -m bench.engine [--seconds 2]

Prints a Markdown table for the README. Inputs are random but seeded, so reruns are
comparable; each figure is the best of several timed repeats.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable

from wagers.engine import round_from_json, settle, settle_json
from wagers.engine.cards import CARD_NAMES, hand_from_cards
from wagers.engine.checks import raise_cap_multiple
from wagers.engine.hands import flush_key, straight_flush_key

SEED = 20261129


def random_hands(rng: random.Random, count: int) -> list[int]:
    return [hand_from_cards(rng.sample(range(52), 7)) for _ in range(count)]


def random_round(rng: random.Random) -> dict:
    """A legal designated-player round with 6 live spots, bonuses on most of them."""
    deck = rng.sample(CARD_NAMES, 49)
    seats = [1, 2, 3, 4, 5, 6, 7]
    dp_seat = seats.pop(rng.randrange(7))
    spots = []
    for index, seat in enumerate(seats):
        cards = deck[7 * (index + 1) : 7 * (index + 2)]
        ante = rng.randrange(5, 101)
        spot = {"seat": seat, "ante": str(ante), "cards": " ".join(cards)}
        if rng.random() < 0.7:
            spot["flush_bonus"] = str(rng.randrange(1, 26))
        if rng.random() < 0.7:
            spot["straight_flush_bonus"] = str(rng.randrange(1, 26))
        if rng.random() < 0.75:
            size = flush_key(hand_from_cards(CARD_NAMES.index(c) for c in cards)) >> 13
            spot |= {
                "decision": "raise",
                "raise": str(ante * rng.randint(1, raise_cap_multiple(size))),
            }
        else:
            spot["decision"] = "fold"
        spots.append(spot)
    return {
        "table": {"rake_amount": "1", "max_aggregate_payout": "2000.00"},
        "dealer": {
            "seat": dp_seat,
            "bank": str(rng.randrange(200, 5000)),
            "cards": " ".join(deck[:7]),
        },
        "spots": spots,
    }


def rate(work: Callable[[], int], seconds: float) -> float:
    """Items per second: the best of repeated runs filling about ``seconds`` in all."""
    best = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or best == 0.0:
        start = time.perf_counter()
        items = work()
        best = max(best, items / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent on each figure")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the targets say

    rng = random.Random(SEED)
    hands = random_hands(rng, 100_000)
    documents = [random_round(rng) for _ in range(2_000)]
    rounds = [round_from_json(doc) for doc in documents]
    lines = [json.dumps(doc) for doc in documents]

    def flushes() -> int:
        for hand in hands:
            flush_key(hand)
        return len(hands)

    def straights() -> int:
        for hand in hands:
            straight_flush_key(hand)
        return len(hands)

    def both() -> int:
        for hand in hands:
            flush_key(hand)
            straight_flush_key(hand)
        return len(hands)

    def settled() -> int:
        for round_ in rounds:
            settle(round_)
        return len(rounds)

    def settled_from_json() -> int:
        for line in lines:
            json.dumps(settle_json(json.loads(line)))
        return len(lines)

    figures = [
        ("flush evaluations (R2)", "hands/s", rate(flushes, args.seconds), 1_000_000),
        ("straight-flush evaluations (R3)", "hands/s", rate(straights, args.seconds), 1_000_000),
        ("flush + straight flush of one hand", "hands/s", rate(both, args.seconds), 1_000_000),
        ("6-spot rounds settled, `settle()`", "rounds/s", rate(settled, args.seconds), 20_000),
        (
            "6-spot rounds, JSON line in → JSON line out",
            "rounds/s",
            rate(settled_from_json, args.seconds),
            None,
        ),
    ]
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, one core; best of repeats over {args.seconds:g} s each\n"
    )
    print("| what | per second | target |")
    print("| --- | ---: | ---: |")
    for what, unit, value, target in figures:
        goal = f"≥ {target:,}" if target else "—"
        print(f"| {what} | {value:,.0f} {unit} | {goal} |")
    missed = [what for what, _, value, target in figures if target and value < target]
    if missed:
        print(f"\nBelow target: {', '.join(missed)}", file=sys.stderr)


if __name__ == "__main__":
    main()
