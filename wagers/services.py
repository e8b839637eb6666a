"""Writes for hands: start, wagers, cards, decisions, dead hands, settlement, corrections.

Every service is one transaction that locks, in this order, the table (only to start a hand),
the hand, the seatings whose stacks move (ascending id), and last the audit chain. A hand moves
``open → wagering → dealt → decisions → settled`` or becomes ``dead``, through
``hand_transition`` only. The game rules are the engine's: wagers are checked with its checks
and hands are settled by ``wagers.engine.settle``; nothing here re-implements them.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Case, F, Value, When
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from cardroom.kernel.errors import Conflict, DomainError
from cardroom.kernel.money import ZERO, cents, money, money_text
from cardroom.kernel.permissions import require_supervisor, require_table_staff
from rake.models import FeeEntry
from tables import rules as table_rules
from tables import selectors as table_selectors
from tables.models import Seating, StackEntry, Table
from tables.rotation import designated_player_rotate, no_designated_player
from tables.services import stack_bounds_check, stack_entry_add
from wagers.engine import Decision, Misdeal, RoundError, round_from_json, settle, settlement_to_json
from wagers.engine.cards import DECK, HAND_SIZE, hand_from_cards, hand_text, parse_hand
from wagers.engine.checks import check_ante, check_bonus, check_hand_size, check_raise
from wagers.engine.fees import dealer_fee, spot_fee
from wagers.engine.hands import flush_key
from wagers.engine.table import MAX_SPOTS

from . import selectors
from .models import Hand, Settlement, Spot, SpotSettlement, WagerSettlement

S = Hand.Status
TRANSITIONS: dict[str, set[str]] = {
    S.OPEN: {S.WAGERING, S.DEAD},
    S.WAGERING: {S.WAGERING, S.DEALT, S.DEAD},
    S.DEALT: {S.DECISIONS, S.SETTLED, S.DEAD},  # straight to settled when no live spot is left
    S.DECISIONS: {S.DECISIONS, S.SETTLED, S.DEAD},
}
WAGERS = ("ante", "raise", "flush_bonus", "straight_flush_bonus")


def hand_transition(hand: Hand, to: str) -> None:
    """The one place a hand's state changes; any move not in TRANSITIONS is refused."""
    if to not in TRANSITIONS.get(hand.status, set()):
        raise Conflict(
            f"Hand {hand.number} is {hand.status}: it cannot become {to}.", field="status"
        )
    hand.status = to


# --- start -----------------------------------------------------------------------------------


