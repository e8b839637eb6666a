"""R16: the designated-player position — the high-card draw, the clockwise offer, eligibility,
waivers and refusals, the game stopping when nobody accepts, the rotation log and the
compliance check. A "hand" here is one call of ``designated_player_rotate``. Every refusal
names its field, says why, and writes nothing (``refusal``, tests/conftest.py)."""

from datetime import timedelta

import pytest
from django.db import DatabaseError, connection, transaction

from core.errors import Conflict, DomainError, PermissionDenied
from tables import selectors
from tables.models import RotationRecord
from tables.rotation import designated_player_rotate, no_designated_player
from tables.services.seating import seat_player, seating_leave, seating_sit_out, seating_waive_dp
from tables.services.sessions import table_close, table_open
from tables.services.stacks import stack_add, stack_cash_out

from .support import T0, audit_actions, last_seq

pytestmark = pytest.mark.django_db


@pytest.fixture
def rotate(dp_table, dealer):
    """One hand's offer of the position at the DP table, made by the dealer on duty."""

    def offer(*, refusals=(), draw_cards=None, table=None) -> RotationRecord:
        return designated_player_rotate(
            table=table or dp_table, by=dealer, refusals=refusals, draw_cards=draw_cards
        )

    return offer


def dp_seat(record: RotationRecord) -> int | None:
    return record.designated_player.seat if record.designated_player else None


def outcomes(record: RotationRecord) -> list[tuple[int, str]]:
    return [(offer["seat"], offer["outcome"]) for offer in record.offers]


def start_with(rotate, seat: int, seats) -> RotationRecord:
    """The session's first hand: the draw, won by ``seat`` (an ace against lower cards)."""
    cards = {number: f"{'23456789TJQK'[i]}c" for i, number in enumerate(sorted(seats))}
    cards[seat] = "As"
    record = rotate(draw_cards=cards)
    assert dp_seat(record) == seat
    return record


# --- the first hand: the high-card draw ------------------------------------------------------


def test_r16_the_first_hand_of_a_session_goes_by_a_high_card_draw_highest_rank_wins(seated, rotate):
    record = rotate(draw_cards={1: "Kc", 3: "Ah", 5: "Qs"})
    assert record.method == RotationRecord.Method.DRAW
    assert dp_seat(record) == 3
    assert record.draw == {"1": "Kc", "3": "Ah", "5": "Qs"}
    assert [offer.get("card") for offer in record.offers] == ["Kc", "Ah", "Qs"]
    assert record.consecutive == 1


def test_r16_draw_cards_are_read_in_any_notation_and_recorded_canonically(seated, rotate):
    record = rotate(draw_cards={1: "10h", 3: "tc", 5: "9S"})
    assert record.draw == {"1": "Th", "3": "Tc", "5": "9s"}
    assert dp_seat(record) == 1  # Th over Tc: hearts above clubs


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        ({1: "As", 3: "Ac", 5: "Ah"}, 1),
        ({1: "Ad", 3: "Ac", 5: "Ah"}, 5),
        ({1: "Ad", 3: "Ac", 5: "2s"}, 1),
        ({1: "7c", 3: "7d", 5: "6s"}, 3),
    ],
)
def test_r16_equal_ranks_in_the_draw_are_broken_by_suit_clubs_diamonds_hearts_spades(
    seated, rotate, cards, winner
):
    assert dp_seat(rotate(draw_cards=cards)) == winner


def test_r16_the_draw_follows_the_tables_own_suit_order(
    make_table, dealer, supervisor, make_player
):
    table = make_table("Spades low", settings={"draw_suit_order": "SHDC"})  # clubs highest
    table_open(table=table, dealer=dealer, by=supervisor)
    for number in (2, 4, 6):
        seat_player(table=table, seat=number, player=make_player(), buy_in="100", by=dealer)
    record = designated_player_rotate(
        table=table, by=dealer, draw_cards={2: "Qs", 4: "Qc", 6: "Qh"}
    )
    assert dp_seat(record) == 4


def test_r16_only_the_seats_that_accept_take_part_in_the_draw(seated, rotate, dealer):
    seating_waive_dp(seating=seated[5], waived=True, by=dealer)
    record = rotate(refusals=[1], draw_cards={3: "2c"})
    assert dp_seat(record) == 3
    assert record.draw == {"3": "2c"}
    assert outcomes(record) == [(1, "refused"), (3, "accepted"), (5, "waived")]


