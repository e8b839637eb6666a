"""The public board (``/board/<cardroom id>/``): a read-only page with no login for a screen
in the room, showing each list in order with a first name and last initial only — never a
full name, a phone or an id. It reloads itself."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from core import scoping
from patrons.models import Cardroom
from tables import waitlist_selectors

#: How often the board reloads itself, in seconds.
REFRESH_SECONDS = 10


@require_GET
def public_board(request: HttpRequest, pk: int) -> HttpResponse:
    # No login: the URL names the room, and the board reads that room's lists alone.
    with scoping.scoped_to({pk}):
        cardroom = get_object_or_404(Cardroom, pk=pk)
        context = {
            "room": cardroom.name,
            "lists": waitlist_selectors.board(cardroom),
            "refresh": REFRESH_SECONDS,
        }
    return render(request, "board.html", context)
