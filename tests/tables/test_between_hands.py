"""What waits for the settlement: a player in the hand in progress leaves once it settles (and
the button's rotation, R16, then passes the leaver by), and chips are added between hands only
(table stakes). Each refusal names its field, says why in words, and writes nothing
(``refusal``, tests/conftest.py)."""

import pytest

from core.errors import Conflict
from tables import selectors
from tables.models import Seating
from tables.services.seating import seating_leave
from tables.services.stacks import stack_add
from wagers import services as hand_services
from wagers.models import Hand

pytestmark = pytest.mark.django_db

DEALER_CARDS = "Ks 9s 4s 2c 7h 8c 3c"
STRONG = "Ah Th 6h 2h Jd 5c 9c"
WEAK = "Qh 8h 3d 4c Td 6s Js"
DRAW_SEAT_3 = {1: "2c", 3: "Ah", 5: "Kd"}  # the ace wins the button (R16)


@pytest.fixture
def hand(dp_table, seated, dealer) -> Hand:
    """Hand 1: seat 3 (Blake) is the DP by the draw; seats 1 (Avery) and 5 (Casey) ante $10."""
    started = hand_services.hand_start(table=dp_table, by=dealer, draw_cards=DRAW_SEAT_3)
    assert started.dp_seating == seated[3]
    for seat in (1, 5):
        hand_services.wager_place(hand=started, seating=seated[seat], ante="10", by=dealer)
    started.refresh_from_db()
    return started


def settle(hand: Hand, dealer) -> None:
    hand_services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_CARDS, spot_cards={1: STRONG, 5: WEAK}, by=dealer
    )
    hand_services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)
    hand_services.spot_decide(hand=hand, seat=5, decision="fold", by=dealer)
    hand_services.hand_settle(hand=hand, by=dealer)


# --- leaving ---------------------------------------------------------------------------------


def test_r16_the_dp_cannot_leave_during_the_hand_and_is_told_when_they_can(
    hand, seated, dealer, refusal
):
    with refusal(Conflict, field="seating", says="the player can leave once it settles") as no:
        seating_leave(seating=seated[3], by=dealer)
    assert no.value.message == "Seat 3 (Blake) is in hand 1: the player can leave once it settles."
    seated[3].refresh_from_db()
    assert seated[3].left_at is None  # still seated, the bank still in play
    assert seated[3].stack + hand.dp_bank == 300


def test_a_player_on_a_spot_cannot_leave_until_the_hand_settles(hand, seated, dealer, refusal):
    with refusal(Conflict, field="seating", says="Seat 5 (Casey) is in hand 1"):
        seating_leave(seating=seated[5], by=dealer)


def test_r16_once_the_hand_settles_the_dp_leaves_and_the_button_passes_the_leaver_by(
    dp_table, hand, seated, dealer
):
    settle(hand, dealer)
    seating_leave(seating=seated[3], by=dealer)

    seated[3].refresh_from_db()
    assert seated[3].left_at is not None and seated[3].stack == 0  # cashed out on leaving
    following = hand_services.hand_start(table=dp_table, by=dealer)
    # Offered clockwise from the left of the last DP's seat (3): seat 5 first; the leaver is
    # no longer offered the position, nor anywhere in the offers.
    assert following.dp_seating == seated[5]
    assert [offer["seat"] for offer in following.rotation.offers] == [5]


def test_r16_a_refused_leave_leaves_the_rotation_as_it_was(dp_table, hand, seated, dealer):
    """The player stays seated when the leave is refused, so the next hand's rotation treats
    them as seated (the screen said so, it did not say they left)."""
    with pytest.raises(Conflict):
        seating_leave(seating=seated[5], by=dealer)
    settle(hand, dealer)
    following = hand_services.hand_start(table=dp_table, by=dealer)
    assert following.dp_seating == seated[5]  # next clockwise after seat 3, still seated


def test_a_seat_not_in_the_hand_leaves_at_once_and_is_not_offered_the_button(
    dp_table, seated, seat, dealer
):
    newcomer = seat(6, buy_in="200")
    started = hand_services.hand_start(
        table=dp_table, by=dealer, draw_cards=DRAW_SEAT_3 | {6: "3c"}
    )
    hand_services.wager_place(hand=started, seating=seated[1], ante="10", by=dealer)
    hand_services.wager_place(hand=started, seating=seated[5], ante="10", by=dealer)

    seating_leave(seating=newcomer, by=dealer)  # no spot, not the DP: nothing of theirs in play

    assert Seating.objects.get(pk=newcomer.pk).left_at is not None
    assert not selectors.hand_in_progress(dp_table, seating=newcomer)


# --- adding chips ----------------------------------------------------------------------------


def test_chips_are_not_added_to_a_seat_in_the_hand_in_progress(hand, seated, dealer, refusal):
    with refusal(Conflict, field="amount", says="Chips are added between hands only") as no:
        stack_add(seating=seated[1], amount="50", by=dealer)
    assert no.value.message == (
        "Chips are added between hands only (table stakes): hand 1 is in progress at Table 1. "
        "Add them to seat 1 (Avery) once it settles."
    )


def test_chips_are_not_added_to_a_seat_outside_the_hand_either(
    dp_table, hand, seat, dealer, refusal
):
    """A seat with no spot yet could still wager in this hand: its stack is fixed too."""
    newcomer = seat(6, buy_in="200")
    with refusal(Conflict, field="amount", says="between hands only (table stakes)"):
        stack_add(seating=newcomer, amount="50", by=dealer)


def test_chips_are_added_once_the_hand_settles(hand, seated, dealer):
    settle(hand, dealer)
    before = Seating.objects.get(pk=seated[1].pk).stack
    stack_add(seating=seated[1], amount="50", by=dealer)
    assert Seating.objects.get(pk=seated[1].pk).stack == before + 50
