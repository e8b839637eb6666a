"""django-axes' throttling of logins, for every login that comes with a request.

The policy (docs/production.md, "Logins"):

- **An account from one address** (the pair): at ``AXES_FAILURE_LIMIT`` failures that pair
  waits a cool-off which doubles with every further failure (``LOGIN_BACKOFF_FIRST`` up to
  ``LOGIN_BACKOFF_MOST``), forgotten once a cool-off passes quietly. The account itself is not
  locked: the same dealer on their own tablet, another address, logs in.
- **An address on many accounts**: its failures across accounts count too, each for
  ``AXES_FAILURE_LIMIT / LOGIN_ADDRESS_FAILURE_LIMIT`` of one (an address trying many
  accounts waits like a pair once it failed ``LOGIN_ADDRESS_FAILURE_LIMIT`` times).
- **An account from anywhere**: once it failed ``LOGIN_ACCOUNT_FAILURE_LIMIT`` times within
  ``LOGIN_ACCOUNT_WINDOW``, from whatever addresses, it takes one attempt every
  ``LOGIN_ACCOUNT_INTERVAL`` from an address it never logged in from — slower guessing, never
  a lock: from an address it logged in from before (its dealer's tablet) it is not held back.
  A held-back attempt checks no password and counts as no failure.
"""

from datetime import timedelta
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.handlers.database import AxesDatabaseHandler
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Max, Sum
from django.http import HttpRequest
from django.utils import timezone

#: The username a login tried, kept on the request for ``login_cool_off``.
ATTEMPTED = "cardroom_login_username"
#: Set on a request the account's throttle held back: how long until the next attempt.
HELD_BACK = "cardroom_login_held_back"


class LockoutBackend(AxesStandaloneBackend):
    """django-axes refuses locked-out logins but needs the request to know who and from
    where. A login without one (a management command, the test client's ``login``) is not a
    user at a login form: it is left to the next backend. This backend never logs anyone in."""

    def authenticate(
        self,
        request: HttpRequest | None = None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> AbstractBaseUser | None:
        if request is None:
            return None
        setattr(request, ATTEMPTED, username)
        # The pair's (or the address's) lock first: a locked pair's attempt counts, and waits
        # longer than the account's throttle would make it.
        super().authenticate(request, username=username, password=password, **kwargs)
        wait = _account_wait(request, username)
        if wait is not None:
            setattr(request, HELD_BACK, wait)
            request.axes_locked_out = True  # type: ignore[attr-defined] # axes' own flag
            raise AxesBackendPermissionDenied("The account takes one attempt at a time now.")
        return None


class LoginAttempts(AxesDatabaseHandler):
    """``AXES_HANDLER``: axes counts the pair's failures (``AXES_LOCKOUT_PARAMETERS``); the
    address's failures on every account count too, at their share."""

    def get_failures(self, request: HttpRequest, credentials: dict | None = None) -> int:
        pair = super().get_failures(request, credentials)
        address = _address(request)
        if not address:
            return pair
        recent = AccessAttempt.objects.filter(
            ip_address=address, attempt_time__gte=get_cool_off_threshold(request)
        )
        return max(pair, _address_share(recent.aggregate(n=Sum("failures_since_start"))["n"]))


def not_counted(request: HttpRequest, credentials: dict | None = None) -> bool:
    """``AXES_WHITELIST_CALLABLE``: an attempt the account's throttle held back is no failure
    (else the guesser, held back, would keep the account held back for its owner)."""
    return getattr(request, HELD_BACK, None) is not None


def login_wait(request: HttpRequest) -> timedelta:
    """How long the refused login waits before its next attempt (the API's Retry-After)."""
    held_back: timedelta | None = getattr(request, HELD_BACK, None)
    return held_back if held_back is not None else login_cool_off(request)


def login_cool_off(request: HttpRequest | None = None) -> timedelta:
    """``AXES_COOLOFF_TIME``: the first cool-off at the failure limit, doubled for each failure
    beyond it (of the pair, or the address's share), at most the longest."""
    beyond = max(0, _failures(request) - settings.AXES_FAILURE_LIMIT)
    first: timedelta = settings.LOGIN_BACKOFF_FIRST
    most: timedelta = settings.LOGIN_BACKOFF_MOST
    return min(first * 2 ** min(beyond, 20), most)


def _address(request: HttpRequest) -> str | None:
    return getattr(request, "axes_ip_address", None) or request.META.get("REMOTE_ADDR")


def _address_share(failures: int | None) -> int:
    return (failures or 0) * settings.AXES_FAILURE_LIMIT // settings.LOGIN_ADDRESS_FAILURE_LIMIT


def _failures(request: HttpRequest | None) -> int:
    """The pair's failures, or the address's share, whichever is more (every row axes keeps:
    it forgets them after a quiet cool-off)."""
    if request is None:
        return 0
    username = getattr(request, ATTEMPTED, None)
    address = _address(request)
    if not address:
        return 0
    rows = AccessAttempt.objects.filter(ip_address=address)
    pair = rows.filter(username=username).aggregate(n=Sum("failures_since_start"))["n"] or 0
    return max(pair, _address_share(rows.aggregate(n=Sum("failures_since_start"))["n"]))


def _account_wait(request: HttpRequest, username: str | None) -> timedelta | None:
    """None, or how long until the account takes its next attempt from this address."""
    if not username:
        return None
    now = timezone.now()
    failures = AccessFailureLog.objects.filter(
        username=username, attempt_time__gte=now - settings.LOGIN_ACCOUNT_WINDOW
    ).aggregate(count=Count("id"), last=Max("attempt_time"))
    if (failures["count"] or 0) < settings.LOGIN_ACCOUNT_FAILURE_LIMIT:
        return None
    address = _address(request)
    if address and AccessLog.objects.filter(username=username, ip_address=address).exists():
        return None  # an address it logged in from: the pair's own limit applies
    wait: timedelta = failures["last"] + settings.LOGIN_ACCOUNT_INTERVAL - now
    return wait if wait > timedelta(0) else None
