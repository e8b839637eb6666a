"""The floor's waitlist (``/floor/waitlist/``): every list with who waits on it, the seats
open now with who is called and the minutes left; the floor opens a list, puts players on it,
changes its order, calls, seats, passes a call on and takes players off. A call, a seat taken
and a removal ask first (``screens.confirmation``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.inputs import AsciiDigitsForm
from core.money import money_text
from core.roles import FLOOR_SUPERVISOR
from patrons.models import Cardroom, Player
from tables import waitlist_selectors
from tables.models import Table, Waitlist, WaitlistEntry
from tables.services import seat_calls, waitlist, waitlist_timing

from .base import Actions, SignedInRequest, call_service, refused, role_required
from .cage import cardroom_first

supervisor_only = role_required(FLOOR_SUPERVISOR)


class OpenListForm(forms.Form):
    game = forms.CharField(label="Game", max_length=60)


class JoinForm(AsciiDigitsForm):
    waitlist = forms.IntegerField(label="List", min_value=1)
    player = forms.IntegerField(label="Registered player", min_value=1, required=False)
    name = forms.CharField(label="Or a name", max_length=100, required=False)
    phone = forms.BooleanField(label="By phone (held)", required=False)


class EntryForm(AsciiDigitsForm):
    entry = forms.IntegerField(min_value=1)


class MoveForm(EntryForm):
    place = forms.IntegerField(label="Place", min_value=1, max_value=100_000)


class CallForm(AsciiDigitsForm):
    table = forms.IntegerField(min_value=1)
    seat = forms.IntegerField(min_value=1, max_value=99)


class SeatForm(EntryForm):
    buy_in = forms.DecimalField(label="Buy-in", min_value=0, decimal_places=2, required=False)


@supervisor_only
def waitlist_page(request: SignedInRequest, status: int = 200) -> HttpResponseBase:
    cardroom = cardroom_first()
    context = {
        "cardroom": cardroom,
        "lists": list(waitlist_selectors.waitlists(cardroom)),
        "openings": waitlist_selectors.seat_openings(cardroom),
        "games": _games(cardroom),
        "players": Player.objects.filter(cardroom=cardroom).order_by("name")[:500],
        "timing_form": TimingForm(
            auto_id="id_timing_%s",
            initial={
                "seat_call_minutes": cardroom.seat_call_minutes,
                "phone_hold_minutes": cardroom.phone_hold_minutes,
            },
        ),
    }
    return render(request, "floor/waitlist.html", context, status=status)


def _games(cardroom: Cardroom) -> list[tuple[str, str]]:
    return [
        (
            f"{kind}|{s.ante_min}|{s.ante_max}",
            f"{kind.replace('_', '-')} ${money_text(s.ante_min)}–${money_text(s.ante_max)}",
        )
        for kind, s in waitlist_selectors.games(cardroom)
    ]


Handler = Callable[[SignedInRequest], HttpResponseBase]
waitlist_actions: Actions[Handler] = Actions()


@require_POST
@supervisor_only
def waitlist_action(request: SignedInRequest, action: str) -> HttpResponseBase:
    return waitlist_actions.handler(action)(request)


def _run(request: SignedInRequest, form: forms.Form, call: Callable[[], Any]) -> HttpResponseBase:
    """The action, then the page: on its feet again, or refused with the reason at the top."""
    if form.is_valid() and call_service(request, form, call) is not None:
        return redirect("floor-waitlist")
    if not form.is_valid():
        errors = "; ".join(str(e) for errs in form.errors.values() for e in errs)
        refused(request, errors)
    return waitlist_page(request, status=422)


def _entry(form: forms.Form) -> WaitlistEntry:
    return WaitlistEntry(pk=form.cleaned_data["entry"])


@waitlist_actions("open")
def _open(request: SignedInRequest) -> HttpResponseBase:
    form = OpenListForm(request.POST)

    def call() -> Waitlist:
        banking, low, high = (form.cleaned_data["game"].split("|") + ["", "", ""])[:3]
        return waitlist.waitlist_open(
            cardroom=cardroom_first(), banking=banking, ante_min=low, ante_max=high, by=request.user
        )

    return _run(request, form, call)


class TimingForm(AsciiDigitsForm):
    # Any whole number reaches the service, whose refusal says the range.
    seat_call_minutes = forms.IntegerField(label="Minutes to take a called seat", min_value=0)
    phone_hold_minutes = forms.IntegerField(label="Minutes a phone entry is held", min_value=0)


@waitlist_actions("timing")
def _timing(request: SignedInRequest) -> HttpResponseBase:
    form = TimingForm(request.POST, auto_id="id_timing_%s")
    return _run(
        request,
        form,
        lambda: waitlist_timing.cardroom_waitlist_timing_set(
            cardroom=cardroom_first(), values=dict(form.cleaned_data), by=request.user
        ),
    )


@waitlist_actions("join")
def _join(request: SignedInRequest) -> HttpResponseBase:
    form = JoinForm(request.POST)

    def call() -> WaitlistEntry:
        data = form.cleaned_data
        player = Player.objects.filter(pk=data["player"]).first() if data["player"] else None
        return waitlist.waitlist_join(
            waitlist=Waitlist(pk=data["waitlist"]),
            player=player,
            name=data["name"],
            phone=data["phone"],
            by=request.user,
        )

    return _run(request, form, call)


def _ask_call(request: HttpRequest) -> str | None:
    form = CallForm(request.POST)
    if not form.is_valid():
        return None
    table = Table.objects.filter(pk=form.cleaned_data["table"]).first()
    return f"Calls the next player on the list to seat {form.cleaned_data['seat']} at {table}."


@waitlist_actions("call", confirm=_ask_call)
def _call(request: SignedInRequest) -> HttpResponseBase:
    form = CallForm(request.POST)
    return _run(
        request,
        form,
        lambda: seat_calls.waitlist_call(
            table=Table(pk=form.cleaned_data["table"]),
            seat=form.cleaned_data["seat"],
            by=request.user,
        ),
    )


def _named(request: HttpRequest, words: str) -> str | None:
    form = EntryForm(request.POST)
    if not form.is_valid():
        return None
    entry = WaitlistEntry.objects.filter(pk=form.cleaned_data["entry"]).first()
    return words.format(name=entry.name if entry else "this player", entry=entry)


def _ask_seat(request: HttpRequest) -> str | None:
    return _named(request, "Seats {name} in the called seat.")


@waitlist_actions("seat", confirm=_ask_seat)
def _seat(request: SignedInRequest) -> HttpResponseBase:
    form = SeatForm(request.POST)
    return _run(
        request,
        form,
        lambda: seat_calls.waitlist_seat(
            entry=_entry(form), buy_in=form.cleaned_data["buy_in"] or 0, by=request.user
        ),
    )


def _ask_pass(request: HttpRequest) -> str | None:
    return _named(request, "Passes {name}'s call on to the next player on the list.")


@waitlist_actions("pass", confirm=_ask_pass)
def _pass(request: SignedInRequest) -> HttpResponseBase:
    form = EntryForm(request.POST)
    return _run(
        request,
        form,
        lambda: seat_calls.waitlist_call_pass(entry=_entry(form), by=request.user) or True,
    )


def _ask_remove(request: HttpRequest) -> str | None:
    return _named(request, "Takes {name} off the waitlist.")


@waitlist_actions("remove", confirm=_ask_remove)
def _remove(request: SignedInRequest) -> HttpResponseBase:
    form = EntryForm(request.POST)
    return _run(
        request, form, lambda: waitlist.waitlist_remove(entry=_entry(form), by=request.user)
    )


@waitlist_actions("arrive")
def _arrive(request: SignedInRequest) -> HttpResponseBase:
    form = EntryForm(request.POST)
    return _run(
        request, form, lambda: waitlist.waitlist_arrive(entry=_entry(form), by=request.user)
    )


@waitlist_actions("move")
def _move(request: SignedInRequest) -> HttpResponseBase:
    form = MoveForm(request.POST)
    return _run(
        request,
        form,
        lambda: waitlist.waitlist_move(
            entry=_entry(form), place=form.cleaned_data["place"], by=request.user
        ),
    )
