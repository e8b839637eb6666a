"""Every refusal of a hand's services names the field or the state at fault, says why, and
writes nothing (``refusal`` and ``nothing_written``, tests/conftest.py): steps out of order,
bad or repeated cards (R1), wagers off the limits (R5–R7), raises above the cap or the stack
(R8), the DP's own wagers (R16), staff who are not on duty, closed tables, and a second
settlement."""

from __future__ import annotations

from decimal import Decimal

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from engine import ConservationError
from engine.cards import parse_hand
from engine.hands import flush_key, flush_size
from tables.selectors import open_session
from tables.services.seating import seat_player
from tables.services.sessions import table_close
from wagers import services
from wagers.models import Hand, Spot

from .support import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_HEARTS_AT62,
    THREE_DIAMONDS_Q85,
    Books,
    seating_at,
    stacks,
    start,
    wager,
)

pytestmark = pytest.mark.django_db

D = Decimal

# Four hands that share no card: a dealer below 9-3-2 and flushes of 6, 5 and 4 cards.
LOW_DEALER = "2c 3c 4c 5d 6d 7s 8s"
SIX_HEARTS = "Ah Kh Qh Jh 9h 7h 2d"
FIVE_SPADES = "As Ks Qs Js 9s 3d 4d"
FOUR_HEARTS = "Ad Kd 8h 6h 4h 2h Tc"


@pytest.fixture
def hand(dp_table, dp_players, dealer) -> Hand:
    """A DP hand at the table, DP at seat 4: the dealer's next step is to take wagers."""
    return start(dp_table, dealer, dp=4)


def status(hand: Hand) -> str:
    hand.refresh_from_db()
    return hand.status


# --- steps out of order ----------------------------------------------------------------------

NOT_DEALT = "cannot settle yet: the cards are not dealt"


def test_a_hand_cannot_be_settled_before_its_cards(hand, dp_table, dealer, refusal):
    with refusal(Conflict, field="status", says=NOT_DEALT):
        services.hand_settle(hand=hand, by=dealer)
    wager(hand, dp_table, 1, "5", by=dealer)
    with refusal(Conflict, field="status", says=NOT_DEALT):
        services.hand_settle(hand=hand, by=dealer)
    assert status(hand) == "wagering"


def test_a_hand_cannot_be_settled_while_a_spot_has_not_decided(hand, dp_table, dealer, refusal):
    wager(hand, dp_table, 1, "5", by=dealer)
    wager(hand, dp_table, 2, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)
    with refusal(Conflict, field="status", says="waiting for the decision of seat 2"):
        services.hand_settle(hand=hand, by=dealer)


def test_no_decision_before_the_deal(hand, dp_table, dealer, refusal):
    wager(hand, dp_table, 1, "5", by=dealer)
    with refusal(Conflict, field="status", says="is wagering: it cannot become decisions"):
        services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)


def test_no_deal_before_a_wager(hand, dealer, refusal):
    with refusal(Conflict, field="status", says="is open: cards are dealt once, after the wagers"):
        services.hand_deal(hand=hand, by=dealer)


