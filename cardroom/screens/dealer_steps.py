"""The dealer's steps at the table: each builds the form its post fills and says which service
to call with it. A step that records every seat at once (wagers, decisions) calls one batch
service; when the batch refuses, each seat's refusal is shown next to its own field
(``dealer_checks``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from django import forms
from django.shortcuts import get_object_or_404

from core.errors import Conflict
from tables import selectors as table_selectors
from tables.models import Seating, Table
from tables.services.seating import (
    player_seat_new,
    seat_player,
    seating_come_back,
    seating_flag_proposition,
    seating_leave,
    seating_sit_out,
    seating_waive_dp,
)
from tables.services.sessions import table_open
from tables.services.stacks import stack_add, stack_cash_out
from wagers import services
from wagers.models import Hand

from .base import Actions, SignedInRequest
from .dealer_checks import batch_or_every_error, every_error
from .dealer_play import last_wagers, second_spot_choices, wager_seatings
from .forms.hands import (
    WAGER_FIELDS,
    BankForm,
    CardsForm,
    DecisionForm,
    DecisionsForm,
    MisdealForm,
    SeatForm,
    SecondSpotForm,
    StartForm,
    WagerForm,
    WagersForm,
)
from .forms.tables import SeatPlayerForm, StackForm

#: A step's bound form, and what to run with its cleaned data once it is valid.
StepForm = tuple[forms.Form, Callable[[dict[str, Any]], Any]]
#: The dealer's steps, by the ``<step>`` of their URL: each builds its form from the post.
steps: Actions[Callable[[SignedInRequest, Table, Hand | None], StepForm]] = Actions("No such step.")


@steps("open")
def _open(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = forms.Form(request.POST)
    return form, lambda data: table_open(table=table, dealer=request.user, by=request.user)


@steps("start")
def _start(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = StartForm(request.POST, seats=table_selectors.seated(table))
    return form, lambda data: services.hand_start(
        table=table,
        by=request.user,
        dp_bank=data["dp_bank"] or None,
        refusals=tuple(data["refusals"]),
    )


@steps("wager")
def _wager(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = (
        SecondSpotForm(request.POST, **second_spot_choices(table, hand))
        if (request.POST.get("second") and hand is not None)
        else WagerForm(request.POST)
    )

    def run(data: dict[str, Any]) -> Any:
        seating = get_object_or_404(Seating, pk=data["seating"], table=table)
        return services.wager_place(
            hand=_require(hand),
            seating=seating,
            seat=data.get("seat"),
            ante=data["ante"],
            flush_bonus=data["flush_bonus"] or "0",
            straight_flush_bonus=data["straight_flush_bonus"] or "0",
            by=request.user,
        )

    return form, run


@steps("wagers")
def _wagers(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    """Every seat's wagers in one post (chip buttons fill the fields); ``same=all`` takes each
    player's wagers of their last hand at this table for the rows left empty. Every wrong
    field is named at once, beside its seat: the form's own refusals (a bonus without an
    ante) and the services' (R5–R7) of every other seat and field together."""
    rows = wager_seatings(table, hand)
    data = request.POST.copy()
    if data.get("same") == "all":
        for seating, last in last_wagers(table, rows).items():
            if not (data.get(f"ante_{seating.seat}") or "").strip():
                for name in WAGER_FIELDS:
                    data[f"{name}_{seating.seat}"] = last.get(name, "")
    form = WagersForm(data, seats=[s.seat for s in rows])
    by_seat = {s.seat: s for s in rows}
    settings = table_selectors.current_settings(table)
    # What a refused field is tried with instead, to find the seat's other wrong fields.
    neutral = {"flush_bonus": "0", "straight_flush_bonus": "0"}
    if settings is not None:
        neutral["ante"] = str(settings.ante_min)

    def calls() -> list[tuple[int, Callable[..., Any]]]:
        return [
            (
                seat,
                partial(
                    services.wager_place,
                    hand=_require(hand),
                    seating=by_seat[seat],
                    ante=w["ante"],
                    flush_bonus=w["flush_bonus"] or "0",
                    straight_flush_bonus=w["straight_flush_bonus"] or "0",
                    by=request.user,
                ),
            )
            for seat, w in form.wagers().items()
        ]

    if hand is not None and not form.is_valid():
        # The form refuses before any service runs: the seats it did not refuse are tried too.
        wrong = {name.rsplit("_", 1)[-1] for name in form.errors}
        every_error(form, [(s, c) for s, c in calls() if str(s) not in wrong], neutral)

    def run(cleaned: dict[str, Any]) -> Any:
        batch = [
            {"seating": by_seat[seat]} | {k: v for k, v in w.items() if v}
            for seat, w in form.wagers().items()
        ]
        return batch_or_every_error(
            lambda: services.wagers_place_many(hand=_require(hand), wagers=batch, by=request.user),
            form,
            calls(),
            "Nothing was placed",
            neutral,
        )

    return form, run


