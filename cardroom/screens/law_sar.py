"""Compliance's screens for suspicious activity cases (31 CFR 1021.320): the Law page's
section (``sar_section``), a case opened from a structuring flag's button or a player's page,
and the case's page (its transactions, the $5,000 test, the deadline, notes, the decision).

Compliance's alone: every other role is answered 404, as for a case that does not exist, and
nothing of the attempt is written where others read (no refusal on the audit log, whose
``sar.*`` events only compliance sees); every look is an audit event.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from core.money import ZERO
from core.roles import COMPLIANCE_AUDITOR, role_of
from patrons import sar_cases, sar_selectors
from patrons.models import Cardroom, Player, SarCase, StructuringFlag, SuspiciousActivityReview

from .base import SignedInRequest, call_service, cardroom_zone, working_cardroom
from .confirmation import confirm_first
from .forms.sar import SarDecisionForm, SarNoteForm, SarOpenForm
from .templatetags.cardroom import dollars


def compliance_alone(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """Anonymous visitors go to the login page; every role but compliance gets the 404 page."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if role_of(request.user) != COMPLIANCE_AUDITOR:
            raise Http404
        with timezone.override(cardroom_zone()):
            return view(request, *args, **kwargs)

    return wrapper


def sar_section(request: SignedInRequest, cardroom: Cardroom) -> dict[str, Any]:
    """The Law page's cases (its look audited)."""
    today = sar_cases.today_at(cardroom)
    cases = list(sar_selectors.sar_cases(cardroom.pk, today=today)[:100])
    sar_cases.sar_cases_looked_at(cardroom=cardroom, cases=cases, due=None, by=request.user)
    return {
        "sar_shown": True,
        "sar_cases": [(case, sar_selectors.facts(case, today)) for case in cases],
    }


def _opening(form: SarOpenForm, cardroom: Cardroom) -> sar_cases.SarOpening:
    data = form.cleaned_data
    flag = data["structuring_flag"] and get_object_or_404(
        StructuringFlag, pk=data["structuring_flag"], cardroom=cardroom
    )
    review = data["review"] and get_object_or_404(
        SuspiciousActivityReview, pk=data["review"], player__cardroom=cardroom
    )
    player = data["player"] and get_object_or_404(Player, pk=data["player"], cardroom=cardroom)
    return sar_cases.SarOpening(
        summary=data["summary"],
        structuring_flag=flag or None,
        review=review or None,
        player=player or None,
        detected_on=data["detected_on"],
        suspect_identified=data["suspect_identified"],
    )


@compliance_alone
@require_POST
def sar_open(request: SignedInRequest) -> HttpResponse:
    """Open a case from a flag's button (or on a player); its page shows it."""
    cardroom = working_cardroom()
    if cardroom is None:
        raise Http404
    form = SarOpenForm(request.POST)
    case = None
    if form.is_valid():
        opening = _opening(form, cardroom)
        case = call_service(
            request,
            form,
            lambda: sar_cases.sar_case_open(cardroom=cardroom, opening=opening, by=request.user),
        )
    if case is None:
        return render(request, "law/sar_open.html", {"form": form}, status=422)
    return redirect("law-sar-case", pk=case.pk)


@compliance_alone
def sar_case(request: SignedInRequest, pk: int) -> HttpResponse:
    """A case: the transactions involved, the $5,000 test, the deadline in days, the notes,
    and the decision (or the form to make it, which asks first)."""
    case = get_object_or_404(sar_selectors.with_details(SarCase.objects.all()), pk=pk)
    return _case_page(request, case)


def _case_page(
    request: SignedInRequest,
    case: SarCase,
    *,
    note_form: SarNoteForm | None = None,
    decision_form: SarDecisionForm | None = None,
) -> HttpResponse:
    """The case's page, its look audited; with a refused form (its errors shown), 422."""
    sar_cases.sar_case_looked_at(case=case, by=request.user)
    context = {
        "case": case,
        "facts": sar_selectors.facts(case, sar_cases.today_at(case.cardroom)),
        "decision": sar_selectors.decision_of(case),
        "note_form": note_form or SarNoteForm(),
        "decision_form": decision_form or SarDecisionForm(),
    }
    refused = note_form is not None or decision_form is not None
    return render(request, "law/sar_case.html", context, status=422 if refused else 200)


@compliance_alone
@require_POST
def sar_note(request: SignedInRequest, pk: int) -> HttpResponse:
    case = get_object_or_404(SarCase, pk=pk)
    form = SarNoteForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: sar_cases.sar_note_add(case=case, note=form.cleaned_data["note"], by=request.user),
    ):
        return redirect("law-sar-case", pk=pk)
    return _case_page(request, _fresh(pk), note_form=form)


def decision_sentence(request: HttpRequest, pk: int) -> str | None:
    """What deciding does: files (or not) for good, the case frozen."""
    form = SarDecisionForm(request.POST)
    case = SarCase.objects.filter(pk=pk).select_related("player").first()
    if case is None or not form.is_valid():
        return None
    involved = sum((t.amount for t in case.transactions.all()), start=ZERO)
    if form.cleaned_data["outcome"] == "file":
        what = f"Records that a SAR was filed (BSA id {form.cleaned_data['filing_reference']})"
    else:
        what = "Records that no SAR is filed"
    return (
        f"{what} for case #{case.pk} on {case.player} ({dollars(involved)} involved). "
        "The decision is final: the case is frozen, only notes can be added."
    )


@compliance_alone
@require_POST
@confirm_first(decision_sentence)
def sar_decision(request: SignedInRequest, pk: int) -> HttpResponse:
    case = get_object_or_404(SarCase, pk=pk)
    form = SarDecisionForm(request.POST)
    if form.is_valid() and call_service(
        request,
        form,
        lambda: sar_cases.sar_decide(case=case, by=request.user, **form.cleaned_data),
    ):
        return redirect("law-sar-case", pk=pk)
    return _case_page(request, _fresh(pk), decision_form=form)


def _fresh(pk: int) -> SarCase:
    return sar_selectors.with_details(SarCase.objects.all()).get(pk=pk)
