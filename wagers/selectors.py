"""Reads for hands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Q, QuerySet

from audit.actions import AuditAction
from audit.models import AuditEvent
from core.money import money_text
from core.prepared import PreparedRead
from tables.models import Seating, Table
from tables.rules import as_json, settings_values
from tables.selectors import Viewer

from .models import Hand, Settlement, Spot


def spots_of(hand: Hand, *, with_seatings: bool = False) -> list[Spot]:
    """The hand's spots by seat, each with ``hand`` as its hand (as ``hand.spots`` gives
    them); with their seatings if asked. Every step of a hand reads them: compiled once."""
    read = _SPOTS_WITH_SEATINGS if with_seatings else _SPOTS
    spots = read.all(hand.pk)
    for spot in spots:
        spot.hand = hand
    return spots


def spots_kept(hand: Hand, spots: Iterable[Spot]) -> None:
    """A step's service keeps on its hand every spot of it, as it saved them: the step's
    answer is then made from them (``spots_now``) instead of reading them again."""
    hand.kept_spots = sorted(spots, key=lambda spot: spot.seat)  # type: ignore[attr-defined]


def spots_now(hand: Hand) -> list[Spot]:
    """The hand's spots by seat as its step's service left them (``spots_kept``), else read."""
    kept = getattr(hand, "kept_spots", None)
    return list(kept) if kept is not None else spots_of(hand)


_SPOTS = PreparedRead(lambda key: Spot.objects.filter(hand_id=key).order_by("seat"))
_SPOTS_WITH_SEATINGS = PreparedRead(
    lambda key: Spot.objects.filter(hand_id=key).select_related("seating").order_by("seat")
)


def hands_in_progress(*, table: Table, seating: Seating | None = None) -> QuerySet[Hand]:
    """Hands at the table not yet settled or dead; with ``seating``, only those it plays in
    (a spot, or the designated player's bank)."""
    hands = Hand.objects.filter(table=table, status__in=Hand.IN_PROGRESS)
    if seating is not None:
        hands = hands.filter(Q(spots__seating=seating) | Q(dp_seating=seating)).distinct()
    return hands


def settlement_in_force(hand: Hand) -> Settlement | None:
    """The settlement entry that stands: the latest original or correction (never a reversal)."""
    return (
        Settlement.objects.filter(hand=hand)
        .exclude(kind=Settlement.Kind.REVERSAL)
        .order_by("-entry")
        .first()
    )


def settlement_history(hand: Hand) -> QuerySet[Settlement]:
    return Settlement.objects.filter(hand=hand).order_by("entry")


def round_of(hand: Hand, spots: list[Spot] | None = None) -> dict[str, Any]:
    """The hand as a round in the settle-json format: what the engine settles, and what anyone
    can give ``manage.py settle_round`` to check a stored settlement."""
    settings = hand.settings
    table = {
        "banking": hand.table.banking,
        "seats": hand.table.seat_count,
        **as_json(settings_values(settings)),
    }
    for name in ("dp_min_bank", "dp_max_consecutive", "draw_suit_order", "dp_rotation_window"):
        del table[name]  # R16's settings do not change a settlement
    dealer: dict[str, Any] = {}
    if hand.dealer_cards:
        dealer["cards"] = hand.dealer_cards
    if hand.dp_seating is not None and hand.dp_bank is not None:
        dealer |= {"seat": hand.dp_seating.seat, "bank": money_text(hand.dp_bank)}
    return {
        "table": table,
        "dealer": dealer,
        "spots": [_spot_json(spot) for spot in spots or hand.spots.order_by("seat")],
        "misdeal": hand.misdeal or None,
    }


def _spot_json(spot: Spot) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": spot.seat, "player": str(spot.player_id)}
    out["ante"] = money_text(spot.ante)
    for bonus in ("flush_bonus", "straight_flush_bonus"):
        if getattr(spot, bonus):
            out[bonus] = money_text(getattr(spot, bonus))
    if spot.dead_reason:
        out["dead"] = spot.dead_reason
    if spot.cards:
        out["cards"] = spot.cards
    if spot.decision:
        out["decision"] = spot.decision
        if spot.raise_amount:
            out["raise"] = money_text(spot.raise_amount)
    return out


#: What the audit log shows of a hand's cards while the hand is in play, to a reader who may
#: not see them. Only the text shown: the event and its hash are unchanged,
#: and once the hand is settled its payload is shown, and checked, as recorded.
CARDS_HIDDEN = '{"cards":"hidden until the hand is settled"}'


def hide_live_cards(events: Iterable[AuditEvent], viewer: Viewer) -> list[AuditEvent]:
    """The events, in memory, with the payload of each ``hand.dealt`` event (it names every
    card) replaced while its hand is in play, unless the viewer sees that table's live cards."""
    events = list(events)
    dealt = {
        int(event.object_id)
        for event in events
        if event.action == AuditAction.HAND_DEALT and event.object_id.isascii()
        and event.object_id.isdigit()
    }  # fmt: skip
    if not dealt:
        return events
    live = dict(
        Hand.objects.filter(pk__in=dealt, status__in=Hand.IN_PROGRESS).values_list("pk", "table_id")
    )
    for event in events:
        hand = int(event.object_id) if event.object_id.isdigit() else None
        hidden = hand in live and not viewer.sees_live_cards(live[hand])
        if event.action == AuditAction.HAND_DEALT and hidden:
            event.payload = CARDS_HIDDEN
    return events
