"""Tokens for devices (a dealer's tablet, an integration): they expire and can be revoked.
Failed logins count towards django-axes' throttling like any other login (docs/production.md,
"Logins").

A user holds at most ``REST_KNOX["TOKEN_LIMIT_PER_USER"]`` live tokens: a login beyond that
revokes the user's oldest tokens rather than refusing (a device that crashed without logging
out must not keep its owner from logging in for a shift; whoever holds the password could log
in anyway). The limit is kept under a lock on the user's row, so concurrent logins cannot
exceed it.

The login honours ``Idempotency-Key``: a retry with the same key, username and password gets
the same answer, the same token, and nothing is created (the password is checked again before
anything is replayed). The stored answer never holds the token in the clear: it is sealed
with a keystream from the secret key, so a copy of the database alone does not give it away.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.contrib.auth.signals import user_logged_in
from django.db import IntegrityError, transaction
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from knox.models import AuthToken
from knox.settings import knox_settings
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.inputs import StrictSerializer
from cardroom.auth_backends import login_wait
from core.people import person_name
from core.roles import role_of
from tables import setup_links

from .base import ServiceView
from .errors import error_response
from .idempotency import HEADER, replay_refused
from .models import IdempotencyKey
from .permissions import EVERY_ROLE


class LoginIn(StrictSerializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=128, style={"input_type": "password"})


class TokenOut(serializers.Serializer):
    token = serializers.CharField()
    expiry = serializers.DateTimeField()
    user = serializers.CharField()
    role = serializers.CharField(allow_null=True)


class MeOut(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    role = serializers.CharField(allow_null=True)


IDEMPOTENCY_KEY = OpenApiParameter(
    HEADER,
    str,
    location=OpenApiParameter.HEADER,
    required=False,
    description="A retry with the same key, username and password gets the same token.",
)


class TokenLogin(ServiceView):
    """Exchange a username and password for a token (send it as ``Authorization: Token …``)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    input_serializer = LoginIn

    @extend_schema(request=LoginIn, responses={201: TokenOut}, parameters=[IDEMPOTENCY_KEY])
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        key = request.headers.get(HEADER)
        if key is not None and not 1 <= len(key) <= 255:
            return error_response(400, "invalid", f"{HEADER} is 1 to 255 characters.", HEADER)
        django_request = request._request  # django-axes watches the Django request
        user = authenticate(django_request, **data)
        if getattr(django_request, "axes_locked_out", False):
            return _locked_out(django_request)
        if user is None:
            return error_response(
                401, "authentication_failed", "The username or password is wrong.", "password"
            )
        if setup_links.password_change_due(user):
            return error_response(
                403,
                "password_change_required",
                "Someone else chose this password: change it first, at /accounts/password_change/.",
                "password",
            )
        if key is None:
            return _login(django_request, user)
        return _login_once(django_request, user, key)


def _locked_out(django_request: Any) -> Response:
    """django-axes refused (or just throttled) the login. Its middleware would replace any
    answer with its own page; the API answers in its own shape, saying when to try again."""
    setattr(django_request, "axes_locked_out", False)  # noqa: B010 - axes' own flag
    wait = math.ceil(login_wait(django_request).total_seconds())
    return error_response(
        429,
        "locked_out",
        f"Too many failed logins: try again in {wait} seconds.",
        "username",
        headers={"Retry-After": str(wait)},
    )


def _login(django_request: Any, user: User) -> Response:
    """A new token (the oldest revoked beyond the limit), and the login recorded."""
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()  # one login at a time
        _make_room_for_a_token(user)
        instance, token = AuthToken.objects.create(user)
    # As a session login does: the audit log records it, django-axes resets the failures.
    user_logged_in.send(sender=user.__class__, request=django_request, user=user)
    body = {"token": token, "expiry": instance.expiry, "user": user.get_username()}
    return Response(TokenOut({**body, "role": role_of(user)}).data, status=201)


def _make_room_for_a_token(user: User) -> None:
    """Under the lock on the user's row: expired tokens go, then the oldest live ones until
    one more fits within the limit."""
    tokens = AuthToken.objects.filter(user=user)
    tokens.filter(expiry__lt=timezone.now()).delete()
    limit: int = knox_settings.TOKEN_LIMIT_PER_USER
    live = list(tokens.order_by("-created", "-digest").values_list("digest", flat=True))
    if len(live) >= limit:
        AuthToken.objects.filter(digest__in=live[limit - 1 :]).delete()


def _login_once(django_request: Any, user: User, key: str) -> Response:
    """The first login with this key answers and is remembered (the token sealed); a retry
    replays it. Concurrent duplicates wait on the key's unique row, as other POSTs do."""
    fingerprint = hashlib.sha256(f"POST {django_request.path}".encode()).hexdigest()
    with transaction.atomic():
        try:
            with transaction.atomic():
                record = IdempotencyKey.objects.create(
                    user=user, key=key, fingerprint=fingerprint, status_code=0
                )
        except IntegrityError:
            return _replay(user, key, fingerprint)
        response = _login(django_request, user)
        salt = secrets.token_bytes(16)
        record.status_code = response.status_code
        record.body = {
            **response.data,
            "token": _xor(response.data["token"].encode(), salt).hex(),
            "salt": salt.hex(),
        }
        record.save(update_fields=["status_code", "body"])
    return response


def _replay(user: User, key: str, fingerprint: str) -> Response:
    record = IdempotencyKey.objects.get(user=user, key=key)
    if record.fingerprint != fingerprint or not isinstance(record.body, dict):
        return replay_refused()
    body = dict(record.body)
    salt = bytes.fromhex(body.pop("salt"))
    body["token"] = _xor(bytes.fromhex(body["token"]), salt).decode()
    response = Response(body, status=record.status_code)
    response["Idempotent-Replayed"] = "true"
    return response


def _xor(data: bytes, salt: bytes) -> bytes:
    """``data`` XOR a keystream of HMAC-SHA256 in counter mode, keyed by the secret key and the
    record's own salt: the stored answer does not hold the token in the clear (applying it
    twice gives the data back)."""
    key = hmac.new(settings.SECRET_KEY.encode(), b"idempotent-login:" + salt, hashlib.sha256)
    stream = b"".join(
        hmac.new(key.digest(), counter.to_bytes(4, "big"), hashlib.sha256).digest()
        for counter in range(len(data) // 32 + 1)
    )
    return bytes(a ^ b for a, b in zip(data, stream, strict=False))


class TokenRevoke(ServiceView):
    """Revoke the token this request carries (log the device out)."""

    write_roles = EVERY_ROLE

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request) -> Response:
        if isinstance(request.auth, AuthToken):
            request.auth.delete()
        return Response(status=204)


class Me(ServiceView):
    read_roles = EVERY_ROLE  # the count team too: who am I is every role's question

    @extend_schema(responses=MeOut)
    def get(self, request: Request) -> Response:
        user = request.user
        me = {"id": user.pk, "username": user.get_username(), "name": person_name(user)}
        return Response(MeOut({**me, "role": role_of(user)}).data)
