"""Lists are paginated (50 a page, keyset: next and previous cursors, no count) and
filterable where a user looks for something: hands by table, status and time; audit events by
actor, action and period."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import transaction
from django.utils import timezone

from audit.models import AuditEvent
from audit.services import audit_record
from tables import selectors
from tables.models import Table
from wagers.models import Hand

pytestmark = pytest.mark.django_db

V = "/api/v1"
T0 = datetime(2024, 3, 1, 18, 0, tzinfo=UTC)


def bulk_hands(table: Table, count: int, *, status: str = "settled", first: int = 1) -> list:
    """``count`` finished hands at the table, one a minute from T0 (hand ``first`` at T0)."""
    session = selectors.open_session(table)
    settings = selectors.current_settings(table)
    return Hand.objects.bulk_create(
        Hand(
            table=table,
            session=session,
            number=number,
            settings=settings,
            status=status,
            started_by=session.dealer,
            started_at=T0 + timedelta(minutes=number - 1),
            settled_at=T0 + timedelta(minutes=number - 1, seconds=30),
        )
        for number in range(first, first + count)
    )


def page(client, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    return response.json()


def ids(body: dict, key: str = "id") -> list:
    return [row[key] for row in body["results"]]


def page_number(link: str | None) -> int | None:
    if link is None:
        return None
    return int(parse_qs(urlsplit(link).query).get("page", ["1"])[0])


# --- pagination ------------------------------------------------------------------------------


def test_hands_come_50_a_page_with_next_and_previous_cursors(api, world):
    bulk_hands(world.house_table, 120)
    client = api(world.auditor)

    first = page(client, f"{V}/hands/")
    second = page(client, first["next"])
    third = page(client, second["next"])
    back = page(client, third["previous"])

    assert set(first) == {"next", "previous", "results"}
    assert [len(p["results"]) for p in (first, second, third)] == [50, 50, 20]
    assert first["previous"] is None and third["next"] is None
    assert ids(back) == ids(second)
    numbers = [hand["number"] for p in (first, second, third) for hand in p["results"]]
    assert numbers == list(range(120, 0, -1))  # newest first, each hand once


def test_a_page_added_to_meanwhile_neither_repeats_nor_skips(api, world):
    """Keyset pages: hands started after the first page was read do not shift the next."""
    bulk_hands(world.house_table, 60)
    client = api(world.auditor)
    first = page(client, f"{V}/hands/")

    bulk_hands(world.house_table, 5, first=61)
    second = page(client, first["next"])

    numbers = [hand["number"] for p in (first, second) for hand in p["results"]]
    assert numbers == list(range(60, 0, -1))


def test_a_bad_cursor_is_a_404_in_the_error_shape(api, world):
    bulk_hands(world.house_table, 3)

    response = api(world.auditor).get(f"{V}/hands/?cursor=o%3D10%26p%3D%25")

    assert response.status_code == 404
    assert set(response.json()["error"]) == {"code", "message", "field"}


@pytest.mark.parametrize(
    "url",
    [f"{V}/audit/events/", f"{V}/players/", f"{V}/tables/", f"{V}/cardrooms/", f"{V}/exports/"],
)
def test_every_list_is_paginated(api, world, url):
    world.dp_table  # noqa: B018 - some rows to list

    body = page(api(world.supervisor), url)

    assert set(body) == {"next", "previous", "results"}


def test_audit_events_come_50_a_page(api, world):
    with transaction.atomic():
        for number in range(70):
            audit_record(actor=world.auditor, action="test.event", payload={"n": number})
    client = api(world.auditor)

    first = page(client, f"{V}/audit/events/?action=test.")
    second = page(client, first["next"])

    assert (len(first["results"]), len(second["results"])) == (50, 20)
    assert second["next"] is None
    assert first["results"][0]["seq"] > first["results"][-1]["seq"]  # newest first


# --- hands: by table, status and time ---------------------------------------------------------


def test_hands_filter_by_table(api, world):
    dp = bulk_hands(world.dp_table, 3)
    house = bulk_hands(world.house_table, 2)
    client = api(world.dealer)

    assert set(ids(page(client, f"{V}/hands/?table={world['dp_table']}"))) == {h.pk for h in dp}
    by_house = page(client, f"{V}/hands/?table={world['house_table']}")
    assert set(ids(by_house)) == {h.pk for h in house}


def test_hands_filter_by_status(api, world):
    settled = bulk_hands(world.house_table, 3)
    dead = bulk_hands(world.house_table, 2, status="dead", first=4)
    client = api(world.dealer)

    assert set(ids(page(client, f"{V}/hands/?status=settled"))) == {h.pk for h in settled}
    assert set(ids(page(client, f"{V}/hands/?status=dead"))) == {h.pk for h in dead}


def test_hands_filter_by_time_started(api, world):
    hands = bulk_hands(world.house_table, 10)  # hand n starts at T0 + (n - 1) minutes
    client = api(world.dealer)
    after = (T0 + timedelta(minutes=3)).isoformat()
    before = (T0 + timedelta(minutes=6)).isoformat()

    body = page(
        client, f"{V}/hands/?started_after={after}&started_before={before}".replace("+", "%2B")
    )

    # [after, before): hands 4, 5 and 6, newest first.
    assert ids(body) == [hands[5].pk, hands[4].pk, hands[3].pk]


def test_hand_filters_combine(api, world):
    bulk_hands(world.dp_table, 5)
    house = bulk_hands(world.house_table, 5)
    client = api(world.dealer)
    after = (T0 + timedelta(minutes=2)).isoformat().replace("+", "%2B")

    body = page(
        client, f"{V}/hands/?table={world['house_table']}&status=settled&started_after={after}"
    )

    assert ids(body) == [h.pk for h in reversed(house[2:])]


def test_a_bad_filter_value_is_a_400_naming_it(api, world):
    response = api(world.dealer).get(f"{V}/hands/?started_after=yesterday")

    assert response.status_code == 400
    assert response.json()["error"]["field"] == "started_after"


# --- audit events: by actor, action and period ------------------------------------------------


@pytest.fixture
def timeline(world, monkeypatch) -> dict[str, list[int]]:
    """Events by the supervisor and the dealer, at T0 + 0..5 hours, of two kinds; their seqs
    by who and what."""
    moment = {"now": T0}
    monkeypatch.setattr(timezone, "now", lambda: moment["now"])
    made: dict[str, list[int]] = {}
    with transaction.atomic():
        for hour in range(6):
            moment["now"] = T0 + timedelta(hours=hour)
            actor = world.supervisor if hour % 2 == 0 else world.dealer
            action = "table.settings.change_proposed" if hour < 3 else "hand.settled"
            event = audit_record(actor=actor, action=action, payload={"hour": hour})
            made.setdefault(actor.username, []).append(event.seq)
            made.setdefault(action, []).append(event.seq)
            made.setdefault(f"hour{hour}", []).append(event.seq)
    return made


def test_audit_events_filter_by_actor(api, world, timeline):
    body = page(api(world.auditor), f"{V}/audit/events/?actor={world.dealer.pk}")

    assert ids(body, "seq") == sorted(timeline["dealer"], reverse=True)
    assert {event["actor"] for event in body["results"]} == {world.dealer.pk}


def test_audit_events_filter_by_action_prefix(api, world, timeline):
    client = api(world.auditor)

    by_prefix = page(client, f"{V}/audit/events/?action=table.settings.")
    exact = page(client, f"{V}/audit/events/?action=hand.settled")

    assert ids(by_prefix, "seq") == sorted(timeline["table.settings.change_proposed"], reverse=True)
    assert ids(exact, "seq") == sorted(timeline["hand.settled"], reverse=True)


def test_audit_events_filter_by_period(api, world, timeline):
    after = (T0 + timedelta(hours=1)).isoformat().replace("+", "%2B")
    before = (T0 + timedelta(hours=4)).isoformat().replace("+", "%2B")

    body = page(
        api(world.auditor), f"{V}/audit/events/?occurred_after={after}&occurred_before={before}"
    )

    expected = timeline["hour3"] + timeline["hour2"] + timeline["hour1"]  # [after, before)
    assert ids(body, "seq") == expected


def test_audit_event_filters_combine(api, world, timeline):
    after = (T0 + timedelta(hours=1)).isoformat().replace("+", "%2B")

    body = page(
        api(world.auditor),
        f"{V}/audit/events/?actor={world.supervisor.pk}&action=hand.&occurred_after={after}",
    )

    assert ids(body, "seq") == timeline["hour4"]


# --- other lists ------------------------------------------------------------------------------


def test_tables_filter_by_banking_and_players_by_name(api, world):
    world.dp_table, world.house_table  # noqa: B018
    client = api(world.dealer)

    tables = page(client, f"{V}/tables/?banking=house")
    players = page(client, f"{V}/players/?name=dp table PLAYER")

    assert [t["name"] for t in tables["results"]] == ["House table"]
    assert sorted(p["name"] for p in players["results"]) == [
        "DP table player 1",
        "DP table player 2",
        "DP table player 4",
    ]


def test_audit_events_by_every_actor_are_not_mixed_with_failed_logins(api, world):
    """An event with no actor (a failed login) is left out of any actor's list."""
    with transaction.atomic():
        audit_record(actor=None, action="auth.login_failed", payload={"username": "x"})

    body = page(api(world.auditor), f"{V}/audit/events/?actor={world.auditor.pk}")

    assert body["results"] == []
    assert AuditEvent.objects.filter(actor=None).count() == 1
