"""Token authentication without a query, and the role with it (authentication and
roles in at most 2 queries a request; in none once the token is known).

Knox reads the token with its user, then the user's other tokens (to drop expired ones), and
the role check reads the user's groups: three queries on every request. Here a token's first
request reads the token and its user in one query (its own expiry checked: an expired token is
deleted and refused; the others are dropped when their user logs in again,
``auth._make_room_for_a_token``) and the role in another; then all three are kept in Django's
cache (Redis in production), keyed by the token's digest — which only the token itself can
name — for ``settings.ROLE_CACHE_SECONDS`` (only with Redis: the cache every worker shares;
without it every request reads the database). The next requests read the cache alone: the
user comes back with the fields authentication needs (``CACHED_USER_FIELDS``; any other is
read from the database when first used) and the token's expiry is checked again each time.
The entry is forgotten when the token is deleted (revoked, expired, the password changed, the
user deactivated), when the user's groups, name or flags change, and when a role group is
renamed or deleted: see ``signals`` — at once and again when that change commits. A first
request checks, after caching, that its token still exists, so a revocation racing it cannot
leave the token cached. With the cache down, the database answers, as before.
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
from django.db import DEFAULT_DB_ALIAS, transaction
from django.db.models import Aggregate, CharField, Exists, OuterRef, Subquery
from django.utils import timezone
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox import auth
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from knox.signals import token_expired
from rest_framework import exceptions

from core.roles import ROLES, role_known, role_of
from tables.models import CardroomMembership
from tables.staff_selectors import cardrooms_known, cardrooms_of

log = logging.getLogger(__name__)


def role_key(digest: str) -> str:
    return f"cardroom:token-role:{digest}"


def forget_roles(digests: Iterable[str]) -> None:
    """Drop the cached entries of these tokens (their user changed, or they are gone): now, and
    again once the change commits — a request that read the database before the commit may
    have cached what it saw in between."""
    keys = [role_key(digest) for digest in digests]
    if not keys:
        return
    _forget(keys)
    if transaction.get_connection().in_atomic_block:
        transaction.on_commit(lambda: _forget(keys))


def _forget(keys: list[str]) -> None:
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
        remembered = _remembered(digest)
        if remembered is not None:
            return remembered
        found = (
            AuthToken.objects.select_related("user")
            .filter(token_key=text[: CONSTANTS.TOKEN_KEY_LENGTH])
            .annotate(**_HOLDS, _cardrooms=_CARDROOMS)
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
            role_known(user, next((r for r in ROLES if getattr(auth_token, _held(r))), None))
            cardrooms_known(user, _ids(auth_token._cardrooms))
            if _remember(user, auth_token, digest) and not _still_there(digest):
                raise refused  # revoked while this request read it: forgotten again
            return user, auth_token
        raise refused


#: What a request needs of its user without a query: who (the audit log's actor and name, the
#: person's full name the answers show), whether active, and the flags Django's permission
#: checks read.
CACHED_USER_FIELDS = (
    "id",
    "username",
    "first_name",
    "last_name",
    "is_active",
    "is_superuser",
    "is_staff",
)
_CACHED_TOKEN_FIELDS = ("digest", "token_key", "user_id", "created", "expiry")
_ENTRY = 4  # the shape of a cached entry; another (an older release's, without cardrooms) is a miss


def _fields(model: type[Any], names: tuple[str, ...]) -> list[str]:
    """``names`` in the model's own field order, the order ``Model.from_db`` expects."""
    return [f.attname for f in model._meta.concrete_fields if f.attname in names]


def _remembered(digest: str) -> tuple[User, AuthToken] | None:
    """The user and the token this digest was seen with, from the cache, or None (not cached,
    expired, inactive, the cache down): then the database decides."""
    if not settings.ROLE_CACHE_SECONDS:
        return None
    try:
        entry: Any = cache.get(role_key(digest))
    except Exception:  # noqa: BLE001 - the cache is down: the database answers
        log.warning("role cache unavailable", exc_info=True)
        return None
    if not isinstance(entry, dict) or entry.get("shape") != _ENTRY:
        return None
    expiry = entry["expiry"]
    if expiry is not None and expiry < timezone.now():
        return None  # the database path deletes the token and refuses it
    user = User.from_db(DEFAULT_DB_ALIAS, _fields(User, CACHED_USER_FIELDS), entry["user"])
    if not user.is_active:
        return None
    role_known(user, entry["role"])
    cardrooms_known(user, frozenset(entry["cardrooms"]))
    token = AuthToken.from_db(
        DEFAULT_DB_ALIAS, _fields(AuthToken, _CACHED_TOKEN_FIELDS), entry["token"]
    )
    token.user = user
    return user, token


def _held(role: str) -> str:
    return f"_holds_{ROLES.index(role)}"


#: Whether the token's user is in each role group, read with the token (role_of's precedence
#: is applied to them): the token, its user and the role in one query.
_HOLDS = {
    _held(role): Exists(
        User.groups.through.objects.filter(user_id=OuterRef("user_id"), group__name=role)
    )
    for role in ROLES
}


class _IdList(Aggregate):
    """The ids as one text, comma-separated (SQLite's GROUP_CONCAT, PostgreSQL's STRING_AGG)."""

    function = "GROUP_CONCAT"
    output_field = CharField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(
            compiler,
            connection,
            function="STRING_AGG",
            template="%(function)s(%(expressions)s::text, ',')",
        )


#: The cardrooms the token's user works in, read with the token (no query more).
_CARDROOMS = Subquery(
    CardroomMembership._base_manager.filter(user_id=OuterRef("user_id"))
    .values("user_id")
    .annotate(ids=_IdList("cardroom_id"))
    .values("ids")
)


def _ids(text: str | None) -> frozenset[int]:
    return frozenset(int(pk) for pk in text.split(",")) if text else frozenset()


def _still_there(digest: str) -> bool:
    """After caching: the token still exists. A revocation that committed after this request
    read the token but before it cached it would otherwise leave it cached; one that commits
    after this check forgets the entry on its commit (``forget_roles``)."""
    if AuthToken.objects.filter(digest=digest).exists():
        return True
    forget_roles([digest])
    return False


def _remember(user: User, auth_token: AuthToken, digest: str) -> bool:
    """Keep the user, its role and the token in the cache; whether they were cached."""
    seconds = settings.ROLE_CACHE_SECONDS
    if not seconds:
        return False
    entry = {
        "shape": _ENTRY,
        "role": role_of(user),  # known already: no query
        "cardrooms": sorted(cardrooms_of(user)),
        "expiry": auth_token.expiry,
        "user": [getattr(user, name) for name in _fields(User, CACHED_USER_FIELDS)],
        "token": [getattr(auth_token, name) for name in _fields(AuthToken, _CACHED_TOKEN_FIELDS)],
    }
    try:
        cache.set(role_key(digest), entry, seconds)
    except Exception:  # noqa: BLE001
        log.warning("role cache unavailable", exc_info=True)
        return False
    return True


class TokenScheme(KnoxTokenScheme):
    """The schema documents these tokens as knox's (``Authorization: Token …``)."""

    target_class = "cardroom.api.tokens.TokenAuthentication"
