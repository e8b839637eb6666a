"""The floor's catalogue of approved paytables (R17): their figures in both bonus modes, the
proposals waiting for a second supervisor, proposing, approving, retiring."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import Http404
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from cardroom.signing import own_signature
from patrons.models import Cardroom
from tables import catalogue, figures
from tables.staff_models import PaytableChange

from .base import Actions, SignedInRequest, call_service
from .floor import supervisor_only
from .forms.tables import PaytableChangeForm, PaytableDecisionForm


@supervisor_only
def paytable_catalogue(
    request: SignedInRequest, forms: dict[str, Any] | None = None
) -> HttpResponseBase:
    """The cardroom's approved paytables with their figures in both bonus modes; proposals
    waiting for a second supervisor; propose a paytable, or retire one."""
    cardroom = _cardroom(request)
    forms = forms or {}
    history = catalogue.paytable_change_history(cardroom)
    context = {
        "cardroom": cardroom,
        "cardrooms": Cardroom.objects.order_by("name"),
        "entries": [
            (entry, _paytable_figures(entry.kind, entry.lines))
            for entry in catalogue.paytable_catalogue(cardroom)
        ],
        "pending": [
            (change, _paytable_figures(change.paytable, change.lines))
            for change in history.filter(decision__isnull=True)
        ],
        "decided": history.filter(decision__isnull=False).exclude(
            values__origin=PaytableChange.Origin.DEFAULT
        )[:30],
        "form": forms.get("propose") or PaytableChangeForm(),
        "decision_form": forms.get("decision"),
    }
    failed = any(form is not None and form.errors for form in forms.values())
    return render(request, "floor/paytables.html", context, status=422 if failed else 200)


@require_POST
@supervisor_only
def paytable_action(request: SignedInRequest, action: str) -> HttpResponseBase:
    """propose (add or retire, by the form's ``action``); approve, reject, withdraw."""
    return paytable_actions.handler(action)(request, _cardroom(request))


#: The actions on the catalogue, by the ``<action>`` of its URL.
paytable_actions: Actions[Callable[[SignedInRequest, Cardroom], HttpResponseBase]] = Actions()


@paytable_actions("propose")
def _propose(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    form = PaytableChangeForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: catalogue.paytable_change_propose(
            cardroom=cardroom, **form.cleaned_data, by=request.user
        ),
    )
    return _back(cardroom) if ok else paytable_catalogue(request, {"propose": form})


@paytable_actions("approve")
def _approve(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    return _decide(
        request,
        cardroom,
        lambda change, form: catalogue.paytable_change_approve(
            change=change,
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
    )


@paytable_actions("reject")
def _reject(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    return _decide(
        request,
        cardroom,
        lambda change, form: catalogue.paytable_change_reject(
            change=change, by=request.user, reason=form.cleaned_data["reason"]
        ),
    )


@paytable_actions("withdraw")
def _withdraw(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    return _decide(
        request,
        cardroom,
        lambda change, form: catalogue.paytable_change_withdraw(change=change, by=request.user),
    )


def _decide(
    request: SignedInRequest,
    cardroom: Cardroom,
    call: Callable[[PaytableChange, PaytableDecisionForm], object],
) -> HttpResponseBase:
    """A decision on a proposed paytable change: the change's id, and what the decision needs."""
    form = PaytableDecisionForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: call(
            get_object_or_404(PaytableChange, pk=form.cleaned_data["change"], cardroom=cardroom),
            form,
        ),
        fields={"signature": "secret"},
    )
    return _back(cardroom) if ok else paytable_catalogue(request, {"decision": form})


def _back(cardroom: Cardroom) -> HttpResponseBase:
    return redirect(f"{reverse('floor-paytables')}?cardroom={cardroom.pk}")


def _cardroom(request: SignedInRequest) -> Cardroom:
    """The cardroom asked for (``?cardroom=`` or the form's), else the first; none is a 404."""
    wanted = request.GET.get("cardroom") or request.POST.get("cardroom")
    rooms = Cardroom.objects.order_by("pk")
    if wanted and wanted.isascii() and wanted.isdigit():
        rooms = rooms.filter(pk=int(wanted))
    cardroom = rooms.first()
    if cardroom is None:
        raise Http404("Create the cardroom first.")
    return cardroom


def _paytable_figures(kind: str, lines: dict[str, Any]) -> dict[str, Any]:
    """A paytable's figures in both bonus modes, for the catalogue screen."""
    return {mode: figures.bonus_figures(kind, mode, lines) for mode in ("paytable", "versus_dp")}
