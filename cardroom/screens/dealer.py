"""The dealer's screen: one table, its seats and the hand in play, step by step.

Every step posts a small form (with htmx, the play area is swapped in place; without it, the
page reloads) to ``dealer_step``, which calls one service; a refusal comes back next to the
field it names. The steps are in ``dealer_steps``, what the play area shows in
``dealer_play``. A step that settles asks first, but only once it would pass: its first post
is tried in a transaction rolled back (``asks_first``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from audit.services import audit_refusal
from core.roles import DEALER, TABLE_STAFF, role_of
from tables import selectors as table_selectors
from tables.models import Table, TableSession
from wagers import selectors

from .base import SignedInRequest, call_service, role_required
from .confirmation import CONFIRMED, SEALED, ask, unseal
from .dealer_checks import FIELD_NAMES, asks_first, tried
from .dealer_play import play_context
from .dealer_slips import slips_context
from .dealer_steps import steps


@role_required(*TABLE_STAFF)
def dealer_home(request: SignedInRequest) -> HttpResponse:
    """The tables this dealer is on duty at (straight to it when there is one), and the
    closed tables a dealer may open."""
    sessions = TableSession.objects.filter(closed_at=None).select_related("table")
    mine = [s.table for s in sessions if s.dealer_id == request.user.pk]
    if len(mine) == 1 and role_of(request.user) == DEALER:
        return redirect("dealer-table", pk=mine[0].pk)
    open_ids = {s.table_id for s in sessions}
    closed = Table.objects.exclude(pk__in=open_ids).order_by("name")
    return render(request, "dealer/home.html", {"mine": mine, "closed": closed})


@role_required(*TABLE_STAFF)
def dealer_table(request: SignedInRequest, pk: int) -> HttpResponse:
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    refused = _refuse_another_dealers_table(request, table)
    if refused is not None:
        return refused
    context = play_context(request, table) | slips_context(table)
    return render(request, "dealer/table.html", context)


@role_required(*TABLE_STAFF)
def dealer_play(request: SignedInRequest, pk: int) -> HttpResponse:
    """The play area alone: what the screen polls while the table's shuffler deals."""
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    refused = _refuse_another_dealers_table(request, table)
    if refused is not None:
        return refused
    return render(request, "dealer/_play.html", play_context(request, table))


def _refuse_another_dealers_table(request: SignedInRequest, table: Table) -> HttpResponse | None:
    """An open table's screen shows its live cards and stacks: its dealer on duty and floor
    supervisors only; a closed table's, to any dealer who may open it."""
    on_duty = table_selectors.open_session(table) is not None
    if not on_duty or table_selectors.viewer(request.user).sees_live_cards(table.pk):
        return None
    message = "Another dealer is on duty at this table: only they and the floor see its play."
    audit_refusal(actor=request.user, attempted=f"screen {request.path}", message=message)
    return render(request, "403.html", {"message": message}, status=403)


@require_POST
@role_required(*TABLE_STAFF)
def dealer_step(request: SignedInRequest, pk: int, step: str) -> HttpResponseBase:
    """One step at the table; ``step`` names the form and the service it feeds."""
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    refused = _refuse_another_dealers_table(request, table)
    if refused is not None:
        return refused
    build = steps.handler(step)
    hand = selectors.hands_in_progress(table=table).first()
    confirmed = request.POST.get(CONFIRMED) == "1"
    if confirmed and SEALED in request.POST:  # the confirmation page's Confirm (no JavaScript)
        fields = unseal(request, request.POST[SEALED])
        if fields is None:
            return render(request, "confirm.html", {"expired": True}, status=400)
        request.POST = fields  # type: ignore[assignment]
    form, run = build(request, table, hand)
    valid = form.is_valid()
    sentence = asks_first[step](hand, form) if valid and step in asks_first else None
    if sentence is not None and not confirmed:
        return _ask_once_it_would_pass(request, table, step, form, run, sentence)
    done = (
        valid
        and call_service(request, form, lambda: run(form.cleaned_data), fields=FIELD_NAMES)
        is not None
    )
    context = play_context(request, table, bound={} if done else {step: form})
    if request.htmx:
        response = render(request, "dealer/_play.html", context)
        if done and hand is not None and context["hand"] is None:
            # The step ended the hand (settled, or a misdeal): its settlement is what the
            # dealer reads next, wherever the page was scrolled to tap the step.
            response["HX-Reswap"] = "outerHTML show:#settlement:top"
        return response
    if done:
        return redirect("dealer-table", pk=table.pk)
    return render(request, "dealer/table.html", context, status=422)


def _ask_once_it_would_pass(
    request: SignedInRequest,
    table: Table,
    step: str,
    form: forms.Form,
    run: Callable[[dict[str, Any]], Any],
    sentence: str,
) -> HttpResponseBase:
    """Validate first, then ask: the step is tried in a transaction rolled back; refused, its
    reasons come back beside their seats, unasked; else the dealer is asked — with htmx, the
    play area comes back with the form as filled and ``data-ask`` on it (``static/confirm.js``
    asks the browser's dialog, then posts it again confirmed), without, the confirmation
    page (``templates/confirm.html``)."""
    would = call_service(request, form, lambda: tried(run, form.cleaned_data), fields=FIELD_NAMES)
    if would is not None and not request.htmx:
        return ask(request, sentence)
    context = play_context(request, table, bound={step: form})
    if would is not None:
        context["ask"] = {"step": step, "sentence": sentence}
    if request.htmx:
        return render(request, "dealer/_play.html", context)
    return render(request, "dealer/table.html", context, status=422)
