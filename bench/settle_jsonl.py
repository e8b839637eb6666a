"""``manage.py settle_round --jsonl`` against a plain ``json.loads``/``json.dumps`` loop over
the same lines (the target: at least 25% of its rate).

    .venv/bin/python -m bench.settle_jsonl [--rounds 2000] [--seconds 3]

The lines are the engine benchmark's seeded 6-spot rounds (``bench.engine``); the command runs
in process (``call_command``, stdin and stdout in memory) so that only its per-line work is
measured, best of repeats, on one core.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def best_rate(work: Callable[[], int], seconds: float) -> float:
    best = 0.0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or best == 0.0:
        start = time.perf_counter()
        items = work()
        best = max(best, items / (time.perf_counter() - start))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings.local")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    from bench.engine import SEED, random_round

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rng = random.Random(SEED)
    lines = [json.dumps(random_round(rng)) for _ in range(args.rounds)]
    text = "\n".join(lines) + "\n"

    def plain() -> int:
        out = io.StringIO()
        for line in io.StringIO(text):
            out.write(json.dumps(json.loads(line)) + "\n")
        return len(lines)

    def command() -> int:
        out = io.StringIO()
        call_command("settle_round", "--jsonl", stdin=io.StringIO(text), stdout=out)
        return len(lines)

    baseline = best_rate(plain, args.seconds)
    measured = best_rate(command, args.seconds)
    print("| what | lines/s | share of the plain loop |")
    print("| --- | ---: | ---: |")
    print(f"| `json.loads` + `json.dumps`, per line | {baseline:,.0f} | 100% |")
    print(f"| `settle_round --jsonl` | {measured:,.0f} | {measured / baseline:.1%} |")


if __name__ == "__main__":
    main()
