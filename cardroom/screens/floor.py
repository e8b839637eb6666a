"""The floor supervisor's table screens: every table's live status; create and configure a
table; propose and approve setting changes (R17); open and close tables. A hand's correction
is in ``floor_hands``, the paytable catalogue in ``floor_paytables``; seats are managed on the
table's play screen (``screens.dealer``), shared with the dealer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.signing import own_signature
from core import floor_push
from core.roles import DEALER, FLOOR_SUPERVISOR
from engine.game_math import TableFigures
from tables import figures, rules, selectors
from tables.models import Table
from tables.services import configuration, sessions, setting_changes
from tables.staff_models import SettingChange
from wagers import dashboard_selectors
from wagers.models import Hand

from . import sentences
from .base import Actions, SignedInRequest, call_service, role_required, working_cardroom
from .card_sources import hand_card_source, table_card_source
from .dashboard_rows import rows_html
from .forms.tables import (
    AMOUNT_SETTINGS,
    BONUS_MODES,
    FEE_MODES,
    ChangeForm,
    OpenTableForm,
    SettingChangeForm,
    TableCreateForm,
    setting_label,
)

supervisor_only = role_required(FLOOR_SUPERVISOR)


@supervisor_only
def table_list(request: SignedInRequest) -> HttpResponseBase:
    """The live floor dashboard (every table's status: fetched by htmx when the push says a
    table changed, ``floor_stream``; polled every second without it) and the form that
    creates a table."""
    return _table_list(request, TableCreateForm())


def _table_list(request: SignedInRequest, form: TableCreateForm, status: int = 200) -> HttpResponse:
    """The tables page; a refused creation shows it again with the form's errors, and the
    whole table list still there."""
    rows = dashboard_selectors.floor_dashboard(now=timezone.now())
    context = {"rows": rows, "rows_html": rows_html(rows), "form": form}
    context["push"] = floor_push.enabled()
    return render(request, "floor/tables.html", context, status=status)


#: The most tables ``?tables=`` names; the screen fetches the whole dashboard for more.
CHANGED_TABLES_MAX = 20


@supervisor_only
def dashboard(request: SignedInRequest) -> HttpResponseBase:
    """The dashboard's rows alone: the fragment htmx swaps in when polling or told to. With
    ``?tables=3,7`` (the tables the push named) only those tables' rows, each in its own
    ``tbody`` the screen puts in place of its own, and the sections under the rows."""
    context: dict[str, Any] = {"push": floor_push.enabled()}
    if "tables" not in request.GET:
        rows = dashboard_selectors.floor_dashboard(now=timezone.now())
        context |= {"rows": rows, "rows_html": rows_html(rows)}
        return render(request, "floor/_dashboard.html", context)
    tables = _table_ids(request.GET["tables"])
    if tables is None:
        return HttpResponse(
            f"tables: give up to {CHANGED_TABLES_MAX} table ids, separated by commas.",
            status=400,
            content_type="text/plain",
        )
    rows = dashboard_selectors.floor_dashboard(now=timezone.now(), tables=tables)
    context |= {"rows": rows, "rows_html": rows_html(rows)}
    return render(request, "floor/_dashboard_changed.html", context)


def _table_ids(text: str) -> set[int] | None:
    """``"3,7"`` → ``{3, 7}``; None for anything else (or too many)."""
    parts = text.split(",")
    if not all(part.isdigit() for part in parts) or len(parts) > CHANGED_TABLES_MAX:
        return None
    return {int(part) for part in parts}


@require_POST
@supervisor_only
def table_create(request: SignedInRequest) -> HttpResponseBase:
    form = TableCreateForm(request.POST)
    cardroom = working_cardroom()
    table = None
    if form.is_valid() and cardroom is not None:
        data = form.cleaned_data
        table = call_service(
            request,
            form,
            lambda: configuration.table_create(
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
    return _table_list(request, form, status=422)


@supervisor_only
def table_detail(
    request: SignedInRequest,
    pk: int,
    forms: dict[str, Any] | None = None,
    preview: setting_changes.SettingPreview | None = None,
) -> HttpResponseBase:
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    current = selectors.current_settings(table)
    values = rules.as_json(rules.settings_values(current))
    forms = forms or {}
    in_force = figures.settings_figures(current)
    changes = [
        (change, _change_figures(figures.setting_change_figures(change, current)))
        for change in selectors.setting_change_history(table)[:20]
    ]
    context: dict[str, Any] = {
        "table": table,
        "settings": current,
        "values": values,
        "setting_rows": setting_rows(values),
        "paytables": [
            (setting_label(name), name, values[name])
            for name in ("flush_paytable", "straight_flush_paytable")
            if isinstance(values.get(name), dict)
        ],
        "figures": figure_rows(in_force),
        "is_house": table.banking == "house",
        "preview": preview,
        "preview_figures": figure_rows(in_force, preview.proposed) if preview else None,
        "session": selectors.open_session(table),
        "changes": changes,
        "card_source": table_card_source(table),
        "hands": [
            (hand, hand_card_source(hand))
            for hand in Hand.objects.filter(table=table).order_by("-number")[:15]
        ],
        "change_form": forms.get("change") or SettingChangeForm(initial=values, current=values),
        "open_form": forms.get("open") or OpenTableForm(dealers=_dealers()),
        "action_form": forms.get("action"),
        "close_sentence": sentences.table_close(request, table),
    }
    failed = any(form is not None and form.errors for form in forms.values())
    return render(request, "floor/table.html", context, status=422 if failed else 200)


def setting_rows(values: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The settings in force as the floor reads them: (name, label, value in words); the
    paytables are shown as tables of their own."""
    words = dict(BONUS_MODES) | dict(FEE_MODES)
    rows = []
    for name, value in values.items():
        if name.endswith("paytable"):
            continue
        if value is None:
            shown = "no cap" if name == "max_aggregate_payout" else "—"
        elif name in AMOUNT_SETTINGS:
            shown = f"${value}"
        else:
            shown = words.get(str(value), str(value))
        rows.append((name, setting_label(name), shown))
    return rows


