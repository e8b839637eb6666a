"""A hand's wagers and decisions in one call: the rules of the single services,
spot by spot, in one transaction — every spot or none, a refusal naming ``spots[i].<field>``."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError
from wagers import selectors, services
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


def test_a_wager_may_name_only_its_seat(table6, dealer):
    hand = services.hand_start(table=table6, by=dealer)

    spots = services.wagers_place_many(
        hand=hand, wagers=[{"seat": n, "ante": "10"} for n in (2, 4)], by=dealer
    )

    assert [(s.seat, s.seating_id) for s in spots] == [
        (2, seating_at(table6, 2).pk),
        (4, seating_at(table6, 4).pk),
    ]


def test_a_seat_nobody_sits_at_is_refused_by_name(make_table, seat, dealer, refusal):
    table = make_table("Sparse", banking="house")
    seat(table, 1)
    hand = services.hand_start(table=table, by=dealer)

    with refusal(DomainError, field="spots[1].seat", says="Nobody sits"):
        services.wagers_place_many(
            hand=hand, wagers=[{"seat": 1, "ante": "10"}, {"seat": 5, "ante": "10"}], by=dealer
        )


# --- the dealer's "Settle" with the decisions (one service call from the screen) ----------------


def _dealt(table, dealer) -> Hand:
    hand = services.hand_start(table=table, by=dealer)
    services.wagers_place_many(hand=hand, wagers=_wagers(table), by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=SEVEN_HANDS[0],
        spot_cards={n: SEVEN_HANDS[n] for n in SEATS},
        by=dealer,
    )
    return hand


def _last_seq() -> int:
    return AuditEvent.objects.order_by("-seq").values_list("seq", flat=True).first() or 0


def _actions_since(seq: int) -> list[str]:
    events = AuditEvent.objects.filter(seq__gt=seq).order_by("seq")
    return list(events.values_list("action", flat=True))


def test_decisions_and_settlement_in_one_call_audit_as_the_two_calls(table6, dealer):
    hand = _dealt(table6, dealer)
    before = _last_seq()
    decisions = [{"seat": n, "decision": "fold"} for n in SEATS[1:]]
    decisions.append({"seat": 1, "decision": "raise", "raise_amount": "10"})

    settlement = services.hand_decide_and_settle(hand=hand, decisions=decisions, by=dealer)

    hand.refresh_from_db()
    assert hand.status == Hand.Status.SETTLED
    assert settlement == selectors.settlement_in_force(hand)
    assert {s.seat: s.decision for s in hand.spots.all()} == {1: "raise"} | {
        n: "fold" for n in SEATS[1:]
    }
    assert _actions_since(before) == ["hand.decision", "hand.settled"]


def test_with_every_spot_decided_the_one_call_only_settles(table6, dealer):
    hand = _dealt(table6, dealer)
    services.decisions_record_many(
        hand=hand, decisions=[{"seat": n, "decision": "fold"} for n in SEATS], by=dealer
    )
    before = _last_seq()

    services.hand_decide_and_settle(hand=hand, decisions=[], by=dealer)

    assert _actions_since(before) == ["hand.settled"]


def test_a_settlement_refused_after_the_decisions_records_none_of_them(table6, dealer, refusal):
    """One transaction: seat 6 has neither folded nor raised (R8), so the hand cannot settle,
    and the decisions of seats 1–5 made in the same call are not kept either."""
    hand = _dealt(table6, dealer)
    decisions = [{"seat": n, "decision": "fold"} for n in SEATS[:-1]]

    with refusal(Conflict, field="status", says="waiting for the decision of seat 6"):
        services.hand_decide_and_settle(hand=hand, decisions=decisions, by=dealer)

    assert not hand.spots.exclude(decision="").exists()