def hand_start(
    *,
    table: Table,
    by: Any,
    dp_bank: Any = None,
    refusals: tuple[int, ...] = (),
    draw_cards: Mapping[int, str] | None = None,
) -> Hand:
    """Start the next hand: the rotation names the DP (R16), who puts ``dp_bank`` in action —
    by default the whole stack, never more (R13). The hand keeps the settings version it
    starts under (R17). When nobody accepts the position the offers are still recorded."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table.pk)
        session = table_selectors.open_session(table)
        require_table_staff(by, session, action="start a hand")
        if session is None:
            raise Conflict(f"{table} is closed: no hand is dealt on a closed table.")
        if selectors.hands_in_progress(table=table).exists():
            raise Conflict(f"{table} has a hand in progress: settle it first.")
        record = None
        if table.banking == "designated_player":
            record = designated_player_rotate(
                table=table, by=by, refusals=refusals, draw_cards=draw_cards
            )
        elif refusals or draw_cards:
            raise DomainError("A house-banked table has no designated player.", field="refusals")
        if record is None or record.designated_player is not None:
            return _create_hand(table, session, record, dp_bank, by)
    # Nobody accepted: the offers were committed above; the game stops until one does (R16).
    raise no_designated_player(record)


def _create_hand(table: Table, session: Any, record: Any, dp_bank: Any, by: Any) -> Hand:
    settings = table_selectors.current_settings(table)
    last = Hand.objects.filter(table=table).order_by("-number").values_list("number", flat=True)
    hand = Hand(
        table=table,
        session=session,
        number=(last.first() or 0) + 1,
        settings=settings,
        rotation=record,
        started_by=by,
        started_at=timezone.now(),
    )
    if record is not None:
        dp = Seating.objects.select_for_update().get(pk=record.designated_player_id)
        bank = dp.stack if dp_bank is None else money(dp_bank, field="dp_bank")
        least = max(settings.dp_min_bank, _dp_fee(settings))
        if not least <= bank <= dp.stack:
            raise DomainError(
                f"The designated player's bank must be between ${money_text(least)} and the "
                f"stack ${money_text(dp.stack)} (R12, R13).",
                field="dp_bank",
            )
        hand.dp_seating, hand.dp_bank = dp, bank
    hand.save()
    if hand.dp_seating is not None and hand.dp_bank:
        stack_entry_add(
            seating=hand.dp_seating, amount=-hand.dp_bank, reason=StackEntry.Reason.DP_BANK, by=by
        )
    audit_record(
        actor=by,
        action=AuditAction.HAND_STARTED,
        target=hand,
        payload={
            "table": table.pk,
            "number": hand.number,
            "settings_version": settings.version,
            "dp_seat": hand.dp_seating.seat if hand.dp_seating else None,
            "dp_bank": hand.dp_bank,
        },
    )
    return hand


# --- wagers ----------------------------------------------------------------------------------


@transaction.atomic
def wager_place(
    *,
    hand: Hand,
    seating: Seating,
    ante: Any,
    flush_bonus: Any = ZERO,
    straight_flush_bonus: Any = ZERO,
    seat: int | None = None,
    by: Any,
) -> Spot:
    """A spot's ante and bonuses (R5), at the player's seat or, for a second spot (R6), at an
    empty one. Chips leave the table stack (only chips play), and the stack must still cover a
    1× raise and the fee for each of the player's spots (R7)."""
    hand = _locked_hand(hand, by, "take wagers")
    seating = Seating.objects.select_for_update().select_related("player").get(pk=seating.pk)
    hand_transition(hand, S.WAGERING)
    rules = _rules(hand)
    if seating.table_id != hand.table_id or seating.left_at is not None:
        raise DomainError(f"{seating.player} is not seated at {hand.table}.", field="seating")
    if seating.pk == hand.dp_seating_id:
        raise DomainError("The designated player places no wagers this hand (R16).", field="seat")
    seat = seating.seat if seat is None else seat
    _check_spot_seat(hand, seating, seat)
    amounts = {
        "ante": money(ante, field="ante"),
        "flush_bonus": money(flush_bonus or ZERO, field="flush_bonus"),
        "straight_flush_bonus": money(straight_flush_bonus or ZERO, field="straight_flush_bonus"),
    }
    others = list(hand.spots.filter(player=seating.player))
    if len(others) >= 2:
        raise DomainError(
            f"{seating.player} plays two spots already; a third is not allowed (R6).",
            field="seat",
        )
    with _engine_errors():
        for name in ("flush_bonus", "straight_flush_bonus"):
            check_bonus(rules, cents(amounts[name]), field=name, name=name.replace("_", " "))
        check_ante(rules, cents(amounts["ante"]), field="ante", two_spots=bool(others))
        for other in others:  # R6: the first spot's ante must also be double the minimum
            check_ante(rules, cents(other.ante), field="ante", two_spots=True)
    stakes = sum(amounts.values())
    fee = _spot_fee(hand)
    reserve = sum(spot.ante + fee for spot in others) + amounts["ante"] + fee
    if seating.stack < stakes + reserve:
        raise DomainError(
            f"{seating.player} has ${money_text(seating.stack)}; this spot needs "
            f"${money_text(stakes)} in wagers and ${money_text(reserve)} more on the table for "
            "a 1× raise and the fee on each spot (R7).",
            field="ante",
        )
    spot = Spot.objects.create(
        hand=hand, seat=seat, seating=seating, player=seating.player, **amounts
    )
    hand.save(update_fields=["status"])
    stack_entry_add(seating=seating, amount=-stakes, reason=StackEntry.Reason.WAGER, by=by)
    audit_record(
        actor=by,
        action=AuditAction.HAND_WAGER_PLACED,
        target=hand,
        payload={"seat": seat, "player": seating.player_id, **amounts},
    )
    return spot


