"""What the dealer's play area shows: the seats, the hand in progress with the forms of the
steps it allows next, or the last settlement."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.http import HttpRequest

from core.roles import FLOOR_SUPERVISOR, role_of
from engine.cards import CARD_NAMES, parse_hand
from engine.checks import raise_cap_multiple
from engine.errors import RoundError
from engine.hands import flush_key, flush_size
from tables import selectors as table_selectors
from tables.models import Seating, Table
from wagers import selectors, services
from wagers.models import Hand, Spot

from .card_sources import cards_context, hand_card_source
from .dealer_settlement import settlement_context
from .forms.hands import (
    WAGER_FIELDS,
    BankForm,
    CardsForm,
    DecisionsForm,
    MisdealForm,
    SecondSpotForm,
    StartForm,
    WagersForm,
)
from .forms.tables import SeatPlayerForm


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
        "in_hand": set(),  # the seatings in the hand in progress: they leave once it settles
        "last_settlement": selectors.settlement_in_force(last) if last else None,
    }
    if context["last_settlement"] is not None and last is not None:
        context |= settlement_context(last, context["last_settlement"])
    if hand is not None:
        context |= _hand_context(hand, seatings, bound)
    context |= cards_context(table, hand)
    context["last_card_source"] = hand_card_source(last) if last else ""
    return context


def second_spot_choices(
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
    """The hand in progress: its spots, the forms of the steps it allows next (the hand's own
    ``next_steps``: the screen offers what the services would take), the deck."""
    spots = list(hand.spots.select_related("player", "seating").order_by("seat"))
    used = set(hand.dealer_cards.split())
    for spot in spots:
        used |= set(spot.cards.split())
    dp = next((s for s in seatings if s.pk == hand.dp_seating_id), None)
    live = [spot.seat for spot in spots if not spot.dead_reason]
    return (
        {
            "spots": spots,
            "next_steps": services.hand_next_steps(hand, spots),
            "dp": dp,
            "in_hand": {spot.seating_id for spot in spots}
            | ({hand.dp_seating_id} if hand.dp_seating_id else set()),
            "dp_chips": dp.stack + (hand.dp_bank or 0) if dp is not None else None,
            "bank_form": bound.get("bank")
            or BankForm(initial={"dp_bank": f"{hand.dp_bank or 0:.2f}".removesuffix(".00")}),
            "offers": hand.rotation.offers if hand.rotation is not None else [],
            "cards_form": bound.get("cards") or CardsForm(seats=live),
            "misdeal_form": bound.get("misdeal") or MisdealForm(),
            "deck": [(name, name in used) for name in CARD_NAMES],
        }
        | _wagers_context(hand, seatings, spots, bound)
        | _decisions_context(spots, bound)
    )


def _wagers_context(
    hand: Hand, seatings: list[Seating], spots: list[Spot], bound: dict
) -> dict[str, Any]:
    """The wagers form: a row per seat still to wager (a held seat gets no fields), each
    with its wagers of last hand; and the second-spot form when someone may take one (R6)."""
    taken = {spot.seat for spot in spots}
    waiting = [s for s in seatings if s.pk != hand.dp_seating_id and s.seat not in taken]
    rows = [s for s in waiting if s.exclusion_hold_id is None]
    last = last_wagers(hand.table, rows)
    wagers_form = bound.get("wagers") or WagersForm(seats=[s.seat for s in rows])
    second = bound.get("wager") if isinstance(bound.get("wager"), SecondSpotForm) else None
    choices = second_spot_choices(hand.table, hand, seatings, spots)
    return {
        "wager_rows": [
            (
                seating,
                [wagers_form[f"{name}_{seating.seat}"] for name in WAGER_FIELDS],
                last.get(seating),
            )
            for seating in rows
        ],
        "held_rows": [s for s in waiting if s.exclusion_hold_id is not None],
        "wagers_form": wagers_form,
        "any_last": bool(last),
        "second_spot_form": second
        or (SecondSpotForm(**choices) if all(choices.values()) else None),
    }


def _decisions_context(spots: list[Spot], bound: dict) -> dict[str, Any]:
    """The decisions form: a row per live spot still to decide, with its raise cap (R8)."""
    undecided = [spot for spot in spots if not spot.dead_reason and not spot.decision]
    form = bound.get("decisions") or DecisionsForm(
        seats=[s.seat for s in undecided],
        initial={f"raise_amount_{s.seat}": _cap_text(s) for s in undecided},
    )
    rows = [
        (spot, _raise_cap(spot), form[f"decision_{spot.seat}"], form[f"raise_amount_{spot.seat}"])
        for spot in undecided
    ]
    return {"decision_rows": rows, "decisions_form": form}


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


def wager_seatings(table: Table, hand: Hand | None) -> list[Seating]:
    """The seats that may still wager this hand: seated, not held, not the DP, no spot yet."""
    if hand is None:
        return []
    taken = set(hand.spots.values_list("seat", flat=True))
    return [
        s
        for s in table_selectors.seated(table).select_related("player").order_by("seat")
        if s.pk != hand.dp_seating_id and s.seat not in taken and s.exclusion_hold_id is None
    ]


def last_wagers(table: Table, seatings: list[Seating]) -> dict[Seating, dict[str, str]]:
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
