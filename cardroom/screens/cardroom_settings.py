"""The floor's cardroom settings (``/floor/cardroom/``): what the cardroom is set up with —
its zone and gaming day, its chips and cage limit — and the age line, which the floor or an
administrator changes here (``patrons.age``)."""

from __future__ import annotations

from django import forms
from django.http import HttpResponse
from django.shortcuts import redirect, render

from core.inputs import AsciiDigitsForm
from core.roles import ADMINISTRATOR, FLOOR_SUPERVISOR
from patrons.age import cardroom_minimum_age_set
from patrons.models import MINIMUM_AGE_BOUNDS

from .base import SignedInRequest, call_service, role_required
from .cage import cardroom_first


class MinimumAgeForm(AsciiDigitsForm):
    # Any whole number reaches the service, whose refusal says the jurisdictions' range.
    minimum_age = forms.IntegerField(label="Minimum age (years)", min_value=0, max_value=1000)


@role_required(FLOOR_SUPERVISOR, ADMINISTRATOR)
def cardroom_settings(request: SignedInRequest) -> HttpResponse:
    cardroom = cardroom_first()
    if request.method == "POST":
        form = MinimumAgeForm(request.POST, auto_id="id_age_%s")
        if form.is_valid() and call_service(
            request,
            form,
            lambda: cardroom_minimum_age_set(
                cardroom=cardroom, minimum_age=form.cleaned_data["minimum_age"], by=request.user
            ),
        ):
            return redirect(f"{request.path}?saved=1")
    else:
        form = MinimumAgeForm(auto_id="id_age_%s", initial={"minimum_age": cardroom.minimum_age})
    context = {
        "cardroom": cardroom,
        "form": form,
        "bounds": MINIMUM_AGE_BOUNDS,
        "saved": request.GET.get("saved") == "1" and not form.errors,
    }
    return render(request, "floor/cardroom.html", context, status=422 if form.errors else 200)
