"""R8: a settlement entry's decisions are valued once, after it commits: the task is
idempotent, a correction is valued afresh (a reversal has nothing to value), and beat's
sweep values what a lost message left."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.compliance.test_hold import play
from tests.wagers.support import DEALER_K94, FOUR_HEARTS_AT62, THREE_DIAMONDS_Q85
from wagers.decision_costs import decision_costs_record, decision_costs_sweep
from wagers.models import DecisionCost, Settlement
from wagers.tasks import value_decisions_task

pytestmark = pytest.mark.django_db


def a_hand(table, dealer):
    return play(
        table,
        dealer,
        DEALER_K94,
        [(1, "10", {}, FOUR_HEARTS_AT62, "10"), (2, "10", {}, THREE_DIAMONDS_Q85, None)],
    )


def test_the_task_values_an_entry_once_however_often_it_is_delivered(
    house_table, house_players, dealer, clock
):
    clock.advance(minutes=5)
    settlement = Settlement.objects.get(hand=a_hand(house_table, dealer))
    assert not DecisionCost.objects.exists()  # nothing inside the settlement's transaction
    assert value_decisions_task.delay(settlement.pk).get() == {
        "settlement": settlement.pk,
        "rows": 2,
    }
    assert decision_costs_record(settlement_id=settlement.pk) == 0
    assert DecisionCost.objects.filter(settlement=settlement).count() == 2


def test_the_sweep_values_the_entries_a_lost_message_left_and_then_nothing(
    house_table, house_players, dealer, clock
):
    clock.advance(minutes=5)
    first = Settlement.objects.get(hand=a_hand(house_table, dealer))
    clock.advance(minutes=5)
    second = Settlement.objects.get(hand=a_hand(house_table, dealer))
    assert decision_costs_sweep() == [first.pk, second.pk]
    assert decision_costs_sweep() == []
    assert DecisionCost.objects.count() == 4


def test_a_correction_is_valued_afresh_and_the_rating_counts_the_entry_in_force(
    house_table, house_players, dealer, supervisor, clock, django_capture_on_commit_callbacks
):
    from compliance.ratings import session_rating
    from wagers import services

    clock.advance(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        hand = a_hand(house_table, dealer)
    original = Settlement.objects.get(hand=hand)
    # Seat 2's cards were misread: it held four hearts, and folding them gave much up.
    with django_capture_on_commit_callbacks(execute=True):
        correction = services.hand_correct(
            hand=hand,
            corrects=original.pk,
            by=supervisor,
            reason="Seat 2's cards were misread.",
            spot_cards={2: FOUR_HEARTS_AT62.replace("Ah", "Kh"), 1: THREE_DIAMONDS_Q85},
        )
    assert DecisionCost.objects.filter(settlement=original).count() == 2
    assert DecisionCost.objects.filter(settlement__kind="reversal").count() == 0
    fresh = DecisionCost.objects.get(settlement=correction, seat=2)
    assert fresh.cost > 0 and fresh.best_play == "raise 1×"
    rating = session_rating(house_players[2])
    assert (rating.decisions, rating.decisions_valued) == (1, 1)
    assert rating.decision_cost * 100 == Fraction(fresh.cost, fresh.dealer_hands)  # cents