def _check_spot_seat(hand: Hand, seating: Seating, seat: Any) -> None:
    table = hand.table
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
        raise DomainError(f"Seat must be a number from 1 to {table.seat_count}.", field="seat")
    if hand.spots.count() >= MAX_SPOTS:  # 7 cards each and the dealer's 7: 49 of 52 (R1)
        raise Conflict(
            f"Hand {hand.number} has {MAX_SPOTS} spots, the most a round can deal (R1).",
            field="seat",
        )
    if hand.dp_seating_id and seat == hand.dp_seating.seat:
        raise DomainError(f"Seat {seat} is the designated player's (R16).", field="seat")
    if hand.spots.filter(seat=seat).exists():
        raise Conflict(f"Seat {seat} has a spot in this hand already.", field="seat")
    sitter = Seating.objects.filter(table=table, seat=seat, left_at=None).first()
    if sitter is not None and sitter.pk != seating.pk:
        raise DomainError(
            f"Seat {seat} is {sitter.player}'s; a second spot goes on an empty seat (R6).",
            field="seat",
        )


# --- cards -----------------------------------------------------------------------------------


@transaction.atomic
def hand_deal(*, hand: Hand, by: Any) -> Hand:
    """The system deals from a deck shuffled with a CSPRNG (``secrets``), at this moment: no
    card exists anywhere before it is dealt."""
    hand = _locked_hand(hand, by, "deal")
    spots = _live_spots_for_cards(hand)
    deck = list(DECK)
    secrets.SystemRandom().shuffle(deck)
    hand.dealer_cards = hand_text(hand_from_cards(deck[:HAND_SIZE]))
    for index, spot in enumerate(spots, start=1):
        spot.cards = hand_text(hand_from_cards(deck[HAND_SIZE * index : HAND_SIZE * (index + 1)]))
    return _cards_dealt(hand, spots, Hand.CardSource.SYSTEM, by)


@transaction.atomic
def hand_cards_enter(
    *, hand: Hand, dealer_cards: str, spot_cards: Mapping[int, str], by: Any
) -> Hand:
    """The cards of a physical deal, as the dealer reads them (R1): 7 per hand, no card twice.
    A wrong count is not entered: declare the spot dead, or the round a misdeal (R14)."""
    hand = _locked_hand(hand, by, "enter cards")
    spots = _live_spots_for_cards(hand)
    seats = {spot.seat for spot in spots}
    for seat in spot_cards:
        if seat not in seats:
            raise DomainError(f"Seat {seat} has no live spot in this hand.", field=f"cards.{seat}")
    dealt = 0
    entries = [("dealer_cards", dealer_cards, None)] + [
        (f"cards.{spot.seat}", spot_cards.get(spot.seat), spot) for spot in spots
    ]
    for field, text, spot in entries:
        if not text:
            raise DomainError("Enter this hand's 7 cards.", field=field)
        with _engine_errors(field):
            cards = parse_hand(text, field=field)
            check_hand_size(cards, field=field)
        if dealt & cards:
            raise DomainError(
                f"{hand_text(dealt & cards)} is in another hand already: a card is dealt once "
                "(R1).",
                field=field,
            )
        dealt |= cards
        if spot is None:
            hand.dealer_cards = hand_text(cards)
        else:
            spot.cards = hand_text(cards)
    return _cards_dealt(hand, spots, Hand.CardSource.ENTERED, by)


def _live_spots_for_cards(hand: Hand) -> list[Spot]:
    if hand.status != S.WAGERING:
        raise Conflict(
            f"Hand {hand.number} is {hand.status}: cards are dealt once, after the wagers.",
            field="status",
        )
    return list(hand.spots.filter(dead_reason="").order_by("seat"))


def _cards_dealt(hand: Hand, spots: list[Spot], source: str, by: Any) -> Hand:
    hand_transition(hand, S.DEALT)
    hand.card_source = source
    hand.save(update_fields=["status", "card_source", "dealer_cards"])
    Spot.objects.bulk_update(spots, ["cards"])
    audit_record(
        actor=by,
        action=AuditAction.HAND_DEALT,
        target=hand,
        payload={
            "source": source,
            "dealer": hand.dealer_cards,
            "spots": {str(spot.seat): spot.cards for spot in spots},
        },
    )
    return hand


# --- decisions and dead hands ----------------------------------------------------------------


