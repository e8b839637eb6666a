"""The floor push's publisher: a change at a table is published once its transaction commits,
once per transaction, never when it rolls back; a Redis that is down or silent neither fails
nor slows the change. The tests that listen on the channel use the real Redis of the
PostgreSQL run (REDIS_URL); the SQLite run has none and skips them."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator

import pytest
from django.db import transaction

from core import floor_push
from core.roles import DEALER
from tables.models import TableSession
from tables.services.sessions import table_dealer_change

needs_redis = pytest.mark.skipif(
    not os.environ.get("REDIS_URL"), reason="the publish path needs a real Redis (REDIS_URL)"
)


@pytest.fixture
def listener() -> Iterator[object]:
    subscription = floor_push.client().pubsub(ignore_subscribe_messages=True)
    subscription.subscribe(floor_push.channel())
    subscription.get_message(timeout=0.5)  # the subscription's confirmation
    yield subscription
    subscription.close()


def heard(subscription, timeout: float = 2.0) -> list[set[str]]:
    """Every message published within ``timeout`` (after the publisher has flushed)."""
    assert floor_push.wait_published(timeout)
    messages = []
    while (message := subscription.get_message(timeout=0.2)) is not None:
        messages.append(floor_push.decode(message["data"]))
    return messages


@needs_redis
def test_a_change_is_published_after_it_commits_naming_its_table(
    dp_table, other_dealer, supervisor, listener, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        table_dealer_change(table=dp_table, dealer=other_dealer, by=supervisor)
        assert floor_push.wait_published() and heard(listener) == []  # not before the commit
    assert heard(listener) == [{f"table:{dp_table.pk}"}]


@needs_redis
def test_one_transaction_is_one_message_with_every_chain_it_touched(
    make_table,
    other_dealer,
    dealer,
    make_user,
    supervisor,
    listener,
    django_capture_on_commit_callbacks,
):
    first, second = make_table("One"), make_table("Two")  # both dealt by the dealer
    third = make_user("third", role=DEALER)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        table_dealer_change(table=first, dealer=other_dealer, by=supervisor)
        table_dealer_change(table=second, dealer=third, by=supervisor)
        table_dealer_change(table=first, dealer=dealer, by=supervisor)  # on no other table now
    assert heard(listener) == [{f"table:{first.pk}", f"table:{second.pk}"}]


@needs_redis
def test_a_rolled_back_change_publishes_nothing(
    dp_table, other_dealer, supervisor, listener, django_capture_on_commit_callbacks
):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        table_dealer_change(table=dp_table, dealer=other_dealer, by=supervisor)
        raise RuntimeError("the change fails after its audit event")
    assert callbacks == []
    assert heard(listener) == []
    assert TableSession.objects.get(table=dp_table, closed_at=None).dealer_id != other_dealer.pk


def test_without_redis_nothing_is_handed_to_the_publisher(
    settings, dp_table, other_dealer, supervisor, django_capture_on_commit_callbacks
):
    settings.REDIS_URL = None
    with django_capture_on_commit_callbacks() as callbacks:
        table_dealer_change(table=dp_table, dealer=other_dealer, by=supervisor)
    assert callbacks == []


@pytest.mark.parametrize("redis_is", ["refusing", "silent"])
def test_a_redis_that_is_down_neither_fails_nor_slows_a_change(
    redis_is,
    settings,
    dp_table,
    dealer,
    other_dealer,
    supervisor,
    django_capture_on_commit_callbacks,
):
    # A port nobody listens on refuses at once; a socket that accepts and never answers makes
    # the publisher wait its whole timeout: the change must not wait with it.
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(16)
    port = silent.getsockname()[1]
    if redis_is == "refusing":
        silent.close()
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
    try:
        started = time.monotonic()
        for on_duty in (other_dealer, dealer):
            with django_capture_on_commit_callbacks(execute=True):
                table_dealer_change(table=dp_table, dealer=on_duty, by=supervisor)
        took = time.monotonic() - started
        assert TableSession.objects.get(table=dp_table, closed_at=None).dealer == dealer
        assert took < 0.4, f"two changes took {took:.2f} s beside a Redis that is {redis_is}"
        assert floor_push.wait_published(timeout=3.0)  # the notices were dropped, not kept
    finally:
        silent.close()
