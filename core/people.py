"""How the project names a person: by full name, the username only where there is none."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser


def person_name(user: AbstractBaseUser | AnonymousUser | None) -> str:
    """``Morgan Reyes``; the username for an account with no name; "" for nobody."""
    if user is None or not user.is_authenticated:
        return ""
    full = getattr(user, "get_full_name", lambda: "")().strip()
    return full or user.get_username()
