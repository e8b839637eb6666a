"""The count sheet of a shift's drop (printable), the discrepancy report with its CSV, and
the cage's control settings (runner, count team size, variance thresholds)."""

from __future__ import annotations

from datetime import date

from django import forms
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone

from cage import services
from cage.count_sheets import count_sheet
from compliance.discrepancies import discrepancies, discrepancies_csv
from core.inputs import AsciiDigitsForm
from core.roles import COMPLIANCE_AUDITOR, COUNT_TEAM, FLOOR_SUPERVISOR
from tables import selectors as table_selectors

from .base import SignedInRequest, call_service, role_required
from .cage import cardroom_first, shift_period

sheet_readers = role_required(FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR, COUNT_TEAM)
auditors = role_required(COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR)
supervisor_only = role_required(FLOOR_SUPERVISOR)


@sheet_readers
def count_sheet_view(request: SignedInRequest) -> HttpResponseBase:
    """The count sheet, to print and sign: time, boxes, counters, totals (4 CCR §12385)."""
    cardroom = cardroom_first()
    day, shift = shift_period(request, cardroom)
    sheet = count_sheet(cardroom, day, shift)
    return render(request, "cage/count_sheet.html", {"sheet": sheet, "printed_at": timezone.now()})


class PeriodForm(AsciiDigitsForm):
    start = forms.DateField(label="From gaming day")
    end = forms.DateField(label="To gaming day")
    regulator = forms.BooleanField(label="Only the regulator's list", required=False)


@auditors
def discrepancies_view(request: SignedInRequest) -> HttpResponseBase:
    """Every variance of a period (the day so far, unless asked); ``?csv=1`` exports it."""
    cardroom = cardroom_first()
    today = table_selectors.gaming_day(cardroom, timezone.now())
    form = PeriodForm(request.GET or None, initial={"start": today, "end": today})
    start: date = today
    end: date = today
    regulator = False
    if form.is_valid():
        start, end = form.cleaned_data["start"], form.cleaned_data["end"]
        regulator = form.cleaned_data["regulator"]
        if end < start:
            form.add_error("end", "The period ends on or after its first day.")
    rows = [] if form.errors else discrepancies(cardroom, start, end, regulator_only=regulator)
    if request.GET.get("csv") and not form.errors:
        response = HttpResponse(discrepancies_csv(rows), content_type="text/csv")
        name = f"discrepancies-{start}-{end}{'-regulator' if regulator else ''}.csv"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
    context = {
        "form": form,
        "rows": rows,
        "start": start,
        "end": end,
        "query": request.GET.urlencode(),
    }
    return render(request, "compliance/discrepancies.html", context)


class ControlsForm(AsciiDigitsForm):
    runner_required = forms.BooleanField(label="A runner carries fills and credits", required=False)
    count_team_size = forms.IntegerField(label="Count team size", min_value=2, max_value=6)
    variance_incident_threshold = forms.DecimalField(
        label="Incident over ($)", max_digits=12, decimal_places=2, min_value=0
    )
    variance_regulator_threshold = forms.DecimalField(
        label="Regulator's list over ($)", max_digits=12, decimal_places=2, min_value=0
    )


@supervisor_only
def cage_controls_view(request: SignedInRequest) -> HttpResponseBase:
    cardroom = cardroom_first()
    if request.method == "POST":
        form = ControlsForm(request.POST, auto_id="id_controls_%s")
        ok = form.is_valid() and call_service(
            request,
            form,
            lambda: services.cage_controls_set(
                cardroom=cardroom, **form.cleaned_data, by=request.user
            ),
        )
        if ok:
            return redirect(reverse("cage-controls"))
    else:
        form = ControlsForm(
            auto_id="id_controls_%s",
            initial={
                "runner_required": cardroom.runner_required,
                "count_team_size": cardroom.count_team_size,
                "variance_incident_threshold": cardroom.variance_incident_threshold,
                "variance_regulator_threshold": cardroom.variance_regulator_threshold,
            },
        )
    status = 422 if form.errors else 200
    return render(
        request, "cage/controls.html", {"form": form, "cardroom": cardroom}, status=status
    )
