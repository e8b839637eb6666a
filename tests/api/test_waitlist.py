"""The waitlist through the API: the floor opens a list, players join, the floor calls one to
a seat and seats them; dealers read and are refused writes; a refusal answers the one error
shape, naming the field, and changes nothing."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from tables.models import Seating, WaitlistEntry

pytestmark = pytest.mark.django_db

V = "/api/v1"


def test_the_floor_opens_a_list_players_join_and_one_is_called_and_seated(api, world):
    floor = api(world.supervisor)
    table = world["dp_table"]  # the game the list is for
    opened = floor.post(
        f"{V}/waitlists/",
        {
            "cardroom": world["cardroom"],
            "banking": "designated_player",
            "ante_min": "5.00",
            "ante_max": "100.00",
        },
        format="json",
    )
    assert opened.status_code == 201, opened.content
    pk = opened.json()["id"]
    for body in ({"player": world["new_player"]}, {"name": "Sam Ortiz", "phone": True}):
        joined = floor.post(f"{V}/waitlists/{pk}/entries/", body, format="json")
        assert joined.status_code == 201, joined.content
    listed = api(world.dealer).get(f"{V}/waitlists/")
    assert listed.status_code == 200
    [entries] = [w["entries"] for w in listed.json() if w["id"] == pk]
    assert [(e["name"], e["position"], e["channel"]) for e in entries] == [
        ("Walk-in", 1, "in_person"),
        ("Sam Ortiz", 2, "phone"),
    ]
    called = floor.post(f"{V}/tables/{table}/seat-calls/", {"seat": 3}, format="json")
    assert called.status_code == 201, called.content
    assert (called.json()["name"], called.json()["called_seat"]) == ("Walk-in", 3)
    seated = floor.post(
        f"{V}/waitlist-entries/{called.json()['id']}/seat/", {"buy_in": "300"}, format="json"
    )
    assert seated.status_code == 201, seated.content
    assert (seated.json()["seat"], seated.json()["stack"]) == (3, "300.00")
    assert WaitlistEntry.objects.get(pk=called.json()["id"]).status == "seated"


def test_a_call_for_a_player_who_left_is_refused_by_name_in_the_error_shape(
    api, world, nothing_written
):
    entry = world.waiting_entry
    floor = api(world.supervisor)
    assert floor.post(f"{V}/waitlist-entries/{entry.pk}/remove/").status_code == 200
    with nothing_written():
        answer = floor.post(
            f"{V}/tables/{world['dp_table']}/seat-calls/",
            {"seat": 3, "entry": entry.pk},
            format="json",
        )
    assert answer.status_code == 409
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == ("conflict", "entry")
    assert "Wren Lister left the list" in error["message"]


def test_a_dealer_reads_the_lists_but_writes_nothing(api, world):
    dealer = api(world.dealer)
    assert dealer.get(f"{V}/waitlists/").status_code == 200
    answer = dealer.post(f"{V}/waitlists/{world['waitlist']}/entries/", {"name": "A b"})
    assert answer.status_code == 403
    assert not WaitlistEntry.objects.exists()


def test_a_seat_change_through_the_api_keeps_the_stack(api, world):
    seating = world.seating
    moved = api(world.supervisor).post(
        f"{V}/seatings/{seating.pk}/move/",
        {"table": world["dp_table"], "seat": 7},
        format="json",
    )
    assert moved.status_code == 201, moved.content
    assert (moved.json()["seat"], moved.json()["stack"]) == (7, f"{seating.stack:.2f}")
    assert Seating.objects.get(pk=seating.pk).left_at is not None


def test_the_floor_reads_and_sets_the_waitlist_clocks_and_a_dealer_reads_them(api, world):
    url = f"{V}/cardrooms/{world['cardroom']}/waitlist-timing/"
    assert api(world.dealer).get(url).json() == {
        "cardroom": world["cardroom"],
        "seat_call_minutes": 3,
        "phone_hold_minutes": 30,
    }
    floor = api(world.supervisor)
    answer = floor.put(url, {"phone_hold_minutes": 45}, format="json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["seat_call_minutes"], answer.json()["phone_hold_minutes"]) == (3, 45)
    assert AuditEvent.objects.filter(action="cardroom.waitlist_timing_set").count() == 1


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"seat_call_minutes": 0}, "seat_call_minutes", 422),
        ({"seat_call_minutes": 5, "phone_hold_minutes": 121}, "phone_hold_minutes", 422),
        ({"seat_call_minutes": "soon"}, "seat_call_minutes", 400),
        ({"push_minutes": 30}, "push_minutes", 422),
    ],
)
def test_a_bad_waitlist_clock_is_refused_naming_it_and_changes_nothing(
    api, world, nothing_written, body, field, status
):
    url = f"{V}/cardrooms/{world['cardroom']}/waitlist-timing/"
    with nothing_written():
        answer = api(world.supervisor).put(url, body, format="json")
    assert answer.status_code == status, answer.content
    assert answer.json()["error"]["field"] == field
