"""The floor dashboard's event stream: for floor supervisors only; no stream (204, the page
polls) without Redis or on a sync worker; a ``changed`` event when a watched table changes,
with the real Redis of the PostgreSQL run (skipped in the SQLite run, which has none)."""

from __future__ import annotations

import os
import time

import pytest

from core import floor_push
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.sessions import table_dealer_change

pytestmark = pytest.mark.django_db

needs_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="the stream needs a real Redis (REDIS_URL)"
)
#: What a threaded server (gunicorn's gthread, the development server) tells the view.
THREADED = {"wsgi.multithread": True}


@pytest.fixture
def quick_stream(settings):
    settings.FLOOR_STREAM_HEARTBEAT_SECONDS = 0.3
    settings.FLOOR_STREAM_SECONDS = 5
    settings.FLOOR_PUSH_COALESCE_SECONDS = 0.2


def events(chunks, count: int) -> list[str]:
    """The next ``count`` events or comments of the stream, as text."""
    return [next(chunks).decode() for _ in range(count)]


def test_only_a_floor_supervisor_may_open_the_stream(client, dealer, auditor):
    assert client.get("/floor/stream/", **THREADED).status_code == 302  # to the login
    for someone in (dealer, auditor):
        client.force_login(someone)
        assert client.get("/floor/stream/", **THREADED).status_code == 403


def test_without_redis_there_is_no_stream_and_the_dashboard_polls(settings, client, supervisor):
    settings.REDIS_URL = None
    client.force_login(supervisor)
    assert client.get("/floor/stream/", **THREADED).status_code == 204
    page = client.get("/floor/").content.decode()
    assert "sse-connect" not in page
    assert 'hx-trigger="every 1s"' in page


@needs_redis
def test_a_sync_worker_never_holds_a_stream(client, supervisor):
    client.force_login(supervisor)
    response = client.get("/floor/stream/", **{"wsgi.multithread": False})
    assert response.status_code == 204


@needs_redis
def test_with_redis_the_dashboard_connects_and_polls_only_while_the_push_is_away(
    client, supervisor
):
    client.force_login(supervisor)
    page = client.get("/floor/").content.decode()
    assert 'sse-connect="/floor/stream/"' in page
    assert "sse:changed" in page and "every 1s [floorPolls()]" in page
    assert "/static/django_htmx/ext/hx-sse-2.min.js" in page  # the app's own copy, no CDN


@needs_redis
def test_a_change_at_a_table_reaches_the_stream_as_one_changed_event(
    quick_stream,
    client,
    supervisor,
    dp_table,
    other_dealer,
    django_capture_on_commit_callbacks,
):
    client.force_login(supervisor)
    response = client.get("/floor/stream/", **THREADED)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    chunks = iter(response.streaming_content)
    assert events(chunks, 1) == ["retry: 1000\n: connected\n\n"]
    with django_capture_on_commit_callbacks(execute=True):
        table_dealer_change(table=dp_table, dealer=other_dealer, by=supervisor)
    started = time.monotonic()
    assert events(chunks, 1) == [f"event: changed\ndata: table:{dp_table.pk}\n\n"]
    assert time.monotonic() - started < 0.5
    assert events(chunks, 1) == [": still here\n\n"]  # nothing more: a heartbeat
    response.close()


@needs_redis
def test_another_cardroom_s_tables_are_not_sent(
    quick_stream, client, supervisor, administrator, dp_table, monkeypatch
):
    from cardroom.screens import floor_stream

    other = cardroom_create(name="Uptown", time_zone="America/New_York", by=administrator)
    theirs = table_create(cardroom=other, name="Uptown 1", banking="house", by=supervisor)
    monkeypatch.setattr(floor_stream, "watched_cardrooms", lambda request: {dp_table.cardroom_id})
    client.force_login(supervisor)
    response = client.get("/floor/stream/", **THREADED)
    chunks = iter(response.streaming_content)
    events(chunks, 1)
    publisher = floor_push.client()
    publisher.publish(floor_push.channel(), f"table:{theirs.pk} cardroom:{other.pk}")
    assert events(chunks, 1) == [": still here\n\n"]
    publisher.publish(floor_push.channel(), f"table:{theirs.pk} table:{dp_table.pk}")
    assert events(chunks, 1) == [f"event: changed\ndata: table:{dp_table.pk}\n\n"]
    response.close()


@needs_redis
def test_notices_close_together_reach_a_screen_as_one_event(
    quick_stream, client, supervisor, make_table
):
    tables = [make_table(f"T{n}") for n in range(4)]
    client.force_login(supervisor)
    response = client.get("/floor/stream/", **THREADED)
    chunks = iter(response.streaming_content)
    events(chunks, 1)
    publisher = floor_push.client()
    for table in tables:
        publisher.publish(floor_push.channel(), f"table:{table.pk}")
    first, second = events(chunks, 2)
    assert first == f"event: changed\ndata: table:{tables[0].pk}\n\n"  # at once
    later = floor_push.decode(second.removeprefix("event: changed\ndata: ").strip())
    assert later == {f"table:{t.pk}" for t in tables[1:]}  # the rest together
    response.close()


def test_a_floor_supervisor_s_scope_is_read_from_the_database(
    supervisor, administrator, dp_table, client
):
    from cardroom.screens.floor_stream import FloorScope

    other = cardroom_create(name="Uptown", time_zone="America/New_York", by=administrator)
    theirs = table_create(cardroom=other, name="Uptown 1", banking="house", by=supervisor)
    scope = FloorScope({dp_table.cardroom_id})
    ours_later = table_create(
        cardroom=dp_table.cardroom, name="New", banking="house", by=supervisor
    )
    assert scope.watches(f"table:{dp_table.pk}") and scope.watches(f"table:{ours_later.pk}")
    assert not scope.watches(f"table:{theirs.pk}")
    assert scope.watches(f"cardroom:{dp_table.cardroom_id}")
    assert not scope.watches(f"cardroom:{other.pk}") and not scope.watches("global")
