"""The cashier's screen: the cage now (who holds it, its chips by denomination and its cash by
the books), its counts — open, hand over, close, two people signing on this device — players'
cash at the cage (chips sold and redeemed, on the cash log), the cage's other transactions,
chips issued or withdrawn, and the day's chips in circulation.

Floor supervisors and compliance see it; only the cashier holding the cage records (the
services refuse anyone else, next to the field at fault).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from cage import cashier_books, services
from cage.circulation import circulation_statement
from cage.selectors import CASH_DENOMINATIONS
from cardroom.signing import own_signature, signature
from core.roles import CASHIER, COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons.models import Cardroom, Player
from tables import selectors as table_selectors

from . import cashier_accounts
from .base import Actions, SignedInRequest, call_service, role_required
from .cage import cardroom_first
from .forms.cashier import (
    AUTO_IDS,
    CageCountForm,
    CageEntryForm,
    ChipIssueForm,
    PlayerCashForm,
)

cashier_only = role_required(CASHIER)
cage_readers = role_required(CASHIER, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


def _denominations(cardroom: Cardroom, *, cash: bool = False) -> dict[str, list[str]]:
    kinds = {"chips": list(cardroom.chip_denominations)}
    if cash:
        kinds["cash"] = list(CASH_DENOMINATIONS)
    return kinds


def _statement_day(request: SignedInRequest, cardroom: Cardroom) -> date:
    today = table_selectors.gaming_day(cardroom, timezone.now())
    with contextlib.suppress(ValueError):
        asked = date.fromisoformat(request.GET.get("day") or "")
        return min(asked, today)
    return today


def _blank_forms(cardroom: Cardroom) -> dict[str, Any]:
    chips = _denominations(cardroom)
    return {
        "count": CageCountForm(
            denominations=_denominations(cardroom, cash=True), auto_id=AUTO_IDS["count"]
        ),
        "sale": PlayerCashForm(denominations=chips, auto_id=AUTO_IDS["sale"]),
        "entry": CageEntryForm(denominations=chips, auto_id=AUTO_IDS["entry"]),
        "issue": ChipIssueForm(denominations=chips, auto_id=AUTO_IDS["issue"]),
    } | cashier_accounts.blank_forms(cardroom)


@cage_readers
def cashier_home(request: SignedInRequest, forms: dict[str, Any] | None = None) -> HttpResponseBase:
    cardroom = cardroom_first()
    books = cashier_books.cage_books(cardroom)
    statement = circulation_statement(cardroom, _statement_day(request, cardroom))
    context = {
        "cardroom": cardroom,
        "books": books,
        "pieces": [(d, books.chips.get(d, 0)) for d in cardroom.chip_denominations],
        "holding": books.shift is not None and books.shift.cashier_id == request.user.pk,
        "entries": cashier_books.cage_entries(cardroom)[:30],
        "counts": cashier_books.cage_counts(cardroom)[:10],
        "statement": statement,
        "forms": _blank_forms(cardroom) | (forms or {}),
        "refused": bool(forms),
    } | cashier_accounts.balances_context(request, cardroom)
    return render(request, "cage/cashier.html", context, status=422 if forms else 200)


@cage_readers
def circulation_csv(request: SignedInRequest) -> HttpResponse:
    cardroom = cardroom_first()
    statement = circulation_statement(cardroom, _statement_day(request, cardroom))
    response = HttpResponse(statement.as_csv(), content_type="text/csv")
    name = f"chips-in-circulation-{statement.day}.csv"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


#: The cashier's actions, by the ``<action>`` of their URL.
cashier_actions: Actions[Callable[[SignedInRequest, Cardroom], HttpResponseBase]] = Actions()


@require_POST
@cashier_only
def cashier_action(request: SignedInRequest, action: str) -> HttpResponseBase:
    """count, player-cash, entry, issue; a player's money (``cashier_accounts.ACTIONS``)."""
    return cashier_actions.handler(action)(request, cardroom_first())


def _back(request: SignedInRequest, ok: object, name: str, form: Any) -> HttpResponseBase:
    return redirect("cashier-home") if ok else cashier_home(request, {name: form})


def dollars(value: Decimal | int) -> str:
    """An amount as a sentence says it: $5,000.00."""
    return f"${Decimal(value):,.2f}"


def _count_sentence(request: HttpRequest, cardroom: Cardroom) -> str | None:
    form = CageCountForm(request.POST, denominations=_denominations(cardroom, cash=True))
    if not form.is_valid():
        return None
    doing = {
        "opening": "Opens the cage",
        "handover": f"Hands the cage over to {form.cleaned_data['other']}",
        "closing": "Closes the cage",
    }[form.cleaned_data["kind"]]
    return (
        f"{doing} with its count: {dollars(form.total('chips'))} in chips and "
        f"{dollars(form.total('cash'))} in cash, signed by you and {form.cleaned_data['other']}."
    )


