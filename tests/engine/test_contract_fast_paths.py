"""settle_round --jsonl's fast paths give exactly what the general code gives.

The contract writes its JSON text directly, reads common spots and hands in one pass, and
remembers tables; each is held here to the general path it stands in for, on random rounds
and on values picked to fall off the fast path.
"""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    RoundError,
    round_from_json,
    settle,
    settle_json,
    settle_json_text,
    settlement_to_json,
    settlement_to_json_text,
    table_from_json,
)
from engine.cards import parse_hand, plain_hand
from engine.contract import _plain_spot, _spot

from .strategies import rounds

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "spec" / "examples"

# Values a spot's keys might hold: each sends the spot off the fast path, or is read there to
# the same value the general path reads.
ODD_VALUES = [
    None,
    True,
    False,
    0,
    3,
    10.0,
    "",
    " ",
    "10",
    "10.5",
    "10.555",
    "-1",
    "٥",
    [],
    {},
    ["As", "Kd"],
    "raise",
    "fold",
    "walked_away",
    "wrong_card_count",
    "dealer_funds",
    "As Ks Qs Js Ts 9s 8s",
    "as ks qs js ts 9s 8s",
    "As,Ks,Qs,Js,Ts,9s,8s",
    "As As Qs Js Ts 9s 8s",
    "10s Ks Qs Js 9s 8s 7s",
    "As Ks",
    "Zz",
    "p1",
]
SPOT_KEYS = ["seat", "player", "ante", "flush_bonus", "straight_flush_bonus", "cards"]
SPOT_KEYS += ["decision", "raise", "dead", "unknown"]


def read_spot(reader, data):
    try:
        return reader(data)
    except RoundError as error:
        return error.as_dict()


@settings(max_examples=300)
@given(rounds())
def test_the_text_written_directly_is_json_dumps_of_the_settlement(round_):
    settlement = settle(round_from_json(round_))
    assert settlement_to_json_text(settlement) == json.dumps(settlement_to_json(settlement))
    assert settle_json_text(round_) == (json.dumps(settle_json(round_)), False)


def test_a_refusal_as_text_is_json_dumps_of_the_refusal():
    for line in (EXAMPLES / "refusals.jsonl").read_text().splitlines():
        round_ = json.loads(line)["round"]
        assert settle_json_text(round_) == (json.dumps(settle_json(round_)), True)


def test_the_worked_examples_as_text():
    rounds_ = (EXAMPLES / "rounds.jsonl").read_text().splitlines()
    results = (EXAMPLES / "results.jsonl").read_text().splitlines()
    assert [settle_json_text(json.loads(line)) for line in rounds_] == [
        (result, False) for result in results
    ]


@settings(max_examples=300)
@given(rounds(), st.data())
def test_a_spot_read_in_one_pass_is_the_spot_the_general_path_reads(round_, data):
    for spot in round_["spots"]:
        # The general path first: it makes the spot's amount texts known to the fast path,
        # which then takes every spot of a legal round written the usual way.
        general = _spot(spot, "spots[0]")
        assert _plain_spot(spot) == general
        odd = dict(spot)
        odd[data.draw(st.sampled_from(SPOT_KEYS))] = data.draw(st.sampled_from(ODD_VALUES))
        general = read_spot(lambda d: _spot(d, "spots[0]"), odd)
        fast = _plain_spot(odd)
        assert fast is None or fast == general


def test_the_fast_path_takes_the_common_spot_and_leaves_the_rest():
    spot = {"seat": 2, "ante": "10", "cards": "Ah Th 6h 2h Jd 5c 9c", "decision": "fold"}
    _spot(spot, "spots[0]")  # "10" is now a known amount text
    assert _plain_spot(spot) == _spot(spot, "spots[0]")
    for key, value in [("seat", True), ("ante", 10.0), ("decision", "folded"), ("x", 1)]:
        assert _plain_spot({**spot, key: value}) is None


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("As Td 9h 8c 7d 3s 2h", True),
        ("10d As", True),
        ("As  Td\t9h", True),
        ("", True),
        ("as td", False),  # another letter case: parse_hand reads it
        ("As,Td", False),  # commas: parse_hand reads it
        ("As As", False),  # a card twice: parse_hand refuses it
        ("As Zz", False),  # not a card: parse_hand refuses it
    ],
)
def test_a_plain_hand_is_the_hand_parse_hand_reads_and_the_rest_is_left_to_it(text, plain):
    hand = plain_hand(text)
    assert (hand is not None) == plain
    if plain:
        assert hand == parse_hand(text, field="f")


def test_a_table_read_before_is_the_same_table_and_a_value_of_another_type_is_not():
    table = {"rake_amount": "1", "seats": 6, "flush_paytable": {"4": 3, "5": 10}}
    assert table_from_json(table) == table_from_json(json.loads(json.dumps(table)))
    # 1 == True and {"4": 3} == {"4": 3.0} in Python, not in the contract.
    table_from_json({"seats": 1})
    with pytest.raises(RoundError) as refused:
        table_from_json({"seats": True})
    assert refused.value.field == "table.seats"
    table_from_json({"flush_paytable": {"4": 3}})
    with pytest.raises(RoundError) as refused:
        table_from_json({"flush_paytable": {"4": 3.0}})
    assert refused.value.field == "table.flush_paytable.4"


def test_a_table_with_a_value_that_cannot_be_remembered_is_read_all_the_same():
    with pytest.raises(RoundError) as refused:
        table_from_json({"seats": [7]})
    assert refused.value.field == "table.seats"
