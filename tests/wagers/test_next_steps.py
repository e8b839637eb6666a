"""A hand's next steps (``hand_next_steps``) are what its services take: in every state of the
hand, each step's service is tried (and rolled back), and it is taken exactly when the step is
offered. Taken means the service answered and wrote its audit event: settling a settled hand
again only answers with the settlement in force."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import transaction

from audit.models import AuditEvent
from core.errors import DomainError
from wagers import services
from wagers.models import Hand
from wagers.services.lifecycle import STEP_MOVES, TRANSITIONS, Step

from .support import DEALER_K94, FOUR_CLUBS_KQJ4, FOUR_HEARTS_AT62, seating_at, start, wager

pytestmark = pytest.mark.django_db

S = Hand.Status


def _played(table, dealer, state: str) -> Hand:
    """A hand played up to ``state``: wagers at seats 1 and 2 once past ``open``."""
    hand = start(table, dealer, dp=4 if table.banking == "designated_player" else None)
    if state == "open":
        return hand
    wager(hand, table, 1, "10", by=dealer)
    wager(hand, table, 2, "20", by=dealer)
    if state == "wagering, every spot dead":
        services.spot_declare_dead(hand=hand, seat=1, by=dealer)
        services.spot_declare_dead(hand=hand, seat=2, by=dealer)
    if state in ("wagering", "wagering, every spot dead"):
        return hand
    if state == "misdealt":
        services.hand_declare_misdeal(hand=hand, reason="shuffler_fault", by=dealer)
        return hand
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_K94,
        spot_cards={1: FOUR_HEARTS_AT62, 2: FOUR_CLUBS_KQJ4},
        by=dealer,
    )
    if state == "dealt":
        return hand
    services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)
    if state == "decisions, one to come":
        return hand
    services.spot_decide(hand=hand, seat=2, decision="fold", by=dealer)
    if state == "settled":
        services.hand_settle(hand=hand, by=dealer)
    return hand


def _services(table, hand: Hand, dealer) -> dict[Step, Callable[[], Any]]:
    """Each step's service, called as the screens call it, with arguments it would accept."""
    undecided = [
        s.seat for s in hand.spots.order_by("seat") if not s.dead_reason and not s.decision
    ]
    seat = undecided[0] if undecided else 1
    free = 5 if table.banking == "designated_player" else 3  # seated, no spot, not the DP
    return {
        Step.BANK: lambda: services.hand_dp_bank_set(
            hand=hand, dp_bank=hand.dp_bank or "0", by=dealer
        ),
        Step.WAGER: lambda: services.wager_place(
            hand=hand, seating=seating_at(table, free), ante="10", by=dealer
        ),
        Step.DEAL: lambda: services.hand_deal(hand=hand, by=dealer),
        Step.DECIDE: lambda: services.spot_decide(hand=hand, seat=seat, decision="fold", by=dealer),
        Step.SETTLE: lambda: services.hand_settle(hand=hand, by=dealer),
        Step.DEAD_SPOT: lambda: services.spot_declare_dead(hand=hand, seat=seat, by=dealer),
        Step.MISDEAL: lambda: services.hand_declare_misdeal(
            hand=hand, reason="shuffler_fault", by=dealer
        ),
        Step.CANCEL: lambda: services.hand_cancel(hand=hand, by=dealer),
    }


def _taken(call: Callable[[], Any]) -> bool:
    """Whether the service takes the step (answers and writes its audit event); rolled back."""
    before = AuditEvent.objects.count()
    with transaction.atomic():
        try:
            call()
            taken = AuditEvent.objects.count() > before
        except DomainError:
            taken = False
        transaction.set_rollback(True)
    return taken


STATES = {
    "open": S.OPEN,
    "wagering": S.WAGERING,
    "wagering, every spot dead": S.WAGERING,
    "dealt": S.DEALT,
    "decisions, one to come": S.DECISIONS,
    "decisions, all made": S.DECISIONS,
    "settled": S.SETTLED,
    "misdealt": S.DEAD,
    "cancelled": S.DEAD,
}


@pytest.mark.parametrize("banking", ["designated_player", "house"])
@pytest.mark.parametrize("state", list(STATES))
def test_every_state_offers_exactly_the_steps_its_services_take(
    state, banking, dp_table, house_table, dp_players, house_players, dealer
):
    table = dp_table if banking == "designated_player" else house_table
    if state == "cancelled":
        hand = start(table, dealer, dp=4 if banking == "designated_player" else None)
        services.hand_cancel(hand=hand, by=dealer)
    else:
        hand = _played(table, dealer, state)
    hand.refresh_from_db()
    assert hand.status == STATES[state]

    offered = services.hand_next_steps(hand)
    taken = {step for step, call in _services(table, hand, dealer).items() if _taken(call)}

    assert offered == taken
    assert services.hand_next_steps(hand, list(hand.spots.all())) == offered


def test_the_steps_that_move_a_hand_follow_the_one_transition_table():
    """A step that changes the status is offered only from the statuses TRANSITIONS moves from
    to its status; a settled or dead hand offers nothing."""
    for status in S:
        hand = Hand(status=status)
        steps = services.hand_next_steps(hand, [])
        for step in steps:
            to = STEP_MOVES[step]
            assert to is None or to in TRANSITIONS[status]
        if status not in Hand.IN_PROGRESS:
            assert steps == frozenset()


def test_the_dp_bank_step_is_offered_on_a_designated_player_table_only(
    dp_table, house_table, dp_players, house_players, dealer
):
    assert Step.BANK in services.hand_next_steps(start(dp_table, dealer, dp=4))
    assert Step.BANK not in services.hand_next_steps(start(house_table, dealer))
