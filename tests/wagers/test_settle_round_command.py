"""``manage.py settle_round`` against the worked examples of docs/spec (settle-json.md)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "spec" / "examples"


def run_command(text: str, *args: str) -> tuple[list[dict], int]:
    out = io.StringIO()
    try:
        call_command("settle_round", *args, stdin=io.StringIO(text), stdout=out)
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    return [json.loads(line) for line in out.getvalue().splitlines()], status


def test_jsonl_reproduces_the_worked_examples_byte_for_byte():
    out = io.StringIO()
    with (EXAMPLES / "rounds.jsonl").open() as rounds:
        call_command("settle_round", "--jsonl", stdin=rounds, stdout=out)
    assert out.getvalue() == (EXAMPLES / "results.jsonl").read_text()


@pytest.mark.parametrize(
    "case",
    [json.loads(line) for line in (EXAMPLES / "refusals.jsonl").read_text().splitlines()],
    ids=lambda case: case["field"],
)
def test_each_documented_refusal_names_its_field_and_exits_2(case):
    results, status = run_command(json.dumps(case["round"]))
    assert status == 2
    assert results == [
        {"error": {"message": results[0]["error"]["message"], "field": case["field"]}}
    ]
    assert len(results[0]["error"]["message"]) > 20  # a sentence a dealer can act on


def test_one_object_in_one_object_out():
    round_ = (EXAMPLES / "rounds.jsonl").read_text().splitlines()[0]
    expected = json.loads((EXAMPLES / "results.jsonl").read_text().splitlines()[0])
    results, status = run_command(json.dumps(json.loads(round_), indent=2))
    assert (results, status) == ([expected], 0)


def test_a_refused_line_in_jsonl_keeps_its_place_and_the_others_settle():
    rounds = (EXAMPLES / "rounds.jsonl").read_text().splitlines()[:2]
    refusal = json.loads((EXAMPLES / "refusals.jsonl").read_text().splitlines()[0])
    text = "\n".join([rounds[0], json.dumps(refusal["round"]), rounds[1], ""])
    results, status = run_command(text, "--jsonl")
    assert status == 2
    assert [("error" in r) for r in results] == [False, True, False]
    assert results[1]["error"]["field"] == refusal["field"]


def test_malformed_json_is_refused_without_a_field():
    results, status = run_command("{not json", "--jsonl")
    assert status == 2
    assert results[0]["error"]["field"] is None
    assert "not valid JSON" in results[0]["error"]["message"]


def test_a_json_float_amount_is_refused_at_its_path():
    round_ = json.loads((EXAMPLES / "rounds.jsonl").read_text().splitlines()[0])
    round_["spots"][0]["ante"] = 41.0
    results, status = run_command(json.dumps(round_))
    assert status == 2
    assert results[0]["error"]["field"] == "spots[0].ante"
    assert "float" in results[0]["error"]["message"]


def test_the_process_prints_only_json_and_exits_with_the_contract_status():
    rounds = (EXAMPLES / "rounds.jsonl").read_text()
    ok = subprocess.run(
        [sys.executable, "manage.py", "settle_round", "--jsonl"],
        input=rounds,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout == (EXAMPLES / "results.jsonl").read_text()

    refused = subprocess.run(
        [sys.executable, "manage.py", "settle_round"],
        input='{"dealer": {}, "spots": []',
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert refused.returncode == 2
    assert "error" in json.loads(refused.stdout)
