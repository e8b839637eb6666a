"""R16 as in force from 1 April 2026: a failed rotation window ends the game (hand_start is
refused until a floor supervisor acknowledges and restarts, audited), judged by the settings
the hand starts under; a proposition player never holds the position twice in a row nor
places spot wagers; each offer carries its moment."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from tables import selectors
from tables.models import GameStop
from tables.rotation import designated_player_rotate, game_restart
from tables.services.seating import seating_flag_proposition
from wagers import services as hand_services
from wagers.models import Hand

from . import test_rotation_compliance as played

pytestmark = pytest.mark.django_db

# The table with Avery, Blake and Casey, and ``hand(at=, dp=)``: the R16 suite's fixtures.
table = played.table
hand = played.hand


def start(table, dealer, **kwargs):
    started = hand_services.hand_start(table=table, by=dealer, **kwargs)
    hand_services.hand_cancel(hand=started, by=dealer)
    return started


def test_r16_a_failed_window_stops_the_game_until_a_supervisor_restarts_it(
    table, hand, clock, dealer, supervisor, refusal
):
    for at in range(1, 40, 5):  # Avery alone, minutes 1–36
        hand(at=at, dp=1)
    clock.at(41)
    with pytest.raises(Conflict, match="is stopped") as refused:
        start(table, dealer)
    assert refused.value.field == "game_stop"
    stop = GameStop.objects.get()
    assert (stop.holders, stop.hands, stop.window_minutes) == (["Avery"], 8, 40)
    assert AuditEvent.objects.filter(action="rotation.game_stopped").count() == 1
    clock.at(42)
    with refusal(Conflict, field="game_stop", says="A floor supervisor must acknowledge"):
        hand_services.hand_start(table=table, by=dealer)
    with refusal(PermissionDenied, field=None, says="floor supervisor"):
        game_restart(table=table, note="Explained.", by=dealer)
    with refusal(DomainError, field="note", says="Say what was done"):
        game_restart(table=table, note=" ", by=supervisor)
    game_restart(
        table=table, note="Rotation explained; Blake and Casey will take turns.", by=supervisor
    )
    assert AuditEvent.objects.filter(action="rotation.game_restarted").count() == 1
    clock.at(43)
    started = start(table, dealer)  # play is judged afresh from the restart
    assert Hand.objects.filter(pk=started.pk).exists()
    assert selectors.game_stop_open(table) is None


def test_r16_two_holders_in_the_window_keep_the_game_going(table, hand, clock, dealer):
    for i, at in enumerate(range(1, 40, 5)):
        hand(at=at, dp=3 if i % 4 == 1 else 1)
    clock.at(41)
    start(table, dealer)
    assert not GameStop.objects.exists()


def test_r16_the_window_is_the_one_of_the_settings_the_hand_starts_under(
    table, hand, clock, dealer, approve
):
    for at in range(1, 30, 5):  # Avery alone for 26 minutes: fine under 40
        hand(at=at, dp=1)
    clock.at(30)
    approve(table, dp_rotation_window=20, reason="The Bureau's 20 minutes")
    clock.at(31)
    with pytest.raises(Conflict, match="in the 20 minutes"):
        start(table, dealer)
    assert GameStop.objects.get().settings_version == selectors.current_settings(table).version


def test_r16_a_proposition_player_never_holds_the_position_twice_in_a_row(
    table, clock, dealer, supervisor
):
    prop = selectors.seated(table).get(seat=3)
    seating_flag_proposition(seating=prop, flagged=True, by=supervisor)
    clock.at(1)
    first = designated_player_rotate(table=table, by=dealer, draw_cards={1: "2c", 3: "As", 5: "3c"})
    assert first.designated_player.seat == 3
    clock.at(2)
    second = designated_player_rotate(table=table, by=dealer, refusals=[5, 1])
    assert second.designated_player is None
    answer = next(offer for offer in second.offers if offer["seat"] == 3)
    assert answer["outcome"] == "ineligible"
    assert "two hands in a row" in answer["reason"]
    assert all(offer["answered_at"] == second.created_at.isoformat() for offer in second.offers)


def test_r16_a_proposition_players_seat_places_no_spot_wagers(
    table, clock, dealer, supervisor, refusal
):
    prop = selectors.seated(table).get(seat=5)
    seating_flag_proposition(seating=prop, flagged=True, by=supervisor)
    clock.at(1)
    started = hand_services.hand_start(
        table=table, by=dealer, draw_cards={1: "As", 3: "2c", 5: "3c"}
    )
    with refusal(DomainError, field="seating", says="proposition player"):
        hand_services.wager_place(hand=started, seating=prop, ante="10", by=dealer)
