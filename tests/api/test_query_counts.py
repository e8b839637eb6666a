"""A fixed number of queries per endpoint; a list runs the same number of queries for 1 row
and for 50. Counts include authentication: none once the token is known:
the token, its user and role are cached by the token's digest; its first request reads them."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from audit.models import Checkpoint
from audit.services import audit_record
from cardroom.api.tokens import forget_roles_of
from compliance.models import Export
from patrons.models import Cardroom, Licensee, Person, Player
from tables import selectors
from tables.figures import figure_values
from tables.models import CardroomMembership, RotationRecord, StackEntry, Table, TableSettings
from tables.staff_models import SettingChange, TwoPersonDecision
from wagers.models import Hand

from .conftest import CORRECTED_DEALER_CARDS

pytestmark = pytest.mark.django_db

V = "/api/v1"
T0 = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)


def queries(client, url: str) -> int:
    client.get(url)  # the token's role is cached from its first request on
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    return len(captured.captured_queries)


def listed(client, url: str) -> int:
    body = client.get(url).json()
    return len(body["results"]) if isinstance(body, dict) and "results" in body else len(body)


# --- rows, made in bulk where the model allows, through the services otherwise ---------------


def add_cardrooms(world, n: int) -> None:
    licensee, _ = Licensee.objects.get_or_create(name="Bulk licensee")
    rooms = Cardroom.objects.bulk_create(
        Cardroom(name=f"Room {i}-{n}", licensee=licensee) for i in range(n)
    )
    # Bulk-made rooms have no people: the world's work in them (each new room's cardrooms).
    CardroomMembership.objects.bulk_create(
        CardroomMembership(user=person, cardroom=room)
        for room in rooms
        for person in User.objects.all()
    )
    forget_roles_of(User.objects.values_list("pk", flat=True))


def add_tables(world, n: int) -> None:
    start = Table.objects.count()
    Table.objects.bulk_create(
        Table(cardroom=world.cardroom, name=f"T{start + i}", banking="house") for i in range(n)
    )


def add_players(world, n: int) -> None:
    start = Player.objects.count()
    persons = Person.objects.bulk_create(Person(licensee=world.cardroom.licensee) for _ in range(n))
    Player.objects.bulk_create(
        Player(cardroom=world.cardroom, person=person, name=f"P{start + i}")
        for i, person in enumerate(persons)
    )


def add_hands(world, n: int) -> None:
    table = world.house_table
    session = selectors.open_session(table)
    settings = selectors.current_settings(table)
    first = Hand.objects.filter(table=table).count() + 1
    seating = table.seatings.first()
    Hand.objects.bulk_create(
        Hand(
            table=table,
            session=session,
            number=number,
            settings=settings,
            status="settled",
            dp_seating=seating,  # as on a DP table: the list shows its seat
            started_by=session.dealer,
            started_at=T0 + timedelta(minutes=number),
        )
        for number in range(first, first + n)
    )


def add_events(world, n: int) -> None:
    with transaction.atomic():
        for i in range(n):
            audit_record(actor=world.supervisor, action="test.event", payload={"i": i})


def add_stack_entries(world, n: int) -> None:
    StackEntry.objects.bulk_create(
        StackEntry(
            seating=world.seating,
            amount=1,
            reason=StackEntry.Reason.ADD_ON,
            actor=world.dealer,
            created_at=timezone.now(),
        )
        for _ in range(n)
    )


def add_exports(world, n: int) -> None:
    now = timezone.now()
    Export.objects.bulk_create(
        Export(
            kind=Export.Kind.AUDIT_LOG,
            start=now - timedelta(days=1),
            end=now,
            requested_by=world.auditor,
            requested_at=now,
            cardroom=world.cardroom,
        )
        for _ in range(n)
    )


def add_checkpoints(world, n: int) -> None:
    Checkpoint.objects.bulk_create(
        Checkpoint(seq=i, hash=f"{i:064x}", verified_at=timezone.now(), events=i) for i in range(n)
    )


def add_setting_versions(world, n: int) -> None:
    table = world.dp_table
    current = selectors.current_settings(table)
    values = {
        f.name: getattr(current, f.name)
        for f in TableSettings._meta.fields
        if f.name not in ("id", "table", "version", "created_at")
    }
    TableSettings.objects.bulk_create(
        TableSettings(table=table, version=current.version + 1 + i, **values) for i in range(n)
    )


def add_setting_changes(world, n: int) -> None:
    """``n`` approved changes, each with the version it made (its answer shows the number)."""
    table = world.dp_table
    based_on = selectors.current_settings(table)
    add_setting_versions(world, n)
    versions = TableSettings.objects.filter(table=table).order_by("-version")[:n]
    changes = SettingChange.objects.bulk_create(
        SettingChange(
            kind=SettingChange.Kind.TABLE_SETTINGS,
            cardroom_id=table.cardroom_id,
            table=table,
            proposed_by=world.supervisor,
            proposed_at=timezone.now(),
            reason="r",
            values={
                "table": table.pk,
                "based_on": based_on.pk,
                "based_on_version": based_on.version,
                "base": figure_values(based_on),
                "new": {"ante_max": "50.00"},
                "old": {"ante_max": "100.00"},
            },
        )
        for _ in versions
    )
    TwoPersonDecision.objects.bulk_create(
        TwoPersonDecision(
            change=change,
            outcome="approved",
            decided_by=world.second_supervisor,
            decided_at=timezone.now(),
            values={
                "version": version.version,
                "settings": version.pk,
                "made": figure_values(version),
                "old": {"ante_max": "100.00"},
            },
        )
        for change, version in zip(changes, versions, strict=True)
    )


def add_rotations(world, n: int) -> None:
    table = world.dp_table
    session = selectors.open_session(table)
    seating = world.seating
    RotationRecord.objects.bulk_create(
        RotationRecord(
            table=table,
            session=session,
            created_at=timezone.now() - timedelta(minutes=1),
            method="rotation",
            offers=[],
            designated_player=seating,
            player=seating.player,
            consecutive=1,
        )
        for _ in range(n)
    )


# (name, url, make n more rows, queries): every list runs `queries` queries for 1 row and 50.
LISTS: list[tuple[str, str, Callable, int]] = [
    ("cardrooms", f"{V}/cardrooms/", add_cardrooms, 1),
    ("tables", f"{V}/tables/", add_tables, 1),
    ("players", f"{V}/players/", add_players, 2),  # and their persons' records, prefetched
    ("hands", f"{V}/hands/", add_hands, 1),
    ("audit events", f"{V}/audit/events/", add_events, 1),
    ("stack history", f"{V}/seatings/{{seating}}/stack/", add_stack_entries, 2),
    ("exports", f"{V}/exports/", add_exports, 1),
    ("checkpoints", f"{V}/audit/checkpoints/", add_checkpoints, 1),
    ("table settings", f"{V}/tables/{{dp_table}}/settings/", add_setting_versions, 1),
    ("setting changes", f"{V}/tables/{{dp_table}}/setting-changes/", add_setting_changes, 2),
    ("rotation log", f"{V}/tables/{{dp_table}}/rotation/", add_rotations, 2),
]


@pytest.mark.parametrize(
    ("url", "grow", "expected"), [row[1:] for row in LISTS], ids=[row[0] for row in LISTS]
)
def test_a_list_runs_the_same_queries_for_1_row_and_50(api, world, url, grow, expected):
    client = api(world.supervisor)
    path = url.format_map(world)
    baseline = listed(client, path)
    grow(world, max(0, 1 - baseline))
    assert listed(client, path) == max(baseline, 1)
    one = queries(client, path)

    grow(world, 50 - max(baseline, 1))
    assert listed(client, path) >= 50
    fifty = queries(client, path)

    assert (one, fifty) == (expected, expected)


@pytest.mark.parametrize("url", [row[1] for row in LISTS], ids=[row[0] for row in LISTS])
def test_a_list_counts_nothing_and_skips_nothing(api, world, url):
    """Keyset pages: no COUNT over the table, no OFFSET past the rows before."""
    client = api(world.supervisor)
    client.get(url.format_map(world))
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url.format_map(world)).status_code == 200
    sql = " ".join(q["sql"] for q in captured.captured_queries).upper()
    assert "COUNT(" not in sql and "OFFSET" not in sql


def test_the_seatings_of_a_table_run_the_same_queries_for_1_player_and_a_full_table(api, world):
    client = api(world.supervisor)
    table = world.table("Filling up", banking="house", seats=(1,))
    url = f"{V}/tables/{table.pk}/seatings/"
    one = queries(client, url)

    for number in range(2, table.seat_count + 1):
        world.seat(table, number)
    assert listed(client, url) == table.seat_count

    assert (one, queries(client, url)) == (2, 2)


def test_a_table_runs_the_same_queries_with_1_player_and_a_full_table(api, world):
    client = api(world.supervisor)
    table = world.table("Filling up", banking="house", seats=(1,))
    url = f"{V}/tables/{table.pk}/"
    one = queries(client, url)

    for number in range(2, table.seat_count + 1):
        world.seat(table, number)

    assert (one, queries(client, url)) == (4, 4)


def test_a_hand_runs_the_same_queries_whatever_its_spots_and_settlements(api, world):
    client = api(world.supervisor)
    quiet = world.hand_open  # no spot, no settlement
    busy = world.hand_settled  # two spots, then three settlement entries
    client.post(
        f"{V}/hands/{busy.pk}/corrections/",
        {
            "reason": "The 4s was the 4d",
            "corrects": busy.settlements.latest("entry").pk,
            "dealer_cards": CORRECTED_DEALER_CARDS,
        },
        format="json",
    )
    assert busy.settlements.count() == 3

    counts = {queries(client, f"{V}/hands/{hand.pk}/") for hand in (quiet, busy)}

    assert counts == {3}


# (name, url, queries): authentication reads nothing (the token, its user and role are
# cached by the token's digest).
DETAILS = [
    ("me", f"{V}/auth/me/", 0),
    ("table", f"{V}/tables/{{dp_table}}/", 4),
    ("hand", f"{V}/hands/{{hand_settled}}/", 3),
    ("seating", f"{V}/seatings/{{seating}}/", 1),
    ("export", f"{V}/exports/{{export}}/", 1),
    ("export file", f"{V}/exports/{{export}}/download/", 1),
    # The settings versions (each window judged by its own, R16) and the stopped games.
    ("rotation compliance", f"{V}/tables/{{dp_table}}/rotation/compliance/", 5),
    ("player report", f"{V}/reports/players/{{player}}/", 3),
    ("table day report", f"{V}/reports/tables/{{dp_table}}/days/2024-03-01/", 10),
]


@pytest.mark.parametrize(
    ("url", "expected"), [row[1:] for row in DETAILS], ids=[r[0] for r in DETAILS]
)
def test_a_detail_runs_a_fixed_number_of_queries(api, world, url, expected):
    client = api(world.supervisor)
    path = url.format_map(world)
    client.get(path)

    assert queries(client, path) == expected


def test_a_player_report_runs_the_same_queries_for_1_movement_and_50(api, world):
    client = api(world.supervisor)
    url = f"{V}/reports/players/{world['player']}/"
    assert len(client.get(url).json()["movements"]) == 1  # the buy-in
    one = queries(client, url)

    add_stack_entries(world, 49)
    assert len(client.get(url).json()["movements"]) == 50

    assert (one, queries(client, url)) == (3, 3)


def test_a_table_day_report_runs_the_same_queries_for_1_offer_and_50(api, world, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: T0)  # everything on gaming day 2024-03-01
    client = api(world.supervisor)
    url = f"{V}/reports/tables/{world['dp_table']}/days/2024-03-01/"
    add_rotations(world, 1)
    add_setting_changes(world, 1)
    one = queries(client, url)

    add_rotations(world, 49)
    add_setting_changes(world, 49)
    body = client.get(url).json()
    assert (len(body["rotation"]), len(body["setting_changes"])) == (50, 50)

    assert (one, queries(client, url)) == (10, 10)
