"""django-axes' throttling of logins, for every login that comes with a request.

The policy (README, "Logins"): failures are counted per account and, separately, per client
address; at ``AXES_FAILURE_LIMIT`` that account or that address waits a cool-off which doubles
with every further failure (``LOGIN_BACKOFF_FIRST`` up to ``LOGIN_BACKOFF_MOST``) and is
forgotten once a cool-off passes quietly.
"""

from datetime import timedelta
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Max, Q
from django.http import HttpRequest

#: The username a login tried, kept on the request for ``login_cool_off``.
ATTEMPTED = "cardroom_login_username"


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
        return super().authenticate(request, username=username, password=password, **kwargs)


def login_cool_off(request: HttpRequest | None = None) -> timedelta:
    """``AXES_COOLOFF_TIME``: the first cool-off at the failure limit, doubled for each failure
    beyond it (of the account or the address, whichever has more), at most the longest."""
    beyond = max(0, _failures(request) - settings.AXES_FAILURE_LIMIT)
    first: timedelta = settings.LOGIN_BACKOFF_FIRST
    most: timedelta = settings.LOGIN_BACKOFF_MOST
    return min(first * 2 ** min(beyond, 20), most)


def _failures(request: HttpRequest | None) -> int:
    if request is None:
        return 0
    username = getattr(request, ATTEMPTED, None)
    address = getattr(request, "axes_ip_address", None) or request.META.get("REMOTE_ADDR")
    who = Q(pk__in=[])
    if username:
        who |= Q(username=username)
    if address:
        who |= Q(ip_address=address)
    found = AccessAttempt.objects.filter(who).aggregate(most=Max("failures_since_start"))
    return int(found["most"] or 0)
