"""Token authentication in one query, and the role without one (issue 16: authentication and
roles in at most 2 queries a request).

Knox reads the token with its user, then the user's other tokens (to drop expired ones), and
the role check reads the user's groups: three queries on every request. Here the token and its
user are one query; the token's own expiry is still checked (an expired token is deleted and
refused; the others are dropped when their user logs in again, ``auth._make_room_for_a_token``).
The role is kept in Django's cache (Redis in production), keyed by the token's digest, for
``settings.ROLE_CACHE_SECONDS`` (only with Redis: the cache every worker shares; without it
the role is read each request); it is forgotten when the user's groups change, a role group
is renamed or deleted, and when the token is deleted (revoked, expired, the password changed): see
``signals``. Without the cache (Redis down) the role is read from the database, as before.
"""

from __future__ import annotations

import binascii
import logging
from collections.abc import Iterable
from hmac import compare_digest
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.cache import cache
from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox import auth
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from knox.signals import token_expired
from rest_framework import exceptions

from cardroom.kernel.roles import role_known, role_of

log = logging.getLogger(__name__)

_NONE = "-"  # a user in no role group, as cached


def role_key(digest: str) -> str:
    return f"cardroom:token-role:{digest}"


def forget_roles(digests: Iterable[str]) -> None:
    """Drop the cached roles of these tokens (their user's groups changed, or they are gone)."""
    keys = [role_key(digest) for digest in digests]
    if not keys:
        return
    try:
        cache.delete_many(keys)
    except Exception:  # noqa: BLE001 - the cache is down: nothing is served from it either
        log.warning("could not forget cached roles", exc_info=True)


def forget_roles_of(user_ids: Iterable[int]) -> None:
    ids = list(user_ids)
    if ids:
        forget_roles(AuthToken.objects.filter(user_id__in=ids).values_list("digest", flat=True))


class TokenAuthentication(auth.TokenAuthentication):
    """Knox's device tokens (``Authorization: Token …``), read in one query."""

    def authenticate_credentials(self, token: bytes) -> tuple[User, AuthToken]:
        refused = exceptions.AuthenticationFailed("Invalid token.")
        text = token.decode("utf-8")
        try:
            digest = hash_token(text)
        except (TypeError, binascii.Error, ValueError):
            raise refused from None
        found = AuthToken.objects.select_related("user").filter(
            token_key=text[: CONSTANTS.TOKEN_KEY_LENGTH]
        )
        for auth_token in found:
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry < timezone.now():
                username = auth_token.user.get_username()
                auth_token.delete()
                token_expired.send(sender=self.__class__, username=username, source="auth_token")
                raise refused
            user, _ = self.validate_user(auth_token)
            _known_role(user, digest)
            return user, auth_token
        raise refused


def _known_role(user: User, digest: str) -> None:
    seconds = settings.ROLE_CACHE_SECONDS
    if not seconds:
        return
    key = role_key(digest)
    try:
        cached: Any = cache.get(key)
    except Exception:  # noqa: BLE001 - the cache is down: the database answers
        log.warning("role cache unavailable", exc_info=True)
        return
    if cached is not None:
        role_known(user, None if cached == _NONE else cached)
        return
    role = role_of(user)
    try:
        cache.set(key, role or _NONE, seconds)
    except Exception:  # noqa: BLE001
        log.warning("role cache unavailable", exc_info=True)


class TokenScheme(KnoxTokenScheme):
    """The schema documents these tokens as knox's (``Authorization: Token …``)."""

    target_class = "cardroom.api.tokens.TokenAuthentication"
