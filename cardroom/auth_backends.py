"""django-axes' lockout for every login that comes with a request."""

from axes.backends import AxesStandaloneBackend


class LockoutBackend(AxesStandaloneBackend):
    """django-axes refuses locked-out logins but needs the request to know who and from
    where. A login without one (a management command, the test client's ``login``) is not a
    user at a login form: it is left to the next backend. This backend never logs anyone in."""

    def authenticate(self, request=None, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)
