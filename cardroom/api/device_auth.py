"""A table's shuffler signs its requests with its own token: ``Authorization: Device <token>``.

The credential is the device, not a user: ``request.user`` stays anonymous and
``request.auth`` is the ``ShufflerDevice``. Only the device route takes it
(``authentication_classes``); everywhere else the user authentications do not know the
``Device`` keyword, so a device token is no credential there (401). A token rotated out, or a
device revoked, is refused at once: the token is read on every request, never cached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission

from core import scoping
from tables.device_selectors import device_for_token
from tables.models import ShufflerDevice

if TYPE_CHECKING:
    from rest_framework.request import Request
    from rest_framework.views import APIView

KEYWORD = "Device"


class DeviceAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[AnonymousUser, ShufflerDevice] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != KEYWORD.lower().encode():
            return None  # no device credential: the permission answers 401
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(f"Give the token as '{KEYWORD} <token>'.")
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("This device token is not valid.") from None
        device = device_for_token(token)
        if device is None:
            raise exceptions.AuthenticationFailed(
                "This device token is not valid: it was rotated or its device revoked."
            )
        scoping.enter({device.table.cardroom_id})  # the device reaches its own room only
        return AnonymousUser(), device

    def authenticate_header(self, request: Request) -> str:
        return KEYWORD


class IsDevice(BasePermission):
    """The request is signed by a device in service: nobody else is let in."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not isinstance(request.auth, ShufflerDevice):
            raise exceptions.NotAuthenticated("Sign this request with the device's token.")
        return True


class DeviceScheme(OpenApiAuthenticationExtension):
    """The schema documents the device's header (drf-spectacular warns of an unknown one)."""

    target_class = "cardroom.api.device_auth.DeviceAuthentication"
    name = "deviceAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A table's shuffler: `Device <token>`, the token its floor "
            "supervisor was given at registration or rotation.",
        }