def test_r16_a_seat_not_eligible_is_left_out_of_the_draw(seated, rotate, dealer):
    seating_sit_out(seating=seated[1], by=dealer)
    record = rotate(draw_cards={3: "4d", 5: "4h"})
    assert dp_seat(record) == 5
    assert record.offers[0] == {
        "seat": 1,
        "player": seated[1].player_id,
        "name": seated[1].player.name,
        "outcome": "ineligible",
        "reason": "sitting out",
        "answered_at": record.created_at.isoformat(),  # the moment surveillance matches
    }


def test_r16_the_system_draws_when_the_dealer_enters_no_cards(seated, rotate, dealer):
    seating_waive_dp(seating=seated[1], waived=True, by=dealer)
    record = rotate()
    assert record.method == RotationRecord.Method.DRAW
    assert dp_seat(record) in {3, 5}
    assert set(record.draw) == {"3", "5"}
    assert len(set(record.draw.values())) == 2  # two different cards
    drawn = {offer["seat"]: offer.get("card") for offer in record.offers}
    assert drawn == {1: None, 3: record.draw["3"], 5: record.draw["5"]}
    # The winner is the one the cards say.
    order = "cdhs"
    best = max(
        record.draw.items(), key=lambda i: ("23456789TJQKA".index(i[1][0]), order.index(i[1][1]))
    )
    assert dp_seat(record) == int(best[0])


@pytest.mark.parametrize(
    ("cards", "field", "says"),
    [
        ({1: "As", 3: "Kd"}, "draw_cards.5", "Enter the card dealt to seat 5"),  # missing
        ({3: "Kd", 5: "Qd"}, "draw_cards.1", "Enter the card dealt to seat 1"),  # missing
        # nobody at seat 2
        ({1: "As", 3: "Kd", 5: "Qd", 2: "Jd"}, "draw_cards.2", "Seat 2 is not in the draw"),
        # the same card twice
        ({1: "As", 3: "As", 5: "Qd"}, "draw_cards.3", "As was dealt to two seats"),
        ({1: "As", 3: "ace", 5: "Qd"}, "draw_cards.3", "'ace' is not a card"),  # not a card
        ({1: "As", 3: "1d", 5: "Qd"}, "draw_cards.3", "'1d' is not a card"),
    ],
)
def test_r16_missing_extra_duplicate_or_bad_draw_cards_are_refused_naming_the_seat(
    seated, rotate, refusal, cards, field, says
):
    with refusal(DomainError, field=field, says=says):
        rotate(draw_cards=cards)
    assert not RotationRecord.objects.exists()


def test_r16_a_card_for_a_seat_that_refused_the_draw_is_refused(seated, rotate, refusal):
    with refusal(DomainError, field="draw_cards.1", says="Seat 1 is not in the draw"):
        rotate(refusals=[1], draw_cards={1: "As", 3: "Kd", 5: "Qd"})


def test_r16_a_new_session_starts_with_a_new_draw(
    dp_table, seated, rotate, dealer, supervisor, make_player
):
    start_with(rotate, 1, seated)
    rotate()
    table_close(table=dp_table, by=supervisor)
    table_open(table=dp_table, dealer=dealer, by=supervisor)
    for number in (2, 4):
        seat_player(table=dp_table, seat=number, player=make_player(), buy_in="100", by=dealer)
    record = rotate(draw_cards={2: "3c", 4: "3d"})
    assert record.method == RotationRecord.Method.DRAW
    assert dp_seat(record) == 4


def test_r16_only_the_first_hand_has_a_draw(seated, rotate, refusal):
    start_with(rotate, 1, seated)
    only = "Only the first hand of a session has a high-card draw (R16)"
    with refusal(DomainError, field="draw_cards", says=only):
        rotate(draw_cards={1: "As", 3: "Kd", 5: "Qd"})


# --- later hands: the clockwise offer --------------------------------------------------------


def test_r16_the_position_moves_to_the_first_seat_left_of_the_dp_that_accepts(seated, rotate):
    start_with(rotate, 1, seated)
    record = rotate()
    assert record.method == RotationRecord.Method.ROTATION
    assert dp_seat(record) == 3
    assert outcomes(record) == [(3, "accepted")]  # the offer stops at the first acceptance


