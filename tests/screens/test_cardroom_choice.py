"""Two cardrooms on one deployment's screens: each person's screens show the cardroom they
work in; one who works in several chooses it in the header; nothing of another room is on
any screen, by list or by address."""

from __future__ import annotations

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from tables.models import CardroomMembership, Table
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tests.conftest import a_person

from .support import parse

pytestmark = [pytest.mark.django_db, pytest.mark.own_cardrooms]


@pytest.fixture
def rooms(administrator, supervisor, dealer):
    """Harbour (the supervisor's, a table open) and Riverside (its own supervisor's, a
    table open); the auditor works in both."""
    harbour = cardroom_create(name="Harbour", time_zone="America/New_York", by=administrator)
    riverside = cardroom_create(name="Riverside", time_zone="America/Chicago", by=administrator)
    river_floor = a_person("riverfloor", FLOOR_SUPERVISOR, "Rio", "Banks")
    auditor = a_person("bothrooms", COMPLIANCE_AUDITOR, "Bo", "Tran")
    for person, room in [
        (supervisor, harbour),
        (dealer, harbour),
        (river_floor, riverside),
        (dealer, riverside),
        (auditor, harbour),
        (auditor, riverside),
    ]:
        CardroomMembership.objects.create(user=person, cardroom=room)
    tables = {}
    for room, by, name in [(harbour, supervisor, "Harbour 1"), (riverside, river_floor, "River 1")]:
        tables[name] = table_create(cardroom=room, name=name, banking="house", by=by)
        table_open(table=tables[name], dealer=dealer, by=by)
    return harbour, riverside, river_floor, auditor, tables


def test_a_supervisor_sees_their_own_rooms_tables_and_no_chooser(client, supervisor, rooms):
    client.force_login(supervisor)
    page = client.get(reverse("floor-dashboard")).content.decode()
    assert "Harbour 1" in page
    assert "River 1" not in page
    assert 'id="cardroom-chosen"' not in client.get(reverse("home")).content.decode()


def test_another_rooms_table_is_not_there_by_its_address(client, rooms):
    *_, river_floor, _, tables = rooms
    client.force_login(river_floor)
    harbour_table = tables["Harbour 1"]
    assert client.get(reverse("floor-table", args=[harbour_table.pk])).status_code == 404
    close = reverse("floor-table-action", args=[harbour_table.pk, "close"])
    assert client.post(close, {"confirmed": "1"}).status_code == 404
    assert Table.objects.get(pk=harbour_table.pk).sessions.filter(closed_at=None).exists()
    assert client.get(reverse("floor-table", args=[tables["River 1"].pk])).status_code == 200


def test_one_who_works_in_two_rooms_chooses_the_one_their_screens_show(client, rooms):
    harbour, riverside, _, auditor, _ = rooms
    client.force_login(auditor)
    home = parse(client.get(reverse("home"), follow=True).content)
    chooser = home.find("select", id="cardroom-chosen")
    assert [o.text for o in chooser.find_all("option")] == ["Harbour", "Riverside"]
    assert chooser.find("option", selected="").text == "Harbour"  # the first, until chosen

    audit = reverse("compliance-audit")
    harbour_events = AuditEvent.objects.filter(chain=f"cardroom:{harbour.pk}").count()
    assert harbour_events > 0
    response = client.post(
        reverse("cardroom-choose"), {"cardroom": riverside.pk, "next": audit}, follow=True
    )
    assert response.redirect_chain[-1][0] == audit
    assert "Your screens show Riverside now." in response.content.decode()
    page = parse(response.content)
    assert page.find("select", id="cardroom-chosen").find("option", selected="").text == (
        "Riverside"
    )
    assert "River 1" in page.text  # the log of Riverside's table
    assert "Harbour 1" not in page.text


def test_a_room_one_does_not_work_in_cannot_be_chosen(client, supervisor, rooms):
    _, riverside, *_ = rooms
    client.force_login(supervisor)
    response = client.post(reverse("cardroom-choose"), {"cardroom": riverside.pk}, follow=True)
    assert "Cardroom: choose one of the cardrooms you work in." in response.content.decode()
    assert client.session.get("cardroom") is None
    assert "River 1" not in client.get(reverse("floor-dashboard")).content.decode()


def test_the_public_board_of_a_room_is_that_rooms(client, rooms):
    harbour, riverside, *_ = rooms
    assert "Harbour" in client.get(reverse("public-board", args=[harbour.pk])).content.decode()
    board = client.get(reverse("public-board", args=[riverside.pk])).content.decode()
    assert "Riverside" in board and "Harbour" not in board


def test_an_administrator_of_both_rooms_grants_and_withdraws_one_on_the_staff_screen(
    client, administrator, rooms
):
    harbour, riverside, river_floor, *_ = rooms
    client.force_login(administrator)  # who made both rooms, and works in both
    page = parse(client.get(reverse("floor-staff")).content)  # Harbour's, the first
    assert not page.find_all(id=f"staff-{river_floor.pk}")  # Riverside's supervisor
    client.post(reverse("cardroom-choose"), {"cardroom": riverside.pk})
    row = parse(client.get(reverse("floor-staff")).content).by_id(f"staff-{river_floor.pk}")
    assert row.find("small", class_="cardrooms").text == "Riverside"
    action = reverse("floor-staff-action", args=[river_floor.pk, "cardroom"])
    assert client.post(action, {"cardroom": harbour.pk, "works": 1}).status_code == 302
    row = parse(client.get(reverse("floor-staff")).content).by_id(f"staff-{river_floor.pk}")
    assert row.find("small", class_="cardrooms").text == "Harbour, Riverside"
    client.post(action, {"cardroom": harbour.pk, "works": 0})
    assert not CardroomMembership.objects.filter(user=river_floor, cardroom=harbour).exists()
    twice = client.post(action, {"cardroom": harbour.pk, "works": 0})
    assert twice.status_code == 422
    assert "Rio Banks does not work in Harbour." in twice.content.decode()
