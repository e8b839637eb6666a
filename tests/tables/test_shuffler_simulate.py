"""``manage.py shuffler_simulate``: a simulated card-reading shuffler that deals a table's
hand over the device API, in this process (Django's test client) and over real HTTP against a
live server — the same URLs either way. R1: seven distinct cards a hand, no card twice in the
round; the spots by seat, then the dealer's (the DP's) hand last."""

from __future__ import annotations

import threading
import time
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from engine.cards import CARD_NAMES
from tables.shuffler_simulator import (
    HttpDevice,
    InProcessDevice,
    Simulator,
    SimulatorError,
    deal_round,
)
from tests.tables.shuffler_support import deal_world, register_shuffler, wagered_hand
from wagers import services as hand_services
from wagers.models import Hand, ShufflerReport
from wagers.shuffler_selectors import last_shuffler_refusal


def simulate(**options) -> str:
    out = StringIO()
    call_command("shuffler_simulate", stdout=out, **options)
    return out.getvalue()


def _round_cards(hand: Hand) -> list[str]:
    """The round's hands in dispense order: the live spots by seat, the dealer's last."""
    spots = [s.cards for s in hand.spots.order_by("seat") if not s.dead_reason]
    return [*spots, hand.dealer_cards]


# --- the deck -------------------------------------------------------------------------------


def test_a_round_is_seven_distinct_cards_a_hand_none_twice_r1():
    hands = deal_round(7)  # 6 spots and the dealer: the most a round deals
    cards = [card for hand in hands for card in hand]
    assert [len(hand) for hand in hands] == [7] * 7
    assert len(set(cards)) == 49 and set(cards) <= set(CARD_NAMES)


def test_a_spoiled_round_repeats_a_card_or_is_a_hand_short():
    repeated = deal_round(3, fault="repeated_card")
    assert repeated[0][0] == repeated[-1][0]
    assert len(deal_round(3, fault="hand_short")) == 2
    with pytest.raises(SimulatorError, match="No such fault"):
        deal_round(3, fault="melted")


# --- in this process ------------------------------------------------------------------------


@pytest.mark.django_db
def test_it_deals_the_waiting_hand_by_seat_with_the_dealers_last_r1(supervisor, dealer):
    world = deal_world(supervisor, dealer)
    device, token = register_shuffler(world.table, supervisor)
    hand = wagered_hand(world, dealer)

    printed = simulate(table=world.table.pk, token=token, in_process=True, wait=1)

    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEALT
    assert hand.card_source == Hand.CardSource.SHUFFLER
    dealt = _round_cards(hand)
    cards = " ".join(dealt).split()
    assert all(len(h.split()) == 7 for h in dealt) and len(set(cards)) == len(cards)  # R1
    # What it printed is what was dealt, in dispense order (canonical card text each side).
    lines = [line.split(": ", 1)[1] for line in printed.splitlines() if line.startswith("  ")]
    assert [set(line.split()) for line in lines] == [set(h.split()) for h in dealt]
    assert f"hand {hand.number}" in printed and "Sequence 1" in printed
    report = ShufflerReport.objects.get(device=device)
    assert (report.sequence, report.outcome, report.hand) == (1, "dealt", hand)


@pytest.mark.django_db
def test_its_sequence_numbers_go_on_from_the_last_the_system_holds(supervisor, dealer):
    world = deal_world(supervisor, dealer)
    device, token = register_shuffler(world.table, supervisor)
    for _ in range(2):
        hand = wagered_hand(world, dealer)
        simulate(table=world.table.pk, token=token, in_process=True, wait=1)
        hand.refresh_from_db()
        assert hand.status == Hand.Status.DEALT
        hand_services.hand_declare_misdeal(hand=hand, reason="shuffler_fault", by=dealer)
    sequences = ShufflerReport.objects.filter(device=device).order_by("sequence")
    assert [(r.sequence, r.outcome) for r in sequences] == [(1, "dealt"), (2, "dealt")]


