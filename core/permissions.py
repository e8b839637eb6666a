"""Role checks the services make (deny by default): who may do what, by the rules."""

from __future__ import annotations

from typing import Protocol

from django.contrib.auth.models import User

from .errors import PermissionDenied
from .roles import DEALER, FLOOR_SUPERVISOR, TABLE_STAFF, role_of


class DealerOnDuty(Protocol):
    """A table's open session, as the kernel sees it (it names no app): who deals there."""

    dealer_id: int


def require_role(user: User, *roles: str, action: str) -> str:
    """The user's role if it is one of ``roles``; otherwise PermissionDenied naming the action."""
    role = role_of(user)
    if role is None or role not in roles:
        allowed = " or ".join(r.lower() for r in roles)
        article = "an" if allowed[0] in "aeiou" else "a"
        raise PermissionDenied(f"Only {article} {allowed} may {action}.")
    return role


def require_supervisor(user: User, *, action: str) -> None:
    require_role(user, FLOOR_SUPERVISOR, action=action)


def require_table_staff(user: User, session: DealerOnDuty | None, *, action: str) -> None:
    """A floor supervisor, or the dealer on duty at this table's open session."""
    role = require_role(user, *TABLE_STAFF, action=action)
    if role == DEALER and (session is None or session.dealer_id != user.pk):
        raise PermissionDenied(f"Only the dealer on duty at this table may {action}.")
