"""``Idempotency-Key`` on every POST: a retry with the same key and body returns the first
answer and changes nothing; the same key with another body is refused (422); of concurrent
duplicates exactly one runs. A POST that moves money (a view with ``moves_money``: chips,
cash, a settlement) is refused without a key (428, naming the header): a retry of it without
one would move the money twice.

The key's row is inserted in the same transaction as the work it guards. A concurrent
duplicate's insert waits on the unique index until the first transaction commits, then finds
the stored answer and replays it; if the first rolls back, the duplicate runs instead.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from audit.chain import canonical_json

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
        fingerprint = _fingerprint(request)
        with transaction.atomic():
            try:
                with transaction.atomic():
                    record = IdempotencyKey.objects.create(
                        user=request.user, key=key, fingerprint=fingerprint, status_code=0
                    )
            except IntegrityError:
                return _replay(request.user, key, fingerprint)
            try:
                response = handler(view, request, *args, **kwargs)
            except Exception as exc:  # noqa: BLE001 - answered as DRF would, then remembered
                response = view.handle_exception(exc)
            if response.status_code >= 500:
                transaction.set_rollback(True)  # a failure is not an answer worth repeating
                return response
            record.status_code = response.status_code
            record.body = json.loads(JSONRenderer().render(response.data) or "null")
            record.save(update_fields=["status_code", "body"])
        return response

    return post


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
