"""Deny by default: each view names the roles that may read it and the roles that may write."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.models import User
from rest_framework.permissions import SAFE_METHODS, BasePermission

from core import scoping
from core.roles import READERS, ROLES, role_of
from tables.staff_selectors import cardrooms_of

if TYPE_CHECKING:  # DRF's views import this module through the settings
    from rest_framework.request import Request
    from rest_framework.views import APIView

EVERY_ROLE = ROLES
#: Who reads a view that names no ``read_roles``: every role but the count team, which may
#: read only what a view opens to it (its drop boxes, who it is).
DEFAULT_READERS = READERS


class RolePermission(BasePermission):
    """``read_roles`` for GET/HEAD/OPTIONS (default: every role but the count team),
    ``write_roles`` for the rest (default: nobody). Services check their own rules on top (a
    dealer at their own table). It also scopes the request to the user's cardrooms
    (``core.scoping``; the middleware leaves the scope when the request ends)."""

    message = "Your role does not allow this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not hasattr(view, (request.method or "").lower()):
            return True  # answered 405 by the view, whoever asks
        role = role_of(request.user)
        # The user is known now (a token is read by the view, not the middleware): what
        # follows sees and changes the user's cardrooms only.
        user = request.user
        scoping.enter(cardrooms_of(user) if role and isinstance(user, User) else ())
        if request.method in SAFE_METHODS:
            return role in getattr(view, "read_roles", DEFAULT_READERS)
        return role in getattr(view, "write_roles", ())