def test_r16_offer_goes_clockwise_from_the_seat_left_of_the_dp_and_ends_with_the_dp(seat, rotate):
    seats = {n: seat(n) for n in (1, 2, 4, 6, 7)}
    start_with(rotate, 4, seats)
    record = rotate(refusals=[6, 7, 1, 2])
    assert [offer["seat"] for offer in record.offers] == [6, 7, 1, 2, 4]
    assert outcomes(record)[-1] == (4, "accepted")
    assert dp_seat(record) == 4


def test_r16_the_offer_wraps_past_the_top_seat(seat, rotate):
    seats = {n: seat(n) for n in (2, 5, 7)}
    start_with(rotate, 7, seats)
    record = rotate(refusals=[2])
    assert outcomes(record) == [(2, "refused"), (5, "accepted")]


def test_r16_the_button_goes_round_the_table_hand_after_hand(seated, rotate):
    start_with(rotate, 3, seated)
    assert [dp_seat(rotate()) for _ in range(5)] == [5, 1, 3, 5, 1]


def test_r16_the_offer_starts_left_of_the_dp_seat_after_the_dp_has_left(
    dp_table, seated, rotate, dealer
):
    start_with(rotate, 3, seated)
    seating_leave(seating=seated[3], by=dealer)
    record = rotate()
    assert outcomes(record) == [(5, "accepted")]


def test_r16_a_player_who_takes_the_dps_empty_seat_does_not_inherit_the_streak(
    dp_table, seated, rotate, dealer, make_player
):
    start_with(rotate, 3, seated)
    seating_leave(seating=seated[3], by=dealer)
    seat_player(table=dp_table, seat=3, player=make_player(), buy_in="100", by=dealer)
    record = rotate(refusals=[5, 1])
    assert dp_seat(record) == 3
    assert record.consecutive == 1


# --- eligibility, waivers and refusals -------------------------------------------------------


def test_r16_a_seat_sitting_out_is_ineligible(seated, rotate, dealer):
    start_with(rotate, 1, seated)
    seating_sit_out(seating=seated[3], by=dealer)
    record = rotate()
    assert (record.offers[0]["outcome"], record.offers[0]["reason"]) == (
        "ineligible",
        "sitting out",
    )
    assert dp_seat(record) == 5


def test_r16_a_seat_whose_stack_is_below_the_minimum_bank_is_ineligible(
    make_table, dealer, supervisor, make_player
):
    table = make_table("Banked", settings={"dp_min_bank": "200"})
    table_open(table=table, dealer=dealer, by=supervisor)
    short = seat_player(table=table, seat=1, player=make_player(), buy_in="199", by=dealer)
    seat_player(table=table, seat=2, player=make_player(), buy_in="200", by=dealer)
    record = designated_player_rotate(table=table, by=dealer, draw_cards={2: "2c"})
    assert dp_seat(record) == 2
    assert record.offers[0]["outcome"] == "ineligible"
    assert record.offers[0]["reason"] == "stack $199.00 is below the minimum bank $200.00"
    stack_add(seating=short, amount="1", by=dealer)  # now exactly the minimum
    assert dp_seat(designated_player_rotate(table=table, by=dealer)) == 1


def test_r16_a_seat_whose_stack_fell_below_a_newly_approved_minimum_bank_is_ineligible(
    dp_table, seated, rotate, approve, dealer
):
    approve(dp_table, dp_min_bank="100")
    stack_cash_out(seating=seated[3], amount="250", by=dealer)  # $50 left
    start_with(rotate, 1, {1: 0, 5: 0})
    assert outcomes(rotate())[:2] == [(3, "ineligible"), (5, "accepted")]


def test_r16_r12_a_seat_that_cannot_pay_the_dps_fee_is_ineligible(seated, rotate, dealer):
    # The default DP table: no minimum bank, but the DP pays the $1.00 fee before the deal.
    stack_cash_out(seating=seated[3], by=dealer)
    record = start_with(rotate, 1, {1: 0, 5: 0})
    assert record.offers[1]["outcome"] == "ineligible"
    assert record.offers[1]["reason"] == "stack $0.00 cannot pay the designated player's fee $1.00"
    assert outcomes(rotate()) == [(3, "ineligible"), (5, "accepted")]


def test_r16_r12_a_seat_with_no_chips_may_hold_the_position_where_the_dp_pays_no_fee(
    dp_table, seated, rotate, approve, dealer
):
    approve(dp_table, rake_mode="players_not_dp")
    stack_cash_out(seating=seated[3], by=dealer)
    start_with(rotate, 1, seated)
    assert outcomes(rotate()) == [(3, "accepted")]


