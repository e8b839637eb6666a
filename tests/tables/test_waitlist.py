"""The waitlist: a list per game and limits, joining (in person, by name, by phone with a
hold) under the exclusion and age checks, its order audited, and removing."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from patrons.exclusions import Excluded, ExclusionInput, exclusion_add
from patrons.identity import IdentityInput, identity_record
from patrons.models import Incident
from patrons.persons import player_record_new
from tables.models import WaitlistEntry
from tables.services.waitlist import (
    waitlist_arrive,
    waitlist_join,
    waitlist_move,
    waitlist_open,
    waitlist_remove,
)

from .support import T0

pytestmark = pytest.mark.django_db


@pytest.fixture
def dp_list(cardroom, dp_table, supervisor):
    """The list of the designated-player game at the default antes ($5–$100)."""
    return waitlist_open(
        cardroom=cardroom, banking="designated_player", ante_min="5", ante_max="100", by=supervisor
    )


def with_id(player, by, *, born: date = date(1980, 5, 17)):
    identity_record(
        player=player,
        identity=IdentityInput(
            date_of_birth=born,
            id_type="driver_licence",
            id_number="Y1234567",
            id_issuer="CA",
            id_expires=date(2030, 1, 1),
        ),
        by=by,
    )
    return player


def events(action: str) -> list[dict]:
    return [json.loads(e.payload) for e in AuditEvent.objects.filter(action=action).order_by("seq")]


def test_a_list_is_opened_for_a_game_a_table_offers(cardroom, dp_table, supervisor, dp_list):
    assert str(dp_list) == "designated player $5.00–$100.00"
    assert events("waitlist.opened") == [
        {"banking": "designated_player", "ante_min": "5.00", "ante_max": "100.00"}
    ]


def test_a_list_for_a_game_no_table_offers_is_refused(cardroom, dp_table, supervisor, refusal):
    with refusal(DomainError, field="ante_min", says="a list is for a game a table offers"):
        waitlist_open(
            cardroom=cardroom, banking="house", ante_min="5", ante_max="100", by=supervisor
        )


def test_a_game_has_one_list(cardroom, dp_table, supervisor, dp_list, refusal):
    with refusal(Conflict, field="ante_min", says="has its list already"):
        waitlist_open(
            cardroom=cardroom,
            banking="designated_player",
            ante_min="5",
            ante_max="100",
            by=supervisor,
        )


def test_players_join_in_person_by_name_and_by_phone_in_order(
    dp_list, make_player, supervisor, clock
):
    avery = waitlist_join(waitlist=dp_list, player=make_player("Avery Lane"), by=supervisor)
    walk_in = waitlist_join(waitlist=dp_list, name="  Sam   Ortiz ", by=supervisor)
    caller = waitlist_join(waitlist=dp_list, name="Jo Park", phone=True, by=supervisor)
    assert [(e.name, e.position, e.channel) for e in (avery, walk_in, caller)] == [
        ("Avery Lane", 1, "in_person"),
        ("Sam Ortiz", 2, "in_person"),
        ("Jo Park", 3, "phone"),
    ]
    assert caller.hold_until == clock.now + timedelta(minutes=30)  # the cardroom's default
    assert caller.arrived_at is None and avery.arrived_at == clock.now
    assert [e["place"] for e in events("waitlist.joined")] == [1, 2, 3]


def test_a_player_is_on_a_list_once(dp_list, make_player, supervisor, refusal):
    player = make_player("Avery Lane")
    waitlist_join(waitlist=dp_list, player=player, by=supervisor)
    with refusal(Conflict, field="player", says="Avery Lane is on the"):
        waitlist_join(waitlist=dp_list, player=player, by=supervisor)


def test_a_dealer_reads_the_list_but_does_not_change_it(dp_list, dealer, refusal):
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor may put"):
        waitlist_join(waitlist=dp_list, name="Sam Ortiz", by=dealer)


def test_an_excluded_player_is_refused_at_joining_and_the_match_raises_an_alert(
    cardroom, dp_list, make_player, supervisor, clock
):
    player = with_id(make_player("Robin Vale"), supervisor)
    exclusion_add(
        cardroom=cardroom,
        entry=ExclusionInput(
            kind="self_excluded", name="", starts_on=date(2024, 1, 1), reason="Asked for a year."
        ),
        player=player,
        by=supervisor,
    )
    with pytest.raises(Excluded, match="Robin Vale cannot join the waitlist") as refused:
        waitlist_join(waitlist=dp_list, player=player, by=supervisor)
    assert refused.value.field == "player"
    assert not WaitlistEntry.objects.exists()
    alert = Incident.objects.get(kind=Incident.Kind.EXCLUSION_MATCH)
    assert "tried to join" in alert.summary


def test_a_player_under_the_minimum_age_is_refused_at_joining(cardroom, dp_list, supervisor, clock):
    player = player_record_new(cardroom=cardroom, name="Kit Young")
    with_id(player, supervisor, born=T0.date().replace(year=T0.year - 17))
    with pytest.raises(Conflict, match="cannot join the waitlist: under the minimum age of 21"):
        waitlist_join(waitlist=dp_list, player=player, by=supervisor)
    assert not WaitlistEntry.objects.exists()
    assert Incident.objects.filter(kind=Incident.Kind.UNDER_AGE).count() == 1


def test_the_floor_moves_a_player_and_the_order_is_audited(dp_list, supervisor):
    a, b, c = (
        waitlist_join(waitlist=dp_list, name=n, by=supervisor) for n in ("A a", "B b", "C c")
    )
    waitlist_move(entry=c, place=1, by=supervisor)
    order = list(WaitlistEntry.objects.order_by("position").values_list("name", "position"))
    assert order == [("C c", 1), ("A a", 2), ("B b", 3)]
    [moved] = events("waitlist.reordered")
    assert (moved["order_before"], moved["order_after"]) == ([a.pk, b.pk, c.pk], [c.pk, a.pk, b.pk])


def test_a_move_off_the_list_or_to_its_own_place_is_refused(dp_list, supervisor, refusal):
    a = waitlist_join(waitlist=dp_list, name="A a", by=supervisor)
    with refusal(DomainError, field="place", says="from 1 to 1"):
        waitlist_move(entry=a, place=2, by=supervisor)
    with refusal(DomainError, field="place", says="at place 1 already"):
        waitlist_move(entry=a, place=1, by=supervisor)


def test_a_player_leaves_and_the_others_keep_their_order(dp_list, supervisor, refusal):
    a, b = (waitlist_join(waitlist=dp_list, name=n, by=supervisor) for n in ("Avery Lane", "B b"))
    waitlist_remove(entry=a, by=supervisor)
    a.refresh_from_db()
    assert a.status == "removed" and a.ended_at is not None
    assert events("waitlist.left")[0]["order_before"] == [a.pk, b.pk]
    with refusal(Conflict, field="entry", says="Avery Lane left the list"):
        waitlist_remove(entry=a, by=supervisor)


def test_a_phone_player_checks_in_within_the_hold_and_not_after(
    dp_list, supervisor, clock, refusal
):
    early = waitlist_join(waitlist=dp_list, name="Jo Park", phone=True, by=supervisor)
    late = waitlist_join(waitlist=dp_list, name="Lee Chan", phone=True, by=supervisor)
    clock.advance(minutes=10)
    assert waitlist_arrive(entry=early, by=supervisor).arrived_at == clock.now
    clock.advance(minutes=21)
    with refusal(Conflict, field="entry", says="Lee Chan's hold ran out"):
        waitlist_arrive(entry=late, by=supervisor)