def _sale_sentence(request: HttpRequest, cardroom: Cardroom) -> str | None:
    form = PlayerCashForm(request.POST, denominations=_denominations(cardroom))
    if not form.is_valid():
        return None
    player = Player.objects.filter(pk=form.cleaned_data["player"], cardroom=cardroom).first()
    if player is None:
        return None
    amount = dollars(form.total("chips"))
    if form.cleaned_data["direction"] == "in":
        return f"Sells {player} {amount} in chips for cash, on the player's cash log."
    return f"Redeems {amount} of {player}'s chips for cash, on the player's cash log."


def _entry_sentence(request: HttpRequest, cardroom: Cardroom) -> str | None:
    form = CageEntryForm(request.POST, denominations=_denominations(cardroom))
    if not form.is_valid():
        return None
    kind = form.cleaned_data["kind"].replace("_", " ")
    cash = form.cleaned_data["cash"] or 0
    return (
        f"Records a {kind} in the cage's books: {dollars(form.total('chips'))} in chips and "
        f"{dollars(cash)} in cash."
    )


def _issue_sentence(request: HttpRequest, cardroom: Cardroom) -> str | None:
    form = ChipIssueForm(request.POST, denominations=_denominations(cardroom))
    if not form.is_valid():
        return None
    into = form.cleaned_data["direction"] == "issue"
    moved = "into circulation, into the cage" if into else "out of circulation, out of the cage"
    return (
        f"Takes {dollars(form.total('chips'))} in chips {moved}, witnessed by "
        f"{form.cleaned_data['witness']}."
    )


@cashier_actions("count", confirm=_count_sentence)
def _count(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    form = CageCountForm(
        request.POST, denominations=_denominations(cardroom, cash=True), auto_id=AUTO_IDS["count"]
    )

    def record() -> object:
        data = form.cleaned_data
        count = services.CountGiven(
            chips=form.pieces("chips"), cash=form.pieces("cash"), note=data["note"]
        )
        own = own_signature(request, data["secret"])
        other = signature(request, data["other"], data["other_secret"])
        by = request.user
        if data["kind"] == "handover":
            return services.cage_handover(
                cardroom=cardroom, count=count, signature=own, incoming=other, by=by
            )
        service = services.cage_close if data["kind"] == "closing" else services.cage_open
        return service(cardroom=cardroom, count=count, signature=own, witness=other, by=by)

    ok = form.is_valid() and call_service(request, form, record, fields=form.service_fields())
    return _back(request, ok, "count", form)


@cashier_actions("player-cash", confirm=_sale_sentence)
def _player_cash(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    form = PlayerCashForm(
        request.POST, denominations=_denominations(cardroom), auto_id=AUTO_IDS["sale"]
    )

    def record() -> object:
        player = get_object_or_404(Player, pk=form.cleaned_data["player"], cardroom=cardroom)
        selling = form.cleaned_data["direction"] == "in"
        service = services.cage_chips_sell if selling else services.cage_chips_redeem
        return service(player=player, chips=form.pieces("chips"), by=request.user)

    ok = form.is_valid() and call_service(request, form, record, fields=form.service_fields())
    return _back(request, ok, "sale", form)


@cashier_actions("entry", confirm=_entry_sentence)
def _entry(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    form = CageEntryForm(
        request.POST, denominations=_denominations(cardroom), auto_id=AUTO_IDS["entry"]
    )
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.cage_entry_add(
            cardroom=cardroom,
            kind=form.cleaned_data["kind"],
            chips=form.pieces("chips"),
            cash=form.cleaned_data["cash"] or 0,
            reference=form.cleaned_data["reference"],
            by=request.user,
        ),
        fields=form.service_fields(),
    )
    return _back(request, ok, "entry", form)


@cashier_actions("issue", confirm=_issue_sentence)
def _issue(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
    form = ChipIssueForm(
        request.POST, denominations=_denominations(cardroom), auto_id=AUTO_IDS["issue"]
    )
    ok = form.is_valid() and call_service(
        request,
        form,
        lambda: services.chip_issue_record(
            cardroom=cardroom,
            direction=form.cleaned_data["direction"],
            chips=form.pieces("chips"),
            reason=form.cleaned_data["reason"],
            witness=signature(
                request, form.cleaned_data["witness"], form.cleaned_data["witness_secret"]
            ),
            by=request.user,
        ),
        fields=form.service_fields(),
    )
    return _back(request, ok, "issue", form)


def _money_action(name: str) -> Callable[[SignedInRequest, Cardroom], HttpResponseBase]:
    """A form of a player's money at the cage: asks first, records, or shows the refusal."""
    action = cashier_accounts.ACTIONS[name]

    def handle(request: SignedInRequest, cardroom: Cardroom) -> HttpResponseBase:
        form = action.form(cardroom, request.POST)
        ok = form.is_valid() and call_service(
            request,
            form,
            lambda: action.record(request, cardroom, form),
            fields=form.service_fields(),
        )
        if not ok:
            return cashier_home(request, {action.key: form})
        player = getattr(ok, "player_id", None) or getattr(
            getattr(ok, "marker", None), "player_id", ""
        )
        return redirect(f"{reverse('cashier-home')}?player={player}#player-money")

    def sentence(request: HttpRequest, cardroom: Cardroom) -> str | None:
        return action.say(request, cardroom)

    return cashier_actions(name, confirm=sentence)(handle)


for _name in cashier_accounts.ACTIONS:
    _money_action(_name)
