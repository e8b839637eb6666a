"""The dealer's screen: one table, its seats and the hand in play, step by step.

Every step posts a small form (with htmx, the play area is swapped in place; without it, the
page reloads) to ``dealer_step``, which calls one service; a refusal comes back next to the
field it names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import Decimal
from functools import partial
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from audit.services import audit_refusal
from core.errors import Conflict, DomainError
from core.roles import DEALER, FLOOR_SUPERVISOR, TABLE_STAFF, role_of
from engine.cards import CARD_NAMES, parse_hand
from engine.checks import raise_cap_multiple
from engine.errors import RoundError
from engine.hands import flush_key, flush_size
from tables import selectors as table_selectors
from tables.models import Seating, Table, TableSession
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
from wagers import selectors, services
from wagers.models import Hand, Spot

from .base import SignedInRequest, call_service, role_required
from .dealer_settlement import settlement_rows
from .dealer_slips import slips_context
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
def dealer_step(request: SignedInRequest, pk: int, step: str) -> HttpResponse:
    """One step at the table; ``step`` names the form and the service it feeds."""
    table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
    refused = _refuse_another_dealers_table(request, table)
    if refused is not None:
        return refused
    if step not in STEPS:
        return render(request, "403.html", {"message": "No such step."}, status=404)
    hand = selectors.hands_in_progress(table=table).first()
    form, run = STEPS[step](request, table, hand)
    done = (
        form.is_valid()
        and call_service(request, form, lambda: run(form.cleaned_data), fields=FIELD_NAMES)
        is not None
    )
    context = play_context(request, table, bound={} if done else {step: form})
    if request.htmx:
        return render(request, "dealer/_play.html", context)
    if done:
        return redirect("dealer-table", pk=table.pk)
    return render(request, "dealer/table.html", context, status=422)


# The services' field names where a form calls them otherwise.
FIELD_NAMES = {f"cards.{seat}": f"cards_{seat}" for seat in range(1, 8)} | {
    "designated_player": None,
    "status": None,
}

#: A step's bound form, and what to run with its cleaned data once it is valid.
StepForm = tuple[forms.Form, Callable[[dict[str, Any]], Any]]
Step = Callable[[SignedInRequest, Table, Hand | None], StepForm]


def _open(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = forms.Form(request.POST)
    return form, lambda data: table_open(table=table, dealer=request.user, by=request.user)


def _start(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = StartForm(request.POST, seats=table_selectors.seated(table))
    return form, lambda data: services.hand_start(
        table=table,
        by=request.user,
        dp_bank=data["dp_bank"] or None,
        refusals=tuple(data["refusals"]),
    )


def _wager(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = (
        SecondSpotForm(request.POST, **_second_spot_choices(table, hand))
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


def _wagers(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    """Every seat's wagers in one post (chip buttons fill the fields); ``same=all`` takes each
    player's wagers of their last hand at this table for the rows left empty."""
    rows = _wager_seatings(table, hand)
    data = request.POST.copy()
    if data.get("same") == "all":
        for seating, last in _last_wagers(table, rows).items():
            if not (data.get(f"ante_{seating.seat}") or "").strip():
                for name in WAGER_FIELDS:
                    data[f"{name}_{seating.seat}"] = last.get(name, "")
    form = WagersForm(data, seats=[s.seat for s in rows])

    def run(cleaned: dict[str, Any]) -> Any:
        by_seat = {s.seat: s for s in rows}
        batch = [
            {"seating": by_seat[seat]} | {k: v for k, v in w.items() if v}
            for seat, w in form.wagers().items()
        ]
        calls: list[tuple[int, Callable[[], Any]]] = [
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
        return _batch_or_every_error(
            lambda: services.wagers_place_many(hand=_require(hand), wagers=batch, by=request.user),
            form,
            calls,
            "Nothing was placed",
        )

    return form, run


def _batch_or_every_error(
    batch: Callable[[], Any],
    form: forms.Form,
    calls: list[tuple[int, Callable[[], Any]]],
    nothing: str,
) -> Any:
    """One batch service call for the whole hand (every spot or none, one request). The batch
    stops at its first refusal; when it refuses, each seat is tried alone, in a transaction
    always rolled back, so that every wrong field is shown at once next to its own seat."""
    try:
        return batch()
    except DomainError:
        failed = _every_error(form, calls)
        if not failed:
            raise  # a refusal of the batch as a whole: its own message
    raise DomainError(f"{nothing}: correct the {_fields(failed)} marked below.")


def _every_error(form: forms.Form, calls: Iterable[tuple[int, Callable[[], Any]]]) -> int:
    """Try each seat's call alone and put each refusal next to its own seat's field; nothing
    tried here stays (the transaction is rolled back). Returns how many were refused."""
    failed = 0
    with transaction.atomic():
        for seat, call in calls:
            try:
                with transaction.atomic():
                    call()
            except DomainError as error:
                failed += 1
                field = f"{FIELD_NAMES.get(error.field or '', error.field)}_{seat}"
                if field in form.fields:
                    form.add_error(field, error.message)
                else:
                    form.add_error(None, f"Seat {seat}: {error.message}")
        transaction.set_rollback(True)
    return failed


def _fields(count: int) -> str:
    return "field" if count == 1 else f"{count} fields"


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
        calls: list[tuple[int, Callable[[], Any]]] = [
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
            _batch_or_every_error(record, form, calls, "No decision was recorded")
        return True

    return form, run


def _bank(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    """The DP's bank, asked for after the rotation has named the DP (R13)."""
    form = BankForm(request.POST)
    return form, lambda data: services.hand_dp_bank_set(
        hand=_require(hand), dp_bank=data["dp_bank"], by=request.user
    )


def _deal(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    return forms.Form(request.POST), lambda data: services.hand_deal(
        hand=_require(hand), by=request.user
    )


def _cards(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    seats = [s.seat for s in _require(hand).spots.filter(dead_reason="")] if hand else []
    form = CardsForm(request.POST, seats=seats)
    return form, lambda data: services.hand_cards_enter(
        hand=_require(hand),
        dealer_cards=data["dealer_cards"],
        spot_cards=form.spot_cards(),
        by=request.user,
    )


def _decide(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = DecisionForm(request.POST)
    return form, lambda data: services.spot_decide(
        hand=_require(hand),
        seat=data["seat"],
        decision=data["decision"],
        raise_amount=data["raise_amount"] or None,
        by=request.user,
    )


def _dead(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = SeatForm(request.POST)
    return form, lambda data: services.spot_declare_dead(
        hand=_require(hand), seat=data["seat"], by=request.user
    )


def _misdeal(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    form = MisdealForm(request.POST)
    return form, lambda data: services.hand_declare_misdeal(
        hand=_require(hand), reason=data["reason"], by=request.user
    )


def _settle(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    return forms.Form(request.POST), lambda data: services.hand_settle(
        hand=_require(hand), by=request.user
    )


def _cancel(request: SignedInRequest, table: Table, hand: Hand | None) -> StepForm:
    return forms.Form(request.POST), lambda data: services.hand_cancel(
        hand=_require(hand), by=request.user
    )


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


STEPS: dict[str, Step] = {
    "open": _open,
    "start": _start,
    "wager": _wager,
    "wagers": _wagers,
    "bank": _bank,
    "decisions": _decisions,
    "deal": _deal,
    "cards": _cards,
    "decide": _decide,
    "dead": _dead,
    "misdeal": _misdeal,
    "settle": _settle,
    "cancel": _cancel,
    "seat": _seat_player,
    "stack": _stack,
}


def _require(hand: Hand | None) -> Hand:
    if hand is None:
        raise Conflict("No hand is in progress: start one first.")
    return hand


def play_context(
    request: HttpRequest, table: Table, bound: dict[str, forms.Form] | None = None
) -> dict[str, Any]:
    """Everything the play area shows: seats, the hand in progress and its forms, or the last
    settlement. ``bound`` holds a submitted form that failed, to show its errors in place."""
    bound = bound or {}
    session = table_selectors.open_session(table)
    seatings = list(table_selectors.seated(table).order_by("seat"))
    hand = selectors.hands_in_progress(table=table).select_related("dp_seating__player").first()
    last = (
        Hand.objects.filter(table=table, status__in=(Hand.Status.SETTLED, Hand.Status.DEAD))
        .order_by("-number")
        .first()
    )
    settings = table_selectors.current_settings(table)
    context: dict[str, Any] = {
        "table": table,
        "session": session,
        "settings": settings,
        "chips": _chips(table, settings),
        "seatings": seatings,
        "hand": hand,
        "is_supervisor": role_of(request.user) == FLOOR_SUPERVISOR,
        "start_form": bound.get("start") or StartForm(seats=seatings),
        "seat_form": bound.get("seat") or SeatPlayerForm(cardroom=table.cardroom),
        "errors": bound,
        "error_summary": [
            (_label(form, name), message)
            for form in bound.values()
            for name, messages in form.errors.items()
            for message in messages
        ],
        "last_hand": last,
        "last_settlement": selectors.settlement_in_force(last) if last else None,
    }
    if context["last_settlement"] is not None and last is not None:
        context["settlement_rows"] = settlement_rows(last, context["last_settlement"].result)
    if hand is not None:
        context |= _hand_context(hand, seatings, bound)
    return context


def _second_spot_choices(
    table: Table,
    hand: Hand,
    seatings: list[Seating] | None = None,
    spots: list[Spot] | None = None,
) -> dict[str, list[Any]]:
    """Who may take a second spot (R6: on one spot now) and where (empty seats, no spot)."""
    seatings = seatings if seatings is not None else list(table_selectors.seated(table))
    spots = spots if spots is not None else list(hand.spots.all())
    taken = {s.seat for s in seatings} | {spot.seat for spot in spots}
    counts: dict[int, int] = {}
    for spot in spots:
        counts[spot.seating_id] = counts.get(spot.seating_id, 0) + 1
    return {
        "players": [s for s in seatings if counts.get(s.pk) == 1 and s.exclusion_hold_id is None],
        "seats": [n for n in range(1, table.seat_count + 1) if n not in taken],
    }


def _label(form: forms.Form, name: str) -> str:
    """How a field is called on the screen, for the error summary ("" for the whole form)."""
    if name == NON_FIELD_ERRORS or name not in form.fields:
        return ""
    return str(form.fields[name].label or name.replace("_", " ").capitalize())


def _hand_context(hand: Hand, seatings: list[Seating], bound: dict) -> dict[str, Any]:
    spots = list(hand.spots.select_related("player", "seating").order_by("seat"))
    waiting = [s for s in seatings if s.pk != hand.dp_seating_id and s.seat not in _seats(spots)]
    rows = [s for s in waiting if s.exclusion_hold_id is None]  # held: no wagers, no fields
    last = _last_wagers(hand.table, rows)
    wagers_form = bound.get("wagers") or WagersForm(seats=[s.seat for s in rows])
    wager_rows = [
        (
            seating,
            [wagers_form[f"{name}_{seating.seat}"] for name in WAGER_FIELDS],
            last.get(seating),
        )
        for seating in rows
    ]
    live = [spot.seat for spot in spots if not spot.dead_reason]
    second_bound = bound.get("wager") if isinstance(bound.get("wager"), SecondSpotForm) else None
    choices = _second_spot_choices(hand.table, hand, seatings, spots)
    second_spot = second_bound or (SecondSpotForm(**choices) if all(choices.values()) else None)
    undecided = [spot for spot in spots if not spot.dead_reason and not spot.decision]
    decisions_form = bound.get("decisions") or DecisionsForm(
        seats=[s.seat for s in undecided],
        initial={f"raise_amount_{s.seat}": _cap_text(s) for s in undecided},
    )
    decision_rows = [
        (
            spot,
            _raise_cap(spot),
            decisions_form[f"decision_{spot.seat}"],
            decisions_form[f"raise_amount_{spot.seat}"],
        )
        for spot in undecided
    ]
    used = set(hand.dealer_cards.split())
    for spot in spots:
        used |= set(spot.cards.split())
    dp = next((s for s in seatings if s.pk == hand.dp_seating_id), None)
    return {
        "spots": spots,
        "dp": dp,
        "dp_chips": dp.stack + (hand.dp_bank or 0) if dp is not None else None,
        "bank_form": bound.get("bank")
        or BankForm(initial={"dp_bank": f"{hand.dp_bank or 0:.2f}".removesuffix(".00")}),
        "can_bank": dp is not None and hand.status == Hand.Status.OPEN and not spots,
        "wager_rows": wager_rows,
        "held_rows": [s for s in waiting if s.exclusion_hold_id is not None],
        "wagers_form": wagers_form,
        "any_last": bool(last),
        "second_spot_form": second_spot,
        "offers": hand.rotation.offers if hand.rotation is not None else [],
        "cards_form": bound.get("cards") or CardsForm(seats=live),
        "decision_rows": decision_rows,
        "decisions_form": decisions_form,
        "misdeal_form": bound.get("misdeal") or MisdealForm(),
        "deck": [(name, name in used) for name in CARD_NAMES],
        "can_wager": hand.status in (Hand.Status.OPEN, Hand.Status.WAGERING),
        "can_deal": hand.status == Hand.Status.WAGERING,
        "can_decide": hand.status in (Hand.Status.DEALT, Hand.Status.DECISIONS),
        "can_settle": hand.status in (Hand.Status.DEALT, Hand.Status.DECISIONS)
        and not decision_rows,
    }


def _seats(spots: list[Spot]) -> set[int]:
    return {spot.seat for spot in spots}


def _cap_text(spot: Spot) -> str:
    cap = _raise_cap(spot)
    return "" if cap is None else f"{cap[2]:.2f}".removesuffix(".00")


def _chips(table: Table, settings: Any) -> list[Decimal]:
    """The cardroom's chip denominations a wager can use at this table: whole multiples of
    the chip unit (R5), none above the largest wager the limits allow."""
    if settings is None:
        return []
    top = max(settings.ante_max, settings.bonus_max)
    unit = settings.chip_unit or Decimal("1")
    chips = [Decimal(d) for d in table.cardroom.chip_denominations]
    return [c for c in chips if c <= top and not c % unit]


def _wager_seatings(table: Table, hand: Hand | None) -> list[Seating]:
    """The seats that may still wager this hand: seated, not held, not the DP, no spot yet."""
    if hand is None:
        return []
    taken = set(hand.spots.values_list("seat", flat=True))
    return [
        s
        for s in table_selectors.seated(table).select_related("player").order_by("seat")
        if s.pk != hand.dp_seating_id and s.seat not in taken and s.exclusion_hold_id is None
    ]


def _last_wagers(table: Table, seatings: list[Seating]) -> dict[Seating, dict[str, str]]:
    """Each player's wagers on their last settled hand at this table ("same as last hand":
    a player who was the DP last hand repeats the wagers of the hand before)."""
    by_player = {s.player_id: s for s in seatings}
    spots = (
        Spot.objects.filter(
            hand__table=table,
            hand__status=Hand.Status.SETTLED,
            player_id__in=by_player,
            dead_reason="",
        )
        .order_by("player_id", "-hand__number", "seat")
        .values("player_id", "ante", "flush_bonus", "straight_flush_bonus")
    )
    last: dict[Seating, dict[str, str]] = {}
    for row in spots:
        spot: dict[str, Any] = dict(row)
        seating = by_player[spot["player_id"]]
        if seating not in last:
            last[seating] = {
                name: "" if not spot[name] else f"{spot[name]:.2f}".removesuffix(".00")
                for name in WAGER_FIELDS
            }
    return last


def _raise_cap(spot: Spot) -> tuple[int, int, Decimal] | None:
    """R8: the spot's flush size, the multiple of the ante it allows, and the cap amount."""
    try:
        size = flush_size(flush_key(parse_hand(spot.cards, field="cards")))
    except RoundError:
        return None
    multiple = raise_cap_multiple(size)
    return size, multiple, spot.ante * multiple
