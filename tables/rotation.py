"""R16: who holds the designated-player position for the next hand, and the record of it.

The first hand of a table session goes by a high-card draw among the seats that accept; every
later hand offers the position clockwise from the seat to the current DP's left, ending with
the current DP. Every offer, waiver, refusal and ineligibility is recorded, also when nobody
accepts and no hand can start.
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Mapping
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import dollars_text
from core.permissions import require_supervisor
from core.transactions import change_atomic
from engine.cards import DECK, card_name, parse_card
from engine.errors import RoundError
from engine.fees import RakeMode, dealer_fee
from engine.table import Banking

from . import selectors
from .models import GameStop, RotationRecord, Seating, Table, TableSession, TableSettings
from .services.locks import table_lock_open

ACCEPTED, REFUSED, WAIVED, INELIGIBLE = "accepted", "refused", "waived", "ineligible"


def designated_player_rotate(
    *,
    table: Table,
    by: User,
    refusals: Collection[int] = (),
    draw_cards: Mapping[int, str] | None = None,
    locked: tuple[Table, TableSession, TableSettings] | None = None,
) -> RotationRecord:
    """Offer the position for the next hand (R16) and record the outcome.

    ``refusals`` are the seats that turn the position down for this hand only (a standing
    waiver is the seating's ``dp_waiver``). ``draw_cards`` are the cards the dealer dealt for
    a high-card draw, by seat; without them the system draws with a CSPRNG. The record's
    ``designated_player`` is empty when nobody accepted: the caller must not start a hand.
    A hand's start passes what it has ``locked`` already (the table, its open session, the
    settings it starts under) instead of having them read again. The seatings are locked
    (after the table, in the lock order): the DP's bank comes off the winner's stack next.
    """
    with change_atomic():
        table, session, settings = locked or _locked_table(table, by)
        if table.banking == Banking.HOUSE:
            raise DomainError(
                "A house-banked table has no designated player and no rotation (R16).",
                field="table",
            )
        seatings = _locked_seatings(table)
        refused = _refused(seatings, refusals)
        method, offers, winner, draw, streak_before = _offers_made(
            table, session, seatings, settings, refused, draw_cards
        )
        now = timezone.now()
        for offer in offers:  # each answer and its moment, for surveillance to match
            offer["answered_at"] = now.isoformat()
        record = RotationRecord.objects.create(
            table=table,
            session=session,
            created_at=now,
            method=method,
            offers=offers,
            draw=draw,
            designated_player=winner,
            player=winner.player if winner else None,
            proposition_player=winner.proposition_player if winner else False,
            consecutive=streak_before + 1 if winner else 0,
        )
        audit_record(
            actor=by,
            action=AuditAction.ROTATION_OFFERED,
            target=record,
            payload={
                "table": table.pk,
                "method": method,
                "offers": offers,
                "draw": draw,
                "designated_player_seat": winner.seat if winner else None,
            },
        )
        return record


def _locked_table(table: Table, by: User) -> tuple[Table, TableSession, TableSettings]:
    table, session = table_lock_open(table, by=by, action="offer the designated-player position")
    return table, session, selectors.current_settings(table)


def _locked_seatings(table: Table) -> list[Seating]:
    """The table's seatings, locked by ascending id (as everywhere, after the table's lock),
    in seat order for the offers."""
    locking = Seating.objects.filter(table=table, left_at=None).select_related("player")
    return sorted(locking.select_for_update(of=("self",)).order_by("pk"), key=lambda s: s.seat)


def _refused(seatings: list[Seating], refusals: Collection[int]) -> set[int]:
    """The seats that refuse for this hand; each must be taken."""
    refused = set(refusals)
    for seat in refused - {seating.seat for seating in seatings}:
        raise DomainError(f"Nobody sits at seat {seat} to refuse.", field="refusals")
    return refused


def _offers_made(
    table: Table,
    session: TableSession,
    seatings: list[Seating],
    settings: TableSettings,
    refused: set[int],
    draw_cards: Mapping[int, str] | None,
) -> tuple[str, list[dict[str, Any]], Seating | None, dict[str, str] | None, int]:
    """The first hand of a session goes by a draw; every later one, clockwise from the current
    DP (R16). Returns the method, the offers, who accepted, the draw, and the accepting DP's
    streak of hands before this one."""
    previous = (
        RotationRecord.objects.filter(session=session, designated_player__isnull=False)
        .select_related("designated_player")
        .order_by("-created_at", "-id")
        .first()
    )
    if previous is None or previous.designated_player is None:
        offers, winner, draw = _draw(seatings, settings, refused, draw_cards)
        return RotationRecord.Method.DRAW, offers, winner, draw, 0
    if draw_cards:
        raise DomainError(
            "Only the first hand of a session has a high-card draw (R16).",
            field="draw_cards",
        )
    offers, winner = _offer_clockwise(
        table, seatings, settings, refused, previous.designated_player, previous
    )
    same_dp = winner is not None and winner.pk == previous.designated_player_id
    streak_before = previous.consecutive if same_dp else 0
    return RotationRecord.Method.ROTATION, offers, winner, None, streak_before


def no_designated_player(record: RotationRecord) -> Conflict:
    """The error that stops the game when nobody accepts, naming every seat's answer (R16)."""
    told = "; ".join(
        f"seat {o['seat']} {o['outcome']}" + (f" ({o['reason']})" if o.get("reason") else "")
        for o in record.offers
    )
    return Conflict(
        "No seat accepts the designated-player position, so no hand can start until one does "
        f"(R16). {told or 'Nobody is seated.'}",
        field="designated_player",
    )


