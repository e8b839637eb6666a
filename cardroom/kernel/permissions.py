"""Role checks the services make (deny by default): who may do what, by the rules."""

from __future__ import annotations

from typing import Any

from .errors import PermissionDenied
from .roles import DEALER, FLOOR_SUPERVISOR, role_of


def require_role(user: Any, *roles: str, action: str) -> str:
    """The user's role if it is one of ``roles``; otherwise PermissionDenied naming the action."""
    role = role_of(user)
    if role not in roles:
        allowed = " or ".join(r.lower() for r in roles)
        raise PermissionDenied(f"Only a {allowed} may {action}.")
    return role


def require_supervisor(user: Any, *, action: str) -> None:
    require_role(user, FLOOR_SUPERVISOR, action=action)


def require_table_staff(user: Any, session: Any, *, action: str) -> None:
    """A floor supervisor, or the dealer on duty at this table's open session."""
    role = require_role(user, FLOOR_SUPERVISOR, DEALER, action=action)
    if role == DEALER and (session is None or session.dealer_id != user.pk):
        raise PermissionDenied(f"Only the dealer on duty at this table may {action}.")
