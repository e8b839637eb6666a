"""The authorization matrix with two cardrooms: the world's cardroom (every object the matrix
names) and a second one whose people work there alone. Every row of the matrix, sent by the
second room's floor supervisor, dealer, compliance auditor, administrator, cashier and count
team member: nothing of the first room is read or changed.

- A request that names an object of the first room (its URL does) is refused (401/403/404/405;
  a 404 where the person's role could reach it in their own room), and writes nothing.
- A list that names no object (``/tables/``, the audit log's verification runs) answers, but
  shows no row of the first room.
"""

from __future__ import annotations

import json

import pytest
from django.db import transaction

from audit.models import AuditEvent
from core.roles import (
    ADMINISTRATOR,
    CASHIER,
    COMPLIANCE_AUDITOR,
    COUNT_TEAM,
    DEALER,
    FLOOR_SUPERVISOR,
)
from tables.models import CardroomMembership, Table
from tables.services.cardrooms import cardroom_create
from tests.conftest import a_person

from .test_authorization import MATRIX, body_for, cashier_status, count_team_status

pytestmark = pytest.mark.django_db

#: The second room's people, by the matrix's actor whose row they are sent as.
STRANGERS = {
    "supervisor": ("supervisor_b", FLOOR_SUPERVISOR),
    "dealer": ("dealer_b", DEALER),
    "auditor": ("auditor_b", COMPLIANCE_AUDITOR),
    "administrator": ("administrator_b", ADMINISTRATOR),
    "cashier": ("cashier_b", CASHIER),
    "counter": ("counter_b", COUNT_TEAM),
}
REFUSED = {401, 403, 404, 405}
#: What answers the same in every room: one's own account, the state's exclusion lists (they
#: apply in every cardroom), a settle preview (it reads and writes nothing), a new cardroom.
EVERYONE_S = (
    "/api/v1/auth/",
    "/api/v1/exclusions/import/",
    "/api/v1/settle-preview/",
)
#: The verifications check the deployment's whole audit chains, books and state (a system
#: check, not a cardroom's records): their runs are everyone's who may run them.
SYSTEM_CHECKS = ("/api/v1/audit/verify/", "/api/v1/books/verify/", "/api/v1/state/verify/")


@pytest.fixture
def second_room(world, administrator):
    """The second cardroom and its people: members of it alone."""
    room = cardroom_create(name="Riverside Cardroom", time_zone="America/Chicago", by=administrator)
    people = {}
    for actor, (username, role) in STRANGERS.items():
        person = a_person(username, role, actor.title(), "Stranger")
        people[actor] = person
    return room, people


def _only_in(room, people) -> None:
    """The suites put everyone in every cardroom made (the world's, made on first use too):
    the second room's people are taken out of every other."""
    strangers = list(people.values())
    CardroomMembership.objects.filter(user__in=strangers).exclude(cardroom=room).delete()
    CardroomMembership.objects.filter(cardroom=room).exclude(user__in=strangers).delete()


def _home_status(method: str, url: str, actor: str, statuses: list[int]) -> int:
    columns = ("anonymous", "supervisor", "dealer", "other_dealer", "auditor", "administrator")
    if actor == "cashier":
        return cashier_status(method, url, statuses[1])
    if actor == "counter":
        return count_team_status(method, url, statuses[1])
    return statuses[columns.index(actor)]


def _crossing(method, url, path, status, data, first_room) -> str | None:
    """What the answer reads or changes of the first room, if anything."""
    if path.startswith(EVERYONE_S + SYSTEM_CHECKS):
        return None
    shown = json.dumps(_rows_of(data) if method == "GET" else data, default=str)
    if status >= 500:
        return f"failed ({str(data)[:200]})"
    if status >= 300:
        return None  # refused: nothing read, nothing written
    if "{" in url.replace("{{", "{"):  # names an object of the first room
        if method == "GET" and isinstance(data, dict) and data.get("results") == []:
            return None  # a list under another room's row: it shows nothing
        return f"answered for the first room's object ({shown[:200]})"
    if method != "GET":  # made in the second room, never the first
        return f"wrote in the first room ({shown[:200]})" if _of(data, first_room) else None
    if path.startswith("/api/v1/cardrooms/"):
        return "lists the first cardroom" if f'"id": {first_room},' in shown else None
    rows = [row for row in _rows_of(data) if not _theirs(path, row, first_room)]
    return f"shows {json.dumps(rows, default=str)[:200]}" if rows else None