def test_r16_the_dp_for_two_hands_in_a_row_is_ineligible_for_the_third(seated, rotate):
    start_with(rotate, 1, seated)
    second = rotate(refusals=[3, 5])
    assert (dp_seat(second), second.consecutive) == (1, 2)
    third = rotate()
    assert dp_seat(third) == 3
    fourth = rotate(refusals=[5, 1])
    assert (dp_seat(fourth), fourth.consecutive) == (3, 2)


def test_r16_after_its_most_hands_in_a_row_the_dp_is_refused_even_when_nobody_else_accepts(
    seated, rotate
):
    start_with(rotate, 1, seated)
    rotate(refusals=[3, 5])
    record = rotate(refusals=[3, 5])
    assert record.designated_player is None
    assert record.offers[-1] == {
        "seat": 1,
        "player": seated[1].player_id,
        "name": seated[1].player.name,
        "outcome": "ineligible",
        "reason": "designated player 2 hands in a row, the most allowed",
        "answered_at": record.created_at.isoformat(),
    }


def test_r16_the_most_hands_in_a_row_is_the_tables_setting(dp_table, seated, rotate, approve):
    approve(dp_table, dp_max_consecutive=3)
    start_with(rotate, 1, seated)
    assert [dp_seat(rotate(refusals=[3, 5])) for _ in range(3)] == [1, 1, None]
    approve(dp_table, dp_max_consecutive=1)
    assert [dp_seat(rotate()) for _ in range(3)] == [3, 5, 1]


def test_r16_a_standing_waiver_is_recorded_every_hand_until_it_ends(seated, rotate, dealer):
    start_with(rotate, 1, seated)
    seating_waive_dp(seating=seated[3], waived=True, by=dealer)
    first = rotate()
    assert outcomes(first) == [(3, "waived"), (5, "accepted")]
    second = rotate()
    assert outcomes(second) == [(1, "accepted")]
    third = rotate()
    assert outcomes(third) == [(3, "waived"), (5, "accepted")]
    seating_waive_dp(seating=seated[3], waived=False, by=dealer)
    assert outcomes(rotate()) == [(1, "accepted")]
    assert outcomes(rotate()) == [(3, "accepted")]


def test_r16_a_refusal_counts_for_one_hand_only(seated, rotate):
    start_with(rotate, 1, seated)
    assert outcomes(rotate(refusals=[3])) == [(3, "refused"), (5, "accepted")]
    assert outcomes(rotate(refusals=[1])) == [(1, "refused"), (3, "accepted")]


def test_r16_a_refusal_for_an_empty_seat_is_refused(seated, rotate, refusal):
    with refusal(DomainError, field="refusals", says="Nobody sits at seat 2 to refuse"):
        rotate(refusals=[2])


# --- nobody accepts --------------------------------------------------------------------------


def test_r16_when_nobody_accepts_no_hand_can_start_and_the_error_names_the_seats_and_why(
    seated, rotate, dealer, refusal
):
    start_with(rotate, 1, seated)
    seating_sit_out(seating=seated[5], by=dealer)
    seating_waive_dp(seating=seated[1], waived=True, by=dealer)
    record = rotate(refusals=[3])
    assert record.designated_player is None
    stopped = no_designated_player(record)
    assert isinstance(stopped, Conflict)
    message = stopped.message
    assert stopped.field == "designated_player"
    assert "no hand can start" in message
    assert "seat 3 refused" in message
    assert "seat 5 ineligible (sitting out)" in message
    assert "seat 1 waived" in message


def test_r16_the_record_of_a_hand_nobody_accepted_is_kept(seated, rotate):
    since = last_seq()
    record = rotate(refusals=[1, 3, 5])
    stored = RotationRecord.objects.get(pk=record.pk)
    assert stored.designated_player is None and stored.player is None
    assert stored.consecutive == 0
    assert outcomes(stored) == [(1, "refused"), (3, "refused"), (5, "refused")]
    assert audit_actions(since) == ["rotation.offered"]


def test_r16_an_empty_table_has_no_designated_player(dp_table, session, rotate):
    record = rotate()
    assert record.designated_player is None
    assert "Nobody is seated" in no_designated_player(record).message


