"""Engine throughput on one core: hand evaluations and 6-spot rounds settled per second.

    ./dev bench                 # or: .venv/bin/python -m bench.engine [--seconds 2]

Prints a Markdown table for docs/benchmarks.md. Inputs are random but seeded, so reruns are
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
from typing import Any, NamedTuple

from engine import Round, round_from_json, settle, settle_json
from engine.cards import CARD_NAMES, hand_from_cards
from engine.checks import raise_cap_multiple
from engine.hands import flush_key, flush_size, straight_flush_key

SEED = 20261129


def random_hands(rng: random.Random, count: int) -> list[int]:
    return [hand_from_cards(rng.sample(range(52), 7)) for _ in range(count)]


def random_round(rng: random.Random) -> dict[str, Any]:
    """A legal designated-player round with 6 live spots, bonuses on most of them."""
    deck = rng.sample(CARD_NAMES, 49)
    seats = [1, 2, 3, 4, 5, 6, 7]
    dp_seat = seats.pop(rng.randrange(7))
    spots: list[dict[str, str | int]] = []
    for index, seat in enumerate(seats):
        cards = deck[7 * (index + 1) : 7 * (index + 2)]
        ante = rng.randrange(5, 101)
        spot: dict[str, str | int] = {"seat": seat, "ante": str(ante), "cards": " ".join(cards)}
        if rng.random() < 0.7:
            spot["flush_bonus"] = str(rng.randrange(1, 26))
        if rng.random() < 0.7:
            spot["straight_flush_bonus"] = str(rng.randrange(1, 26))
        if rng.random() < 0.75:
            size = flush_size(flush_key(hand_from_cards(CARD_NAMES.index(c) for c in cards)))
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


class Figure(NamedTuple):
    what: str
    unit: str
    per_second: float
    target: int | None  # None: reported, no target


class Workload(NamedTuple):
    """The seeded inputs: hands to evaluate, and rounds both built and as JSON lines."""

    hands: list[int]
    rounds: list[Round]
    lines: list[str]

    @classmethod
    def seeded(cls) -> Workload:
        rng = random.Random(SEED)
        hands = random_hands(rng, 100_000)
        documents = [random_round(rng) for _ in range(2_000)]
        return cls(
            hands,
            [round_from_json(doc) for doc in documents],
            [json.dumps(doc) for doc in documents],
        )


def flushes(work: Workload) -> int:
    for hand in work.hands:
        flush_key(hand)
    return len(work.hands)


def straights(work: Workload) -> int:
    for hand in work.hands:
        straight_flush_key(hand)
    return len(work.hands)


def both(work: Workload) -> int:
    for hand in work.hands:
        flush_key(hand)
        straight_flush_key(hand)
    return len(work.hands)


def settled(work: Workload) -> int:
    for round_ in work.rounds:
        settle(round_)
    return len(work.rounds)


def settled_from_json(work: Workload) -> int:
    for line in work.lines:
        json.dumps(settle_json(json.loads(line)))
    return len(work.lines)


def measure(work: Workload, seconds: float) -> list[Figure]:
    def timed(job: Callable[[Workload], int]) -> float:
        return rate(lambda: job(work), seconds)

    return [
        Figure("flush evaluations (R2)", "hands/s", timed(flushes), 1_000_000),
        Figure("straight-flush evaluations (R3)", "hands/s", timed(straights), 1_000_000),
        Figure("flush + straight flush of one hand", "hands/s", timed(both), 1_000_000),
        Figure("6-spot rounds settled, `settle()`", "rounds/s", timed(settled), 20_000),
        Figure(
            "6-spot rounds, JSON line in → JSON line out",
            "rounds/s",
            timed(settled_from_json),
            None,
        ),
    ]


def report(figures: list[Figure], seconds: float) -> None:
    """The Markdown table; figures below their target are named on stderr."""
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.machine()}, one core; best of repeats over {seconds:g} s each\n"
    )
    print("| what | per second | target |")
    print("| --- | ---: | ---: |")
    for figure in figures:
        goal = f"≥ {figure.target:,}" if figure.target else "—"
        print(f"| {figure.what} | {figure.per_second:,.0f} {figure.unit} | {goal} |")
    missed = [f.what for f in figures if f.target and f.per_second < f.target]
    if missed:
        print(f"\nBelow target: {', '.join(missed)}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time spent on each figure")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core, as the targets say
    report(measure(Workload.seeded(), args.seconds), args.seconds)


if __name__ == "__main__":
    main()