def _draw(
    seatings: list[Seating],
    settings: TableSettings,
    refused: set[int],
    entered: Mapping[int, str] | None,
) -> tuple[list[dict], Seating | None, dict[str, str] | None]:
    """The high-card draw: highest rank wins, equal ranks by the table's suit order."""
    offers = [_answer(seating, settings, refused, streak=0) for seating in seatings]
    drawing = [s for s, offer in zip(seatings, offers, strict=True) if offer["outcome"] == ACCEPTED]
    if not drawing:
        return offers, None, None
    cards = _draw_cards(drawing, entered)
    suit_order = settings.draw_suit_order
    winner = max(
        drawing,
        key=lambda s: (cards[s.seat] % 13, suit_order.index(card_name(cards[s.seat])[1])),
    )
    for offer in offers:
        if offer["seat"] in cards:
            offer["card"] = card_name(cards[offer["seat"]])
    return offers, winner, {str(seat): card_name(card) for seat, card in sorted(cards.items())}


def _draw_cards(drawing: list[Seating], entered: Mapping[int, str] | None) -> dict[int, int]:
    seats = {seating.seat for seating in drawing}
    if entered is None:
        # R16's draw by the system: a CSPRNG, one card to each seat in the draw.
        dealt = secrets.SystemRandom().sample(DECK, len(drawing))
        return dict(zip(sorted(seats), dealt, strict=True))
    cards: dict[int, int] = {}
    for seat, text in entered.items():
        field = f"draw_cards.{seat}"
        if seat not in seats:
            raise DomainError(f"Seat {seat} is not in the draw.", field=field)
        try:
            card = parse_card(str(text), field=field)
        except RoundError as error:
            raise DomainError(error.message, field=field) from None
        if card in cards.values():
            raise DomainError(f"{card_name(card)} was dealt to two seats.", field=field)
        cards[seat] = card
    for seat in sorted(seats - cards.keys()):
        raise DomainError(f"Enter the card dealt to seat {seat}.", field=f"draw_cards.{seat}")
    return cards


def _offer_clockwise(
    table: Table,
    seatings: list[Seating],
    settings: TableSettings,
    refused: set[int],
    current: Seating,
    previous: RotationRecord,
) -> tuple[list[dict[str, Any]], Seating | None]:
    """From the seat left of the current DP, clockwise (ascending seats, wrapping), ending with
    the current DP; the first eligible seat that accepts takes the position."""
    ordered = sorted(seatings, key=lambda s: (s.seat - current.seat - 1) % table.seat_count)
    offers = []
    for seating in ordered:
        streak = previous.consecutive if seating.pk == current.pk else 0
        offer = _answer(seating, settings, refused, streak)
        offers.append(offer)
        if offer["outcome"] == ACCEPTED:
            return offers, seating
    return offers, None


