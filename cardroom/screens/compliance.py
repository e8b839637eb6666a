"""The compliance screens: the audit log with search, chain verification, the reports with a
chart of fees, and exports with their progress. Read-only but for verify and export."""

from __future__ import annotations

import contextlib
import re
from datetime import date
from decimal import Decimal
from typing import Any

from django.core.paginator import Paginator
from django.db.models import Q
from django.http import FileResponse, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from audit import alarms
from audit.actions import SAR_PREFIX
from audit.models import AuditEvent, CheckpointProblem
from audit.sweep import sweep_state
from compliance import hold, reports, services
from compliance.models import Export, VerificationRun
from core.errors import Conflict
from core.inputs import whole_number
from core.replica import reporting
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR, role_of
from patrons.models import Player
from rake.selectors import fees_per_hour
from tables import selectors as table_selectors
from tables.audit_chains import audit_events_in_scope
from tables.models import Table
from wagers import selectors as wagers_selectors

from .audit_names import named
from .base import SignedInRequest, call_service, role_required, working_cardroom
from .forms.compliance import AcknowledgeForm, EventSearchForm, ExportForm, ReportForm
from .ratings import player_page

auditors = role_required(COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR)
CHART = {"width": 780, "height": 220, "bar": 28, "gap": 4, "left": 44}
#: The hold chart: one row per wager type; the plot runs from x = LEFT to x = RIGHT.
HOLD_CHART = {"width": 720, "row": 58, "left": 170, "right": 700}


@auditors
def compliance_home(request: SignedInRequest) -> HttpResponse:
    return redirect("compliance-audit")


@auditors
def audit_log(request: SignedInRequest) -> HttpResponse:
    form = EventSearchForm(request.GET or None)
    events = audit_events_in_scope(AuditEvent.objects.select_related("actor").order_by("-seq"))
    if role_of(request.user) != COMPLIANCE_AUDITOR:  # suspicious activity cases: theirs alone
        events = events.exclude(action__startswith=SAR_PREFIX)
    if form.is_valid():
        data = form.cleaned_data
        if data["actor"]:
            events = events.filter(_actor_matches(data["actor"]))
        if data["action"]:
            events = events.filter(action__startswith=data["action"])
        if data["start"]:
            events = events.filter(occurred_at__gte=data["start"])
        if data["end"]:
            events = events.filter(occurred_at__lt=data["end"])
    page = Paginator(events, 50).get_page(whole_number(request.GET.get("page")))
    viewer = table_selectors.viewer(request.user)
    page.object_list = named(wagers_selectors.hide_live_cards(page.object_list, viewer))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "compliance/audit.html",
        {
            "form": form,
            "page": page,
            "query": query.urlencode(),
            "report": None,
            "sweep": sweep_state(),
            **_alarms(),
        },
    )


def _alarms(acknowledging: tuple[int, AcknowledgeForm] | None = None) -> dict[str, Any]:
    """The audit log's alarms at the top of its screen: the sink not taking checkpoints, and
    each checkpoint problem waiting for compliance, with its form."""
    problems = [
        (problem, acknowledging[1] if acknowledging and acknowledging[0] == problem.pk else None)
        for problem in alarms.checkpoint_problems_outstanding()
    ]
    return {"sink_alarm": alarms.sink_alarm(), "checkpoint_problems": problems}


@require_POST
@auditors
def checkpoint_problem_acknowledge(request: SignedInRequest, pk: int) -> HttpResponse:
    problem = get_object_or_404(CheckpointProblem, pk=pk)
    form = AcknowledgeForm(request.POST)
    if form.is_valid():
        done = call_service(
            request,
            form,
            lambda: alarms.checkpoint_problem_acknowledge(
                problem=problem, note=form.cleaned_data["note"], by=request.user
            ),
        )
        if done is not None:
            return redirect("compliance-audit")
    context = {
        "form": EventSearchForm(),
        "page": Paginator(AuditEvent.objects.none(), 50).get_page(1),
        "query": "",
        "report": None,
        **_alarms((problem.pk, form)),
    }
    return render(request, "compliance/audit.html", context, status=422)


def _actor_matches(text: str) -> Q:
    """Actor search by name as people type it: every word is found in the actor's first or
    last name, username, or the name recorded with the event ("fran", "Fran Ortiz")."""
    found = Q()
    for word in text.split():
        found &= (
            Q(actor_name__icontains=word)
            | Q(actor__first_name__icontains=word)
            | Q(actor__last_name__icontains=word)
        )
    return found


@require_POST
@auditors
def verify(request: SignedInRequest) -> HttpResponse:
    """Recompute the whole chain in a task; the run's page shows its progress."""
    run = services.verification_request(kind=VerificationRun.Kind.AUDIT_CHAIN, by=request.user)
    return redirect("compliance-verification", run.pk)


@require_POST
@auditors
def verify_books(request: SignedInRequest) -> HttpResponse:
    """Verify the books in a task; the run's page shows the first offending row."""
    run = services.verification_request(kind=VerificationRun.Kind.BOOKS, by=request.user)
    return redirect("compliance-verification", run.pk)


@require_POST
@auditors
def verify_state(request: SignedInRequest) -> HttpResponse:
    """Verify the compliance state in a task; the run's page shows the first offending row."""
    run = services.verification_request(kind=VerificationRun.Kind.STATE, by=request.user)
    return redirect("compliance-verification", run.pk)


@auditors
def verification(request: SignedInRequest, pk: int) -> HttpResponse:
    """A verification run: its progress while it runs (polled by htmx), then its report."""
    run = get_object_or_404(VerificationRun, pk=pk)
    return render(request, "compliance/verify.html", {"run": run})


