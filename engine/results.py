"""What settling a round returns: each wager line's outcome, each spot's and the dealer's
result, the settlement. Amounts are cents, spot lines signed from the player's side, the
dealer's net from the dealer's.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .hands import Flush, StraightFlush, describe_flush, describe_straight_flush, straight_flush_key
from .money import Cents
from .round import DeadReason, Misdeal

__all__ = [
    "DealerResult",
    "Outcome",
    "Settlement",
    "SpotResult",
    "SpotStatus",
    "WagerLines",
    "WagerResult",
    "lines_net",
]


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"
    RETURNED = "returned"  # R14: a dead hand's wagers


class SpotStatus(StrEnum):
    PLAYED = "played"
    FOLDED = "folded"
    DEAD = "dead"


class WagerResult(NamedTuple):
    outcome: Outcome
    net: Cents


class WagerLines(NamedTuple):
    """A spot's four wagers, each settled on its own line; ``None`` where it was not placed."""

    ante: WagerResult
    raise_: WagerResult | None
    flush_bonus: WagerResult | None
    straight_flush_bonus: WagerResult | None


def lines_net(lines: WagerLines) -> Cents:
    """All of a spot's lines together: what the spot and the DP's bank settle (R13)."""
    # A function, not a property: settlement calls it for every spot, and a property's call
    # costs several times a plain function's.
    ante, raise_, flush_bonus, straight_flush_bonus = lines
    net = ante.net
    if raise_ is not None:
        net += raise_.net
    if flush_bonus is not None:
        net += flush_bonus.net
    if straight_flush_bonus is not None:
        net += straight_flush_bonus.net
    return net


def _flush_of(hand: int | None, flush: int) -> Flush | None:
    """A result's flush, worked out only when asked for (output, not settlement, needs it)."""
    return None if hand is None else describe_flush(hand, flush)


def _straight_flush_of(hand: int | None) -> StraightFlush | None:
    return None if hand is None else describe_straight_flush(straight_flush_key(hand))


class SpotResult(NamedTuple):
    seat: int
    status: SpotStatus
    dead_reason: DeadReason | None
    ante: WagerResult
    raise_: WagerResult | None
    flush_bonus: WagerResult | None
    straight_flush_bonus: WagerResult | None
    rake: Cents
    net: Cents
    hand: int | None
    flush_key: int

    @property
    def flush(self) -> Flush | None:
        return _flush_of(self.hand, self.flush_key)

    @property
    def straight_flush(self) -> StraightFlush | None:
        return _straight_flush_of(self.hand)


class DealerResult(NamedTuple):
    seat: int | None
    qualifies: bool | None  # None in a misdeal
    net: Cents
    rake: Cents
    hand: int | None
    flush_key: int

    @property
    def flush(self) -> Flush | None:
        return _flush_of(self.hand, self.flush_key)

    @property
    def straight_flush(self) -> StraightFlush | None:
        return _straight_flush_of(self.hand)


class Settlement(NamedTuple):
    misdeal: Misdeal | None
    dealer: DealerResult
    spots: tuple[SpotResult, ...]  # by ascending seat
    settlement_order: tuple[int, ...]  # R13, dead spots included
    house_rake: Cents
