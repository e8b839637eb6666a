"""A floor supervisor corrects a settled hand (wrong cards entered): the original settlement
stays as it was, a reversal entry undoes its money and a correction entry books the new
settlement; stacks and the fee ledger end where the corrected result puts them."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from engine import ConservationError
from engine.cards import parse_hand
from rake.models import FeeEntry
from rake.selectors import fees_by_mode, fees_total
from tables.models import StackEntry
from tables.services.stacks import stack_cash_out
from wagers import services
from wagers.models import Hand, Settlement
from wagers.selectors import settlement_history, settlement_in_force

from .support import (
    DEALER_K94,
    FOUR_CLUBS_KQJ4,
    FOUR_HEARTS_AT62,
    THREE_HEARTS_QJ3,
    Books,
    engine,
    ledger_sum,
    seating_at,
    stacks,
    start,
    total,
    wager,
)

pytestmark = pytest.mark.django_db

D = Decimal
REASON = "Seat 2's cards were misread: Ah Th 6h 2h, not Qh Jh 3h."


def snapshot(settlement: Settlement) -> dict:
    """Everything an entry stores, to show it is never edited."""
    settlement = Settlement.objects.get(pk=settlement.pk)
    return {
        "row": {
            f.attname: getattr(settlement, f.attname) for f in Settlement._meta.concrete_fields
        },
        "spots": list(settlement.spots.values()),
        "wagers": [list(row.wagers.values()) for row in settlement.spots.all()],
        "fees": list(FeeEntry.objects.filter(booking__settlement=settlement).values()),
    }


@pytest.fixture
def settled(dp_table, dp_players, dealer, clock) -> tuple[Hand, dict[int, Decimal]]:
    """A DP hand (bank $25, DP at seat 4) settled on 2024-03-01 with seat 2's cards misread
    as a losing hand. As entered: seat 1 +19, seat 2 −26, DP +4, fees $3."""
    before = stacks(dp_table)
    hand = start(dp_table, dealer, dp=4, bank="25")
    wager(hand, dp_table, 1, "10", by=dealer)
    wager(hand, dp_table, 2, "10", flush_bonus="5", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_K94,
        spot_cards={1: FOUR_CLUBS_KQJ4, 2: THREE_HEARTS_QJ3},
        by=dealer,
    )
    for seat in (1, 2):
        services.spot_decide(hand=hand, seat=seat, decision="raise", raise_amount="10", by=dealer)
    original = services.hand_settle(hand=hand, by=dealer)
    assert (original.dealer_net, original.house_rake) == (D(4), D(3))
    assert stacks(dp_table) == {**before, 1: D(1019), 2: D(974), 4: D(1004)}
    return hand, before


def test_a_correction_keeps_the_original_and_books_a_reversal_and_the_new_settlement(
    settled, dp_table, supervisor, clock
):
    hand, before = settled
    original = settlement_in_force(hand)
    kept = snapshot(original)
    clock.advance(hours=18)  # the next afternoon: gaming day 2024-03-02

    correction = services.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        by=supervisor,
        reason=f"  {REASON} ",
        spot_cards={2: FOUR_HEARTS_AT62},
    )

    assert snapshot(original) == kept
    history = list(settlement_history(hand))
    assert [(s.entry, s.kind) for s in history] == [
        (1, "original"),
        (2, "reversal"),
        (3, "correction"),
    ]
    reversal = history[1]
    assert reversal.reverses_id == original.pk
    assert (reversal.round, reversal.result) == (original.round, original.result)
    assert (reversal.dealer_net, reversal.house_rake) == (D(-4), D(-3))
    assert [(r.seat, r.net, r.rake, r.paid_back) for r in reversal.spots.all()] == [
        (r.seat, -r.net, -r.rake, -r.paid_back) for r in original.spots.all()
    ]
    assert [(w.wager, w.stake, w.net) for w in reversal.spots.get(seat=2).wagers.all()] == [
        (w.wager, w.stake, -w.net) for w in original.spots.get(seat=2).wagers.all()
    ]
    assert reversal.reason == correction.reason == REASON
    assert correction.created_by == reversal.created_by == supervisor
    assert settlement_in_force(hand) == correction
    hand.refresh_from_db()
    assert hand.status == "settled"

    # The correction is the engine's answer on the corrected round.
    assert correction.round["spots"][1]["cards"] == FOUR_HEARTS_AT62
    assert correction.round["dealer"] == original.round["dealer"]
    assert correction.result == engine(correction.round)
    # Seat 2 actually wins $30, more than the $24 the bank holds for it: dead (R13).
    assert {r.seat: (r.status, r.net) for r in correction.spots.all()} == {
        1: ("played", D(19)),
        2: ("dead", D(0)),
    }
    assert (correction.dealer_net, correction.house_rake) == (D(-21), D(2))

    # Stacks as if the hand had been settled right: one correcting movement per stack.
    assert stacks(dp_table) == {**before, 1: D(1019), 2: D(1000), 4: D(979)}
    moves = StackEntry.objects.filter(reason="correction")
    assert sorted(moves.values_list("seating__seat", "amount")) == [(2, D(26)), (4, D(-25))]
    for seating in dp_table.seatings.all():
        assert seating.stack == ledger_sum(seating)
    # The fee ledger: $3 on the day of the hand, −3 + 2 on the day of the correction.
    fees = FeeEntry.objects.filter(booking__hand=hand)
    assert total(fees, "amount") == correction.house_rake == D(2)
    first, second = datetime.date(2024, 3, 1), datetime.date(2024, 3, 2)
    assert fees_by_mode(dp_table, first, second) == {
        first: {"all_players": D(3)},
        second: {"all_players": D(-1)},
    }
    assert sorted(
        fees.filter(booking__settlement=reversal).values_list("payer", "seat", "amount")
    ) == [
        ("designated_player", 4, D(-1)),
        ("spot", 1, D(-1)),
        ("spot", 2, D(-1)),
    ]

    event = AuditEvent.objects.get(action="hand.corrected", object_id=str(hand.pk))
    assert event.actor == supervisor
    assert REASON in event.payload


def test_a_corrected_hand_can_be_corrected_again_and_history_shows_every_entry(
    settled, dp_table, supervisor
):
    hand, before = settled
    services.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        by=supervisor,
        reason=REASON,
        spot_cards={2: FOUR_HEARTS_AT62},
    )
    # The supervisor finds it was the dealer's hand that was misread as well.
    last = services.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        by=supervisor,
        reason="The dealer's 7h was a 6h.",
        dealer_cards=DEALER_K94.replace("7h", "6s"),
        spot_cards={2: THREE_HEARTS_QJ3},
    )
    history = list(settlement_history(hand))
    assert [s.kind for s in history] == [
        "original",
        "reversal",
        "correction",
        "reversal",
        "correction",
    ]
    assert history[3].reverses_id == history[2].pk
    assert settlement_in_force(hand) == last
    expected = dict(before)
    for line in last.result["spots"]:
        expected[line["seat"]] += D(line["net"])
    expected[4] += D(last.result["dealer"]["net"])
    assert stacks(dp_table) == expected
    assert total(FeeEntry.objects.filter(booking__hand=hand), "amount") == last.house_rake


@pytest.mark.parametrize("role", ["dealer", "auditor"])
def test_only_a_floor_supervisor_corrects_a_hand(settled, role, request, refusal):
    hand, _ = settled
    someone = request.getfixturevalue(role)
    books = Books.now()
    only = "Only a floor supervisor may correct a settled hand"
    with refusal(PermissionDenied, field=None, says=only):
        services.hand_correct(
            hand=hand,
            corrects=hand.settlements.latest("entry").pk,
            by=someone,
            reason=REASON,
            spot_cards={2: FOUR_HEARTS_AT62},
        )
    assert Books.now() == books


@pytest.mark.parametrize("role", ["dealer", "auditor"])
def test_a_correction_by_anyone_but_a_supervisor_is_refused_on_the_locked_path(
    settled, role, request, monkeypatch
):
    """hand_correct enters as every hand service does, locking the hand and checking the role
    there; the rule it asks for is a floor supervisor's (R17), not the table staff's."""
    hand, _ = settled
    entered = []

    def locked_hand(*args, **kwargs):
        entered.append(kwargs)
        return real(*args, **kwargs)

    real = services.corrections.locked_hand
    monkeypatch.setattr(services.corrections, "locked_hand", locked_hand)
    books, events = Books.now(), AuditEvent.objects.count()
    with pytest.raises(PermissionDenied) as refused:
        services.hand_correct(
            hand=hand,
            corrects=hand.settlements.latest("entry").pk,
            by=request.getfixturevalue(role),
            reason=" ",  # the role is refused before anything else is looked at
            spot_cards={2: FOUR_HEARTS_AT62},
        )
    assert refused.value.message == "Only a floor supervisor may correct a settled hand."
    assert entered == [{"settled_ok": True, "supervisor_only": True}]
    assert (Books.now(), AuditEvent.objects.count()) == (books, events)


def test_a_correction_that_would_take_a_stack_below_zero_is_refused_and_changes_nothing(
    settled, dp_table, dealer, supervisor, refusal
):
    """Seat 1 won and coloured up; the corrected cards make it a loser, so $40 would come
    off an empty stack: the $39 it was paid back, and the $1 fee its losing hand owes."""
    hand, _ = settled
    stack_cash_out(seating=seating_at(dp_table, 1), by=dealer)
    books, table_stacks = Books.now(), stacks(dp_table)
    events = AuditEvent.objects.count()
    with refusal(DomainError, field="stack", says="a stack never goes negative") as refused:
        services.hand_correct(
            hand=hand,
            corrects=hand.settlements.latest("entry").pk,
            by=supervisor,
            reason="Seat 1's clubs were misread.",
            spot_cards={1: "Kc 6c 4c 5h 8h Ts 2d"},  # clubs K-6-4: loses to spades K-9-4
        )
    error = refused.value
    assert error.field == "stack"
    assert "seat 1" in error.message and "$40.00 would come off" in error.message
    assert Books.now() == books
    assert stacks(dp_table) == table_stacks
    assert AuditEvent.objects.count() == events
    assert [s.kind for s in settlement_history(hand)] == ["original"]


def settle_changing(settle, cards: str, change):
    """``settle``, with ``change`` applied to its answer on rounds where seat 2 holds ``cards``."""
    seat_2 = parse_hand(cards, field="cards")

    def settle_changed(round_):
        settled = settle(round_)
        return change(settled) if round_.spots[1].hand == seat_2 else settled

    return settle_changed


def a_cent_more_to_seat_1(settled):
    first, *others = settled.spots
    return settled._replace(spots=(first._replace(net=first.net + 1), *others))


def a_cent_from_seat_1_to_the_dealer(settled):
    first, *others = settled.spots
    dealer = settled.dealer._replace(net=settled.dealer.net + 1)
    return settled._replace(dealer=dealer, spots=(first._replace(net=first.net - 1), *others))


def test_r15_a_correction_whose_books_do_not_balance_is_refused_and_nothing_is_saved(
    settled, dp_table, supervisor, monkeypatch
):
    hand, _ = settled
    real = services.corrections.settle
    off = settle_changing(real, FOUR_HEARTS_AT62, a_cent_more_to_seat_1)
    monkeypatch.setattr(services.corrections, "settle", off)
    books, table_stacks, events = Books.now(), stacks(dp_table), AuditEvent.objects.count()
    with pytest.raises(ConservationError, match="R15"):
        services.hand_correct(
            hand=hand,
            corrects=hand.settlements.latest("entry").pk,
            by=supervisor,
            reason=REASON,
            spot_cards={2: FOUR_HEARTS_AT62},
        )
    assert (Books.now(), stacks(dp_table), AuditEvent.objects.count()) == (
        books,
        table_stacks,
        events,
    )
    assert [s.kind for s in settlement_history(hand)] == ["original"]


def test_an_entry_the_engine_no_longer_answers_with_is_not_reversed(
    settled, dp_table, supervisor, monkeypatch
):
    """The reversal undoes the engine's settlement of the stored round; were that not the
    stored result (a balanced answer, but another one), it would undo other money than was
    booked: the correction is refused and nothing changes."""
    hand, _ = settled
    real = services.corrections.settle
    other = settle_changing(real, THREE_HEARTS_QJ3, a_cent_from_seat_1_to_the_dealer)
    monkeypatch.setattr(services.corrections, "settle", other)
    books, table_stacks, events = Books.now(), stacks(dp_table), AuditEvent.objects.count()
    with pytest.raises(Conflict) as refused:
        services.hand_correct(
            hand=hand,
            corrects=hand.settlements.latest("entry").pk,
            by=supervisor,
            reason=REASON,
            spot_cards={2: FOUR_HEARTS_AT62},
        )
    assert "cannot be reversed exactly" in refused.value.message
    assert (Books.now(), stacks(dp_table), AuditEvent.objects.count()) == (
        books,
        table_stacks,
        events,
    )
    assert [s.kind for s in settlement_history(hand)] == ["original"]


def test_a_correction_needs_a_reason_a_settled_hand_and_a_change(
    settled, dp_table, dp_players, dealer, supervisor, refusal
):
    hand, _ = settled
    books = Books.now()

    def correct(field: str, says: str, **kwargs) -> DomainError:
        with refusal(DomainError, field=field, says=says) as refused:
            services.hand_correct(
                hand=hand, corrects=hand.settlements.latest("entry").pk, by=supervisor, **kwargs
            )
        return refused.value

    correct("reason", "Say why the hand is corrected", reason=" ", spot_cards={2: FOUR_HEARTS_AT62})
    error = correct("cards", "changes no result", reason=REASON, spot_cards={2: THREE_HEARTS_QJ3})
    assert (error.field, "changes no result" in error.message) == ("cards", True)
    no_cards = "Seat 5 had no cards in this hand"
    correct("cards.5", no_cards, reason=REASON, spot_cards={5: FOUR_HEARTS_AT62})
    # Refusals name the correction's own input, as hand_cards_enter does (R1).
    once = "a card is dealt once"
    error = correct("cards.2", once, reason=REASON, spot_cards={2: FOUR_CLUBS_KQJ4})  # seat 1's
    assert (error.field, "a card is dealt once" in error.message) == ("cards.2", True)
    correct("cards.1", "'Xx' is not a card", reason=REASON, spot_cards={1: "Kc 6c 4c 5h 8h Ts Xx"})
    error = correct(
        "dealer_cards", "exactly 7 cards", reason=REASON, dealer_cards="Ks 9s 4s 2c 7h 8c"
    )
    assert (error.field, "exactly 7 cards" in error.message) == ("dealer_cards", True)
    assert Books.now() == books

    in_progress = services.hand_start(table=dp_table, by=dealer)
    with refusal(Conflict, field=None, says="is open: only a settled hand is corrected"):
        services.hand_correct(
            hand=in_progress,
            corrects=hand.settlements.latest("entry").pk,  # an entry, of another hand
            by=supervisor,
            reason=REASON,
            spot_cards={2: FOUR_HEARTS_AT62},
        )


def test_the_fee_report_stays_in_exact_cents_when_a_reversal_cancels_fees(
    make_table, seat, dealer, supervisor
):
    """Fees of $0.10 (not a binary fraction): three booked, then reversed by a correction
    that leaves every spot dead, so that the day's fees are exactly $0.00 — not the float
    residue 2.8E-17 that SQLite's SUM leaves (it adds decimals as floating point)."""
    table = make_table(
        "Dime fee", settings={"chip_unit": "0.10", "rake_amount": "0.10", "ante_min": "3"}
    )
    for number in (1, 2, 4):
        seat(table, number)
    hand = start(table, dealer, dp=4, bank="5.10")  # $5 to pay winners after its fee
    wager(hand, table, 1, "5", by=dealer)
    wager(hand, table, 2, "5", by=dealer)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=DEALER_K94,
        spot_cards={1: THREE_HEARTS_QJ3, 2: "Qd 8d 5d As 6c 4h 3s"},
        by=dealer,
    )
    for number in (1, 2):
        services.spot_decide(hand=hand, seat=number, decision="raise", raise_amount="5", by=dealer)
    assert services.hand_settle(hand=hand, by=dealer).house_rake == D("0.30")
    # Read right, both hands win $10, more than the $5 bank: both dead (R13), and with every
    # spot dead the DP's fee comes back too (R12).
    correction = services.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        by=supervisor,
        reason="Both hands misread.",
        spot_cards={1: FOUR_CLUBS_KQJ4, 2: FOUR_HEARTS_AT62},
    )
    assert correction.house_rake == D("0.00")
    day = FeeEntry.objects.filter(booking__hand=hand).values_list("gaming_day", flat=True).first()
    assert FeeEntry.objects.filter(booking__hand=hand).count() == 6
    assert total(FeeEntry.objects.filter(booking__hand=hand), "amount") == D("0.00")
    assert fees_total(table, day, day) == D("0.00")
    assert fees_by_mode(table, day, day) == {day: {"all_players": D("0.00")}}
    for value in [fees_total(table, day, day), *fees_by_mode(table, day, day)[day].values()]:
        assert value.as_tuple().exponent == -2, value  # cents, as money is everywhere


