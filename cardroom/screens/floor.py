"""The floor supervisor's screens: every table's live status; create and configure a table;
propose and approve setting changes (R17); open and close tables; correct a settled hand.
Seats are managed on the table's play screen (``screens.dealer``), shared with the dealer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from cardroom.kernel.roles import DEALER, FLOOR_SUPERVISOR
from tables import rules, selectors, services
from tables.models import Cardroom, SettingChange, Table, TableSession
from wagers import selectors as hand_selectors
from wagers import services as hand_services
from wagers.models import Hand

from .base import SignedInRequest, call_service, role_required
from .forms.hands import CorrectionForm
from .forms.tables import ChangeForm, OpenTableForm, SettingChangeForm, TableCreateForm

supervisor_only = role_required(FLOOR_SUPERVISOR)


@supervisor_only
def table_list(request: SignedInRequest) -> HttpResponseBase:
    """All tables with their live status: open or closed, dealer, hand in play, seated."""
    tables = (
        Table.objects.select_related("cardroom")
        .annotate(seated=Count("seatings", filter=Q(seatings__left_at=None)))
        .order_by("cardroom__name", "name")
    )
    sessions = {
        s.table_id: s for s in TableSession.objects.filter(closed_at=None).select_related("dealer")
    }
    hands = {h.table_id: h for h in Hand.objects.filter(status__in=Hand.IN_PROGRESS)}
    pending = dict(
        SettingChange.objects.filter(status=SettingChange.Status.PENDING)
        .values_list("table")
        .annotate(n=Count("id"))
    )
    rows = [(t, sessions.get(t.pk), hands.get(t.pk), pending.get(t.pk, 0)) for t in tables]
    form = TableCreateForm(request.POST or None)
    return render(request, "floor/tables.html", {"rows": rows, "form": form})


@require_POST
@supervisor_only
def table_create(request: SignedInRequest) -> HttpResponseBase:
    form = TableCreateForm(request.POST)
    cardroom = Cardroom.objects.order_by("pk").first()
    table = None
    if form.is_valid() and cardroom is not None:
        data = form.cleaned_data
        table = call_service(
            request,
            form,
            lambda: services.table_create(
                cardroom=cardroom,
                name=data["name"],
                banking=data["banking"],
                seat_count=data["seat_count"],
                settings=form.settings(),
                by=request.user,
            ),
        )
    elif cardroom is None:
        form.add_error(None, "Create the cardroom first (in the administration).")
    if table is not None:
        return redirect("floor-table", pk=table.pk)
    return render(request, "floor/tables.html", {"rows": [], "form": form}, status=422)


@supervisor_only
def table_detail(
    request: SignedInRequest, pk: int, forms: dict[str, Any] | None = None
) -> HttpResponseBase:
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    current = selectors.current_settings(table)
    values = rules.as_json(rules.settings_values(current))
    forms = forms or {}
    context: dict[str, Any] = {
        "table": table,
        "settings": current,
        "values": values,
        "session": selectors.open_session(table),
        "changes": selectors.setting_change_history(table)[:20],
        "hands": Hand.objects.filter(table=table).order_by("-number")[:15],
        "change_form": forms.get("change") or SettingChangeForm(initial=values, current=values),
        "open_form": forms.get("open") or OpenTableForm(dealers=_dealers()),
        "action_form": forms.get("action"),
    }
    return render(request, "floor/table.html", context, status=422 if forms else 200)


@require_POST
@supervisor_only
def table_action(request: SignedInRequest, pk: int, action: str) -> HttpResponseBase:
    """open, close, dealer, propose; approve/reject/withdraw take ``change`` in the form."""
    table = get_object_or_404(Table, pk=pk)
    by = request.user
    if action == "propose":
        values = rules.as_json(rules.settings_values(selectors.current_settings(table)))
        form = SettingChangeForm(request.POST, initial=values, current=values)
        ok = form.is_valid() and call_service(
            request,
            form,
            lambda: services.setting_change_propose(
                table=table,
                values=form.changed_values(),
                reason=form.cleaned_data["reason"],
                by=by,
            ),
            fields={"values": "reason"},
        )
        return redirect("floor-table", pk=pk) if ok else table_detail(request, pk, {"change": form})
    if action in ("open", "dealer"):
        open_form = OpenTableForm(request.POST, dealers=_dealers())
        service = services.table_open if action == "open" else services.table_dealer_change
        ok = open_form.is_valid() and call_service(
            request,
            open_form,
            lambda: service(table=table, dealer=open_form.cleaned_data["dealer"], by=by),
        )
        if ok:
            return redirect("floor-table", pk=pk)
        return table_detail(request, pk, {"open": open_form})
    change_form = ChangeForm(request.POST)
    calls: dict[str, Callable[[], object]] = {
        "close": lambda: services.table_close(table=table, by=by),
        "approve": lambda: services.setting_change_approve(
            change=_change(change_form, table), by=by
        ),
        "reject": lambda: services.setting_change_reject(change=_change(change_form, table), by=by),
        "withdraw": lambda: services.setting_change_withdraw(
            change=_change(change_form, table), by=by
        ),
    }
    if action not in calls:
        return render(request, "403.html", {"message": "No such action."}, status=404)
    ok = change_form.is_valid() and call_service(request, change_form, calls[action])
    if ok:
        return redirect("floor-table", pk=pk)
    return table_detail(request, pk, {"action": change_form})


@supervisor_only
def hand_detail(request: SignedInRequest, pk: int) -> HttpResponseBase:
    """A hand with its settlement history; a settled hand can be corrected (never edited)."""
    hand = get_object_or_404(Hand.objects.select_related("table", "dp_seating__player"), pk=pk)
    seats = [spot.seat for spot in hand.spots.all() if spot.cards]
    form = CorrectionForm(request.POST or None, seats=seats)
    if request.method == "POST" and form.is_valid():
        done = call_service(
            request,
            form,
            lambda: hand_services.hand_correct(
                hand=hand,
                by=request.user,
                reason=form.cleaned_data["reason"],
                dealer_cards=form.cleaned_data["dealer_cards"] or None,
                spot_cards=form.spot_cards(),
            ),
            fields={f"cards.{seat}": f"cards_{seat}" for seat in seats} | {"cards": None},
        )
        if done is not None:
            return redirect("floor-hand", pk=pk)
    context = {
        "hand": hand,
        "spots": hand.spots.select_related("player").order_by("seat"),
        "history": hand_selectors.settlement_history(hand),
        "in_force": hand_selectors.settlement_in_force(hand),
        "form": form,
    }
    return render(request, "floor/hand.html", context, status=422 if form.errors else 200)


def _change(form: ChangeForm, table: Table) -> SettingChange:
    return get_object_or_404(SettingChange, pk=form.cleaned_data["change"], table=table)


def _dealers() -> QuerySet[User]:
    return User.objects.filter(groups__name=DEALER).order_by("username")