def test_cards_are_dealt_once(hand, dp_table, dealer, refusal):
    wager(hand, dp_table, 1, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    once = "is dealt: cards are dealt once, after the wagers"
    with refusal(Conflict, field="status", says=once):
        services.hand_deal(hand=hand, by=dealer)
    with refusal(Conflict, field="status", says=once):
        services.hand_cards_enter(
            hand=hand, dealer_cards=DEALER_K94, spot_cards={1: FOUR_HEARTS_AT62}, by=dealer
        )


def test_no_wager_after_the_deal(hand, dp_table, dealer, refusal):
    wager(hand, dp_table, 1, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    with refusal(Conflict, field="status", says="is dealt: it cannot become wagering"):
        wager(hand, dp_table, 2, "5", by=dealer)
    assert status(hand) == "dealt"


def test_a_decision_is_final(hand, dp_table, dealer, refusal):
    wager(hand, dp_table, 1, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)
    with refusal(Conflict, field="decision", says="Seat 1 has decided already (fold)"):
        services.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="5", by=dealer)


def test_a_decision_is_raise_fold_or_walked_away_and_only_a_raise_has_an_amount(
    hand, dp_table, dealer, refusal
):
    wager(hand, dp_table, 1, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    with refusal(DomainError, field="decision", says="raise, fold or walked_away (R8)"):
        services.spot_decide(hand=hand, seat=1, decision="check", by=dealer)
    with refusal(DomainError, field="raise_amount", says="Only a raise has an amount (R8)"):
        services.spot_decide(hand=hand, seat=1, decision="fold", raise_amount="5", by=dealer)
    with refusal(DomainError, field="seat", says="Seat 3 has no spot in hand"):  # no spot there
        services.spot_decide(hand=hand, seat=3, decision="fold", by=dealer)


def test_a_settled_hand_takes_no_more_actions(hand, dp_table, dealer, refusal):
    wager(hand, dp_table, 1, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)
    services.hand_settle(hand=hand, by=dealer)
    with refusal(Conflict, field="status", says=f"Hand {hand.number} is settled."):
        wager(hand, dp_table, 2, "5", by=dealer)
    with refusal(Conflict, field="status", says=f"Hand {hand.number} is settled."):
        services.hand_deal(hand=hand, by=dealer)
    with refusal(Conflict, field="status", says=f"Hand {hand.number} is settled."):
        services.spot_declare_dead(hand=hand, seat=1, by=dealer)
    with refusal(Conflict, field="status", says=f"Hand {hand.number} is settled already."):
        services.hand_declare_misdeal(hand=hand, reason="shuffler_fault", by=dealer)


@pytest.mark.parametrize("current", [status.value for status in Hand.Status])
def test_one_transition_function_refuses_every_move_the_state_machine_does_not_have(
    current, nothing_written
):
    """open → wagering → dealt → decisions → settled, or dead; nothing else (design.md)."""
    allowed = {
        "open": {"wagering", "dead"},
        "wagering": {"wagering", "dealt", "dead"},
        "dealt": {"decisions", "settled", "dead"},
        "decisions": {"decisions", "settled", "dead"},
        "settled": set(),
        "dead": set(),
    }[current]
    for target in Hand.Status:
        hand = Hand(number=1, status=current)
        if target in allowed:
            services.hand_transition(hand, target)
            assert hand.status == target
        else:
            with nothing_written(), pytest.raises(Conflict) as refused:
                services.hand_transition(hand, target)
            assert (refused.value.field, hand.status) == ("status", current)
            assert current in refused.value.message
            assert f"cannot become {target}" in refused.value.message


# --- cards (R1) ------------------------------------------------------------------------------


@pytest.fixture
def wagered(hand, dp_table, dealer) -> Hand:
    """The hand with spots at seats 1 and 2, waiting for its cards."""
    wager(hand, dp_table, 1, "5", by=dealer)
    wager(hand, dp_table, 2, "5", by=dealer)
    return hand


def enter(hand, dealer, *, dealer_cards=DEALER_K94, seat_1=FOUR_HEARTS_AT62, seat_2=None):
    cards = {1: seat_1, 2: seat_2 or THREE_DIAMONDS_Q85}
    return services.hand_cards_enter(
        hand=hand, dealer_cards=dealer_cards, spot_cards=cards, by=dealer
    )


@pytest.mark.parametrize(
    ("cards", "field", "says"),
    [
        ({"seat_2": "Qd 8d 5d As 6c 4h Xs"}, "cards.2", "'Xs' is not a card"),
        ({"dealer_cards": "Ks 9s 4s 2c 7h 8c 1c"}, "dealer_cards", "'1c' is not a card"),
        ({"seat_1": "Ah Th 6h 2h Jd 5c Ah"}, "cards.1", "Ah is entered twice"),
        ({"dealer_cards": "Ks 9s 4s 2c 7h 8c"}, "dealer_cards", "exactly 7 cards; 6"),
        ({"seat_2": "Qd 8d 5d As 6c 4h 3s 2s"}, "cards.2", "exactly 7 cards; 8"),
        # A card in two hands of the round: the spot's Ks is the dealer's (R1).
        ({"seat_1": "Ah Th 6h 2h Jd 5c Ks"}, "cards.1", "Ks is in another hand"),
        ({"seat_2": "Qd 8d 5d As 6c 4h 9c"}, "cards.2", "9c is in another hand"),
    ],
)
def test_r1_a_bad_repeated_or_miscounted_card_is_refused_naming_the_hand(
    wagered, dealer, refusal, cards, field, says
):
    with refusal(DomainError, field=field, says=says):
        enter(wagered, dealer, **cards)
    wagered.refresh_from_db()
    assert (wagered.status, wagered.dealer_cards) == ("wagering", "")
    assert set(Spot.objects.filter(hand=wagered).values_list("cards", flat=True)) == {""}


def test_every_live_spot_gets_its_cards_and_only_live_spots_do(wagered, dealer, refusal):
    with refusal(DomainError, field="cards.2", says="Enter this hand's 7 cards"):
        services.hand_cards_enter(
            hand=wagered, dealer_cards=DEALER_K94, spot_cards={1: FOUR_HEARTS_AT62}, by=dealer
        )
    with refusal(DomainError, field="cards.5", says="Seat 5 has no live spot in this hand"):
        services.hand_cards_enter(
            hand=wagered,
            dealer_cards=DEALER_K94,
            spot_cards={1: FOUR_HEARTS_AT62, 2: THREE_DIAMONDS_Q85, 5: FOUR_CLUBS_KQJ4},
            by=dealer,
        )


def test_r1_each_hand_is_a_new_deck_so_last_hands_cards_come_again(wagered, dp_table, dealer):
    enter(wagered, dealer)
    for seat in (1, 2):
        services.spot_decide(hand=wagered, seat=seat, decision="fold", by=dealer)
    services.hand_settle(hand=wagered, by=dealer)
    following = services.hand_start(table=dp_table, by=dealer)  # the DP is seat 5 now
    wager(following, dp_table, 1, "5", by=dealer)
    wager(following, dp_table, 2, "5", by=dealer)
    enter(following, dealer)  # the very same cards
    following.refresh_from_db()
    wagered.refresh_from_db()
    assert following.dealer_cards == wagered.dealer_cards != ""


def test_r1_a_miscount_is_not_entered_it_is_declared(wagered, dealer, refusal):
    """The refusal tells the dealer what to do instead (R14)."""
    declare = "declare the spot dead or the round a misdeal"
    with refusal(DomainError, field="cards.2", says=declare):
        enter(wagered, dealer, seat_2="Qd 8d 5d As 6c 4h")


# --- wagers (R5–R7) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("amounts", "field", "says"),
    [
        ({"ante": "4"}, "ante", "The ante $4.00 is off the limits"),  # below the $5 minimum (R5)
        ({"ante": "101"}, "ante", "The ante $101.00 is off the limits"),  # above the $100 maximum
        ({"ante": "5.50"}, "ante", "$5.50 is not a whole multiple of the $1.00 chip unit (R5)"),
        ({"ante": 5.0}, "ante", "the number 5.0 (a JSON float) is not accepted"),  # never a float
        ({"ante": "five"}, "ante", "'five' is not an amount"),
        # above the $25 bonus maximum
        ({"ante": "5", "flush_bonus": "26"}, "flush_bonus", "flush bonus $26.00 is off the limits"),
        ({"ante": "5", "flush_bonus": "0.50"}, "flush_bonus", "flush bonus $0.50 is off the"),
        (
            {"ante": "5", "straight_flush_bonus": "30"},
            "straight_flush_bonus",
            "straight flush bonus $30.00 is off the limits",
        ),
        (
            {"ante": "5", "straight_flush_bonus": "2.25"},
            "straight_flush_bonus",
            "straight flush bonus $2.25 is not a whole multiple",
        ),
    ],
)
def test_r5_a_wager_off_the_limits_or_off_the_chip_unit_is_refused(
    hand, dp_table, dealer, refusal, amounts, field, says
):
    with refusal(DomainError, field=field, says=says):
        services.wager_place(hand=hand, seating=seating_at(dp_table, 1), by=dealer, **amounts)
    assert status(hand) == "open"


def test_r5_the_limits_are_the_tables_own(make_table, seat, dealer, refusal):
    """A $25 minimum, bonuses from $5 to $10 and $5 chips."""
    table = make_table(
        "High limit",
        settings={
            "ante_min": "25",
            "ante_max": "100",
            "bonus_min": "5",
            "bonus_max": "10",
            "chip_unit": "5",
            "rake_amount": "5",
        },
    )
    for number in (1, 2):
        seat(table, number)
    hand = start(table, dealer, dp=2)
    with refusal(DomainError, field="ante", says="between $25.00 and $100.00 (R5)"):
        wager(hand, table, 1, "20", by=dealer)
    with refusal(DomainError, field="ante", says="$27.00 is not a whole multiple of the $5.00"):
        wager(hand, table, 1, "27", by=dealer)
    with refusal(DomainError, field="flush_bonus", says="between $5.00 and $10.00 (R5)"):
        wager(hand, table, 1, "25", flush_bonus="15", by=dealer)
    with refusal(DomainError, field="flush_bonus", says="$7.00 is not a whole multiple"):
        wager(hand, table, 1, "25", flush_bonus="7", by=dealer)
    spot = wager(hand, table, 1, "25", flush_bonus="5", straight_flush_bonus="10", by=dealer)
    assert (spot.ante, spot.flush_bonus, spot.straight_flush_bonus) == (D(25), D(5), D(10))


def test_r6_a_player_plays_at_most_two_spots(hand, dp_table, dealer, refusal):
    wager(hand, dp_table, 1, "10", by=dealer)
    wager(hand, dp_table, 1, "10", at=3, by=dealer)
    with refusal(DomainError, field="seat", says="a third is not allowed (R6)") as refused:
        wager(hand, dp_table, 1, "10", at=7, by=dealer)
    assert "third" in refused.value.message


def test_r6_a_second_spot_needs_double_the_minimum_ante_on_each_spot(
    hand, dp_table, dealer, refusal
):
    two_spots = "on each of a player's two spots (R6)"
    wager(hand, dp_table, 1, "5", by=dealer)
    # The second spot's own ante is below $10 …
    with refusal(DomainError, field="ante", says="The ante $9.00") as refused:
        wager(hand, dp_table, 1, "9", at=3, by=dealer)
    message = refused.value.message
    assert "double" in message or "two spots" in message
    assert two_spots in message
    # … and so is the first spot's $5.
    with refusal(DomainError, field="ante", says="The ante $5.00") as refused:
        wager(hand, dp_table, 1, "10", at=3, by=dealer)
    assert two_spots in refused.value.message
    # A player who antes $10 can add a second spot of $10.
    wager(hand, dp_table, 2, "10", by=dealer)
    assert wager(hand, dp_table, 2, "10", at=3, by=dealer).seat == 3


@pytest.mark.parametrize(
    ("at", "kind", "says"),
    [
        (2, DomainError, "a second spot goes on an empty seat (R6)"),  # another player's
        (4, DomainError, "Seat 4 is the designated player's (R16)"),
        (8, DomainError, "Seat must be a number from 1 to 7"),
        (1, Conflict, "Seat 1 has a spot in this hand already"),  # the player's own, taken
    ],
)
def test_r6_a_second_spot_goes_on_an_empty_seat_never_the_dps_or_anothers(
    hand, dp_table, dealer, refusal, at, kind, says
):
    wager(hand, dp_table, 1, "10", by=dealer)
    with refusal(kind, field="seat", says=says):
        wager(hand, dp_table, 1, "10", at=at, by=dealer)


def test_r1_a_round_has_at_most_six_spots_even_at_a_seven_seat_house_table(
    house_table, house_players, seat, dealer, refusal
):
    """Seven hands of 7 and the dealer's would need 56 cards: the seventh spot is refused,
    instead of a short deal and a hand that neither settles nor misdeals."""
    for number in (5, 6, 7):
        seat(house_table, number)
    hand = start(house_table, dealer)
    for number in range(1, 7):
        wager(hand, house_table, number, "5", by=dealer)
    with refusal(Conflict, field="seat", says="has 6 spots, the most a round can deal (R1)"):
        wager(hand, house_table, 7, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    assert all(len(spot.cards.split()) == 7 for spot in hand.spots.all())


def test_r16_the_designated_player_places_no_wager(hand, dp_table, dealer, refusal):
    no_wagers = "The designated player places no wagers this hand (R16)"
    with refusal(DomainError, field="seat", says=no_wagers):
        wager(hand, dp_table, 4, "5", by=dealer)


@pytest.mark.parametrize(
    ("buy_in", "amounts", "allowed"),
    [
        # ante 10 + a 1× raise 10 + the $1 fee (R7, R12)
        ("20", {"ante": "10"}, False),
        ("21", {"ante": "10"}, True),
        ("25", {"ante": "10", "flush_bonus": "5"}, False),
        ("26", {"ante": "10", "flush_bonus": "5"}, True),
    ],
)
def test_r7_the_stack_must_cover_the_hand_with_a_raise_and_the_fee(
    dp_table, dp_players, seat, dealer, refusal, buy_in, amounts, allowed
):
    seat(dp_table, 7, buy_in=buy_in)
    hand = start(dp_table, dealer, dp=4)
    place = {"hand": hand, "seating": seating_at(dp_table, 7), "by": dealer, **amounts}
    if allowed:
        services.wager_place(**place)
        assert seating_at(dp_table, 7).stack == D(buy_in) - sum(D(v) for v in amounts.values())
    else:
        with refusal(DomainError, field="ante", says="a 1× raise and the fee on each spot (R7)"):
            services.wager_place(**place)


def test_r7_two_spots_must_both_be_covered(dp_table, dp_players, seat, dealer, refusal):
    """Two $10 spots need 10 + 10 in wagers and 2 × (10 + 1) more: $42."""
    seat(dp_table, 7, buy_in="41")
    hand = start(dp_table, dealer, dp=4)
    wager(hand, dp_table, 7, "10", by=dealer)
    needs = "has $31.00; this spot needs $10.00 in wagers and $22.00 more on the table"
    with refusal(DomainError, field="ante", says=needs):
        wager(hand, dp_table, 7, "10", at=3, by=dealer)


# --- raises (R8) -----------------------------------------------------------------------------


@pytest.fixture
def dealt(hand, dp_table, dealer) -> Hand:
    """Spots of $10 at seats 1, 2 and 5 with flushes of 6, 5 and 4 cards."""
    for number in (1, 2, 5):
        wager(hand, dp_table, number, "10", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=LOW_DEALER,
        spot_cards={1: SIX_HEARTS, 2: FIVE_SPADES, 5: FOUR_HEARTS},
        by=dealer,
    )
    sizes = {
        s.seat: flush_size(flush_key(parse_hand(s.cards, field="c"))) for s in hand.spots.all()
    }
    assert sizes == {1: 6, 2: 5, 5: 4}
    return hand


@pytest.mark.parametrize(("number", "cap"), [(1, 30), (2, 20), (5, 10)])
def test_r8_a_raise_is_from_the_ante_to_the_cap_of_the_spots_flush(
    dealt, dealer, refusal, number, cap
):
    messages = []
    for amount in ("9", str(cap + 1), "10.50"):
        with refusal(DomainError, field="raise_amount", says=f"The raise ${D(amount):.2f}") as no:
            services.spot_decide(
                hand=dealt, seat=number, decision="raise", raise_amount=amount, by=dealer
            )
        messages.append(no.value.message)
    # $10.50 is within a cap above $10, but no whole chip (R5)
    assert [m.endswith("(R8).") for m in messages] == [True, True, cap == 10]
    assert f"{cap // 10}× the ante" in messages[1]
    spot = services.spot_decide(
        hand=dealt, seat=number, decision="raise", raise_amount=str(cap), by=dealer
    )
    assert spot.raise_amount == cap


def test_r8_a_raise_without_an_amount_is_refused(dealt, dealer, refusal):
    with refusal(DomainError, field="raise_amount", says="An amount must be"):
        services.spot_decide(hand=dealt, seat=1, decision="raise", by=dealer)


def test_r7_r8_a_raise_above_what_the_stack_covers_with_the_fee_is_refused(
    dp_table, dp_players, seat, dealer, refusal
):
    seat(dp_table, 7, buy_in="35")  # after the $10 ante: $25, of which $1 is the fee
    hand = start(dp_table, dealer, dp=4)
    wager(hand, dp_table, 7, "10", by=dealer)
    services.hand_cards_enter(
        hand=hand, dealer_cards=LOW_DEALER, spot_cards={7: SIX_HEARTS}, by=dealer
    )
    more = "The raise $25.00 is more than the stack $25.00 can cover with the fee still due (R7)"
    with refusal(DomainError, field="raise_amount", says=more) as refused:
        services.spot_decide(hand=hand, seat=7, decision="raise", raise_amount="25", by=dealer)
    assert (refused.value.field, "stack" in refused.value.message) == ("raise_amount", True)
    services.spot_decide(hand=hand, seat=7, decision="raise", raise_amount="24", by=dealer)
    assert seating_at(dp_table, 7).stack == D("1")  # what the fee needs


# --- who may act, and where ------------------------------------------------------------------


def test_a_dealer_not_on_duty_at_the_table_is_refused_every_step(
    hand, dp_table, dealer, other_dealer, auditor, refusal
):
    wager(hand, dp_table, 1, "5", by=dealer)
    steps = [
        ("start a hand", lambda by: services.hand_start(table=dp_table, by=by)),
        ("take wagers", lambda by: wager(hand, dp_table, 2, "5", by=by)),
        ("deal", lambda by: services.hand_deal(hand=hand, by=by)),
        ("declare a dead spot", lambda by: services.spot_declare_dead(hand=hand, seat=1, by=by)),
        (
            "settle a hand",
            lambda by: services.hand_declare_misdeal(hand=hand, reason="shuffler_fault", by=by),
        ),
        ("settle a hand", lambda by: services.hand_settle(hand=hand, by=by)),
    ]
    for outsider, only in (
        (other_dealer, "Only the dealer on duty at this table may"),
        (auditor, "Only a floor supervisor or dealer may"),
    ):
        for action, step in steps:
            with refusal(PermissionDenied, field=None, says=f"{only} {action}."):
                step(outsider)
    services.hand_deal(hand=hand, by=dealer)
    with refusal(PermissionDenied, field=None, says="dealer on duty") as refused:
        services.spot_decide(hand=hand, seat=1, decision="fold", by=other_dealer)
    assert "record a decision" in refused.value.message


def test_a_floor_supervisor_may_run_a_hand(hand, dp_table, supervisor):
    wager(hand, dp_table, 1, "5", by=supervisor)
    services.hand_deal(hand=hand, by=supervisor)
    services.spot_decide(hand=hand, seat=1, decision="fold", by=supervisor)
    assert services.hand_settle(hand=hand, by=supervisor).created_by == supervisor


def test_no_hand_on_a_closed_table(dp_table, dp_players, supervisor, dealer, refusal):
    table_close(table=dp_table, by=supervisor)
    with refusal(Conflict, field=None, says="closed") as refused:
        services.hand_start(table=dp_table, by=supervisor)
    assert "is closed: open it to start a hand" in refused.value.message
    # Nobody is on duty at a closed table, so its former dealer may not start one either.
    with refusal(PermissionDenied, field=None, says="the dealer on duty at this table"):
        services.hand_start(table=dp_table, by=dealer)
    assert not Hand.objects.filter(table=dp_table).exists()


def test_a_table_with_a_hand_in_progress_cannot_close(hand, dp_table, supervisor, dealer, refusal):
    wager(hand, dp_table, 1, "5", by=dealer)
    before = stacks(dp_table)
    with refusal(Conflict, field=None, says="hand in progress"):
        table_close(table=dp_table, by=supervisor)
    assert open_session(dp_table) is not None
    assert stacks(dp_table) == before


# --- books that do not balance (R15) --------------------------------------------------------


def test_r15_a_settlement_whose_books_do_not_balance_is_refused_and_nothing_is_saved(
    hand, dp_table, dealer, monkeypatch, nothing_written
):
    """Were the engine's answer ever off by a cent, the books would not balance: booking
    raises the engine's ConservationError, and the hand stays where it was."""
    wager(hand, dp_table, 1, "5", by=dealer)
    services.hand_deal(hand=hand, by=dealer)
    services.spot_decide(hand=hand, seat=1, decision="fold", by=dealer)
    monkeypatch.setattr(services.settlement, "settle", a_cent_off(services.settlement.settle))
    books, events, before = Books.now(), AuditEvent.objects.count(), stacks(dp_table)
    with nothing_written(), pytest.raises(ConservationError, match="R15"):
        services.hand_settle(hand=hand, by=dealer)
    assert (Books.now(), AuditEvent.objects.count(), stacks(dp_table)) == (books, events, before)
    assert status(hand) == "decisions"
    monkeypatch.undo()
    assert services.hand_settle(hand=hand, by=dealer).entry == 1


def a_cent_off(settle):
    """``settle``, but the first spot's net is a cent more than the engine says: an answer
    whose books cannot balance (the engine's own R15 check is behind it)."""

    def settle_a_cent_off(round_):
        settled = settle(round_)
        first, *others = settled.spots
        return settled._replace(spots=(first._replace(net=first.net + 1), *others))

    return settle_a_cent_off


# --- settling twice --------------------------------------------------------------------------


def test_a_second_settle_returns_the_first_settlement_and_moves_nothing(
    hand, dp_table, dealer, nothing_written
):
    wager(hand, dp_table, 1, "5", by=dealer)
    wager(hand, dp_table, 2, "5", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_K94,
        spot_cards={1: FOUR_HEARTS_AT62, 2: THREE_DIAMONDS_Q85},
        by=dealer,
    )
    services.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="5", by=dealer)
    services.spot_decide(hand=hand, seat=2, decision="raise", raise_amount="5", by=dealer)
    first = services.hand_settle(hand=hand, by=dealer)
    books, events, table_stacks = Books.now(), AuditEvent.objects.count(), stacks(dp_table)
    assert books.fee_entries == 3 and books.settlements == 1

    with nothing_written():
        again = services.hand_settle(hand=hand, by=dealer)

    assert again.pk == first.pk
    assert again.result == first.result
    assert Books.now() == books  # stack entries, fee entries and settlements unchanged
    assert stacks(dp_table) == table_stacks
    assert AuditEvent.objects.count() == events


def test_a_payout_that_would_take_a_stack_past_the_largest_amount_is_refused(
    house_table, dealer, refusal, make_player
):
    # Money is 12 digits, 2 of them cents. $9,999,999,990 less a $10 ante and a $10 raise,
    # then a win against a dealer who does not qualify (ante +10, raise pushes): $30 back
    # would make $10,000,000,000. The chips come from the cage: no rack sells that many.
    rich = seat_player(
        table=house_table,
        seat=1,
        player=make_player(),
        buy_in="9999999990",
        tender="chips",
        by=dealer,
    )
    hand = services.hand_start(table=house_table, by=dealer)
    services.wager_place(hand=hand, seating=rich, ante="10", by=dealer)
    services.hand_cards_enter(
        hand=hand, dealer_cards=LOW_DEALER, spot_cards={1: FOUR_HEARTS}, by=dealer
    )
    services.spot_decide(hand=hand, seat=1, decision="raise", raise_amount="10", by=dealer)
    with refusal(DomainError, field="stack", says="$9999999999.99") as refused:
        services.hand_settle(hand=hand, by=dealer)
    assert "the most a stack holds" in refused.value.message
    assert status(hand) == "decisions"
