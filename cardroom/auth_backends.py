"""django-axes' lockout for every login that comes with a request."""

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest


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
        return super().authenticate(request, username=username, password=password, **kwargs)
