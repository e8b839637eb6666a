"""``Idempotency-Key`` on every POST: a retry with the same key and body returns the first
answer and changes nothing; the same key with another body is refused (422); of concurrent
duplicates exactly one runs. A POST that moves money (a view with ``moves_money``: chips,
cash, a settlement) is refused without a key (428, naming the header): a retry of it without
one would move the money twice.

The key's row is inserted with its answer at the end of the transaction of the work it guards.
A retry (or a concurrent duplicate, whose insert waits on the unique index until the first
transaction ends) runs the work again and then finds the key taken: it rolls back whole and
replays the stored answer; if the first rolled back, the duplicate's run stands instead.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from audit.chain import canonical_json
from core.transactions import change_atomic, change_failed

from .errors import error_response
from .models import IdempotencyKey

HEADER = "Idempotency-Key"


def idempotent(handler: Callable) -> Callable:
    """Decorate an APIView's ``post``."""

    @wraps(handler)
    def post(view: Any, request: Any, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER)
        if key is None and getattr(view, "moves_money", False):
            return key_required()
        if key is None or not request.user.is_authenticated:
            return handler(view, request, *args, **kwargs)
        if not 1 <= len(key) <= 255 or not (key.isascii() and key.isprintable()):
            message = f"{HEADER} is 1 to 255 printable ASCII characters."
            return error_response(400, "invalid", message, HEADER)
        return _keyed(view, request, handler, key, args, kwargs)

    return post


def _keyed(view: Any, request: Any, handler: Callable, key: str, args: Any, kwargs: Any) -> Any:
    """The change, and its answer kept under the key, in one transaction, which is the change's
    own: the services inside take no savepoint (``core.transactions``). The key is claimed
    last, with the answer, in one statement (``_key_claim``): if it was sent before, or a
    concurrent duplicate claimed it first, this run rolls back whole and the first answer is
    given instead. A change that failed with no savepoint to roll back to leaves the
    transaction only to roll back: all of it does, and the answer (a refusal) is kept
    afterwards in a transaction of its own."""
    fingerprint = _fingerprint(request)
    failure: Exception | None = None
    with change_atomic():
        try:
            response = handler(view, request, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - answered as DRF would, then remembered
            failure = exc
        if failure is not None and not change_failed():
            response = view.handle_exception(failure)
            failure = None
        if failure is None and not change_failed():
            if response.status_code >= 500:
                transaction.set_rollback(True)  # a failure is not an answer worth repeating
                return response
            if _key_claim(request.user, key, fingerprint, response):
                return response
            claimed = True  # sent before, or a duplicate claimed it first: this run is undone
        else:
            claimed = False
        transaction.set_rollback(True)
    if claimed:
        return _replay(request.user, key, fingerprint)
    if failure is not None:
        response = view.handle_exception(failure)
    if response.status_code < 500:
        with transaction.atomic():
            if not _key_claim(request.user, key, fingerprint, response):
                return _replay(request.user, key, fingerprint)  # the answer kept is the first
    return response


def _key_claim(user: Any, key: str, fingerprint: str, response: Response) -> bool:
    """The key's row with ``response``, the answer it keeps, inserted unless the user sent the
    key before: whether it was. A concurrent duplicate's insert waits on the unique index until
    the first transaction ends, then inserts nothing (the first committed) or its own row (it
    rolled back). One statement, at the end of the change, with no savepoint to catch an
    IntegrityError in."""
    table, quote = IdempotencyKey._meta.db_table, connection.ops.quote_name
    body = json.loads(JSONRenderer().render(response.data) or "null")
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (user_id, {quote('key')}, fingerprint, status_code, body, "
            f"created_at) VALUES (%s, %s, %s, %s, %s, %s) "
            f"ON CONFLICT (user_id, {quote('key')}) DO NOTHING RETURNING id",
            [
                user.pk,
                key,
                fingerprint,
                response.status_code,
                IdempotencyKey._meta.get_field("body").get_db_prep_save(body, connection),
                connection.ops.adapt_datetimefield_value(timezone.now()),
            ],
        )
        return cursor.fetchone() is not None


def _replay(user: Any, key: str, fingerprint: str) -> Response:
    record = IdempotencyKey.objects.get(user=user, key=key)
    if record.fingerprint != fingerprint:
        return replay_refused()
    response = Response(record.body, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def key_required() -> Response:
    return error_response(
        428,
        "idempotency_key_required",
        f"This request moves money: send an {HEADER} header (a new one for each action, the "
        "same one when retrying it), so that a retry never moves it twice.",
        HEADER,
    )


def replay_refused() -> Response:
    return error_response(
        422,
        "idempotency_key_reused",
        f"This {HEADER} was used for a different request; use a new key.",
        HEADER,
    )


def _fingerprint(request: Any) -> str:
    """The request's method, path and parsed body, whatever JSON the body is (an object, but
    also a list, a string, a number or null: those are refused by the view, and remembered).
    Keyed with the secret key: a body may carry a signer's password or PIN, which a reader of
    the idempotency table must not be able to find by hashing guesses."""
    body = request.data
    if hasattr(body, "lists"):  # a form or multipart QueryDict: every value of every key
        body = {key: [_text(value) for value in values] for key, values in body.lists()}
    text = canonical_json([request.method, request.path, body])
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, b"idempotency:" + text.encode(), hashlib.sha256).hexdigest()


def _text(value: Any) -> str:
    """A form value as text; an uploaded file by its name and size."""
    if isinstance(value, str):
        return value
    return f"{getattr(value, 'name', '')}:{getattr(value, 'size', '')}:{type(value).__name__}"
