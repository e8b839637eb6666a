"""The floor's page of one hand: its settlement history, and its correction (a correcting
entry, never an edit)."""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render

from core.errors import DomainError
from wagers import selectors as hand_selectors
from wagers import services as hand_services
from wagers.models import Hand

from .base import SignedInRequest, call_service
from .card_sources import hand_card_source
from .floor import supervisor_only
from .forms.hands import CorrectionForm


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
        "card_source": hand_card_source(hand),
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