@transaction.atomic
def spot_decide(*, hand: Hand, seat: int, decision: str, raise_amount: Any = None, by: Any) -> Spot:
    """Raise (R8: from the ante up to the multiple the spot's flush allows, within the stack)
    or fold; ``walked_away`` is a fold. A decision is final."""
    hand = _locked_hand(hand, by, "record a decision")
    spot = _spot(hand, seat)
    seating = Seating.objects.select_for_update().get(pk=spot.seating_id)
    hand_transition(hand, S.DECISIONS)
    if spot.dead_reason:
        raise Conflict(f"Seat {seat}'s spot is dead: it takes no decision (R14).", field="seat")
    if spot.decision:
        raise Conflict(f"Seat {seat} has decided already ({spot.decision}).", field="decision")
    if decision not in {d.value for d in Decision}:
        raise DomainError("The decision is raise, fold or walked_away (R8).", field="decision")
    amount = ZERO
    if decision == Decision.RAISE:
        amount = money(raise_amount, field="raise_amount")
        size = flush_key(parse_hand(spot.cards, field="cards")) >> 13
        with _engine_errors("raise_amount"):
            check_raise(_rules(hand), cents(spot.ante), cents(amount), size, field="raise_amount")
        fees = _spot_fee(hand) * hand.spots.filter(seating=seating, dead_reason="").count()
        if amount + fees > seating.stack:
            raise DomainError(
                f"The raise ${money_text(amount)} is more than the stack "
                f"${money_text(seating.stack)} can cover with the fee still due (R7).",
                field="raise_amount",
            )
    elif raise_amount:
        raise DomainError("Only a raise has an amount (R8).", field="raise_amount")
    spot.decision, spot.raise_amount = decision, amount
    spot.save(update_fields=["decision", "raise_amount"])
    hand.save(update_fields=["status"])
    if amount:
        stack_entry_add(seating=seating, amount=-amount, reason=StackEntry.Reason.WAGER, by=by)
    audit_record(
        actor=by,
        action=AuditAction.HAND_DECISION,
        target=hand,
        payload={"seat": seat, "decision": decision, "raise": amount},
    )
    return spot


@transaction.atomic
def spot_declare_dead(*, hand: Hand, seat: int, by: Any) -> Spot:
    """R14: the spot was dealt a wrong number of cards; declared before it acts."""
    hand = _locked_hand(hand, by, "declare a dead spot")
    spot = _spot(hand, seat)
    if hand.status not in Hand.IN_PROGRESS:
        raise Conflict(f"Hand {hand.number} is {hand.status}.", field="status")
    if spot.decision or spot.dead_reason:
        raise Conflict(
            f"Seat {seat} has acted already: a wrong count is declared before the spot acts (R14).",
            field="seat",
        )
    spot.dead_reason, spot.cards = "wrong_card_count", ""
    spot.save(update_fields=["dead_reason", "cards"])
    audit_record(
        actor=by,
        action=AuditAction.HAND_SPOT_DEAD,
        target=hand,
        payload={"seat": seat, "reason": "wrong_card_count"},
    )
    return spot


@transaction.atomic
def hand_cancel(*, hand: Hand, by: Any) -> Hand:
    """A hand nobody wagered on ends without a deal: the DP's bank goes back."""
    hand = _locked_hand(hand, by, "cancel a hand")
    if hand.spots.exists():
        raise Conflict(
            f"Hand {hand.number} has wagers: settle it, or declare a misdeal (R14).",
            field="status",
        )
    hand_transition(hand, S.DEAD)
    hand.settled_at = timezone.now()
    hand.save(update_fields=["status", "settled_at"])
    if hand.dp_seating_id and hand.dp_bank:
        _move_stacks({hand.dp_seating_id: hand.dp_bank}, StackEntry.Reason.DP_BANK, by)
    audit_record(
        actor=by, action=AuditAction.HAND_CANCELLED, target=hand, payload={"number": hand.number}
    )
    return hand


def hand_declare_misdeal(*, hand: Hand, reason: str, by: Any) -> Settlement:
    """R14: a wrong card count to the dealer, or a shuffler fault: every hand of the round is
    dead, every wager and the DP's bank go back, nobody pays a fee. Settled at once."""
    if reason not in {m.value for m in Misdeal}:
        raise DomainError("A misdeal is dealer_card_count or shuffler_fault (R14).", field="reason")
    return _settle(hand, by, misdeal=reason)


