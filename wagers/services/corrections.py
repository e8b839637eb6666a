"""Correcting a settled hand (a floor supervisor's, R17): the entry in force stays, a reversal
undoes its money and a correction books the engine's settlement of the corrected round.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from cardroom.kernel.errors import Conflict, DomainError
from cardroom.kernel.money import ZERO
from cardroom.kernel.permissions import require_supervisor
from tables.models import StackEntry
from wagers import selectors
from wagers.engine import RoundError, round_from_json, settle, settlement_to_json
from wagers.models import Hand, Settlement

from .booking import _book, _move_stacks
from .lifecycle import S


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
