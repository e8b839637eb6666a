"""The floor's dealers screen (``/floor/dealers/``): who is clocked in, where and for how many
minutes, who is due for a push or a break; clock-in and out, a dealer put on a table, breaks,
and the push in one tap, which says who goes where and asks first; each dealer's hours and
hands dealt per gaming day; the push and break settings."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from django import forms
from django.contrib.auth.models import User
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.inputs import AsciiDigitsForm
from core.people import person_name
from core.roles import DEALER, FLOOR_SUPERVISOR
from patrons.models import DEALER_MINUTES_BOUNDS, Cardroom
from tables import dealer_selectors, selectors
from tables.models import DealerShift, Table
from tables.services import dealer_push, dealer_shifts

from .base import Actions, SignedInRequest, call_service, role_required
from .cage import cardroom_first

supervisor_only = role_required(FLOOR_SUPERVISOR)


class DealerForm(AsciiDigitsForm):
    dealer = forms.IntegerField(min_value=1)


class AssignForm(AsciiDigitsForm):
    dealer = forms.IntegerField(min_value=1)
    table = forms.IntegerField(min_value=1)


class PushForm(AsciiDigitsForm):
    table = forms.IntegerField(min_value=1, required=False)


class RotationForm(AsciiDigitsForm):
    # Any whole number reaches the service, whose refusal says the bounds.
    push_minutes = forms.IntegerField(label="Push every (minutes)", min_value=0, max_value=100_000)
    break_after_minutes = forms.IntegerField(
        label="Break after (minutes on)", min_value=0, max_value=100_000
    )
    break_minutes = forms.IntegerField(
        label="Break length (minutes)", min_value=0, max_value=100_000
    )


def _day(request: SignedInRequest, cardroom: Cardroom) -> date:
    try:
        return date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        return selectors.gaming_day(cardroom, timezone.now())


def _not_clocked_in() -> list[User]:
    on = DealerShift.objects.filter(clocked_out_at=None).values("dealer_id")
    dealers = User.objects.filter(groups__name=DEALER, is_active=True).exclude(pk__in=on)
    return list(dealers.order_by("first_name", "last_name", "username"))


def _page(request: SignedInRequest, failed: forms.Form | None = None) -> HttpResponseBase:
    cardroom = cardroom_first()
    now = timezone.now()
    day = _day(request, cardroom)
    board = dealer_selectors.dealer_board(cardroom, now)
    context: dict[str, Any] = {
        "cardroom": cardroom,
        "board": board,
        "due": [row for row in board if row.due],
        "waiting": [row for row in board if row.where == dealer_selectors.WAITING],
        "plan": dealer_selectors.push_plan(cardroom, now),
        "tables": dealer_selectors.open_tables(cardroom),
        "all_tables": Table.objects.filter(cardroom=cardroom).order_by("pk"),
        "off_clock": _not_clocked_in(),
        "day": day,
        "days": dealer_selectors.dealer_days(cardroom, day, now),
        "rotation_form": failed if isinstance(failed, RotationForm) else _rotation_form(cardroom),
        "failed": failed,
        "bounds": DEALER_MINUTES_BOUNDS,
    }
    return render(request, "floor/dealers.html", context, status=422 if failed else 200)


def _rotation_form(cardroom: Cardroom) -> RotationForm:
    names = ("push_minutes", "break_after_minutes", "break_minutes")
    return RotationForm(auto_id="id_rotation_%s", initial={n: getattr(cardroom, n) for n in names})


@supervisor_only
def dealer_list(request: SignedInRequest) -> HttpResponseBase:
    return _page(request)


def push_sentence(request: SignedInRequest, action: str = "push") -> str | None:
    """What the push will do, from the rotation as it stands: "Cy Fox takes Table 1; Ann Bell
    goes on break." (None: the form is not valid, or there is nothing to push; the action
    then refuses with its reason.)"""
    form = PushForm(request.POST)
    if not form.is_valid():
        return None
    cardroom = cardroom_first()
    table = _table(cardroom, form.cleaned_data.get("table"))
    plan = dealer_selectors.push_plan(cardroom, timezone.now(), table)
    if plan is None or not plan.moves:
        return None
    return f"Push {plan.table}: {plan.sentence()}"


def _table(cardroom: Cardroom, pk: int | None) -> Table | None:
    if pk is None:
        return None
    return Table.objects.filter(cardroom=cardroom, pk=pk).first()


def _dealer(pk: int) -> User:
    dealer = User.objects.filter(pk=pk).first()
    if dealer is None:
        raise DomainError("There is no such dealer.", field="dealer")
    return dealer


#: The actions of the screen, by the ``<action>`` of their URL: each takes the posted form.
dealer_actions: Actions[Callable[[SignedInRequest], HttpResponseBase]] = Actions()


@require_POST
@supervisor_only
def dealer_action(request: SignedInRequest, action: str) -> HttpResponseBase:
    return dealer_actions.handler(action)(request)


def _run(
    request: SignedInRequest, form: forms.Form, call: Callable[[dict[str, Any]], Any]
) -> HttpResponseBase:
    """Validate, call the service, then back to the screen; a refusal shows its reason."""
    if form.is_valid() and call_service(request, form, lambda: call(form.cleaned_data)):
        return redirect("floor-dealers")
    return _page(request, failed=form)


@dealer_actions("clock-in")
def _clock_in(request: SignedInRequest) -> HttpResponseBase:
    return _run(
        request,
        DealerForm(request.POST),
        lambda data: dealer_shifts.dealer_clock_in(
            cardroom=cardroom_first(), dealer=_dealer(data["dealer"]), by=request.user
        ),
    )


def _clock_out_sentence(request: SignedInRequest) -> str | None:
    form = DealerForm(request.POST)
    if not form.is_valid():
        return None
    dealer = User.objects.filter(pk=form.cleaned_data["dealer"]).first()
    return f"Clock {person_name(dealer)} out? Their shift ends." if dealer else None


@dealer_actions("clock-out", confirm=_clock_out_sentence)
def _clock_out(request: SignedInRequest) -> HttpResponseBase:
    return _run(
        request,
        DealerForm(request.POST),
        lambda data: dealer_shifts.dealer_clock_out(
            dealer=_dealer(data["dealer"]), by=request.user
        ),
    )


@dealer_actions("assign")
def _assign(request: SignedInRequest) -> HttpResponseBase:
    def call(data: dict[str, Any]) -> Any:
        table = _table(cardroom_first(), data["table"])
        if table is None:
            raise DomainError("There is no such table.", field="table")
        return dealer_shifts.dealer_assign(
            table=table, dealer=_dealer(data["dealer"]), by=request.user
        )

    return _run(request, AssignForm(request.POST), call)


@dealer_actions("break")
def _break(request: SignedInRequest) -> HttpResponseBase:
    return _run(
        request,
        DealerForm(request.POST),
        lambda data: dealer_shifts.dealer_break_start(
            dealer=_dealer(data["dealer"]), by=request.user
        ),
    )


@dealer_actions("back")
def _back(request: SignedInRequest) -> HttpResponseBase:
    return _run(
        request,
        DealerForm(request.POST),
        lambda data: dealer_shifts.dealer_break_end(
            dealer=_dealer(data["dealer"]), by=request.user
        ),
    )


@dealer_actions("push", confirm=push_sentence)
def _push(request: SignedInRequest) -> HttpResponseBase:
    def call(data: dict[str, Any]) -> Any:
        cardroom = cardroom_first()
        table = _table(cardroom, data.get("table"))
        if data.get("table") is not None and table is None:
            raise DomainError("There is no such table.", field="table")
        return dealer_push.dealer_push(cardroom=cardroom, table=table, by=request.user)

    return _run(request, PushForm(request.POST), call)


@dealer_actions("rotation")
def _rotation(request: SignedInRequest) -> HttpResponseBase:
    return _run(
        request,
        RotationForm(request.POST, auto_id="id_rotation_%s"),
        lambda data: dealer_shifts.cardroom_dealer_rotation_set(
            cardroom=cardroom_first(), values=data, by=request.user
        ),
    )