def _answer(seating: Seating, settings: TableSettings, refused: set[int], streak: int) -> dict:
    """One seat's answer to the offer: ineligible (and why), waived, refused or accepted."""
    offer: dict[str, Any] = {
        "seat": seating.seat,
        "player": seating.player_id,
        "name": seating.player.name,
    }
    if seating.exclusion_hold_id is not None:
        reason = "call a floor supervisor"  # held (tables.holds): the reason stays off the record
    elif seating.sitting_out:
        reason = "sitting out"
    elif seating.stack < settings.dp_min_bank:
        reason = (
            f"stack {dollars_text(seating.stack)} is below the minimum bank "
            f"{dollars_text(settings.dp_min_bank)}"
        )
    elif seating.stack < (fee := dealer_fee(RakeMode(settings.rake_mode), settings.rake_amount)):
        # R12: the DP's fee is taken before the deal; a hand cannot start with a DP who
        # cannot pay it (the hand's start would refuse the bank and undo this record).
        reason = (
            f"stack {dollars_text(seating.stack)} cannot pay the designated player's fee "
            f"{dollars_text(fee)}"
        )
    elif streak >= settings.dp_max_consecutive:
        hands = "hand" if streak == 1 else "hands"
        reason = f"designated player {streak} {hands} in a row, the most allowed"
    elif seating.proposition_player and streak >= 1:
        reason = "a proposition player never holds the position two hands in a row (R16)"
    else:
        reason = None
    if reason is not None:
        offer |= {"outcome": INELIGIBLE, "reason": reason}
    elif seating.dp_waiver:
        offer["outcome"] = WAIVED
    elif seating.seat in refused:
        offer["outcome"] = REFUSED
    else:
        offer["outcome"] = ACCEPTED
    return offer


# --- R16 (2026): a failed rotation window ends the game ------------------------------------


def rotation_window_check(
    table: Table, session: TableSession, settings: TableSettings, by: User
) -> GameStop | None:
    """As a hand starts (the caller holds the table's lock): the window of
    ``dp_rotation_window`` minutes of the settings the hand starts under, ending now. If
    play has lasted that long since the session opened (or the game last restarted), and
    fewer than two players other than a proposition player held the position in the
    window's hands, the game stops: the record, and its audit event. None otherwise."""
    now = timezone.now()
    width = timedelta(minutes=settings.dp_rotation_window)
    start = now - width
    if start < selectors.play_started(table, session):
        return None
    held = list(
        RotationRecord.objects.filter(
            session=session,
            designated_player__isnull=False,
            created_at__gte=start,
            created_at__lt=now,
        ).select_related("player")
    )
    counted = {record.player_id for record in held if not record.proposition_player}
    if not held or len(counted) >= 2:
        return None
    stop = GameStop.objects.create(
        table=table,
        session=session,
        stopped_at=now,
        window_start=start,
        window_end=now,
        settings_version=settings.version,
        window_minutes=settings.dp_rotation_window,
        holders=sorted({record.player.name for record in held if record.player}),
        hands=len(held),
    )
    audit_record(
        actor=by,
        action=AuditAction.GAME_STOPPED,
        target=stop,
        payload={
            "table": table.pk,
            "window_start": start,
            "window_end": now,
            "settings_version": settings.version,
            "holders": stop.holders,
            "hands": stop.hands,
        },
    )
    return stop


def game_stopped(stop: GameStop) -> Conflict:
    """The refusal of every hand at a stopped table, naming the stop (R16)."""
    holders = ", ".join(stop.holders) or "nobody"
    return Conflict(
        f"The game at {stop.table} is stopped (R16): in the {stop.window_minutes} minutes "
        f"from {_clock(stop.table, stop.window_start)} to {_clock(stop.table, stop.window_end)} "
        f"only {holders} held the designated-player position. A floor supervisor must "
        "acknowledge the stop and restart the game before the next hand.",
        field="game_stop",
    )


def _clock(table: Table, at: datetime) -> str:
    return f"{at.astimezone(ZoneInfo(table.cardroom.time_zone)):%H:%M}"


def game_restart(*, table: Table, note: str, by: User) -> GameStop:
    """A floor supervisor acknowledges a stopped game and restarts it (audited); the next
    rotation window is judged from the restart."""
    require_supervisor(by, action="restart a stopped game")
    with transaction.atomic():
        table, _ = table_lock_open(table, by=by, action="restart a stopped game")
        stop = selectors.game_stop_open(table)
        if stop is None:
            raise Conflict(f"The game at {table} is not stopped.", field="game_stop")
        if not note or not note.strip():
            raise DomainError(
                "Say what was done about the rotation before the game restarts.", field="note"
            )
        stop.restarted_by, stop.restarted_at, stop.note = by, timezone.now(), note.strip()
        stop.save(update_fields=["restarted_by", "restarted_at", "note"])
        audit_record(
            actor=by,
            action=AuditAction.GAME_RESTARTED,
            target=stop,
            payload={"table": table.pk, "note": stop.note},
        )
        return stop
