"""Tokens for devices (a dealer's tablet, an integration): they expire and can be revoked.
Failed logins count towards django-axes' lockout like any other login."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.contrib.auth.signals import user_logged_in
from drf_spectacular.utils import extend_schema
from knox.models import AuthToken
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.kernel.roles import role_of

from .base import ServiceView
from .errors import error_response
from .permissions import EVERY_ROLE


class LoginIn(serializers.Serializer):
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
    role = serializers.CharField(allow_null=True)


class TokenLogin(ServiceView):
    """Exchange a username and password for a token (send it as ``Authorization: Token …``)."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    input_serializer = LoginIn

    @extend_schema(request=LoginIn, responses={201: TokenOut})
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        django_request = request._request  # django-axes watches the Django request
        user = authenticate(django_request, **data)
        if getattr(django_request, "axes_locked_out", False):
            # django-axes refused (or just locked) the account. Its middleware would replace
            # any answer with its own HTML page; the API answers in its own shape instead.
            setattr(django_request, "axes_locked_out", False)  # noqa: B010 - axes' own flag
            return error_response(
                403,
                "locked_out",
                "Too many failed logins: this account is locked for a while.",
                "username",
            )
        if user is None:
            return error_response(
                401, "authentication_failed", "The username or password is wrong.", "password"
            )
        # As a session login does: the audit log records it, django-axes resets the failures.
        user_logged_in.send(sender=user.__class__, request=django_request, user=user)
        instance, token = AuthToken.objects.create(user)
        body = {
            "token": token,
            "expiry": instance.expiry,
            "user": user.get_username(),
            "role": role_of(user),
        }
        return Response(TokenOut(body).data, status=201)


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
        return Response(
            MeOut({"id": user.pk, "username": user.get_username(), "role": role_of(user)}).data
        )