@steps("decisions")
def _decisions(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    """Every spot's decision in one post; with ``settle``, the hand settles in the same
    transaction (the dealer's one tap after the decisions, confirmed): one service call,
    ``hand_decide_and_settle``."""
    seats = (
        [s.seat for s in hand.spots.filter(dead_reason="", decision="").order_by("seat")]
        if hand
        else []
    )
    form = DecisionsForm(request.POST, seats=seats)

    def run(cleaned: dict[str, Any]) -> Any:
        batch = [
            {"seat": seat} | {k: v for k, v in d.items() if v}
            for seat, d in form.decisions().items()
        ]
        calls: list[tuple[int, Callable[..., Any]]] = [
            (
                seat,
                partial(
                    services.spot_decide,
                    hand=_require(hand),
                    seat=seat,
                    decision=d["decision"],
                    raise_amount=d["raise_amount"] or None,
                    by=request.user,
                ),
            )
            for seat, d in form.decisions().items()
        ]

        def record() -> Any:
            if cleaned.get("settle"):  # the decisions and the settlement: all or none
                return services.hand_decide_and_settle(
                    hand=_require(hand), decisions=batch, by=request.user
                )
            return services.decisions_record_many(
                hand=_require(hand), decisions=batch, by=request.user
            )

        if batch or cleaned.get("settle"):
            batch_or_every_error(record, form, calls, "No decision was recorded")
        return True

    return form, run


@steps("bank")
def _bank(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    """The DP's bank, asked for after the rotation has named the DP (R13)."""
    form = BankForm(request.POST)
    return form, lambda data: services.hand_dp_bank_set(
        hand=_require(hand), dp_bank=data["dp_bank"], by=request.user
    )


@steps("deal")
def _deal(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    return forms.Form(request.POST), lambda data: services.hand_deal(
        hand=_require(hand), by=request.user
    )


@steps("cards")
def _cards(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    seats = [s.seat for s in _require(hand).spots.filter(dead_reason="")] if hand else []
    form = CardsForm(request.POST, seats=seats)
    return form, lambda data: services.hand_cards_enter(
        hand=_require(hand),
        dealer_cards=data["dealer_cards"],
        spot_cards=form.spot_cards(),
        by=request.user,
    )


@steps("decide")
def _decide(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = DecisionForm(request.POST)
    return form, lambda data: services.spot_decide(
        hand=_require(hand),
        seat=data["seat"],
        decision=data["decision"],
        raise_amount=data["raise_amount"] or None,
        by=request.user,
    )


@steps("dead")
def _dead(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = SeatForm(request.POST)
    return form, lambda data: services.spot_declare_dead(
        hand=_require(hand), seat=data["seat"], by=request.user
    )


@steps("misdeal")
def _misdeal(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = MisdealForm(request.POST)
    return form, lambda data: services.hand_declare_misdeal(
        hand=_require(hand), reason=data["reason"], by=request.user
    )


@steps("settle")
def _settle(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    return forms.Form(request.POST), lambda data: services.hand_settle(
        hand=_require(hand), by=request.user
    )


@steps("cancel")
def _cancel(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    return forms.Form(request.POST), lambda data: services.hand_cancel(
        hand=_require(hand), by=request.user
    )


@steps("seat")
def _seat_player(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = SeatPlayerForm(request.POST, cardroom=table.cardroom)

    def run(data: dict[str, Any]) -> Any:
        if data["player"] is None:  # a new player: registered and seated in one transaction
            return player_seat_new(
                table=table,
                seat=data["seat"],
                name=data["name"],
                buy_in=data["buy_in"] or "0",
                tender=data["tender"] or None,
                by=request.user,
            )
        return seat_player(
            table=table,
            seat=data["seat"],
            player=data["player"],
            buy_in=data["buy_in"] or "0",
            tender=data["tender"] or None,
            by=request.user,
        )

    return form, run


@steps("stack")
def _stack(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = StackForm(request.POST)

    def run(data: dict[str, Any]) -> Any:
        seating = get_object_or_404(Seating, pk=data["seating"], table=table)
        by = request.user
        match data["action"]:
            case "add":
                return stack_add(
                    seating=seating, amount=data["amount"], tender=data["tender"] or None, by=by
                )
            case "cash_out":
                return stack_cash_out(seating=seating, amount=data["amount"] or None, by=by)
            case "sit_out":
                return seating_sit_out(seating=seating, by=by)
            case "come_back":
                return seating_come_back(seating=seating, by=by)
            case "leave":
                return seating_leave(seating=seating, by=by)
            case "waive":
                return seating_waive_dp(seating=seating, waived=True, by=by)
            case "unwaive":
                return seating_waive_dp(seating=seating, waived=False, by=by)
            case "prop" | "unprop":
                return seating_flag_proposition(
                    seating=seating, flagged=data["action"] == "prop", by=by
                )

    return form, run


def _require(hand: Hand | None) -> Hand:
    if hand is None:
        raise Conflict("No hand is in progress: start one first.")
    return hand
