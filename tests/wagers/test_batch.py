"""A hand's wagers and decisions in one call (issue 16): the rules of the single services,
spot by spot, in one transaction — every spot or none, a refusal naming ``spots[i].<field>``."""

from __future__ import annotations

import pytest

from cardroom.kernel.errors import Conflict, DomainError
from wagers import services
from wagers.models import Hand

from .support import SEVEN_HANDS, seating_at, stacks

pytestmark = pytest.mark.django_db

SEATS = (1, 2, 3, 4, 5, 6)


@pytest.fixture
def table6(make_table, seat):
    table = make_table("Six", banking="house")
    for number in SEATS:
        seat(table, number)
    return table


def _wagers(table, **per_seat):
    return [
        {
            "seating": seating_at(table, n).pk,
            "ante": "10",
            "flush_bonus": "5",
            **per_seat.get(n, {}),
        }
        for n in SEATS
    ]


def test_six_wagers_placed_at_once_move_six_stacks(table6, dealer):
    hand = services.hand_start(table=table6, by=dealer)
    before = stacks(table6)

    spots = services.wagers_place_many(hand=hand, wagers=_wagers(table6), by=dealer)

    assert [spot.seat for spot in spots] == list(SEATS)
    after = stacks(table6)
    assert all(before[n] - after[n] == 15 for n in SEATS)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.WAGERING


def test_one_refused_wager_places_none_and_names_its_spot(table6, dealer, refusal):
    hand = services.hand_start(table=table6, by=dealer)
    wagers = _wagers(table6)
    wagers[4]["ante"] = "1"  # under the table's minimum ante (R5)

    with refusal(DomainError, field="spots[4].ante", says="ante"):
        services.wagers_place_many(hand=hand, wagers=wagers, by=dealer)


def test_two_wagers_on_one_seat_are_refused_as_the_single_service_refuses(table6, dealer, refusal):
    hand = services.hand_start(table=table6, by=dealer)
    wagers = _wagers(table6)
    wagers[5] = dict(wagers[0])  # seat 1 again

    with refusal(Conflict, field="spots[5].seat", says="has a spot"):
        services.wagers_place_many(hand=hand, wagers=wagers, by=dealer)


def test_six_decisions_recorded_at_once(table6, dealer):
    hand = services.hand_start(table=table6, by=dealer)
    services.wagers_place_many(hand=hand, wagers=_wagers(table6), by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=SEVEN_HANDS[0],
        spot_cards={n: SEVEN_HANDS[n] for n in SEATS},
        by=dealer,
    )
    decisions = [{"seat": n, "decision": "raise", "raise_amount": "10"} for n in (1, 3, 4, 5)]
    decisions += [{"seat": 2, "decision": "fold"}, {"seat": 6, "decision": "walked_away"}]

    spots = services.decisions_record_many(hand=hand, decisions=decisions, by=dealer)

    assert {s.seat: s.decision for s in spots} == {
        1: "raise",
        3: "raise",
        4: "raise",
        5: "raise",
        2: "fold",
        6: "walked_away",
    }
    settlement = services.hand_settle(hand=hand, by=dealer)
    assert settlement.spots.count() == 6


def test_one_refused_decision_records_none(table6, dealer, refusal):
    hand = services.hand_start(table=table6, by=dealer)
    services.wagers_place_many(hand=hand, wagers=_wagers(table6), by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=SEVEN_HANDS[0],
        spot_cards={n: SEVEN_HANDS[n] for n in SEATS},
        by=dealer,
    )
    decisions = [{"seat": n, "decision": "fold"} for n in SEATS]
    decisions[3] = {"seat": 4, "decision": "raise", "raise_amount": "10000"}  # over the cap (R8)

    with refusal(DomainError, field="spots[3].raise_amount", says="aise"):
        services.decisions_record_many(hand=hand, decisions=decisions, by=dealer)
