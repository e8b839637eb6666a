"""The floor supervisor's screens: every table's live status; create and configure a table;
propose and approve setting changes (R17); open and close tables; correct a settled hand.
Seats are managed on the table's play screen (``screens.dealer``), shared with the dealer."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cardroom.signing import own_signature
from core.errors import DomainError
from core.roles import DEALER, FLOOR_SUPERVISOR
from engine.game_math import TableFigures
from tables import catalogue, figures, rules, selectors
from tables.models import Cardroom, Table
from tables.services import configuration, sessions, setting_changes
from tables.staff_models import PaytableChange, SettingChange
from wagers import selectors as hand_selectors
from wagers import services as hand_services
from wagers.models import Hand

from .base import SignedInRequest, call_service, role_required
from .forms.hands import CorrectionForm
from .forms.tables import (
    AMOUNT_SETTINGS,
    BONUS_MODES,
    FEE_MODES,
    ChangeForm,
    OpenTableForm,
    PaytableChangeForm,
    PaytableDecisionForm,
    SettingChangeForm,
    TableCreateForm,
    setting_label,
)

supervisor_only = role_required(FLOOR_SUPERVISOR)


@supervisor_only
def table_list(request: SignedInRequest) -> HttpResponseBase:
    """The live floor dashboard (every table's status, polled by htmx every second) and the
    form that creates a table."""
    return _table_list(request, TableCreateForm())


def _table_list(request: SignedInRequest, form: TableCreateForm, status: int = 200) -> HttpResponse:
    """The tables page; a refused creation shows it again with the form's errors, and the
    whole table list still there."""
    rows = hand_selectors.floor_dashboard(now=timezone.now())
    return render(request, "floor/tables.html", {"rows": rows, "form": form}, status=status)


@supervisor_only
def dashboard(request: SignedInRequest) -> HttpResponseBase:
    """The dashboard's rows alone: the fragment htmx swaps in every second."""
    rows = hand_selectors.floor_dashboard(now=timezone.now())
    return render(request, "floor/_dashboard.html", {"rows": rows})


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
        "hands": Hand.objects.filter(table=table).order_by("-number")[:15],
        "change_form": forms.get("change") or SettingChangeForm(initial=values, current=values),
        "open_form": forms.get("open") or OpenTableForm(dealers=_dealers()),
        "action_form": forms.get("action"),
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


@require_POST
@supervisor_only
def table_action(request: SignedInRequest, pk: int, action: str) -> HttpResponseBase:
    """open, close, dealer, propose; approve/reject/withdraw take ``change`` in the form."""
    table = get_object_or_404(Table, pk=pk)
    by = request.user
    if action == "propose":
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
            return table_detail(request, pk, {"change": form}, preview=preview or None)
        ok = form.is_valid() and call_service(
            request,
            form,
            lambda: setting_changes.setting_change_propose(
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
        service = sessions.table_open if action == "open" else sessions.table_dealer_change
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
        "close": lambda: sessions.table_close(table=table, by=by),
        "approve": lambda: setting_changes.setting_change_approve(
            change=_change(change_form, table),
            signature=own_signature(request, change_form.cleaned_data["secret"]),
            by=by,
        ),
        "reject": lambda: setting_changes.setting_change_reject(
            change=_change(change_form, table), by=by
        ),
        "withdraw": lambda: setting_changes.setting_change_withdraw(
            change=_change(change_form, table), by=by
        ),
    }
    if action not in calls:
        return render(request, "403.html", {"message": "No such action."}, status=404)
    ok = change_form.is_valid() and call_service(
        request, change_form, calls[action], fields={"signature": "secret"}
    )
    if ok:
        return redirect("floor-table", pk=pk)
    return table_detail(request, pk, {"action": change_form})


@supervisor_only
def hand_detail(request: SignedInRequest, pk: int) -> HttpResponseBase:
    """A hand with its settlement history; a settled hand can be corrected (never edited).
    The page shows the cards and decisions in force (a correction's, after one), and the
    correction form starts from them."""
    hand = get_object_or_404(Hand.objects.select_related("table", "dp_seating__player"), pk=pk)
    in_force = hand_selectors.settlement_in_force(hand)
    round_ = in_force.round if in_force is not None else None
    played = {s["seat"]: s for s in (round_ or {}).get("spots", [])}
    seats = [spot.seat for spot in hand.spots.all() if spot.cards]
    deciders = [seat for seat, s in played.items() if "decision" in s]
    initial = _correction_initial(round_, played)
    if in_force is not None:
        initial["corrects"] = in_force.pk
    form = CorrectionForm(request.POST or None, initial=initial, seats=seats, deciders=deciders)
    if request.method == "POST" and form.is_valid():
        done = call_service(
            request,
            form,
            lambda: _in_words(
                round_,
                lambda: hand_services.hand_correct(
                    hand=hand,
                    by=request.user,
                    reason=form.cleaned_data["reason"],
                    corrects=form.cleaned_data["corrects"],
                    dealer_cards=form.dealer_cards_changed(),
                    spot_cards=form.spot_cards(),
                    decisions=form.decisions(),
                ),
            ),
            fields={f"cards.{seat}": f"cards_{seat}" for seat in seats}
            | {f"decisions.{seat}": f"decision_{seat}" for seat in deciders}
            | {"cards": None, "corrects": None},
        )
        if done is not None:
            return redirect("floor-hand", pk=pk)
    spots = list(hand.spots.select_related("player").order_by("seat"))
    context = {
        "hand": hand,
        "dealer_cards": (round_ or {}).get("dealer", {}).get("cards") or hand.dealer_cards,
        "spots": [(spot, played.get(spot.seat, {})) for spot in spots],
        "history": [
            (entry, _entry_lines(entry, spots)) for entry in hand_selectors.settlement_history(hand)
        ],
        "in_force": in_force,
        "corrected": in_force is not None and in_force.kind == "correction",
        "form": form,
    }
    return render(request, "floor/hand.html", context, status=422 if form.errors else 200)


def _in_words(round_: dict[str, Any] | None, call: Callable[[], Any]) -> Any:
    """Run ``call``; a refusal that names a path of the stored round (``spots[1].cards``,
    ``dealer.cards``) is told in words: seat 5's cards, the dealer's cards."""
    try:
        return call()
    except DomainError as error:
        seats = [spot["seat"] for spot in (round_ or {}).get("spots", [])]

        def seat(found: re.Match[str]) -> str:
            index = int(found[1])
            name = f"seat {seats[index]}" if index < len(seats) else "a seat"
            return f"{name}'s {found[2].replace('_', ' ')}" if found[2] else name

        message = re.sub(r"spots\[(\d+)\](?:\.(\w+))?", seat, error.message)
        message = message.replace("dealer.cards", "the dealer's cards")
        if message == error.message:
            raise
        raise type(error)(message, field=error.field, code=error.code) from None


def _correction_initial(round_: dict[str, Any] | None, played: dict[int, Any]) -> dict[str, Any]:
    """The correction form's starting values: the cards and decisions in force."""
    if round_ is None:
        return {}
    initial: dict[str, Any] = {"dealer_cards": round_["dealer"].get("cards", "")}
    for seat, spot in played.items():
        initial[f"cards_{seat}"] = spot.get("cards", "")
        if "decision" in spot:
            initial[f"decision_{seat}"] = spot["decision"]
            initial[f"raise_{seat}"] = spot.get("raise") or ""
    return initial


def _entry_lines(entry: Any, spots: list[Any]) -> list[dict[str, Any]]:
    """A settlement entry's lines per seat as the screen shows them: a reversal undoes the
    entry it reverses, so every figure is shown negated."""
    sign = -1 if entry.kind == "reversal" else 1
    players = {spot.seat: spot.player for spot in spots}

    def figure(value: Any) -> Decimal | None:
        return None if value in (None, "") else sign * Decimal(str(value))

    return [
        {
            "seat": line["seat"],
            "player": players.get(line["seat"], ""),
            "status": line["status"],
            "dead_reason": (line.get("dead_reason") or "").replace("_", " "),
            "fee": figure(line.get("rake")),
            "net": figure(line["net"]),
        }
        for line in entry.result.get("spots", [])
    ]


def _change(form: ChangeForm, table: Table) -> SettingChange:
    return get_object_or_404(SettingChange, pk=form.cleaned_data["change"], table=table)


def _dealers() -> QuerySet[User]:
    return User.objects.filter(groups__name=DEALER).order_by("username")


# --- the catalogue of approved paytables (R17) -------------------------------------------------


@supervisor_only
def paytable_catalogue(
    request: SignedInRequest, forms: dict[str, Any] | None = None
) -> HttpResponseBase:
    """The cardroom's approved paytables with their figures in both bonus modes; proposals
    waiting for a second supervisor; propose a paytable, or retire one."""
    cardroom = _cardroom(request)
    if cardroom is None:
        return render(request, "403.html", {"message": "Create the cardroom first."}, status=404)
    forms = forms or {}
    history = catalogue.paytable_change_history(cardroom)
    context = {
        "cardroom": cardroom,
        "cardrooms": Cardroom.objects.order_by("name"),
        "entries": [
            (entry, _paytable_figures(entry.kind, entry.lines))
            for entry in catalogue.paytable_catalogue(cardroom)
        ],
        "pending": [
            (change, _paytable_figures(change.paytable, change.lines))
            for change in history.filter(decision__isnull=True)
        ],
        "decided": history.filter(decision__isnull=False).exclude(
            values__origin=PaytableChange.Origin.DEFAULT
        )[:30],
        "form": forms.get("propose") or PaytableChangeForm(),
        "decision_form": forms.get("decision"),
    }
    failed = any(form is not None and form.errors for form in forms.values())
    return render(request, "floor/paytables.html", context, status=422 if failed else 200)


@require_POST
@supervisor_only
def paytable_action(request: SignedInRequest, action: str) -> HttpResponseBase:
    """propose (add or retire, by the form's ``action``); approve, reject, withdraw."""
    cardroom = _cardroom(request)
    by = request.user
    if cardroom is None:
        return render(request, "403.html", {"message": "Create the cardroom first."}, status=404)
    back = redirect(f"{reverse('floor-paytables')}?cardroom={cardroom.pk}")
    if action == "propose":
        form = PaytableChangeForm(request.POST)
        ok = form.is_valid() and call_service(
            request,
            form,
            lambda: catalogue.paytable_change_propose(
                cardroom=cardroom, **form.cleaned_data, by=by
            ),
        )
        return back if ok else paytable_catalogue(request, {"propose": form})
    decision = PaytableDecisionForm(request.POST)
    calls: dict[str, Callable[[PaytableChange], object]] = {
        "approve": lambda change: catalogue.paytable_change_approve(
            change=change, signature=own_signature(request, decision.cleaned_data["secret"]), by=by
        ),
        "reject": lambda change: catalogue.paytable_change_reject(
            change=change, by=by, reason=decision.cleaned_data["reason"]
        ),
        "withdraw": lambda change: catalogue.paytable_change_withdraw(change=change, by=by),
    }
    if action not in calls:
        return render(request, "403.html", {"message": "No such action."}, status=404)
    ok = decision.is_valid() and call_service(
        request,
        decision,
        lambda: calls[action](
            get_object_or_404(PaytableChange, pk=decision.cleaned_data["change"], cardroom=cardroom)
        ),
        fields={"signature": "secret"},
    )
    return back if ok else paytable_catalogue(request, {"decision": decision})


def _cardroom(request: SignedInRequest) -> Cardroom | None:
    """The cardroom asked for (``?cardroom=`` or the form's), else the first."""
    wanted = request.GET.get("cardroom") or request.POST.get("cardroom")
    rooms = Cardroom.objects.order_by("pk")
    if wanted and wanted.isascii() and wanted.isdigit():
        return rooms.filter(pk=int(wanted)).first()
    return rooms.first()


def _paytable_figures(kind: str, lines: dict[str, Any]) -> dict[str, Any]:
    """A paytable's figures in both bonus modes, for the catalogue screen."""
    return {mode: figures.bonus_figures(kind, mode, lines) for mode in ("paytable", "versus_dp")}
