"""Settling a hand through the engine (R9–R15), or as a misdeal (R14), and booking it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.transactions import change_atomic
from engine import Misdeal, round_from_json, settle, settlement_to_json
from engine.money import format_amount
from tables.models import StackEntry
from wagers import selectors
from wagers.models import Hand, Settlement

from .batches import decisions_record_many
from .booking import book, booked_now, move_stacks, rack_settle
from .lifecycle import S, engine_errors, hand_transition, locked_hand


def hand_declare_misdeal(*, hand: Hand, reason: str, by: User) -> Settlement:
    """R14: a wrong card count to the dealer, or a shuffler fault: every hand of the round is
    dead, every wager and the DP's bank go back, nobody pays a fee. Settled at once."""
    if reason not in {m.value for m in Misdeal}:
        raise DomainError("A misdeal is dealer_card_count or shuffler_fault (R14).", field="reason")
    return _settle(hand, by, misdeal=reason)


def hand_settle(*, hand: Hand, by: User) -> Settlement:
    """Settle through the engine (R9–R15) and book it: the settlement, the chips, the fees.
    Idempotent: settling a settled hand returns the settlement in force and moves nothing."""
    return _settle(hand, by, misdeal=None)


@change_atomic()
def hand_decide_and_settle(
    *, hand: Hand, decisions: Sequence[Mapping[str, Any]], by: User
) -> Settlement:
    """The dealer's "Settle" with the decisions still to record: every decision given (as
    ``decisions_record_many``, R8), then the settlement (as ``hand_settle``, R9–R15), in one
    transaction: if either is refused, nothing is recorded. ``decisions`` may be empty when
    every spot has decided already. The audit log reads as the two calls: ``hand.decision``
    (when there were decisions), then ``hand.settled``."""
    if decisions:
        decisions_record_many(hand=hand, decisions=decisions, by=by)
    return hand_settle(hand=hand, by=by)


@change_atomic()
def _settle(hand: Hand, by: User, *, misdeal: str | None) -> Settlement:
    hand = locked_hand(hand, by, "settle a hand", settled_ok=True)
    if hand.status in (S.SETTLED, S.DEAD):
        return _settled_already(hand, misdeal)
    spots = selectors.spots_of(hand, with_seatings=True)
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
    with engine_errors():
        settled = settle(round_from_json(round_))
    hand.settled_at = timezone.now()
    hand.save(update_fields=["status", "misdeal", "settled_at"])
    when = booked_now(hand.table, started=hand.started_at)
    settlement, moves = book(
        hand,
        spots,
        settled,
        round_=round_,
        result=settlement_to_json(settled),
        kind=Settlement.Kind.ORIGINAL,
        by=by,
        when=when,
    )
    move_stacks(moves, StackEntry.Reason.PAYOUT, by, when.span)
    rack_settle(hand, settlement)
    audit_record(
        actor=by,
        action=AuditAction.HAND_MISDEAL if misdeal else AuditAction.HAND_SETTLED,
        target=hand,
        payload={
            "settlement": settlement.entry,
            "house_rake": format_amount(settled.house_rake),
            "dealer_net": format_amount(settled.dealer.net),
            "spots": {str(line.seat): format_amount(line.net) for line in settled.spots},
        },
    )
    return settlement


def _settled_already(hand: Hand, misdeal: str | None) -> Settlement:
    """Settling twice answers with the settlement in force and moves nothing; a misdeal is
    declared once; a hand cancelled before any wager (``hand_cancel``) has no settlement."""
    if misdeal:
        raise Conflict(f"Hand {hand.number} is {hand.status} already.", field="status")
    in_force = selectors.settlement_in_force(hand)
    if in_force is None:
        raise Conflict(
            f"Hand {hand.number} was cancelled before any wager: there is nothing to settle.",
            field="status",
        )
    return in_force