def test_a_correction_of_a_decision_re_settles_and_conserves_money_r15(
    settled, dp_table, supervisor
):
    """Seat 1 raised $10 but had folded: the raise comes back, the ante is lost; every stack,
    the fees and the DP end where the corrected hand puts them, and nothing is created or
    lost (R15)."""
    hand, before = settled
    correction = services.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        by=supervisor,
        reason="Seat 1 folded; the raise was recorded by mistake.",
        decisions={1: {"decision": "fold"}},
    )
    spot = hand.spots.get(seat=1)
    assert (spot.decision, spot.raise_amount) == ("fold", D(0))
    now = stacks(dp_table)
    fees = sum(FeeEntry.objects.filter(booking__hand=hand).values_list("amount", flat=True), D(0))
    assert sum(now.values(), D(0)) - sum(before.values(), D(0)) + fees == 0  # R15
    assert now[1] - before[1] == D(-11)  # the ante and the fee
    assert correction.round["spots"][0]["decision"] == "fold"
    assert "raise" not in correction.round["spots"][0]


def test_a_decision_correction_names_the_seat_it_refuses(settled, supervisor, refusal):
    hand, _ = settled
    with refusal(DomainError, field="decisions.1", says="raise"):
        services.hand_correct(
            hand=hand,
            corrects=hand.settlements.latest("entry").pk,
            by=supervisor,
            reason="Wrong",
            decisions={1: {"decision": "raise", "raise_amount": "7"}},
        )


