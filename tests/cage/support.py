"""Helpers the cage tests share: playing a hand to the end through the services, and chips by
denomination."""

from __future__ import annotations

from typing import Any

from tables.models import Seating, Table
from wagers import services
from wagers.models import Hand

# Hands that never share a card (R1); the dealer's qualifies (3 spades), a spade 4 for a
# diamond 4 makes it a two-card flush that does not (R4).
DEALER_QUALIFIES = "Ks 9s 4s 2c 7h 8c 3c"
DEALER_DOES_NOT_QUALIFY = "Ks 9s 4d 2c 7h 8c 3c"
WINNER = "Ah Th 6h 2h Jd 5c 9c"  # a four-card heart flush: beats the dealer's three spades
LOSER = "Qd 8d 5d As 6c 4h 3s"  # a three-card diamond flush, Q high: loses to K-9-4


def seating(table: Table, seat: int) -> Seating:
    return Seating.objects.get(table=table, seat=seat, left_at=None)


def play(
    table: Table,
    by: Any,
    spots: dict[int, tuple[str, str, str]],
    *,
    dealer_cards: str = DEALER_QUALIFIES,
    **start: Any,
) -> Hand:
    """Start, wager, deal, decide and settle one hand: ``spots`` maps a seat to (ante, cards,
    decision); a raise is 1× the ante (R8)."""
    hand = services.hand_start(table=table, by=by, **start)
    for seat, (ante, _, _) in spots.items():
        services.wager_place(hand=hand, seating=seating(table, seat), ante=ante, by=by)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=dealer_cards,
        spot_cards={seat: cards for seat, (_, cards, _) in spots.items()},
        by=by,
    )
    for seat, (ante, _, decision) in spots.items():
        raise_amount = ante if decision == "raise" else None
        services.spot_decide(
            hand=hand, seat=seat, decision=decision, raise_amount=raise_amount, by=by
        )
    services.hand_settle(hand=hand, by=by)
    hand.refresh_from_db()
    return hand
