"""Correcting a settled hand (a floor supervisor's, R17): the entry in force stays, a reversal
undoes its money and a correction books the engine's settlement of the corrected round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from cardroom.kernel.errors import Conflict, DomainError
from cardroom.kernel.money import ZERO
from tables.models import StackEntry
from wagers import engine, selectors
from wagers.engine import RoundError, round_from_json, settle, settlement_to_json
from wagers.engine.money import format_amount
from wagers.models import Hand, Settlement

from .booking import _book, _move_stacks, booked_now
from .lifecycle import S, _locked_hand


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    by: User,
    reason: str,
    dealer_cards: str | None = None,
    spot_cards: Mapping[int, str] | None = None,
) -> Settlement:
    """A floor supervisor corrects a settled hand (wrong cards entered, say): the settlement
    in force stays, a reversal entry undoes its money and a correction entry books the new
    settlement, computed by the engine from the corrected round. Only a floor supervisor
    corrects (R17), through the same locked path as every hand service."""
    hand = _locked_hand(hand, by, "correct a settled hand", settled_ok=True, supervisor_only=True)
    if not reason or not reason.strip():
        raise DomainError("Say why the hand is corrected.", field="reason")
    in_force = selectors.settlement_in_force(hand)
    if hand.status != S.SETTLED or in_force is None:
        raise Conflict(f"Hand {hand.number} is {hand.status}: only a settled hand is corrected.")
    corrected_round = _corrected_round(in_force.round, dealer_cards, spot_cards or {})
    try:
        corrected = settle(round_from_json(corrected_round))
    except RoundError as error:  # named as the correction's own input, not the round's path
        field = _correction_field(corrected_round, error.field)
        raise DomainError(error.message, field=field) from None
    result = settlement_to_json(corrected)
    if result == in_force.result:
        raise DomainError("The correction changes no result.", field="cards")
    undone_settled = _settled_again(hand, in_force)
    spots = list(hand.spots.select_related("seating").order_by("seat"))
    reason = reason.strip()
    # Booked now, on the current gaming day and shift; naming the one the hand was settled
    # in when it is another (a closed day keeps its figures: the cage shows the adjustment).
    when = booked_now(hand.table, adjusts=hand.settlements.get(kind=Settlement.Kind.ORIGINAL))
    reversal, undone = _book(
        hand,
        spots,
        undone_settled,
        round_=in_force.round,
        result=in_force.result,
        kind=Settlement.Kind.REVERSAL,
        by=by,
        reverses=in_force,
        reason=reason,
        when=when,
    )
    correction, redone = _book(
        hand,
        spots,
        corrected,
        round_=corrected_round,
        result=result,
        kind=Settlement.Kind.CORRECTION,
        by=by,
        reason=reason,
        when=when,
    )
    # One movement per stack, the difference: a stack is judged on where it ends up.
    _move_stacks(
        {pk: undone.get(pk, ZERO) + redone.get(pk, ZERO) for pk in undone.keys() | redone.keys()},
        StackEntry.Reason.CORRECTION,
        by,
        when.span,
    )
    audit_record(
        actor=by,
        action=AuditAction.HAND_CORRECTED,
        target=hand,
        payload={
            "reason": reason,
            "reversal": reversal.entry,
            "correction": correction.entry,
            "spots": {str(line.seat): format_amount(line.net) for line in corrected.spots},
            "adjusts_day": when.adjusts_day,
            "adjusts_shift": when.adjusts_shift,
        },
    )
    return correction


def _settled_again(hand: Hand, in_force: Settlement) -> engine.Settlement:
    """The engine's settlement of the entry in force, which its reversal undoes: the entry's
    stored round settled again. The engine answers a stored round with its stored result (what
    ``settle_round`` lets anyone check); should it not, reversing its answer would undo other
    money than was booked, so the correction is refused and nothing changes."""
    try:
        settled = settle(round_from_json(in_force.round))
    except RoundError:
        settled = None
    if settled is None or settlement_to_json(settled) != in_force.result:
        raise Conflict(
            f"Settlement entry {in_force.entry} of hand {hand.number} is not what the engine "
            "answers on its stored round, so it cannot be reversed exactly; nothing was "
            "corrected."
        )
    return settled


def _correction_field(round_: dict[str, Any], path: str) -> str:
    """``dealer.cards`` → ``dealer_cards``, ``spots[1].cards`` → ``cards.<its seat>``: the
    fields ``hand_cards_enter`` names, so that a refused correction points at what was given."""
    if path == "dealer.cards":
        return "dealer_cards"
    if path.startswith("spots[") and path.endswith("].cards"):
        return f"cards.{round_['spots'][int(path[6:-7])]['seat']}"
    return path


def _corrected_round(
    original: dict[str, Any], dealer_cards: str | None, spot_cards: Mapping[int, str]
) -> dict[str, Any]:
    """The stored round with the corrected cards; only a spot that had cards gets new ones."""
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
