"""``manage.py game_math`` against game-math.md: one table in, its figures out; refusals."""

import io
import json
import subprocess
import sys
import time
from pathlib import Path

from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]

# game-math.md's example: the Flush Bonus paytable proposed for a new house-banked table.
HOUSE_TABLE = {"banking": "house", "flush_paytable": {"4": 1, "5": 10, "6": 100, "7": 300}}
SPEC_EXAMPLE = {
    "flush_bonus": {
        "mode": "paytable",
        "return": "0.921928",
        "house_edge": "0.078072",
        "hit_frequency": "0.225936",
        "method": "exact",
    },
    "straight_flush_bonus": {
        "mode": "paytable",
        "return": "0.926115",
        "house_edge": "0.073885",
        "hit_frequency": "0.069969",
        "method": "exact",
    },
}


def run_command(text: str, *args: str) -> tuple[list[dict], int]:
    out = io.StringIO()
    try:
        call_command("game_math", *args, stdin=io.StringIO(text), stdout=out)
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    return [json.loads(line) for line in out.getvalue().splitlines()], status


def test_it_prints_the_spec_example_for_a_house_table_r10():
    results, status = run_command(json.dumps(HOUSE_TABLE, indent=2))
    assert status == 0 and len(results) == 1
    figures = results[0]
    assert {k: figures[k] for k in SPEC_EXAMPLE} == SPEC_EXAMPLE
    ante = figures["ante_raise"]
    assert set(ante) == {"house_edge", "strategy", "method"}
    assert ante["house_edge"].startswith("0.026")  # R8/R9: per ante, optimal strategy
    assert "bench.ante_raise_edge" in ante["method"]


def test_a_designated_player_table_gets_versus_dp_figures_with_the_strategy_assumed_r10():
    results, status = run_command("{}")
    assert status == 0
    for wager in ("flush_bonus", "straight_flush_bonus"):
        figures = results[0][wager]
        assert figures["mode"] == "versus_dp"
        assert figures["method"] == "exact"
        assert "raises whenever its hand reaches a paid line" in figures["strategy"]
    assert results[0]["flush_bonus"]["return"] == "0.927577"
    assert results[0]["straight_flush_bonus"]["return"] == "0.900399"


def test_jsonl_answers_each_line_in_its_place_and_a_refusal_exits_2():
    lines = [
        json.dumps(HOUSE_TABLE),
        json.dumps({"flush_paytable": {"4": 2, "9": 10}}),
        "",
        json.dumps({"banking": "designated_player", "bonus_mode": "paytable"}),
    ]
    results, status = run_command("\n".join(lines) + "\n", "--jsonl")
    assert status == 2
    assert [("error" in r) for r in results] == [False, True, False]
    assert results[0]["flush_bonus"] == SPEC_EXAMPLE["flush_bonus"]
    assert results[1] == {
        "error": {
            "message": "A paytable line is for a flush size from 2 to 7 (R10).",
            "field": "table.flush_paytable.9",
        }
    }
    assert results[2]["flush_bonus"]["return"] == "1.012121"  # the contract's 4:2 … 7:200


def test_jsonl_exits_0_when_every_table_was_answered():
    text = "\n".join(json.dumps(t) for t in ({}, HOUSE_TABLE, {"banking": "house"}))
    results, status = run_command(text, "--jsonl")
    assert status == 0 and len(results) == 3


def test_a_bad_table_is_refused_like_settle_round_refuses():
    results, status = run_command(json.dumps({"flush_paytable": {"4": 2.5}}))
    assert status == 2
    assert results == [
        {
            "error": {
                "message": "Paytable odds are a whole number N, read as N to 1 (R10).",
                "field": "table.flush_paytable.4",
            }
        }
    ]
    results, status = run_command(json.dumps({"flush_paytable": "4:2"}))
    assert status == 2 and results[0]["error"]["field"] == "table.flush_paytable"


def test_malformed_json_is_refused_without_a_field():
    results, status = run_command("{not json", "--jsonl")
    assert status == 2
    assert results[0]["error"]["field"] is None
    assert "not valid JSON" in results[0]["error"]["message"]


def test_a_paytable_table_is_answered_well_under_a_second():
    started = time.perf_counter()
    results, status = run_command(json.dumps({"banking": "house", "flush_paytable": {"5": 17}}))
    assert status == 0 and "error" not in results[0]
    assert time.perf_counter() - started < 0.5


def test_the_process_prints_only_json_and_exits_with_the_contract_status():
    ok = subprocess.run(
        [sys.executable, "manage.py", "game_math"],
        input=json.dumps(HOUSE_TABLE),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["flush_bonus"] == SPEC_EXAMPLE["flush_bonus"]

    refused = subprocess.run(
        [sys.executable, "manage.py", "game_math", "--jsonl"],
        input='{}\n{"seats": 9}\n',
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert refused.returncode == 2
    lines = [json.loads(line) for line in refused.stdout.splitlines()]
    assert "error" not in lines[0]
    assert lines[1]["error"]["field"] == "table.seats"