# --- a correction names the settlement entry it corrects ------------------------------------


def test_a_correction_made_from_an_entry_no_longer_in_force_is_refused_409(
    settled, supervisor, second_supervisor, refusal
):
    """Two supervisors open the hand's page at once; the first corrects it: the second one's
    correction was made from entry 1 and would overwrite a settlement its author never saw."""
    hand, _ = settled
    seen = hand.settlements.latest("entry").pk
    first = services.hand_correct(
        hand=hand, corrects=seen, by=supervisor, reason=REASON, spot_cards={2: FOUR_HEARTS_AT62}
    )
    with refusal(Conflict, field="corrects", says="is no longer the settlement in force") as no:
        services.hand_correct(
            hand=hand,
            corrects=seen,
            by=second_supervisor,
            reason="The dealer's 7h was a 6h.",
            dealer_cards=DEALER_K94.replace("7h", "6s"),
        )
    assert f"entry {first.entry} (id {first.pk}) by {supervisor.username} is" in no.value.message
    assert settlement_in_force(hand) == first


def test_a_correction_naming_no_entry_of_the_hand_is_refused_naming_corrects(
    settled, supervisor, refusal
):
    hand, _ = settled
    for wrong in (10**9, "1", None, True):
        with refusal(DomainError, field="corrects", says="settlement entry"):
            services.hand_correct(
                hand=hand,
                corrects=wrong,
                by=supervisor,
                reason=REASON,
                spot_cards={2: FOUR_HEARTS_AT62},
            )