def test_r16_the_game_goes_on_once_a_seat_accepts(seated, rotate):
    start_with(rotate, 1, seated)
    assert rotate(refusals=[1, 3, 5]).designated_player is None
    record = rotate(refusals=[1, 3])  # offered again from the left of seat 1, the last DP
    assert outcomes(record) == [(3, "refused"), (5, "accepted")]
    assert RotationRecord.objects.get(pk=record.pk).designated_player == seated[5]


def test_r16_a_rotation_that_finds_a_dp_returns_it(seated, rotate):
    record = start_with(rotate, 5, seated)
    assert record.designated_player == seated[5]


# --- where there is no rotation --------------------------------------------------------------


def test_r16_a_house_banked_table_has_no_rotation(
    house_table, house_session, seat, rotate, refusal
):
    seat(2, table=house_table)
    no_rotation = "A house-banked table has no designated player and no rotation (R16)"
    with refusal(DomainError, field="table", says=no_rotation):
        rotate(table=house_table)
    assert not RotationRecord.objects.exists()


def test_a_closed_table_has_no_rotation(dp_table, rotate, supervisor, refusal):
    """Nobody is on duty at a closed table: its dealer is refused before the table's state."""
    on_duty = "Only the dealer on duty at this table may offer the designated-player position"
    with refusal(PermissionDenied, field=None, says=on_duty):
        rotate()
    with refusal(Conflict, field=None, says="Table 1 is closed"):
        designated_player_rotate(table=dp_table, by=supervisor)


def test_only_the_dealer_on_duty_or_a_supervisor_offers_the_position(
    dp_table, seated, other_dealer, auditor, supervisor, refusal
):
    for actor, says in (
        (other_dealer, "Only the dealer on duty at this table may offer"),
        (auditor, "Only a floor supervisor or dealer may offer"),
    ):
        with refusal(PermissionDenied, field=None, says=says):
            designated_player_rotate(table=dp_table, by=actor)
    assert designated_player_rotate(table=dp_table, by=supervisor).designated_player


# --- the rotation log ------------------------------------------------------------------------


def test_r16_the_rotation_log_lists_every_hands_offers_in_order_with_who_took_it(
    dp_table, seated, rotate, dealer, clock
):
    clock.at(0)
    seating_sit_out(seating=seated[5], by=dealer)
    clock.at(1)
    start_with(rotate, 1, {1: 0, 3: 0})
    clock.at(2)
    rotate(refusals=[3])
    clock.at(3)
    rotate(refusals=[3])
    log = list(selectors.rotation_log(dp_table, T0, T0 + timedelta(minutes=10)))
    assert [record.method for record in log] == ["draw", "rotation", "rotation"]
    assert [dp_seat(record) for record in log] == [1, 1, None]
    assert [outcomes(record) for record in log] == [
        [(1, "accepted"), (3, "accepted"), (5, "ineligible")],
        [(3, "refused"), (5, "ineligible"), (1, "accepted")],
        [(3, "refused"), (5, "ineligible"), (1, "ineligible")],
    ]
    assert log[1].offers[1]["reason"] == "sitting out"
    assert log[2].offers[2]["reason"] == "designated player 2 hands in a row, the most allowed"
    assert [record.player for record in log] == [seated[1].player, seated[1].player, None]
    # The period is half-open: [start, end).
    assert (
        len(selectors.rotation_log(dp_table, T0 + timedelta(minutes=2), T0 + timedelta(minutes=3)))
        == 1
    )


def test_the_rotation_log_is_per_table(dp_table, seated, rotate, make_table, clock):
    clock.at(0)
    start_with(rotate, 1, seated)
    other = make_table("Other")
    assert not selectors.rotation_log(other, T0, T0 + timedelta(hours=1)).exists()


def test_every_offer_is_audited(seated, rotate):
    since = last_seq()
    start_with(rotate, 1, seated)
    rotate()
    assert audit_actions(since) == ["rotation.offered", "rotation.offered"]


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE tables_rotationrecord SET designated_player_id = NULL WHERE id = %s",
        "DELETE FROM tables_rotationrecord WHERE id = %s",
    ],
)
def test_the_database_refuses_to_rewrite_the_rotation_log(seated, rotate, sql):
    record = start_with(rotate, 1, seated)
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, [record.pk])
    assert RotationRecord.objects.get(pk=record.pk).designated_player == seated[1]