@pytest.mark.django_db
def test_a_spoiled_message_is_refused_by_name_and_the_hand_still_waits(supervisor, dealer):
    world = deal_world(supervisor, dealer)
    _, token = register_shuffler(world.table, supervisor)
    hand = wagered_hand(world, dealer)

    printed = simulate(
        table=world.table.pk, token=token, in_process=True, wait=1, fault="repeated_card"
    )

    hand.refresh_from_db()
    assert hand.status == Hand.Status.WAGERING and not hand.dealer_cards
    refusal = last_shuffler_refusal(hand)
    assert refusal is not None and refusal.field.startswith("hands.")
    assert "refused (hands." in printed
    # Sent right, the next message deals it: the shuffler tries again.
    simulate(table=world.table.pk, token=token, in_process=True, wait=1)
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEALT


@pytest.mark.django_db
def test_with_no_hand_waiting_it_gives_up_after_its_wait(supervisor, dealer):
    world = deal_world(supervisor, dealer)
    _, token = register_shuffler(world.table, supervisor)
    with pytest.raises(CommandError, match="No hand waited for cards within 0.2 s"):
        simulate(table=world.table.pk, token=token, in_process=True, wait=0.2)
    assert not ShufflerReport.objects.exists()


@pytest.mark.django_db
def test_it_refuses_a_wrong_token_and_another_tables_id(supervisor, dealer):
    world = deal_world(supervisor, dealer)
    _, token = register_shuffler(world.table, supervisor)
    with pytest.raises(CommandError, match="401"):
        simulate(table=world.table.pk, token="not-a-token", in_process=True, wait=0)
    with pytest.raises(CommandError, match="not of table id"):
        simulate(table=world.table.pk + 1000, token=token, in_process=True, wait=0)
    with pytest.raises(CommandError, match="--token"):
        simulate(table=world.table.pk, in_process=True)


# --- over real HTTP -------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_over_http_it_waits_for_the_hand_then_deals_it(live_server, supervisor, dealer):
    """The simulator runs first (a device switched on at an idle table) and polls; the dealer
    starts the hand and places the wagers; the shuffler deals as soon as it waits."""
    world = deal_world(supervisor, dealer)
    _, token = register_shuffler(world.table, supervisor)
    simulator = Simulator(HttpDevice(live_server.url, token), poll=0.1)
    dealt: list = []
    errors: list[Exception] = []

    def run() -> None:
        try:
            dealt.extend(simulator.run(rounds=1, wait=20, out=lambda line: None))
        except Exception as error:  # reported below, in the test's thread
            errors.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.3)  # the device asks, finds no hand waiting, and waits
    hand = wagered_hand(world, dealer)
    thread.join(timeout=30)

    assert not errors, errors
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEALT and hand.card_source == Hand.CardSource.SHUFFLER
    assert [d.status for d in dealt] == [201]
    # The hands as dispensed went to the spots by seat, the dealer's last.
    assert [set(h) for h in dealt[0].hands] == [set(h.split()) for h in _round_cards(hand)]


@pytest.mark.django_db(transaction=True)
def test_over_http_the_command_deals_and_prints(live_server, supervisor, dealer):
    world = deal_world(supervisor, dealer)
    _, token = register_shuffler(world.table, supervisor)
    hand = wagered_hand(world, dealer)
    printed = simulate(table=world.table.pk, token=token, url=live_server.url, wait=5)
    hand.refresh_from_db()
    assert hand.card_source == Hand.CardSource.SHUFFLER
    assert f"Shuffler of {world.table}" in printed and "dealer: " in printed


def test_an_unreachable_server_is_said_in_words():
    device = HttpDevice("http://127.0.0.1:9", "token", timeout=1)
    with pytest.raises(SimulatorError, match="Cannot reach http://127.0.0.1:9"):
        Simulator(device).waiting()


@pytest.mark.django_db
def test_in_process_needs_no_server(supervisor, dealer):
    world = deal_world(supervisor, dealer)
    _, token = register_shuffler(world.table, supervisor)
    state = Simulator(InProcessDevice(token)).waiting()
    assert (state["table"], state["hand"], state["last_sequence"]) == (world.table.pk, None, None)
