"""The floor dashboard's push: a server-sent event stream that says "changed" whenever a table
(or the cardroom) the floor watches has changed, so the open dashboard fetches its rows at
once instead of every second.

Each open screen holds one request and one Redis subscription, and no database connection
while it waits. A held request must never sit in a sync worker (it would be that worker's only
request for minutes): the stream is served only by a server with threads (gunicorn's
``gthread`` worker, ``gunicorn_stream.conf.py``; the development server) and answers 204 No
Content elsewhere, as it does without Redis: the screen then goes on polling. Notices close
together are sent as one (at most one per ``FLOOR_PUSH_COALESCE_SECONDS``), so a busy room
costs each screen a few fetches a second at most, whatever the number of tables.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import redis
from django.conf import settings
from django.db import connections
from django.http import HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from core import floor_push
from core.roles import FLOOR_SUPERVISOR
from patrons.models import Cardroom
from tables.models import Table

from .base import SignedInRequest, role_required


class FloorScope:
    """The cardrooms one screen watches, and which of their tables a notice names. A table
    first heard of (a new one) is looked up once."""

    def __init__(self, cardroom_ids: set[int]) -> None:
        self.cardroom_ids = cardroom_ids
        self.tables: dict[int, bool] = {
            pk: True
            for pk in Table.objects.filter(cardroom_id__in=cardroom_ids).values_list(
                "pk", flat=True
            )
        }

    def watches(self, chain: str) -> bool:
        kind, _, number = chain.partition(":")
        if not number.isdigit():
            return False
        if kind == "cardroom":
            return int(number) in self.cardroom_ids
        if kind != "table":
            return False
        pk = int(number)
        if pk not in self.tables:
            self.tables[pk] = Table.objects.filter(
                pk=pk, cardroom_id__in=self.cardroom_ids
            ).exists()
            _close_database_connections()
        return self.tables[pk]


def watched_cardrooms(request: SignedInRequest) -> set[int]:
    """The cardroom whose floor this screen shows: the one its person chose among theirs
    (read in the request's scope, before the stream outlives it)."""
    return set(Cardroom.objects.values_list("pk", flat=True))


@require_GET
@role_required(FLOOR_SUPERVISOR)
def floor_stream(request: SignedInRequest) -> HttpResponseBase:
    if not floor_push.enabled() or not request.META.get("wsgi.multithread"):
        return HttpResponse(status=204)  # polling it is: no Redis, or a sync worker
    scope = FloorScope(watched_cardrooms(request))
    subscription = floor_push.client().pubsub(ignore_subscribe_messages=True)
    try:
        subscription.subscribe(floor_push.channel())
    except (redis.RedisError, OSError):
        subscription.close()
        return HttpResponse("Redis is unreachable; the dashboard polls.", status=503)
    _close_database_connections()
    response = StreamingHttpResponse(
        floor_events(subscription, scope), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # nginx passes each event on at once
    return response


def floor_events(subscription: Any, scope: FloorScope) -> Iterator[bytes]:
    """``retry``, then a ``changed`` event for what the scope watches (the chains it names as
    data) and a comment every ``FLOOR_STREAM_HEARTBEAT_SECONDS`` while nothing does (a gone
    screen is noticed when writing it fails). Ends after ``FLOOR_STREAM_SECONDS``: the browser
    opens it again, its sign-in and role checked again; also when Redis goes."""
    every = settings.FLOOR_PUSH_COALESCE_SECONDS
    heartbeat = settings.FLOOR_STREAM_HEARTBEAT_SECONDS
    beat = time.monotonic()  # the opening comment is the first sign of life
    end = beat + settings.FLOOR_STREAM_SECONDS
    sent = float("-inf")
    pending: set[str] = set()
    try:
        yield b"retry: 1000\n: connected\n\n"
        while (now := time.monotonic()) < end:
            wait = max(0.0, sent + every - now) if pending else min(heartbeat, end - now)
            message = subscription.get_message(timeout=max(wait, 0.001))
            if message is not None and message.get("type") == "message":
                pending |= {c for c in floor_push.decode(message["data"]) if scope.watches(c)}
            now = time.monotonic()
            if pending and now - sent >= every:
                yield f"event: changed\ndata: {floor_push.encode(pending)}\n\n".encode()
                pending.clear()
                sent = beat = now
            elif now - max(sent, beat) >= heartbeat:
                yield b": still here\n\n"
                beat = now
    except (redis.RedisError, OSError):
        return  # the browser reconnects; while Redis is away the screen polls
    finally:
        subscription.close()


def _close_database_connections() -> None:
    """A held stream keeps no database connection open while it waits."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:  # a test's transaction stays
            connection.close()
