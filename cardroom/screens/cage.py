"""The cage screens.

- Floor supervisors: a house-banked table's rack (opening, shift-change and closing counts,
  two signatures), its fill and credit slips (request, the floor's signature, void, print),
  and the shift overview: every table's figures, the drop counts and their variances to sign
  off, shift close.
  Every second person signs on the supervisor's device by typing their username and password
  or PIN; the supervisor signs with their own. No list of names to pick from.
- Compliance: the same overview (statistics per shift, day and month, CSV), and the day close.
- The count team: the count screen, nothing else (``cage_count``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cage import reports, selectors, services
from cage.count_sheets import counts_as_they_stand
from cage.models import DropCount, Slip, SlipStep
from cage.slip_selectors import slip_next_step
from cardroom.signing import own_signature, signature
from core.inputs import month_of
from core.roles import (
    CASHIER,
    COMPLIANCE_AUDITOR,
    FLOOR_SUPERVISOR,
    role_of,
)
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import Signature, Table
from tables.signatures import signatures_of

from . import sentences
from .base import Actions, SignedInRequest, call_service, role_required, working_cardroom
from .forms.cage import (
    DayCloseForm,
    InventoryCountForm,
    ShiftCloseForm,
    SignOffForm,
    SlipForm,
    SlipSignForm,
    VoidForm,
)

supervisor_only = role_required(FLOOR_SUPERVISOR)
#: How a signature was given, as the printed slip says it.
SIGNED_WITH: dict[str, str] = {Signature.Method.PASSWORD: "password", Signature.Method.PIN: "PIN"}
#: A service's refused signature of the person signed in, next to their password or PIN.
SIGNED = {"signature": "secret"}
overseers = role_required(FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)
#: Who prints a slip: the cashier who prepares it, the floor, compliance.
printers = role_required(FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR, CASHIER)


def cardroom_first() -> Cardroom:
    """The cardroom the cage screens show (a system runs one); none yet is a 404."""
    cardroom = working_cardroom()
    if cardroom is None:
        raise Http404("Create the cardroom first.")
    return cardroom


def shift_period(request: SignedInRequest, cardroom: Cardroom) -> tuple[date, str]:
    """The gaming day and shift of the query (``day``, ``shift``): by default the last shift
    that is over."""
    day, shift = selectors.last_shift_over(cardroom)
    with contextlib.suppress(ValueError):
        day = date.fromisoformat(request.GET.get("day") or day.isoformat())
    names = [s.shift for s in table_selectors.day_shifts(cardroom, day)]
    asked = request.GET.get("shift", shift)
    return day, asked if asked in names else names[0]


# --- a house-banked table: rack and slips ---------------------------------------------------------


@supervisor_only
def table_cage(
    request: SignedInRequest, pk: int, forms: dict[str, Any] | None = None
) -> HttpResponseBase:
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    chips = _chips(table)
    forms = forms or {}
    book, _ = selectors.rack_by_the_books(table)
    context = {
        "table": table,
        "session": table_selectors.open_session(table),
        "book": book,
        "counts": selectors.inventory_counts(table)[:20],
        "slips": [
            (slip, waits, SlipStep.Name(waits).label if waits else "")
            for slip in selectors.slips(table)[:30]
            for waits in (slip_next_step(slip, list(slip.steps.all())),)
        ],
        "count_form": forms.get("count") or InventoryCountForm(denominations=chips),
        "slip_form": forms.get("slip") or SlipForm(denominations=chips),
        "void_form": forms.get("void"),
        "deliver_form": forms.get("sign"),
        "cash_out": sentences.seated_cash_out(table),
    }
    return render(request, "cage/table.html", context, status=422 if forms else 200)


#: The actions on a table's rack and slips, by the ``<action>`` of their URL.
table_actions: Actions[Callable[[SignedInRequest, Table], HttpResponseBase]] = Actions()


@require_POST
@supervisor_only
def table_cage_action(request: SignedInRequest, pk: int, action: str) -> HttpResponseBase:
    """count, slip, sign, void."""
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    return table_actions.handler(action)(request, table)


@table_actions("count", confirm=sentences.inventory_count)
def _count(request: SignedInRequest, table: Table) -> HttpResponseBase:
    form = InventoryCountForm(request.POST, denominations=_chips(table))
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.inventory_count_record(
            table=table,
            kind=form.cleaned_data["kind"],
            chips=form.pieces("chips"),
            counted_by=signature(
                request, form.cleaned_data["counted_by"], form.cleaned_data["counted_by_secret"]
            ),
            signature=own_signature(request, form.cleaned_data["secret"]),
            note=form.cleaned_data["note"],
            by=request.user,
        ),
        fields=form.service_fields(),
    )
    return _back(request, table, ok, {"count": form})


@table_actions("slip")
def _slip_request(request: SignedInRequest, table: Table) -> HttpResponseBase:
    form = SlipForm(request.POST, denominations=_chips(table))
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.slip_request(
            table=table, kind=form.cleaned_data["kind"], chips=form.pieces("chips"), by=request.user
        ),
        fields=form.service_fields(),
    )
    return _back(request, table, ok, {"slip": form})


@table_actions("void", confirm=sentences.slip_void)
def _slip_void(request: SignedInRequest, table: Table) -> HttpResponseBase:
    form = VoidForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.slip_void(
            slip=_slip(form, table),
            reason=form.cleaned_data["reason"],
            witness=signature(
                request, form.cleaned_data["witness"], form.cleaned_data["witness_secret"]
            ),
            by=request.user,
        ),
    )
    return _back(request, table, ok, {"void": form})


@table_actions("sign", confirm=sentences.slip_sign)
def _slip_sign(request: SignedInRequest, table: Table) -> HttpResponseBase:
    """The floor supervisor signed in signs the slip as themselves (the dealer has signed)."""
    form = SlipSignForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.slip_supervisor_sign(
            slip=_slip(form, table),
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
        fields=SlipSignForm.SERVICE_FIELDS,
    )
    return _back(request, table, ok, {"sign": form})


def _chips(table: Table) -> dict[str, Any]:
    return {"chips": table.cardroom.chip_denominations}


def _back(
    request: SignedInRequest, table: Table, ok: object, forms: dict[str, Any]
) -> HttpResponseBase:
    return redirect("cage-table", pk=table.pk) if ok else table_cage(request, table.pk, forms)


def _slip(form: Any, table: Table) -> Slip:
    return get_object_or_404(Slip, pk=form.cleaned_data["slip"], table=table)


@require_POST
@printers
def slip_print(request: SignedInRequest, pk: int) -> HttpResponseBase:
    """The printable slip (a print stylesheet); every printing after the first says REPRINT."""
    slip = get_object_or_404(selectors.slips(), pk=pk)
    printed = services.slip_print(slip=slip, by=request.user)
    pieces = [(d, n, Decimal(d) * n) for d, n in slip.chips.items()]
    # Each signature of the slip (its chain's steps, a void's witness), with how it was given.
    signatures = signatures_of(slip)
    signed_with = {s.pk: SIGNED_WITH[s.method] for s in signatures}
    steps = [(step, signed_with.get(step.signature_id, "")) for step in slip.steps.all()]
    witness_with = next((SIGNED_WITH[s.method] for s in signatures if s.capacity == "witness"), "")
    context = {
        "slip": slip,
        "printed": printed,
        "pieces": pieces,
        "steps": steps,
        "signed_with": witness_with,
    }
    return render(request, "cage/slip_print.html", context)


# --- the shift overview: figures, variances, closes --------------------------------------------


@overseers
def overview(request: SignedInRequest, forms: dict[str, Any] | None = None) -> HttpResponseBase:
    cardroom = cardroom_first()
    day, shift = shift_period(request, cardroom)
    stats = selectors.shift_statistics(cardroom, day, shift)
    day_stats = selectors.day_statistics(cardroom, day)
    forms = forms or {}
    context = {
        "cardroom": cardroom,
        "day": day,
        "shift": shift,
        "shifts": [s.shift for s in day_stats.shifts],
        "stats": stats,
        "day_stats": day_stats,
        "counts": counts_as_they_stand(
            DropCount.objects.filter(
                table__cardroom=cardroom, gaming_day=day, shift=shift
            ).select_related("table", "counted_by", "second_counter")
        ),
        "outstanding": selectors.shift_outstanding(cardroom, day, shift)
        if stats.closed is None
        else [],
        "house_tables": Table.objects.filter(cardroom=cardroom, banking="house").order_by("name"),
        "sign_off_form": forms.get("sign_off") or SignOffForm(),
        "close_form": forms.get("close"),
        "is_supervisor": role_of(request.user) == FLOOR_SUPERVISOR,
        "is_compliance": role_of(request.user) == COMPLIANCE_AUDITOR,
        "query": f"day={day.isoformat()}&shift={shift}",
        "shift_close_sentence": sentences.shift_close_words(stats),
        "day_close_sentence": sentences.day_close_words(day_stats),
    }
    return render(request, "cage/overview.html", context, status=422 if forms else 200)


#: The actions of the shift overview, by the ``<action>`` of their URL.
overview_actions: Actions[Callable[[SignedInRequest, Cardroom], HttpResponseBase]] = Actions()


@require_POST
@overseers
def overview_action(request: SignedInRequest, action: str) -> HttpResponseBase:
    """sign-off, close-shift (a floor supervisor); close-day (compliance)."""
    return overview_actions.handler(action)(request, cardroom_first())


@overview_actions("sign-off", confirm=sentences.variance_sign_off)
def _sign_off(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    form = SignOffForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.drop_variance_sign_off(
            count=get_object_or_404(DropCount, pk=form.cleaned_data["count"]),
            reason=form.cleaned_data["reason"],
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
        fields=SIGNED,
    )
    return _overview_back(request, ok, {"sign_off": form})


@overview_actions("close-shift", confirm=sentences.shift_close)
def _close_shift(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    form = ShiftCloseForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.shift_close(
            cardroom=cardroom,
            gaming_day=form.cleaned_data["gaming_day"],
            shift=form.cleaned_data["shift"],
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
        fields=SIGNED,
    )
    return _overview_back(request, ok, {"close": form})


@overview_actions("close-day", confirm=sentences.day_close)
def _close_day(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    form = DayCloseForm(request.POST)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.gaming_day_close(
            cardroom=cardroom,
            gaming_day=form.cleaned_data["gaming_day"],
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
        fields=SIGNED,
    )
    return _overview_back(request, ok, {"close": form})


def _overview_back(request: SignedInRequest, ok: object, forms: dict[str, Any]) -> HttpResponseBase:
    if ok:
        return redirect(f"{reverse('cage-overview')}?{request.GET.urlencode()}")
    return overview(request, forms)


@overseers
def statistics_csv(request: SignedInRequest) -> HttpResponseBase:
    """The overview's figures as CSV: a shift, a day (``day``) or a month (``month``)."""
    cardroom = cardroom_first()
    month = request.GET.get("month")
    if month:
        try:
            year, number = month_of(month)
        except ValueError:
            return HttpResponseBadRequest(f"{month!r} is not a month (YYYY-MM).")
        text, name = reports.month_csv(selectors.month_statistics(cardroom, year, number)), month
    elif request.GET.get("shift"):
        day, shift = shift_period(request, cardroom)
        text = reports.shift_csv(selectors.shift_statistics(cardroom, day, shift))
        name = f"{day}-{shift}"
    else:
        day, _ = shift_period(request, cardroom)
        text, name = reports.day_csv(selectors.day_statistics(cardroom, day)), str(day)
    response = HttpResponse(text, content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="table-games-{name}.csv"'
    return response


@overseers
def month_view(request: SignedInRequest) -> HttpResponseBase:
    cardroom = cardroom_first()
    today = table_selectors.gaming_day(cardroom, timezone.now())
    try:
        year, number = month_of(request.GET.get("month", f"{today:%Y-%m}"))
    except ValueError:
        year, number = today.year, today.month
    stats = selectors.month_statistics(cardroom, year, number)
    return render(request, "cage/month.html", {"stats": stats, "month": f"{year:04d}-{number:02d}"})
