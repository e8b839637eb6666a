"""R14: dead hands take no action — a spot dealt a wrong number of cards, a spot the DP cannot
cover (R13), every hand of a misdealt round. Their wagers come back and they pay no fee; a
misdeal also gives the DP back its whole bank, fee included (R12)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError
from rake.models import FeeEntry
from tables.models import StackEntry
from wagers import services
from wagers.models import Hand

from .books import assert_booked
from .support import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_DIAMONDS_AK92,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    Books,
    stacks,
    start,
    wager,
)

pytestmark = pytest.mark.django_db

D = Decimal


def lines(settlement) -> dict[int, tuple]:
    return {
        row.seat: (row.status, row.dead_reason, row.rake, row.net, row.paid_back)
        for row in settlement.spots.all()
    }


def outcomes(settlement, seat: int) -> list[tuple[str, str, Decimal]]:
    return [(w.wager, w.outcome, w.net) for w in settlement.spots.get(seat=seat).wagers.all()]


# --- a wrong card count to a spot ------------------------------------------------------------


def test_r14_a_spot_dealt_a_wrong_count_gets_its_wagers_back_and_pays_no_fee(
    dp_table, dp_players, dealer
):
    before = stacks(dp_table)
    hand = start(dp_table, dealer, dp=4)
    wager(hand, dp_table, 1, "10", flush_bonus="5", straight_flush_bonus="3", by=dealer)
    wager(hand, dp_table, 2, "5", by=dealer)
    spot = services.spot_declare_dead(hand=hand, seat=1, by=dealer)
    assert spot.dead_reason == "wrong_card_count"
    # The dead spot takes no cards: the dealer enters the others'.
    services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_K94, spot_cards={2: FOUR_HEARTS_AT62}, by=dealer
    )
    error = pytest.raises(
        DomainError, services.spot_decide, hand=hand, seat=1, decision="fold", by=dealer
    ).value
    assert (type(error), error.field) == (Conflict, "seat")
    services.spot_decide(hand=hand, seat=2, decision="raise", raise_amount="5", by=dealer)
    settlement = services.hand_settle(hand=hand, by=dealer)

    assert lines(settlement)[1] == ("dead", "wrong_card_count", D(0), D(0), D(18))
    assert outcomes(settlement, 1) == [
        ("ante", "returned", D(0)),
        ("flush_bonus", "returned", D(0)),
        ("straight_flush_bonus", "returned", D(0)),
    ]
    assert stacks(dp_table)[1] == before[1]
    assert sorted(FeeEntry.objects.filter(booking__hand=hand).values_list("seat", "payer")) == [
        (2, "spot"),
        (4, "designated_player"),
    ]
    assert_booked(hand, dp_table, before)
    assert AuditEvent.objects.filter(action="hand.spot_dead", object_id=str(hand.pk)).exists()


def test_r14_a_wrong_count_after_a_system_deal_kills_the_spot_before_it_acts(
    house_table, house_players, dealer, refusal
):
    before = stacks(house_table)
    hand = start(house_table, dealer)
    wager(hand, house_table, 1, "10", by=dealer)
    wager(hand, house_table, 2, "10", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    services.spot_decide(hand=hand, seat=2, decision="fold", by=dealer)
    before_it_acts = "Seat 2 has acted already: a wrong count is declared before the spot acts"
    with refusal(Conflict, field="seat", says=before_it_acts):
        services.spot_declare_dead(hand=hand, seat=2, by=dealer)
    spot = services.spot_declare_dead(hand=hand, seat=1, by=dealer)
    assert spot.cards == ""  # the miscounted cards are not the spot's hand
    settlement = services.hand_settle(hand=hand, by=dealer)
    assert lines(settlement)[1] == ("dead", "wrong_card_count", D(0), D(0), D(10))
    assert stacks(house_table)[1] == before[1]
    assert_booked(hand, house_table, before)


def test_r12_when_every_spot_is_dead_the_dp_fee_is_returned(dp_table, dp_players, dealer):
    before = stacks(dp_table)
    hand = start(dp_table, dealer, dp=4, bank="200")
    wager(hand, dp_table, 1, "10", by=dealer)
    wager(hand, dp_table, 2, "10", flush_bonus="5", by=dealer)
    for seat in (1, 2):
        services.spot_declare_dead(hand=hand, seat=seat, by=dealer)
    services.hand_cards_enter(hand=hand, dealer_cards=DEALER_K94, spot_cards={}, by=dealer)
    settlement = services.hand_settle(hand=hand, by=dealer)  # dealt → settled: nobody to act
    hand.refresh_from_db()
    assert hand.status == "settled"
    assert (settlement.dealer_net, settlement.house_rake) == (D(0), D(0))
    assert not FeeEntry.objects.filter(booking__hand=hand).exists()
    assert stacks(dp_table) == before
    assert_booked(hand, dp_table, before)


# --- the DP's funds (R13) --------------------------------------------------------------------


def test_r13_a_spot_the_dp_cannot_cover_is_dead_and_gets_its_wagers_back(
    dp_table, dp_players, dealer
):
    """A $12 bank ($11 after the DP's fee). In settlement order 2, 1, 6, 5 (from the DP's
    right): seat 2 wins $20, more than the bank: dead. Seat 1 loses $20 into the bank, which
    then pays seat 6's $20; seat 5's $20 is again more than the $11 left: dead."""
    before = stacks(dp_table)
    hand = start(dp_table, dealer, dp=4, bank="12")
    for seat in (1, 2, 5, 6):
        wager(hand, dp_table, seat, "10", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_K94,
        spot_cards={
            2: FOUR_HEARTS_AT62,
            1: THREE_DIAMONDS_Q85,
            6: FOUR_CLUBS_KQJ4,
            5: FOUR_DIAMONDS_AK92,
        },
        by=dealer,
    )
    for seat in (1, 2, 5, 6):
        services.spot_decide(hand=hand, seat=seat, decision="raise", raise_amount="10", by=dealer)
    settlement = services.hand_settle(hand=hand, by=dealer)

    assert settlement.result["settlement_order"] == [2, 1, 6, 5]
    assert lines(settlement) == {
        1: ("played", "", D(1), D(-21), D(-1)),
        2: ("dead", "dealer_funds", D(0), D(0), D(20)),
        5: ("dead", "dealer_funds", D(0), D(0), D(20)),
        6: ("played", "", D(1), D(19), D(39)),
    }
    assert outcomes(settlement, 2) == [("ante", "returned", D(0)), ("raise", "returned", D(0))]
    after = stacks(dp_table)
    assert (after[2], after[5]) == (before[2], before[5])
    assert after[4] == before[4] - 1  # the DP won 20, paid 20 and its $1 fee
    assert sorted(FeeEntry.objects.filter(booking__hand=hand).values_list("seat", flat=True)) == [
        1,
        4,
        6,
    ]
    assert_booked(hand, dp_table, before)


# --- misdeals --------------------------------------------------------------------------------


def play_to(stage: str, table, dealer) -> Hand:
    """A hand with spots at seats 1 and 2, played up to ``stage``."""
    hand = start(table, dealer, dp=4 if table.banking == "designated_player" else None)
    wager(hand, table, 1, "10", flush_bonus="5", by=dealer)
    wager(hand, table, 2, "20", straight_flush_bonus="5", by=dealer)
    if stage in ("dealt", "decisions"):
        services.hand_cards_enter(
            hand=hand,
            dealer_cards=DEALER_K94,
            spot_cards={1: FOUR_HEARTS_AT62, 2: FOUR_CLUBS_KQJ4},
            by=dealer,
        )
    if stage == "decisions":
        services.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="10", by=dealer)
    return hand


@pytest.mark.parametrize("reason", ["dealer_card_count", "shuffler_fault"])
@pytest.mark.parametrize("stage", ["wagering", "dealt", "decisions"])
def test_r14_a_misdeal_returns_every_wager_and_the_dps_whole_bank_with_its_fee(
    table, dealer, reason, stage
):
    before = stacks(table)
    entries = StackEntry.objects.count()
    hand = play_to(stage, table, dealer)

    settlement = services.hand_declare_misdeal(hand=hand, reason=reason, by=dealer)

    hand.refresh_from_db()
    assert (hand.status, hand.misdeal) == ("dead", reason)
    assert settlement.result["misdeal"] == reason
    assert (settlement.dealer_net, settlement.house_rake) == (D(0), D(0))
    assert {seat: line[:4] for seat, line in lines(settlement).items()} == {
        1: ("dead", "misdeal", D(0), D(0)),
        2: ("dead", "misdeal", D(0), D(0)),
    }
    assert {w.outcome for w in settlement.spots.get(seat=1).wagers.all()} == {"returned"}
    assert stacks(table) == before  # raises and the DP's bank included
    assert not FeeEntry.objects.filter(booking__hand=hand).exists()
    assert StackEntry.objects.count() > entries
    assert AuditEvent.objects.filter(action="hand.misdeal", object_id=str(hand.pk)).exists()


def test_r14_a_misdeal_has_a_reason_of_the_rules(dp_table, dp_players, dealer, refusal):
    hand = play_to("dealt", dp_table, dealer)
    books = Books.now()
    reasons = "A misdeal is dealer_card_count or shuffler_fault (R14)"
    with refusal(DomainError, field="reason", says=reasons):
        services.hand_declare_misdeal(hand=hand, reason="dealer_sneezed", by=dealer)
    assert Books.now() == books
    hand.refresh_from_db()
    assert hand.status == "dealt"


def test_a_misdealt_hand_settles_once_and_the_table_goes_on(dp_table, dp_players, dealer, refusal):
    hand = play_to("dealt", dp_table, dealer)
    first = services.hand_declare_misdeal(hand=hand, reason="shuffler_fault", by=dealer)
    books = Books.now()
    assert services.hand_settle(hand=hand, by=dealer).pk == first.pk
    with refusal(Conflict, field="status", says=f"Hand {hand.number} is dead already"):
        services.hand_declare_misdeal(hand=hand, reason="shuffler_fault", by=dealer)
    assert Books.now() == books
    assert services.hand_start(table=dp_table, by=dealer).number == 2


# --- a hand nobody wagered on ----------------------------------------------------------------


def test_a_hand_without_wagers_is_cancelled_and_the_dps_bank_comes_back(
    dp_table, dp_players, dealer
):
    before = stacks(dp_table)
    hand = start(dp_table, dealer, dp=4)
    assert stacks(dp_table)[4] == 0
    services.hand_cancel(hand=hand, by=dealer)
    hand.refresh_from_db()
    assert hand.status == "dead"
    assert stacks(dp_table) == before
    assert not hand.settlements.exists()
    assert services.hand_start(table=dp_table, by=dealer).number == 2


def test_a_cancelled_hand_is_not_settled(dp_table, dp_players, dealer):
    """It has no settlement to answer with: settling it is refused, not answered with none."""
    hand = start(dp_table, dealer, dp=4)
    services.hand_cancel(hand=hand, by=dealer)
    books = Books.now()
    with pytest.raises(Conflict) as refused:
        services.hand_settle(hand=hand, by=dealer)
    assert refused.value.field == "status"
    assert "cancelled" in refused.value.message
    assert Books.now() == books


def test_a_hand_with_wagers_is_not_cancelled(dp_table, dp_players, dealer, refusal):
    hand = play_to("wagering", dp_table, dealer)
    with refusal(Conflict, field="status", says="has wagers: settle it, or declare a misdeal"):
        services.hand_cancel(hand=hand, by=dealer)
