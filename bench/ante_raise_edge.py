"""R8/R9: the house edge of the ante and raise per unit of ante, under the optimal strategy.

    python -m bench.ante_raise_edge            # compiles bench/ante_raise_edge.c with gcc
    python -m bench.ante_raise_edge --python   # no compiler: the same count in pure Python
                                               # (about 45 minutes instead of seconds;
                                               # it gave the very same sums)
    python -m bench.ante_raise_edge --dry-run  # print the result, write nothing

Exact enumeration. For every spot hand (all C(52, 7), enumerated once per suit pattern and
weighted by its suit relabellings) it counts, over the C(45, 7) dealer hands the other cards
make, those that do not qualify (R4), those whose flush is below the spot's and those equal to
it (R2), per suit without dealing them. With those counts the expected result of folding,
raising 1× and raising the cap (R8) is exact; it is linear in the raise, so the best of the
three is the optimal play of that very hand, card removal included (R9). Summed over every
deal, that is the figure.

Before the full run the helper is checked against this module's Python count on seeded
random hands, and its fast count against dealing every one of the C(45, 7) dealer hands for
two of them; after it, against identities every exact count must meet. It writes
``bench/ante_raise_edge.json`` and the data module ``engine/ante_raise_edge.py`` that
``engine.game_math`` reads (a test checks that the two agree).
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from bench.ante_raise_count import check_helper, compile_helper, enumerate_in_python, raise_cap
from engine.cards import RANKS
from engine.game_math import format_figure
from engine.hand_counts import DEALER_HANDS, DEALS, HANDS
from engine.hands import FLUSH_KEYS, QUALIFYING_FLUSH_KEY, flush_ranks, flush_size

HERE = Path(__file__).resolve().parent


RESULT = HERE / "ante_raise_edge.json"
DATA_MODULE = HERE.parent / "engine" / "ante_raise_edge.py"


# --- results ------------------------------------------------------------------------------------


def check_identities(sums: dict[str, int]) -> None:
    """What any exact count over every (spot, dealer) deal must meet."""
    # Per suit, the rank subsets whose flush does not qualify (R4), by size.
    poly = [0] * 8
    for ranks in range(1 << 13):
        if ranks.bit_count() <= 7 and FLUSH_KEYS[ranks] < QUALIFYING_FLUSH_KEY:
            poly[ranks.bit_count()] += 1
    square = [sum(poly[i] * poly[n - i] for i in range(n + 1)) for n in range(8)]
    not_qualifying = sum(square[i] * square[7 - i] for i in range(8))
    assert not_qualifying == 32_959_524  # 100,825,036 of the hands qualify (75.36%)
    problems = []
    if sums["hands"] != HANDS:
        problems.append("the hands enumerated are not C(52, 7)")
    if sums["dealer_not_qualifying"] != not_qualifying * DEALER_HANDS:
        problems.append("dealer hands that do not qualify ≠ their count × C(45, 7)")
    if sums["dealer_below"] != sums["dealer_above"]:
        problems.append("deals with the dealer below ≠ deals with the dealer above (symmetry)")
    if sums["dealer_below"] + sums["dealer_above"] + sums["dealer_equal"] != DEALS:
        problems.append("below + above + equal ≠ every deal")
    if problems:
        raise SystemExit("; ".join(problems))


def flush_name(key: int) -> str:
    ranks = flush_ranks(key)
    return "-".join(RANKS[r] for r in range(12, -1, -1) if ranks >> r & 1)


def describe_strategy(decisions: dict[int, list[int]]) -> tuple[str, Fraction]:
    """The optimal play in words, from the weight of each decision at each flush."""
    parts = []
    raised = 0
    at_cap = [
        size
        for size in range(7, 1, -1)
        if all(
            decisions[key][2] == sum(decisions[key]) for key in decisions if flush_size(key) == size
        )
    ]
    if at_cap:
        caps = ", ".join(f"{raise_cap(size)}×" for size in at_cap)
        sizes = ", ".join(map(str, at_cap[:-1])) + (" or " if len(at_cap) > 1 else "")
        parts.append(f"{sizes}{at_cap[-1]}-card flush: raise the R8 cap ({caps})")
    for size in range(7, 1, -1):
        keys = sorted(key for key in decisions if flush_size(key) == size)
        folds = [key for key in keys if decisions[key][0]]
        raises = [key for key in keys if decisions[key][1] or decisions[key][2]]
        raised += sum(decisions[key][1] + decisions[key][2] for key in keys)
        kinds = {d for key in keys for d in (0, 1, 2) if decisions[key][d]}
        if size in at_cap:
            continue
        if kinds == {1}:
            parts.append(f"{size}-card flush: raise 1×")
        elif kinds == {0}:
            parts.append(f"{size}-card flush: fold")
        elif not folds or not raises:
            parts.append(f"{size}-card flush: raise 1× or the most, as the other cards make it")
        else:
            always_raise = [key for key in raises if key > max(folds)]
            always_fold = [key for key in folds if key < min(raises)]
            mixed = [key for key in keys if decisions[key][0] and key in raises]
            multiple = "the cap" if 2 in kinds else "1×"
            text = (
                f"{size}-card flush: raise {multiple} with {flush_name(always_raise[0])} or "
                f"better, fold with {flush_name(always_fold[-1])} or worse"
            )
            if mixed:
                text += (
                    f"; from {flush_name(mixed[0])} to {flush_name(mixed[-1])} raise or fold as "
                    "the other four cards make it worth (card removal: each hand decided on its "
                    "own exact expectation)"
                )
            parts.append(text)
    frequency = Fraction(raised, HANDS)
    summary = (
        "optimal play of each hand: the best of fold, raise 1× and raise the R8 cap, by its "
        "exact expectation given all 7 of its cards. " + "; ".join(parts) + ". A spot raises "
        f"{format_figure(frequency * 100, 4)}% of hands."
    )
    return summary, frequency


def parse_output(text: str) -> tuple[dict[str, int], dict[int, list[int]]]:
    sums: dict[str, int] = {}
    decisions: dict[int, list[int]] = {}
    for line in text.splitlines():
        kind, name, *values = line.split()
        if kind == "SUM":
            sums[name] = int(values[0])
        else:
            decisions[int(name)] = [int(v) for v in values]
    return sums, decisions


def write_results(result: dict[str, object]) -> None:
    RESULT.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")

    def text(name: str, value: str) -> str:
        chunks = textwrap.wrap(value, 88, drop_whitespace=False)
        literals = "".join(f"    {json.dumps(chunk, ensure_ascii=False)}\n" for chunk in chunks)
        return f"{name} = (\n{literals})\n"

    edge, variance = result["house_edge_fraction"], result["variance_fraction"]
    assert isinstance(edge, list) and isinstance(variance, list)
    how = (
        f"Produced by ``python -m bench.ante_raise_edge`` on {result['run_on']} in "
        f"{result['seconds']} s ({result['helper']}). Method: {result['method']}."
    )
    DATA_MODULE.write_text(
        '"""R8/R9: the ante and raise under the optimal strategy, computed offline.\n\n'
        + textwrap.fill(how, 96)
        + "\n\nDo not edit: rerun the script, which rewrites this module and "
        'bench/ante_raise_edge.json\n(a test checks that the two agree).\n"""\n\n'
        f'HOUSE_EDGE = "{result["house_edge"]}"\n'
        f"HOUSE_EDGE_NUMERATOR = {edge[0]}\n"
        f"HOUSE_EDGE_DENOMINATOR = {edge[1]}\n"
        f'VARIANCE = "{result["variance"]}"\n'
        f"VARIANCE_NUMERATOR = {variance[0]}\n"
        f"VARIANCE_DENOMINATOR = {variance[1]}\n"
        + text("STRATEGY", str(result["strategy"]))
        + text("METHOD", str(result["method"]))
        + f'RUN_ON = "{result["run_on"]}"\n'
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--python", action="store_true", help="count in pure Python (no C compiler needed)"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the result, write neither file"
    )
    args = parser.parse_args()
    started = time.perf_counter()

    def progress(message: str) -> None:
        print(f"[{time.perf_counter() - started:7.1f} s] {message}", file=sys.stderr, flush=True)

    # The helper relies on R2's key being ``size << 13 | ranks``.
    if any(key != (ranks.bit_count() << 13 | ranks) for ranks, key in enumerate(FLUSH_KEYS)):
        raise SystemExit("FLUSH_KEYS is no longer size << 13 | ranks: update the C helper")
    helper, output, checks = count_every_deal(args.python, progress)
    sums, decisions = parse_output(output)
    check_identities(sums)
    progress("identities hold: C(52, 7) hands, non-qualifying dealers, below = above")
    result = figures(sums, decisions, checks, helper, round(time.perf_counter() - started, 1))
    if not args.dry_run:
        write_results(result)
        progress(
            f"wrote {RESULT.relative_to(HERE.parent)} and {DATA_MODULE.relative_to(HERE.parent)}"
        )
    progress(f"house edge {result['house_edge']} per ante")
    print(json.dumps(result, indent=2, ensure_ascii=False))


