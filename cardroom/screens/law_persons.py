"""Compliance's possible matches on the Law page: "Link" (one person) or "Not the same
person", each asking first and naming both records (``patrons.persons``)."""

from __future__ import annotations

from django import forms
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from patrons.models import PersonMatch
from patrons.persons import person_match_resolve
from tables import selectors as table_selectors

from .base import SignedInRequest, call_service
from .confirmation import confirm_first
from .law import cardroom_first, compliance_only, law_page


class MatchResolveForm(forms.Form):
    decision = forms.ChoiceField(
        choices=[("linked", "Link: one person"), ("distinct", "Not the same person")]
    )
    reason = forms.CharField(max_length=1000)


def _record(player: object) -> str:
    return f"{player} (player #{getattr(player, 'pk', '')}, {getattr(player, 'cardroom', '')})"


def match_sentence(request: SignedInRequest, pk: int) -> str | None:
    """What the decision will do, naming both records."""
    form = MatchResolveForm(request.POST)
    if not form.is_valid():
        return None
    match = get_object_or_404(
        PersonMatch.objects.select_related("player__cardroom", "other__cardroom"), pk=pk
    )
    both = f"{_record(match.player)} and {_record(match.other)}"
    if form.cleaned_data["decision"] == "linked":
        return f"Links {both} as one person: their cash is totalled together from now on."
    return f"Records that {both} are not the same person."


@require_POST
@compliance_only
@confirm_first(match_sentence)
def match_resolve(request: SignedInRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(PersonMatch, pk=pk)
    form = MatchResolveForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: person_match_resolve(match=match, by=request.user, **form.cleaned_data),
    ):
        return redirect("/compliance/law/#matches")
    if not form.is_valid() and not getattr(request, "refusals", None):
        request.refusals = [  # type: ignore[attr-defined]
            f"{name}: {' '.join(str(e) for e in errors)}" for name, errors in form.errors.items()
        ]
    cardroom = cardroom_first()
    day = table_selectors.gaming_day(cardroom, timezone.now())
    return law_page(request, cardroom, day, refused=True)