# --- settlement ------------------------------------------------------------------------------


def hand_settle(*, hand: Hand, by: Any) -> Settlement:
    """Settle through the engine (R9–R15) and book it: the settlement, the chips, the fees.
    Idempotent: settling a settled hand returns the settlement in force and moves nothing."""
    return _settle(hand, by, misdeal=None)


@transaction.atomic
def _settle(hand: Hand, by: Any, *, misdeal: str | None) -> Settlement:
    hand = _locked_hand(hand, by, "settle a hand", settled_ok=True)
    if hand.status in (S.SETTLED, S.DEAD):
        if misdeal:
            raise Conflict(f"Hand {hand.number} is {hand.status} already.", field="status")
        return selectors.settlement_in_force(hand)
    spots = list(hand.spots.select_related("seating").order_by("seat"))
    if misdeal:
        hand_transition(hand, S.DEAD)
        hand.misdeal = misdeal
    else:
        if hand.status not in (S.DEALT, S.DECISIONS):
            raise Conflict(
                f"Hand {hand.number} cannot settle yet: the cards are not dealt.", field="status"
            )
        undecided = [str(s.seat) for s in spots if not s.dead_reason and not s.decision]
        if undecided:
            raise Conflict(
                f"Hand {hand.number} cannot settle yet: waiting for the decision of seat "
                f"{', '.join(undecided)}.",
                field="status",
            )
        hand_transition(hand, S.SETTLED)
    round_ = selectors.round_of(hand, spots)
    with _engine_errors():
        result = settlement_to_json(settle(round_from_json(round_)))
    hand.settled_at = timezone.now()
    hand.save(update_fields=["status", "misdeal", "settled_at"])
    settlement, moves = _book(hand, spots, round_, result, Settlement.Kind.ORIGINAL, by)
    _move_stacks(moves, StackEntry.Reason.PAYOUT, by)
    audit_record(
        actor=by,
        action=AuditAction.HAND_MISDEAL if misdeal else "hand.settled",
        target=hand,
        payload={
            "settlement": settlement.entry,
            "house_rake": result["house_rake"],
            "dealer_net": result["dealer"]["net"],
            "spots": {str(s["seat"]): s["net"] for s in result["spots"]},
        },
    )
    return settlement


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    by: Any,
    reason: str,
    dealer_cards: str | None = None,
    spot_cards: Mapping[int, str] | None = None,
) -> Settlement:
    """A floor supervisor corrects a settled hand (wrong cards entered, say): the settlement
    in force stays, a reversal entry undoes its money and a correction entry books the new
    settlement, computed by the engine from the corrected round."""
    require_supervisor(by, action="correct a settled hand")
    if not reason or not reason.strip():
        raise DomainError("Say why the hand is corrected.", field="reason")
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    if hand.status != S.SETTLED:
        raise Conflict(f"Hand {hand.number} is {hand.status}: only a settled hand is corrected.")
    in_force = selectors.settlement_in_force(hand)
    corrected = _corrected_round(in_force.round, dealer_cards, spot_cards or {})
    try:
        result = settlement_to_json(settle(round_from_json(corrected)))
    except RoundError as error:  # named as the correction's own input, not the round's path
        raise DomainError(error.message, field=_correction_field(corrected, error.field)) from None
    if result == in_force.result:
        raise DomainError("The correction changes no result.", field="cards")
    spots = list(hand.spots.select_related("seating").order_by("seat"))
    reason = reason.strip()
    reversal, undone = _book(
        hand,
        spots,
        in_force.round,
        in_force.result,
        Settlement.Kind.REVERSAL,
        by,
        reverses=in_force,
        reason=reason,
    )
    correction, redone = _book(
        hand, spots, corrected, result, Settlement.Kind.CORRECTION, by, reason=reason
    )
    # One movement per stack, the difference: a stack is judged on where it ends up.
    _move_stacks(
        {pk: undone.get(pk, ZERO) + redone.get(pk, ZERO) for pk in undone.keys() | redone.keys()},
        StackEntry.Reason.CORRECTION,
        by,
    )
    audit_record(
        actor=by,
        action=AuditAction.HAND_CORRECTED,
        target=hand,
        payload={
            "reason": reason,
            "reversal": reversal.entry,
            "correction": correction.entry,
            "spots": {str(s["seat"]): s["net"] for s in result["spots"]},
        },
    )
    return correction