def figure_rows(in_force: TableFigures, proposed: TableFigures | None = None) -> list[dict]:
    """Each wager's figures as the rows of a screen's table (game-math.md): in force, and
    under it the proposed settings' if given."""
    wagers = [(label, name) for name, label, _ in figures.BONUSES]
    wagers.append(("Ante and raise (per ante)", "ante_raise"))
    rows = []
    for label, name in wagers:
        for which, found in (("in force", in_force), ("proposed", proposed)):
            if found is not None:
                rows.append(
                    {
                        "label": label if which == "in force" else "",
                        "which": which,
                        "figures": getattr(found, name),
                        "ante": name == "ante_raise",
                    }
                )
    return rows


def _change_figures(both: dict[str, TableFigures]) -> dict[str, Any]:
    """A change's figures: the rows of the table, and a line per bonus for the history."""
    summary = [
        (label, getattr(both["in_force"], name).return_, getattr(both["proposed"], name).return_)
        for name, label, _ in figures.BONUSES
    ]
    return {"rows": figure_rows(both["in_force"], both["proposed"]), "summary": summary}


#: The actions on a table, by the ``<action>`` of its URL.
table_actions: Actions[Callable[[SignedInRequest, Table], HttpResponseBase]] = Actions()


@require_POST
@supervisor_only
def table_action(request: SignedInRequest, pk: int, action: str) -> HttpResponseBase:
    """open, close, dealer, propose; approve/reject/withdraw take ``change`` in the form."""
    table = get_object_or_404(Table, pk=pk)
    return table_actions.handler(action)(request, table)


@table_actions("propose")
def _propose(request: SignedInRequest, table: Table) -> HttpResponseBase:
    values = rules.as_json(rules.settings_values(selectors.current_settings(table)))
    form = SettingChangeForm(request.POST, initial=values, current=values)
    if "preview" in request.POST:  # R17: the figures first, nothing proposed
        form.fields["reason"].required = False
        preview = form.is_valid() and call_service(
            request,
            form,
            lambda: setting_changes.setting_change_preview(
                table=table, values=form.changed_values()
            ),
        )
        return table_detail(request, table.pk, {"change": form}, preview=preview or None)
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: setting_changes.setting_change_propose(
            table=table,
            values=form.changed_values(),
            reason=form.cleaned_data["reason"],
            by=request.user,
        ),
        fields={"values": "reason"},
    )
    if ok:
        return redirect("floor-table", pk=table.pk)
    return table_detail(request, table.pk, {"change": form})


@table_actions("open")
def _open(request: SignedInRequest, table: Table) -> HttpResponseBase:
    return _with_dealer(request, table, sessions.table_open)


@table_actions("dealer")
def _dealer(request: SignedInRequest, table: Table) -> HttpResponseBase:
    return _with_dealer(request, table, sessions.table_dealer_change)


def _with_dealer(
    request: SignedInRequest, table: Table, service: Callable[..., object]
) -> HttpResponseBase:
    """Open the table with a dealer, or change its dealer: the same form."""
    form = OpenTableForm(request.POST, dealers=_dealers())
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: service(table=table, dealer=form.cleaned_data["dealer"], by=request.user),
    )
    if ok:
        return redirect("floor-table", pk=table.pk)
    return table_detail(request, table.pk, {"open": form})


@table_actions("close", confirm=sentences.table_close)
def _close(request: SignedInRequest, table: Table) -> HttpResponseBase:
    return _on_change(
        request, table, lambda form: sessions.table_close(table=table, by=request.user)
    )


@table_actions("approve", confirm=sentences.setting_change_approve)
def _approve(request: SignedInRequest, table: Table) -> HttpResponseBase:
    return _on_change(
        request,
        table,
        lambda form: setting_changes.setting_change_approve(
            change=_change(form, table),
            signature=own_signature(request, form.cleaned_data["secret"]),
            by=request.user,
        ),
    )


@table_actions("reject")
def _reject(request: SignedInRequest, table: Table) -> HttpResponseBase:
    return _on_change(
        request,
        table,
        lambda form: setting_changes.setting_change_reject(
            change=_change(form, table), by=request.user
        ),
    )


@table_actions("withdraw")
def _withdraw(request: SignedInRequest, table: Table) -> HttpResponseBase:
    return _on_change(
        request,
        table,
        lambda form: setting_changes.setting_change_withdraw(
            change=_change(form, table), by=request.user
        ),
    )


def _on_change(
    request: SignedInRequest, table: Table, call: Callable[[ChangeForm], object]
) -> HttpResponseBase:
    """An action posted with the small change form (a change's id, the signer's secret)."""
    form = ChangeForm(request.POST)
    ok = form.is_valid() and call_service(
        request, form, lambda: call(form), fields={"signature": "secret"}
    )
    if ok:
        return redirect("floor-table", pk=table.pk)
    return table_detail(request, table.pk, {"action": form})


def _change(form: ChangeForm, table: Table) -> SettingChange:
    return get_object_or_404(SettingChange, pk=form.cleaned_data["change"], table=table)


def _dealers() -> QuerySet[User]:
    return User.objects.filter(groups__name=DEALER).order_by("username")
