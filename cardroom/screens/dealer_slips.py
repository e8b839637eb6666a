"""The fills and credits waiting for the dealer at a table, on the dealer screen (design.md 8):
the dealer on duty sees each slip's number, chips by denomination and total, counts the chips,
then signs as themselves with their own password or PIN (``cage.services.slip_dealer_sign``);
a floor supervisor signs next. A fill appears once the cashier has prepared it (and the runner
carried it); a credit as soon as the floor requests it. The panel refreshes itself, so a fill
prepared at the cage appears without a reload."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from audit.services import audit_refusal
from cage import services
from cage.models import Slip, SlipStep
from cage.slip_selectors import slips_awaiting
from cardroom.signing import own_signature
from core.money import money_text
from core.roles import TABLE_STAFF
from engine.table import Banking
from tables import selectors as table_selectors
from tables.models import Table

from . import sentences
from .base import SignedInRequest, call_service, role_required
from .confirmation import confirm_first
from .forms.cage import DealerSignForm


def slips_context(
    table: Table, *, form: DealerSignForm | None = None, signed: Slip | None = None
) -> dict[str, Any]:
    """What the slips panel shows: the table's waiting slips (an open house-banked table has
    them), a refused signature's form in place, the slip just signed."""
    waiting: list[Slip] = []
    if table.banking == Banking.HOUSE and table_selectors.open_session(table) is not None:
        waiting = slips_awaiting(SlipStep.Name.DEALER, table=table)
    return {
        "slips_panel": True,
        "table": table,
        "waiting_slips": [(slip, _pieces(slip)) for slip in waiting],
        "sign_form": form,
        "signed_note": signed_words(signed) if signed is not None else "",
    }


def _pieces(slip: Slip) -> list[tuple[str, int, Decimal]]:
    return [(d, n, Decimal(d) * n) for d, n in slip.chips.items() if n]


def _refused(request: SignedInRequest, table: Table) -> HttpResponse | None:
    """The dealer screen's rule: an open table's play is its dealer on duty's and the floor's."""
    if table_selectors.viewer(request.user).sees_live_cards(table.pk):
        return None
    message = "Another dealer is on duty at this table: only they and the floor see its play."
    audit_refusal(actor=request.user, attempted=f"screen {request.path}", message=message)
    return render(request, "403.html", {"message": message}, status=403)


@role_required(*TABLE_STAFF)
def slips_panel(request: SignedInRequest, pk: int) -> HttpResponse:
    """The panel alone, as it refreshes itself."""
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    return _refused(request, table) or render(request, "dealer/_slips.html", slips_context(table))


@require_POST
@role_required(*TABLE_STAFF)
def slip_sign(request: SignedInRequest, pk: int, slip: int) -> HttpResponse:
    """The person signed in at the table signs for the slip's chips."""
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    refused = _refused(request, table)
    if refused is not None:
        return refused
    return _slip_sign(request, table, pk=pk, slip=slip)


@confirm_first(sentences.dealer_slip_sign)
def _slip_sign(request: SignedInRequest, table: Table, *, pk: int, slip: int) -> HttpResponse:
    waiting = get_object_or_404(Slip, pk=slip, table=table)
    form = DealerSignForm(request.POST)
    done = form.is_valid() and call_service(
        request,
        form,
        lambda: services.slip_dealer_sign(
            slip=waiting,
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
        fields={"signature": "secret", "slip": None},
    )
    if done and not request.htmx:
        messages.success(request, signed_words(waiting))
        return redirect("dealer-table", pk=table.pk)
    context = slips_context(table, form=None if done else form, signed=waiting if done else None)
    context |= {"failed_slip": None if done else waiting.pk, "failed_number": waiting.number}
    if request.htmx:  # htmx swaps a 200 only: the refusal shows in the panel it replaces
        return render(request, "dealer/_slips.html", context)
    return render(request, "dealer/slip_sign.html", context, status=422)


def signed_words(slip: Slip) -> str:
    then = (
        "go into the rack"
        if slip.kind == Slip.Kind.FILL
        else "leave the rack once the cage receives them"
    )
    return (
        f"{slip.get_kind_display()} {slip.number} counted and signed: a floor supervisor signs "
        f"next, then the chips (${money_text(slip.total)}) {then}."
    )