def _correction_field(round_: dict, path: str) -> str:
    """``dealer.cards`` → ``dealer_cards``, ``spots[1].cards`` → ``cards.<its seat>``: the
    fields ``hand_cards_enter`` names, so that a refused correction points at what was given."""
    if path == "dealer.cards":
        return "dealer_cards"
    if path.startswith("spots[") and path.endswith("].cards"):
        return f"cards.{round_['spots'][int(path[6:-7])]['seat']}"
    return path


def _corrected_round(
    original: dict, dealer_cards: str | None, spot_cards: Mapping[int, str]
) -> dict:
    round_ = {
        **original,
        "dealer": dict(original["dealer"]),
        "spots": [dict(s) for s in original["spots"]],
    }
    if dealer_cards is not None:
        round_["dealer"]["cards"] = dealer_cards
    seats = {spot["seat"]: spot for spot in round_["spots"]}
    for seat, cards in spot_cards.items():
        if seat not in seats or "cards" not in seats[seat]:
            raise DomainError(f"Seat {seat} had no cards in this hand.", field=f"cards.{seat}")
        seats[seat]["cards"] = cards
    return round_


def _book(
    hand: Hand,
    spots: list[Spot],
    round_: dict,
    result: dict,
    kind: str,
    by: Any,
    *,
    reverses: Settlement | None = None,
    reason: str = "",
) -> tuple[Settlement, dict[int, Decimal]]:
    """Store one settlement entry and its fees, in a fixed number of queries whatever the
    number of spots, and return the chips it moves onto each stack (by seating id). R15 is
    checked on that money before anything is saved. A reversal (sign -1) moves exactly the
    opposite of the entry it reverses."""
    sign = -1 if kind == Settlement.Kind.REVERSAL else 1
    by_seat = {spot.seat: spot for spot in spots}
    dealer = result["dealer"]
    now = timezone.now()
    moves: dict[int, Decimal] = {}  # seating id -> chips onto its stack
    lines = []
    for line in result["spots"]:
        spot = by_seat[line["seat"]]
        staked = spot.ante + spot.flush_bonus + spot.straight_flush_bonus + spot.raise_amount
        paid_back = staked + Decimal(line["net"])
        moves[spot.seating_id] = moves.get(spot.seating_id, ZERO) + sign * paid_back
        lines.append((spot, line, paid_back))
    dp_paid_back = ZERO
    if hand.dp_seating_id is not None:
        dp_paid_back = hand.dp_bank + Decimal(dealer["net"])
        moves[hand.dp_seating_id] = moves.get(hand.dp_seating_id, ZERO) + sign * dp_paid_back
    house_rake = Decimal(result["house_rake"])
    house_net = Decimal(dealer["net"]) if hand.dp_seating_id is None else ZERO
    staked_in = sum(s.ante + s.flush_bonus + s.straight_flush_bonus + s.raise_amount for s in spots)
    staked_in += hand.dp_bank or ZERO
    # R15 on the books: what comes back to stacks, to the house drop and the house's own
    # result is exactly what was staked; books that do not balance are never saved.
    if sum(moves.values()) + sign * (house_rake + house_net) != sign * staked_in:
        raise AssertionError(f"R15: hand {hand.pk} does not balance; nothing was saved")

    entry = (hand.settlements.order_by("-entry").values_list("entry", flat=True).first() or 0) + 1
    settlement = Settlement.objects.create(
        hand=hand,
        entry=entry,
        kind=kind,
        reverses=reverses,
        round=round_,
        result=result,
        house_rake=sign * house_rake,
        dealer_net=sign * Decimal(dealer["net"]),
        reason=reason,
        created_by=by,
        created_at=now,
    )
    spot_rows = SpotSettlement.objects.bulk_create(
        SpotSettlement(
            settlement=settlement,
            spot=spot,
            seat=spot.seat,
            status=line["status"],
            dead_reason=line["dead_reason"] or "",
            rake=sign * Decimal(line["rake"]),
            net=sign * Decimal(line["net"]),
            paid_back=sign * paid_back,
        )
        for spot, line, paid_back in lines
    )
    WagerSettlement.objects.bulk_create(
        WagerSettlement(
            spot_settlement=row,
            wager=wager,
            stake=_stake(spot, wager),
            outcome=line[wager]["outcome"],
            net=sign * Decimal(line[wager]["net"]),
        )
        for row, (spot, line, _) in zip(spot_rows, lines, strict=True)
        for wager in WAGERS
        if line[wager] is not None
    )
    _book_fees(hand, settlement, result, sign, now)
    return settlement, moves


