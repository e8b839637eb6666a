"""The floor's waitlist screen: open a list, put players on it, call one to an open seat (the
call asks first), seat them; a refusal shows its reason at the top; the dashboard shows the
open seats with who is called and the minutes left. The public board needs no login and shows
a first name and last initial only."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import Seating, WaitlistEntry
from tables.services.seat_calls import waitlist_call
from tables.services.waitlist import waitlist_join, waitlist_open

from .support import parse

pytestmark = pytest.mark.django_db
PAGE = reverse("floor-waitlist")


def action(name: str) -> str:
    return reverse("floor-waitlist-action", args=[name])


@pytest.fixture
def dp_list(world, supervisor):
    return waitlist_open(
        cardroom=world.cardroom,
        banking="designated_player",
        ante_min="5",
        ante_max="100",
        by=supervisor,
    )


def test_the_floor_opens_a_list_and_puts_players_on_it(floor, world):
    page = parse(floor.get(PAGE).content)
    games = [o.text for o in page.find(id="open-game").find_all("option")]
    assert "designated-player $5.00–$100.00" in games and "house $5.00–$100.00" in games
    opened = floor.post(action("open"), {"game": "designated_player|5.00|100.00"})
    assert opened.status_code == 302
    [waitlist] = world.cardroom.waitlists.all()
    floor.post(action("join"), {"waitlist": waitlist.pk, "name": "Sam Ortiz"})
    floor.post(action("join"), {"waitlist": waitlist.pk, "name": "Jo Park", "phone": "on"})
    rows = parse(floor.get(PAGE).content).find(id=f"waitlist-{waitlist.pk}").find_all("tr")
    assert (
        "Sam Ortiz" in rows[1].text and "Jo Park" in rows[2].text and "held until" in rows[2].text
    )


def test_a_call_asks_first_then_calls_the_next_player(floor, world, dp_list, supervisor):
    waitlist_join(waitlist=dp_list, name="Sam Ortiz", by=supervisor)
    form = parse(floor.get(PAGE).content).find(id=f"call-{world.dp_table.pk}-2")
    assert "Call the next player" in form.attrs["data-confirm"]
    body = {"table": world.dp_table.pk, "seat": 2}
    asked = floor.post(action("call"), body)
    assert "Calls the next player on the list to seat 2 at Table 1." in asked.content.decode()
    assert not WaitlistEntry.objects.filter(status="called").exists()
    assert floor.post(action("call"), body | {"confirmed": "1"}).status_code == 302
    assert WaitlistEntry.objects.get().called_seat == 2


def test_the_called_player_is_seated_from_the_screen(floor, world, dp_list, supervisor):
    entry = waitlist_join(waitlist=dp_list, name="Sam Ortiz", by=supervisor)
    waitlist_call(table=world.dp_table, seat=2, by=supervisor)
    seated = floor.post(action("seat"), {"entry": entry.pk, "buy_in": "200", "confirmed": "1"})
    assert seated.status_code == 302
    seating = Seating.objects.get(table=world.dp_table, seat=2, left_at=None)
    assert (seating.player.name, str(seating.stack)) == ("Sam Ortiz", "200.00")


def test_a_refused_call_shows_its_reason_at_the_top(floor, world, dp_list, supervisor):
    answer = floor.post(action("call"), {"table": world.dp_table.pk, "seat": 2, "confirmed": "1"})
    assert answer.status_code == 422
    alert = parse(answer.content).find(role="alert")
    assert "No one is waiting on the" in alert.text


def test_the_dashboard_shows_the_open_seats_and_who_is_called(floor, world, dp_list, supervisor):
    waitlist_join(waitlist=dp_list, name="Sam Ortiz", by=supervisor)
    waitlist_call(table=world.dp_table, seat=2, by=supervisor)
    page = parse(floor.get(reverse("floor-dashboard")).content)
    row = page.find(id=f"opening-{world.dp_table.pk}-2")
    assert "Sam Ortiz" in row.text and row.find_all("td")[-1].text.strip() == "3"
    assert page.find(id=f"opening-{world.dp_table.pk}-4") is not None
    assert not page.find_all(id=f"opening-{world.dp_table.pk}-1")  # seat 1 is taken
    # The house table's open seats have no list for their game: counted, not listed.
    assert not page.find_all(id=f"opening-{world.house_table.pk}-1")
    assert "other open seats: no list for their game" in page.find(id="seat-openings").text


def test_the_public_board_needs_no_login_and_shows_first_names_and_initials_only(
    world, dp_list, supervisor
):
    registered = world.seats[1].player  # "Avery", seated, joins for another seat
    waitlist_join(waitlist=dp_list, player=registered, by=supervisor)
    waitlist_join(waitlist=dp_list, name="Samuel Ortiz-Vance", phone=True, by=supervisor)
    waitlist_join(waitlist=dp_list, name="Jo Park", by=supervisor)
    waitlist_call(table=world.dp_table, seat=2, by=supervisor)
    answer = Client().get(reverse("public-board", args=[world.cardroom.pk]))
    assert answer.status_code == 200
    html = answer.content.decode()
    names = [li.text.split("·")[0].strip() for li in parse(html).find_all("li")]
    assert names == ["Avery", "Samuel O.", "Jo P."]
    assert "please come to the floor" in parse(html).find_all("li")[0].text
    for leak in ("Ortiz", "Vance", "Park", "phone", "/floor/", "csrf"):
        assert leak not in html, leak
    # No number but the list's limits and the time: no id, phone or place number leaks.
    text = re.sub(r"<[^>]*>", " ", html.split("<body")[1])
    allowed = set(re.findall(r"\d+", str(dp_list) + html.split("Updated")[1]))
    assert set(re.findall(r"\d+", text)) <= allowed
    assert all(not re.search(r"\d", name) for name in names)


def test_the_board_of_no_cardroom_is_not_found():
    assert Client().get(reverse("public-board", args=[99999])).status_code == 404


def test_the_floor_sets_the_waitlists_minutes_and_a_bad_one_is_refused_at_the_top(floor, world):
    page = parse(floor.get(PAGE).content)
    assert page.find(id="id_timing_seat_call_minutes").attrs["value"] == "3"

    saved = floor.post(action("timing"), {"seat_call_minutes": "6", "phone_hold_minutes": "40"})
    assert saved.status_code == 302
    world.cardroom.refresh_from_db()
    assert (world.cardroom.seat_call_minutes, world.cardroom.phone_hold_minutes) == (6, 40)
    assert "has 6 minutes to take the seat" in floor.get(PAGE).content.decode()

    refused = floor.post(action("timing"), {"seat_call_minutes": "0", "phone_hold_minutes": "40"})
    assert refused.status_code == 422
    alert = parse(refused.content).find(role="alert")
    assert "1 to 120" in alert.text
    world.cardroom.refresh_from_db()
    assert world.cardroom.seat_call_minutes == 6
