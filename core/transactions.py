"""A change's transaction, with no savepoint where nothing could roll back to one.

Every write of the room is a service in one ``transaction.atomic()``; called from a caller's
own transaction that block becomes a savepoint, two statements (SAVEPOINT, RELEASE) and two
round trips each. A savepoint is needed only where someone catches a failure and carries on
in the same transaction: a service called by another service, or inside a request's
transaction that rolls back whole on any failure (``cardroom.api.idempotency``), needs none.

``change_atomic()`` is such a block: its own transaction (or a savepoint, for a caller that
may catch its refusal) when it is the outermost change, none inside another. A failure inside
one without a savepoint marks the whole transaction for rollback (Django's ``needs_rollback``),
which the outermost change's caller sees; a plain ``transaction.atomic()`` between still
rolls back to its own savepoint as before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction

_DEPTH = "cardroom_change_depth"


@contextmanager
def change_atomic() -> Iterator[None]:
    """``transaction.atomic()`` for a change; usable as a decorator (``@change_atomic()``)."""
    connection = transaction.get_connection()
    depth = getattr(connection, _DEPTH, 0)
    with transaction.atomic(savepoint=depth == 0):
        setattr(connection, _DEPTH, depth + 1)
        try:
            yield
        finally:
            setattr(connection, _DEPTH, depth)


def change_failed() -> bool:
    """Whether a change inside the current transaction failed without a savepoint to roll back
    to: the transaction can only roll back now."""
    return transaction.get_connection().needs_rollback
