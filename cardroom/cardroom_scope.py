"""The cardrooms a request may reach (``core.scoping``): one deployment, several rooms, and
each person in the rooms they work in (``tables.CardroomMembership``).

On the screens a person with several cardrooms works in one at a time, the one they chose
(kept in their session, changed from the header); the API reaches every cardroom of theirs,
each request naming what it reads or changes. ``RolePermission`` scopes an API request again
once its token is read (the middleware knows only a session's user).
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse

from core import scoping
from tables.staff_selectors import cardrooms_of

#: The session key of the cardroom a person with several chose to work in on the screens.
CHOSEN_CARDROOM = "cardroom"


def screen_cardrooms(request: HttpRequest) -> frozenset[int]:
    """The cardrooms a signed-in person's screens show: the one they chose, or their first.
    The API sees every cardroom of theirs (each request names what it reads)."""
    user = request.user
    rooms = cardrooms_of(user) if isinstance(user, User) else frozenset()
    if not rooms or request.path.startswith("/api/"):
        return rooms
    chosen = request.session.get(CHOSEN_CARDROOM)
    return frozenset({chosen if chosen in rooms else min(rooms)})


class CardroomScopeMiddleware:
    """Every request is scoped to its user's cardrooms (``core.scoping``): none until a user
    is known, so a view that forgets who asks sees nothing. Left when the request ends."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = scoping.enter(screen_cardrooms(request))
        try:
            return self.get_response(request)
        finally:
            scoping.leave(token)
