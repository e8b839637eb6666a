"""A person who works in several cardrooms chooses, from the header, the one their screens
show (each screen then sees and changes that cardroom alone, ``cardroom.cardroom_scope``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from cardroom.cardroom_scope import CHOSEN_CARDROOM, screen_cardrooms
from patrons.models import Cardroom
from tables.staff_selectors import cardrooms_of

from .base import SignedInRequest


def cardroom_choices(request: HttpRequest) -> dict[str, object]:
    """For the header: the person's cardrooms by name and the one chosen, when they have more
    than one (one cardroom needs no choice, and costs no query)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    rooms = cardrooms_of(user)
    if len(rooms) < 2:
        return {}
    chosen = next(iter(screen_cardrooms(request)), None)
    names = Cardroom._base_manager.filter(pk__in=rooms).order_by("name").values_list("pk", "name")
    return {"cardroom_choices": list(names), "cardroom_chosen": chosen}


@require_POST
@login_required
def cardroom_choose(request: SignedInRequest) -> HttpResponse:
    back = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = "/"
    try:
        chosen = int(request.POST.get("cardroom", ""))
    except ValueError:
        chosen = None
    if chosen not in cardrooms_of(request.user):
        messages.error(request, "Cardroom: choose one of the cardrooms you work in.")
        return redirect(back)
    request.session[CHOSEN_CARDROOM] = chosen
    name = Cardroom._base_manager.get(pk=chosen).name
    messages.success(request, f"Your screens show {name} now.")
    return redirect(back)
