"""The floor's exclusion page (``/floor/exclusions/``): each entry with its term and end
date, "Propose ending" for a house bar only (a second floor supervisor approves it, through
the two-person change); an exclusion match's outcome recorded on the incident log; and
compliance's export of the cardroom's exclusion actions for the state."""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.signing import own_signature
from compliance.exclusion_actions import exclusion_actions_csv
from core.inputs import AsciiDigitsForm
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons import incidents, selectors
from patrons.exclusion_ends import is_house_bar
from patrons.masking import masked_id
from patrons.models import Exclusion, Incident, IncidentEntry
from tables.services.exclusion_ends import (
    exclusion_end_decide,
    exclusion_end_propose,
    exclusion_end_withdraw,
)
from tables.staff_models import ExclusionEndChange

from .base import SignedInRequest, call_service, role_required
from .confirmation import confirm_first
from .forms.signing import SECRET_FIELD
from .law import cardroom_first

floor_and_compliance = role_required(FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)
floor_only = role_required(FLOOR_SUPERVISOR)
compliance_only = role_required(COMPLIANCE_AUDITOR)


class EndProposalForm(AsciiDigitsForm):
    ends_on = forms.DateField(label="Ends on")
    reason = forms.CharField(max_length=2000)


class EndDecisionForm(forms.Form):
    """Approve (signed with the approver's own password or PIN), reject (why), or withdraw."""

    reason = forms.CharField(max_length=2000, label="Why", required=False)
    secret = SECRET_FIELD()


class OutcomeForm(forms.Form):
    outcome = forms.ChoiceField(choices=IncidentEntry.Outcome.choices)
    text = forms.CharField(max_length=2000, label="What the cardroom did")


@floor_and_compliance
def exclusion_list(request: SignedInRequest) -> HttpResponse:
    return _page(request, EndProposalForm(), status=200)


def _page(request: HttpRequest, form: Any, *, status: int = 422) -> HttpResponse:
    rows = list(selectors.exclusions(cardroom_first().pk)[:300])
    pending = {
        change.exclusion_id: change
        for change in ExclusionEndChange.objects.filter(decision__isnull=True).select_related(
            "proposed_by"
        )
    }
    context = {
        "rows": [
            (row, masked_id(row.id_number), is_house_bar(row), pending.get(row.pk)) for row in rows
        ],
        "form": form,
    }
    return render(request, "law/exclusions.html", context, status=status)


def _ending_sentence(request: HttpRequest, pk: int) -> str | None:
    form = EndProposalForm(request.POST)
    if not form.is_valid():
        return None
    row = get_object_or_404(Exclusion, pk=pk)
    return (
        f"Propose ending the house bar of {row.name} on {form.cleaned_data['ends_on']:%Y-%m-%d}? "
        "A second floor supervisor approves it."
    )


@require_POST
@floor_only
@confirm_first(_ending_sentence)
def exclusion_end_proposal(request: SignedInRequest, pk: int) -> HttpResponse:
    exclusion = get_object_or_404(Exclusion, pk=pk)
    form = EndProposalForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: exclusion_end_propose(exclusion=exclusion, by=request.user, **form.cleaned_data),
    ):
        return redirect("law-exclusions")
    return _page(request, form)


#: What each decision on a proposed end calls, given the request, the change and the form.
_DECISIONS = {
    "approve": lambda request, change, data: exclusion_end_decide(
        change=change,
        approve=True,
        by=request.user,
        signature=own_signature(request, data["secret"]),
    ),
    "reject": lambda request, change, data: exclusion_end_decide(
        change=change, approve=False, reason=data["reason"], by=request.user
    ),
    "withdraw": lambda request, change, data: exclusion_end_withdraw(
        change=change, by=request.user
    ),
}


def _decision_sentence(request: HttpRequest, pk: int, action: str) -> str | None:
    change = get_object_or_404(ExclusionEndChange, pk=pk, decision__isnull=True)
    name = get_object_or_404(Exclusion, pk=change.exclusion_id).name
    ends_on = change.values["ends_on"]
    return {
        "approve": f"Approve ending the house bar of {name} on {ends_on}? You sign it, and "
        "the bar ends then.",
        "reject": f"Reject ending the house bar of {name}? The bar stays in force.",
        "withdraw": f"Withdraw your proposal to end the house bar of {name}?",
    }.get(action)


@require_POST
@floor_only
@confirm_first(_decision_sentence)
def exclusion_end_decision(request: SignedInRequest, pk: int, action: str) -> HttpResponse:
    """A second floor supervisor approves (signing) or rejects a house bar's proposed end; the
    proposer may withdraw it."""
    change = get_object_or_404(ExclusionEndChange, pk=pk, decision__isnull=True)
    decide = _DECISIONS.get(action)
    if decide is None:
        raise Http404(action)
    form = EndDecisionForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: decide(request, change, form.cleaned_data),
        fields={"signature": "secret"},
    ):
        return redirect("law-exclusions")
    return _page(request, form)


@require_POST
@floor_and_compliance
def incident_outcome(request: SignedInRequest, pk: int) -> HttpResponse:
    incident = get_object_or_404(Incident, pk=pk)
    form = OutcomeForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: incidents.incident_outcome_record(
            incident=incident, by=request.user, **form.cleaned_data
        ),
    ):
        return redirect("law-incidents")
    return render(request, "law/outcome.html", {"form": form, "incident": incident}, status=422)


@compliance_only
def exclusion_actions(request: SignedInRequest) -> HttpResponse:
    cardroom = cardroom_first()
    today = timezone.localdate()
    try:
        start = _day(request.GET, "start", date(today.year, 1, 1))
        end = _day(request.GET, "end", today)
    except ValueError as error:
        return HttpResponseBadRequest(str(error), content_type="text/plain")
    text = exclusion_actions_csv(cardroom=cardroom, start=start, end=end, by=request.user)
    response = HttpResponse(text, content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="exclusion-actions-{start}-{end}.csv"'
    return response


def _day(query: Any, field: str, default: date) -> date:
    """The day given as ``field`` (YYYY-MM-DD), or ``default``; a ValueError naming it."""
    text = query.get(field)
    if not text:
        return default
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"{field}: {text!r} is not a day; give it as YYYY-MM-DD.") from None