@auditors
def report_view(request: SignedInRequest) -> HttpResponse:
    form = ReportForm(request.GET or None, initial={"day": _gaming_day_now()})
    context: dict[str, Any] = {"form": form, "report": None}
    if form.is_valid():
        table, day = form.cleaned_data["table"], form.cleaned_data["day"]
        with reporting():  # every figure of the page from one database (the replica if any)
            context.update(_table_reports(table, day))
    return render(request, "compliance/report.html", context)


def _table_reports(table: Table, day: date) -> dict[str, Any]:
    context: dict[str, Any] = {"report": reports.table_day_report(table, day)}
    context["chart"] = _chart(fees_per_hour(table, day))
    # Hold against theoretical (game-math.md): each shift, the gaming day, the month to date.
    periods = [
        *hold.day_shift_periods(table.cardroom, day),
        hold.day_period(table.cardroom, day),
        hold.month_to_date_period(table.cardroom, day),
    ]
    context["holds"] = [
        (found, _hold_chart(found))
        for found in (hold.hold_report(table, period) for period in periods)
    ]
    return context


def _gaming_day_now() -> date:
    """The cardroom's current gaming day (a day starts at its day-start hour, local time):
    where the reports open."""
    cardroom = working_cardroom()
    now = timezone.now()
    if cardroom is None:
        return timezone.localdate(now)
    return table_selectors.gaming_day(cardroom, now)


@auditors
def player_view(request: SignedInRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("cardroom"), pk=pk)
    return player_page(request, player, _days(request.GET.get("days")))


@auditors
def export_view(request: SignedInRequest) -> HttpResponse:
    form = ExportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        done = call_service(
            request, form, lambda: services.export_request(**form.cleaned_data, by=request.user)
        )
        if done is not None:
            return redirect("compliance-exports")
    return render(
        request,
        "compliance/exports.html",
        {"form": form, "exports": Export.objects.order_by("-requested_at")[:30]},
        status=422 if form.errors else 200,
    )


@auditors
def export_progress(request: SignedInRequest, pk: int) -> HttpResponse:
    """One export's row, polled by htmx while it runs: the progress bar, then the link."""
    return render(request, "compliance/_export.html", {"export": get_object_or_404(Export, pk=pk)})


@auditors
@require_POST
def export_retry(request: SignedInRequest, pk: int) -> HttpResponse:
    """The "retry" button of a failed export: built again; its row shows the progress."""
    export = get_object_or_404(Export, pk=pk)
    with contextlib.suppress(Conflict):  # retried already (another tab): the row shows how
        services.export_retry(export=export, by=request.user)
    export.refresh_from_db()
    if request.htmx:
        return render(request, "compliance/_export.html", {"export": export})
    return redirect("compliance-exports")


@auditors
def export_download(request: SignedInRequest, pk: int) -> FileResponse:
    export = get_object_or_404(Export, pk=pk, status=Export.Status.DONE)
    return FileResponse(
        export.file.open("rb"),
        as_attachment=True,
        filename=export.file.name.rsplit("/", 1)[-1],
        content_type="text/csv",
    )


def _days(text: str | None, default: int = 7, most: int = 3660) -> int:
    """The period of a player's report in days, from the query: 1 to ``most`` (ten years);
    anything else is the default week, never a server error."""
    if not re.fullmatch(r"[0-9]{1,4}", text or ""):  # ASCII digits: int() also reads "٥"
        return default
    days = int(text or default)
    return days if 1 <= days <= most else default


def _chart(hours: list[tuple[str, Decimal]]) -> dict:
    """Bar geometry of a server-rendered SVG: fees per hour of the gaming day. Every value is
    written above its bar and the axis is labelled (touch screens have no hover)."""
    top = max((amount for _, amount in hours), default=Decimal("0")) or Decimal("1")
    height, bar, gap, left = CHART["height"], CHART["bar"], CHART["gap"], CHART["left"]
    plot = height - 50  # room for the values above and the hours below
    bars = []
    for index, (label, amount) in enumerate(hours):
        h = int(amount / top * plot) if amount > 0 else 0
        x = left + index * (bar + gap)
        bars.append(
            {
                "x": x,
                "y": height - 20 - h,
                "h": h,
                "w": bar,
                "mid": x + bar // 2,
                "value_y": height - 24 - h,
                "label": label,
                "amount": amount,
            }
        )
    return {
        "bars": bars,
        "width": left + 24 * (bar + gap),
        "height": height,
        "left": left,
        "base": height - 20,
        "top_y": height - 20 - plot,
        "top": top,
        "total": sum((a for _, a in hours), Decimal("0.00")),
    }


def _hold_chart(report: hold.HoldReport) -> dict:
    """Geometry of a server-rendered SVG: for each wager type of the table's bank, the band
    (a bar from its low to its high), the theoretical win (a tick) and the actual win (a dot,
    red when flagged), on one scale that includes zero; every value is written beside it."""
    lines = report.total.lines
    values = [Decimal(0)] + [v for line in lines for v in (line.band_low, line.band_high, line.win)]
    low, high = min(values), max(values)
    span = (high - low) or Decimal(1)
    left, right, row = HOLD_CHART["left"], HOLD_CHART["right"], HOLD_CHART["row"]

    def x(amount: Decimal) -> int:
        return left + int((amount - low) / span * (right - left))

    rows = [
        {
            "y": index * row,
            "label": line.label,
            "band_x": x(line.band_low),
            "band_w": max(x(line.band_high) - x(line.band_low), 1),
            "theory_x": x(line.theoretical_win),
            "win_x": x(line.win),
            "line": line,
        }
        for index, line in enumerate(lines)
    ]
    return {
        "rows": rows,
        "zero_x": x(Decimal(0)),
        "width": HOLD_CHART["width"],
        "height": row * len(lines) + 6,
    }