def _theirs(path: str, row: dict, first_room: int) -> bool:
    """A row the second room's people may see in a list: their own room's."""
    if path.startswith("/api/v1/staff/"):
        return row["username"].endswith("_b")  # the second room's people
    if path.startswith("/api/v1/audit/events/"):  # not on the first room's chains
        chain = AuditEvent.objects.get(seq=row["seq"]).chain
        tables = Table.objects.filter(cardroom_id=first_room).values_list("pk", flat=True)
        return chain not in {f"cardroom:{first_room}", *(f"table:{pk}" for pk in tables)}
    if path.startswith("/api/v1/exclusions/"):
        return row["cardroom"] is None  # a state list's: every room's
    return False


def _of(data, cardroom: int) -> bool:
    return isinstance(data, dict) and data.get("cardroom") == cardroom


def _rows_of(data) -> list:
    if isinstance(data, dict) and "results" in data:
        return data["results"]
    return data if isinstance(data, list) else []


def test_the_second_rooms_people_neither_read_nor_change_the_first_room(api, world, second_room):
    room, people = second_room
    for method, url, *_statuses in MATRIX:  # build every object the rows name, first
        url.format_map(world)
        for actor in STRANGERS:
            body_for(method, url, world, actor)
    _only_in(room, people)
    clients = {actor: api(person) for actor, person in people.items()}
    # The world's ids the first room's rows carry, as they would appear in an answer.
    first_room = world["cardroom"]
    wrong: list[str] = []
    for method, url, *statuses in MATRIX:
        path = url.format_map(world)
        for actor in STRANGERS:
            home = _home_status(method, url, actor, statuses)
            if home in REFUSED:
                continue  # refused in their own room too: the matrix's own rows say so
            world_actor = getattr(world, actor)
            setattr(world, actor, people[actor])  # bodies that name the sender name them
            try:
                body = body_for(method, url, world, actor)
            finally:
                setattr(world, actor, world_actor)
            with transaction.atomic():
                try:
                    response = getattr(clients[actor], method.lower())(path, body, format="json")
                    status = response.status_code
                    data = getattr(response, "data", None)
                except Exception as error:  # noqa: BLE001 - a 500, reported with the others
                    status, data = 500, repr(error)
                transaction.set_rollback(True)
            problem = _crossing(method, url, path, status, data, first_room)
            if problem:
                wrong.append(f"{method} {url} as the second room's {actor}: {status}: {problem}")
    assert not wrong, "\n".join(wrong)


def test_an_id_of_the_first_room_in_a_body_is_refused_by_its_field(api, world, second_room):
    room, people = second_room
    first_room = world["cardroom"]
    _only_in(room, people)
    body = {"cardroom": first_room, "kind": "settlements", "start": "2024-03-01T00:00:00Z",
            "end": "2024-03-02T00:00:00Z"}  # fmt: skip
    response = api(people["auditor"]).post("/api/v1/exports/", body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "cardroom"
    assert response.json()["error"]["code"] == "does_not_exist"
    own = api(people["auditor"]).post("/api/v1/exports/", {**body, "cardroom": room.pk})
    assert own.status_code == 202
    assert own.json()["cardroom"] == room.pk


def test_an_administrator_grants_a_second_room_through_the_api(api, world, second_room):
    room, people = second_room
    first_room, table = world["cardroom"], world["dp_table"]
    _only_in(room, people)
    # An administrator of both rooms grants it (one of the second room alone could not).
    CardroomMembership.objects.create(user=world.administrator, cardroom=room)
    administrator = api(world.administrator)
    auditor = people["auditor"]
    url = f"/api/v1/staff/{auditor.pk}/cardrooms/"
    granted = administrator.post(url, {"cardroom": first_room, "works": True})
    assert granted.status_code == 200
    names = [r["name"] for r in granted.json()["cardrooms"]]
    assert names == sorted([room.name, "API Cardroom"])
    sees = api(auditor).get("/api/v1/tables/").json()["results"]
    assert table in {row["id"] for row in sees}
    assert {row["cardroom"] for row in sees} == {first_room}
