"""The count team's screen, and nothing else: the shift's drop boxes, counted blind (no
expected figure is shown before the count), each member signing as themselves."""

from __future__ import annotations

from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cage import selectors, services
from cage.models import DropCount
from cardroom.signing import own_signature, signature
from core.roles import COUNT_TEAM
from tables import selectors as table_selectors
from tables.models import Table

from . import sentences
from .base import SignedInRequest, call_service, role_required
from .cage import cardroom_first, shift_period
from .confirmation import confirm_first
from .forms.cage import DropCorrectionForm, DropCountForm

count_team = role_required(COUNT_TEAM)


@count_team
def count_home(
    request: SignedInRequest,
    form: DropCountForm | None = None,
    fixing: tuple[int, DropCorrectionForm] | None = None,
) -> HttpResponseBase:
    """The shift's drop boxes: count each one (blind: no expected figure is shown before);
    a counted one can be corrected."""
    cardroom = cardroom_first()
    day, shift = shift_period(request, cardroom)
    denominations = {
        "cash": list(selectors.CASH_DENOMINATIONS),
        "chips": cardroom.chip_denominations,
    }
    boxes = selectors.drop_boxes(cardroom, day, shift)
    rows = [
        (
            table,
            count,
            form
            if form is not None and form.data.get("table") == str(table.pk)
            else DropCountForm(
                initial={"table": table.pk},
                denominations=denominations,
                further=cardroom.count_team_size - 2,
                auto_id=_box_ids(table.pk),
            ),
            _correction_form(count, denominations, fixing),
        )
        for table, count in boxes
    ]
    _, end = table_selectors.shift_bounds(cardroom, day, shift)
    context = {
        "day": day,
        "shift": shift,
        "shifts": [s.shift for s in table_selectors.day_shifts(cardroom, day)],
        "rows": rows,
        "over": timezone.now() >= end,
        "team_size": cardroom.count_team_size,
    }
    refused = form is not None or fixing is not None
    return render(request, "cage/count.html", context, status=422 if refused else 200)


def _correction_form(
    count: DropCount | None,
    denominations: dict[str, list[str]],
    fixing: tuple[int, DropCorrectionForm] | None,
) -> DropCorrectionForm | None:
    """A counted box's correction form (the one refused, if it is this box's)."""
    if count is None:
        return None
    if fixing is not None and fixing[0] == count.pk:
        return fixing[1]
    return DropCorrectionForm(denominations=denominations, auto_id=f"id_fix{count.pk}_%s")


def _box_ids(table: object) -> str:
    """Each box's form on the page has ids of its own (``id_box3_second_counter``)."""
    return f"id_box{table}_%s"


@require_POST
@count_team
@confirm_first(sentences.drop_count)
def count_record(request: SignedInRequest) -> HttpResponseBase:
    cardroom = cardroom_first()
    day, shift = shift_period(request, cardroom)
    denominations = {
        "cash": list(selectors.CASH_DENOMINATIONS),
        "chips": cardroom.chip_denominations,
    }
    box = "".join(filter(str.isdigit, request.POST.get("table", "")))
    form = DropCountForm(
        request.POST,
        denominations=denominations,
        further=cardroom.count_team_size - 2,
        auto_id=_box_ids(box),
    )
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.drop_count_record(
            table=get_object_or_404(Table, pk=form.cleaned_data["table"], cardroom=cardroom),
            gaming_day=day,
            shift=shift,
            cash=form.pieces("cash"),
            chips=form.pieces("chips"),
            second_counter=signature(
                request,
                form.cleaned_data["second_counter"],
                form.cleaned_data["second_counter_secret"],
            ),
            further_counters=[
                signature(request, username, secret) for username, secret in form.further_signers()
            ],
            slip_originals=form.serials(),
            note=form.cleaned_data["note"],
            by=request.user,
        ),
        fields=form.service_fields(),
    )
    if ok:
        return redirect(f"{reverse('count-home')}?{request.GET.urlencode()}")
    return count_home(request, form)


@require_POST
@count_team
def count_correct(request: SignedInRequest, pk: int) -> HttpResponseBase:
    """A counted box's figures entered again, initialled and signed (4 CCR §12385)."""
    cardroom = cardroom_first()
    count = get_object_or_404(DropCount, pk=pk, table__cardroom=cardroom)
    denominations = {
        "cash": list(selectors.CASH_DENOMINATIONS),
        "chips": cardroom.chip_denominations,
    }
    form = DropCorrectionForm(request.POST, denominations=denominations, auto_id=f"id_fix{pk}_%s")
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.drop_count_correct(
            count=count,
            cash=form.pieces("cash"),
            chips=form.pieces("chips"),
            reason=form.cleaned_data["reason"],
            initials=form.cleaned_data["initials"],
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
        fields=form.service_fields(),
    )
    if ok:
        return redirect(f"{reverse('count-home')}?{request.GET.urlencode()}")
    return count_home(request, fixing=(pk, form))