def count_every_deal(
    in_python: bool, progress: Callable[[str], None]
) -> tuple[str, str, dict[str, object]]:
    """The helper's name, its output (every spot hand's counts) and the checks it passed."""
    if in_python:
        return "pure Python", enumerate_in_python(progress), {}
    helper = "a C helper, bench/ante_raise_edge.c, compiled with gcc -O2"
    with tempfile.TemporaryDirectory() as directory:
        binary = compile_helper(Path(directory))
        checks = check_helper(binary, progress)
        progress("enumerating every spot hand")
        run = subprocess.run([str(binary), "all"], capture_output=True, text=True, check=True)
        return helper, run.stdout, checks


def figures(
    sums: dict[str, int],
    decisions: dict[int, list[int]],
    checks: dict[str, object],
    helper: str,
    seconds: float,
) -> dict[str, object]:
    """The result written to bench/ante_raise_edge.json and engine/ante_raise_edge.py."""
    mean = Fraction(sums["ev"], DEALS)
    variance = Fraction(sums["square"], DEALS) - mean * mean
    edge = -mean
    strategy, frequency = describe_strategy(decisions)
    method = (
        "exact enumeration: every spot hand (all C(52,7) = 133,784,560, enumerated once per "
        "suit pattern and weighted by its suit relabellings) against every dealer hand of the "
        "other 45 cards (C(45,7) = 45,379,620, counted per suit, not dealt), the best play "
        "taken hand by hand; run offline by python -m bench.ante_raise_edge, kept in "
        "engine/ante_raise_edge.py"
    )
    return {
        "house_edge": format_figure(edge),
        "house_edge_fraction": [edge.numerator, edge.denominator],
        "variance": format_figure(variance),
        "variance_fraction": [variance.numerator, variance.denominator],
        "raise_frequency": format_figure(frequency),
        "strategy": strategy,
        "method": method,
        "deals": DEALS,
        "sums": sums,
        "checks": checks,
        "helper": helper,
        "run_on": datetime.date.today().isoformat(),
        "seconds": seconds,
    }


if __name__ == "__main__":
    main()