def _move_stacks(moves: dict[int, Decimal], reason: str, by: Any) -> None:
    """All stacks of a settlement in one locked read, one UPDATE and one INSERT."""
    moves = {pk: amount for pk, amount in moves.items() if amount}
    if not moves:
        return
    locked = {
        s.pk: s for s in Seating.objects.select_for_update().filter(pk__in=moves).order_by("pk")
    }
    stack_bounds_check(
        ((seating, moves[pk]) for pk, seating in locked.items()),
        field="stack",
        remedy="Settle the difference at the cage first.",
    )
    Seating.objects.filter(pk__in=moves).update(
        stack=Case(*(When(pk=pk, then=F("stack") + Value(a)) for pk, a in moves.items()))
    )
    now = timezone.now()
    StackEntry.objects.bulk_create(
        StackEntry(seating_id=pk, amount=amount, reason=reason, actor=by, created_at=now)
        for pk, amount in moves.items()
    )


def _book_fees(hand: Hand, settlement: Settlement, result: dict, sign: int, now: Any) -> None:
    """R12: every fee to the table's fee ledger, on the gaming day the money moved (a
    correction's fees fall on the day of the correction, as its settlement entry does)."""
    day = table_selectors.gaming_day(hand.table.cardroom, now)
    mode = hand.settings.rake_mode
    fees = [
        FeeEntry(
            table_id=hand.table_id,
            gaming_day=day,
            hand=hand,
            settlement=settlement,
            rake_mode=mode,
            payer=FeeEntry.Payer.SPOT,
            seat=line["seat"],
            amount=sign * Decimal(line["rake"]),
            created_at=now,
        )
        for line in result["spots"]
        if Decimal(line["rake"])
    ]
    if Decimal(result["dealer"]["rake"]):
        fees.append(
            FeeEntry(
                table_id=hand.table_id,
                gaming_day=day,
                hand=hand,
                settlement=settlement,
                rake_mode=mode,
                payer=FeeEntry.Payer.DESIGNATED_PLAYER,
                seat=hand.dp_seating.seat,
                amount=sign * Decimal(result["dealer"]["rake"]),
                created_at=now,
            )
        )
    FeeEntry.objects.bulk_create(fees)


# --- helpers ---------------------------------------------------------------------------------


def _locked_hand(hand: Hand, by: Any, action: str, *, settled_ok: bool = False) -> Hand:
    hand = (
        Hand.objects.select_for_update(of=("self",))
        .select_related("table__cardroom", "settings", "session", "dp_seating")
        .get(pk=hand.pk)
    )
    require_table_staff(by, table_selectors.open_session(hand.table), action=action)
    if not settled_ok and hand.status not in Hand.IN_PROGRESS:
        raise Conflict(f"Hand {hand.number} is {hand.status}.", field="status")
    return hand


def _spot(hand: Hand, seat: Any) -> Spot:
    spot = hand.spots.filter(seat=seat).first()
    if spot is None:
        raise DomainError(f"Seat {seat} has no spot in hand {hand.number}.", field="seat")
    return spot


def _rules(hand: Hand):
    return table_rules.table_rules(hand.table, hand.settings)


def _spot_fee(hand: Hand) -> Decimal:
    return spot_fee(hand.settings.rake_mode, hand.settings.rake_amount)


def _dp_fee(settings: Any) -> Decimal:
    return dealer_fee(settings.rake_mode, settings.rake_amount)


def _stake(spot: Spot, wager: str) -> Decimal:
    return spot.raise_amount if wager == "raise" else getattr(spot, wager)


@contextmanager
def _engine_errors(field: str | None = None) -> Iterator[None]:
    """The engine's RoundError as a DomainError naming the service's own field."""
    try:
        yield
    except RoundError as error:
        raise DomainError(error.message, field=field or error.field) from None
