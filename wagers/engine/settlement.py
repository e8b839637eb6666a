"""R9–R15: settle one round. ``settle`` is the only place in the project that applies them.

Amounts are cents; every spot line is signed from the player's side, the dealer's net from the
dealer's (the DP's, or the house's on a house-banked table).
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .checks import check_round
from .errors import ConservationError
from .fees import dealer_fee, spot_fee
from .hands import (
    Flush,
    StraightFlush,
    describe_flush,
    describe_straight_flush,
    flush_key,
    qualifies,
    straight_flush_key,
)
from .money import Cents
from .round import DeadReason, Decision, Misdeal, Round, Spot
from .table import MAX_SEATS, BonusMode


__all__ = [
    "ConservationError",  # defined in errors.py; importable from here as before
    "DealerResult",
    "Outcome",
    "Settlement",
    "SpotResult",
    "SpotStatus",
    "WagerResult",
    "settle",
    "settlement_order",
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


def _flush_of(result: SpotResult | DealerResult) -> Flush | None:
    """The result's flush, worked out only when asked for (output, not settlement, needs it)."""
    return None if result.hand is None else describe_flush(result.hand, result.flush_key)


def _straight_flush_of(result: SpotResult | DealerResult) -> StraightFlush | None:
    if result.hand is None:
        return None
    return describe_straight_flush(straight_flush_key(result.hand))


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

    flush = property(_flush_of)
    straight_flush = property(_straight_flush_of)


class DealerResult(NamedTuple):
    seat: int | None
    qualifies: bool | None  # None in a misdeal
    net: Cents
    rake: Cents
    hand: int | None
    flush_key: int

    flush = property(_flush_of)
    straight_flush = property(_straight_flush_of)


class Settlement(NamedTuple):
    misdeal: Misdeal | None
    dealer: DealerResult
    spots: tuple[SpotResult, ...]  # by ascending seat
    settlement_order: tuple[int, ...]  # R13, dead spots included
    house_rake: Cents


_WIN, _LOSE, _PUSH_OUTCOME, _RETURNED_OUTCOME = (
    Outcome.WIN,
    Outcome.LOSE,
    Outcome.PUSH,
    Outcome.RETURNED,
)
_RETURNED = WagerResult(_RETURNED_OUTCOME, 0)
_PUSH = WagerResult(_PUSH_OUTCOME, 0)
_RAISE = Decision.RAISE
_PAYTABLE = BonusMode.PAYTABLE
_PLAYED, _FOLDED, _DEAD = SpotStatus.PLAYED, SpotStatus.FOLDED, SpotStatus.DEAD
# tuple.__new__ skips the NamedTuple constructor's Python-level argument handling: the result
# types are built millions of times when a year of hands is re-verified.
_new = tuple.__new__


def settlement_order(dp_seat: int | None) -> tuple[int, ...]:
    """R13: from the DP's right, counter-clockwise (seats are numbered clockwise): descending
    seats below the DP's, then descending from the top seat. House-banked: descending seats."""
    seats = range(MAX_SEATS, 0, -1)
    if dp_seat is None:
        return tuple(seats)
    return tuple(s for s in seats if s < dp_seat) + tuple(s for s in seats if s > dp_seat)


_SEAT_ORDER = [settlement_order(seat or None) for seat in range(MAX_SEATS + 1)]


def settle(rnd: Round) -> Settlement:
    """Settle one round: R9 ante and raise, R10 bonuses, R11 cap, R12 fees, R13 order and the
    DP's bank, R14 dead hands; R15 is asserted before anything is returned.

    Raises ``RoundError`` naming the field at fault for a round the rules do not allow.
    """
    flushes = check_round(rnd)
    table, dealer, spots, misdeal = rnd
    dp_seat = dealer.seat
    position = [-1] * 8
    for i, spot in enumerate(spots):
        position[spot.seat] = i
    order = [position[seat] for seat in _SEAT_ORDER[dp_seat or 0] if position[seat] >= 0]
    seats = tuple(spots[i].seat for i in order)

    if misdeal is not None:
        # R14: a misdeal makes every hand of the round dead; nothing is won, lost or charged.
        results = [
            _dead(spot, DeadReason.MISDEAL, flush)
            for spot, flush in zip(spots, flushes, strict=True)
        ]
        return _finish(misdeal, DealerResult(dp_seat, None, 0, 0, None, 0), results, seats, 0)

    dealer_flush = flush_key(dealer.hand)
    dealer_qualifies = qualifies(dealer_flush)
    dealer_straight = -1  # worked out once, only if a straight-flush bonus needs it
    versus_dp = table.bonus_mode is not _PAYTABLE
    flush_odds, straight_odds = table.flush_odds, table.straight_flush_odds

    # R9 and R10 for every spot not already dead, in settlement order; R11 over their wins.
    settled: list[tuple[Spot, int, list | None]] = []
    bonus_wins = 0
    for i in order:
        spot, flush = spots[i], flushes[i]
        _, ante, _, flush_bonus, straight_bonus, hand, decision, raised, dead = spot
        if dead is not None:
            settled.append((spot, flush, None))
            continue
        played = decision is _RAISE
        if not played:
            lines = [_new(WagerResult, (_LOSE, -ante)), None, None, None]
        elif not dealer_qualifies:
            lines = [_new(WagerResult, (_WIN, ante)), _PUSH, None, None]
        elif flush > dealer_flush:
            lines = [_new(WagerResult, (_WIN, ante)), _new(WagerResult, (_WIN, raised)), None, None]
        elif flush < dealer_flush:
            lines = [
                _new(WagerResult, (_LOSE, -ante)),
                _new(WagerResult, (_LOSE, -raised)),
                None,
                None,
            ]
        else:
            lines = [_PUSH, _PUSH, None, None]
        if flush_bonus:
            line = lines[2] = _bonus(
                flush_bonus, flush_odds[flush >> 13], versus_dp, played, flush, dealer_flush
            )
            if line[0] is _WIN:
                bonus_wins += line[1]
        if straight_bonus:
            if dealer_straight < 0:
                dealer_straight = straight_flush_key(dealer.hand)
            straight = straight_flush_key(hand)
            line = lines[3] = _bonus(
                straight_bonus,
                straight_odds[straight >> 4],
                versus_dp,
                played,
                straight,
                dealer_straight,
            )
            if line[0] is _WIN:
                bonus_wins += line[1]
        settled.append((spot, flush, lines))

    cap = table.max_aggregate_payout
    if cap is not None and bonus_wins > cap:
        # R11: each bonus win is scaled by cap / total and rounded down to the cent; the payer
        # keeps the leftover cents. Integer cents keep the rounding exact.
        for _, _, lines in settled:
            for k in (2, 3):
                if lines is not None and lines[k] is not None and lines[k][0] is _WIN:
                    lines[k] = _new(WagerResult, (_WIN, lines[k][1] * cap // bonus_wins))

    # R13: spot by spot; the DP pays a winner only if its bank covers the whole net.
    house_banked = table.is_house_banked
    dp_fee = dealer_fee(table.rake_mode, table.rake_amount)
    fee = spot_fee(table.rake_mode, table.rake_amount)
    bank = 0 if house_banked else dealer.bank - dp_fee  # R12: the DP's fee is not in the bank
    results: list[SpotResult] = []
    dealer_net = house_rake = 0
    for spot, flush, lines in settled:
        if lines is None:
            results.append(_dead(spot, spot.dead, flush))
            continue
        ante_line, raise_line, flush_line, straight_line = lines
        net = ante_line[1]
        if raise_line is not None:
            net += raise_line[1]
        if flush_line is not None:
            net += flush_line[1]
        if straight_line is not None:
            net += straight_line[1]
        if net > bank and not house_banked:
            results.append(_dead(spot, DeadReason.DEALER_FUNDS, flush))
            continue
        bank -= net
        dealer_net -= net
        house_rake += fee
        status = _PLAYED if spot.decision is _RAISE else _FOLDED
        results.append(
            _new(
                SpotResult,
                (spot.seat, status, None, *lines, fee, net - fee, spot.hand, flush),
            )
        )

    # R12: the DP's fee is returned when every spot of the hand ends dead.
    if all(result.status is _DEAD for result in results):
        dp_fee = 0
    dealer_net -= dp_fee
    house_rake += dp_fee
    dealer_result = DealerResult(
        dp_seat, dealer_qualifies, dealer_net, dp_fee, dealer.hand, dealer_flush
    )
    return _finish(None, dealer_result, results, seats, house_rake)


def _bonus(
    stake: Cents, odds: int, versus_dp: bool, played: bool, key: int, dealer_key: int
) -> WagerResult:
    """R10: paid on one line only, at that line's odds; a size with no line (0) loses."""
    if not odds:
        return _new(WagerResult, (_LOSE, -stake))
    if versus_dp:
        # The bonus needs a raise; then the hand is compared with the dealer's in the
        # category, whether or not the dealer qualified.
        if not played or key < dealer_key:
            return _new(WagerResult, (_LOSE, -stake))
        if key == dealer_key:
            return _PUSH
    return _new(WagerResult, (_WIN, stake * odds))


def _dead(spot: Spot, reason: DeadReason, flush: int) -> SpotResult:
    """R14: a dead hand takes no action: every wager on it is returned, and it pays no fee."""
    return _new(
        SpotResult,
        (
            spot.seat,
            _DEAD,
            reason,
            _RETURNED,
            _RETURNED if spot.decision is _RAISE else None,
            _RETURNED if spot.flush_bonus else None,
            _RETURNED if spot.straight_flush_bonus else None,
            0,
            0,
            spot.hand,
            flush,
        ),
    )


def _finish(
    misdeal: Misdeal | None,
    dealer: DealerResult,
    results: list[SpotResult],
    order: tuple[int, ...],
    house_rake: Cents,
) -> Settlement:
    spots = tuple(sorted(results))  # by seat, the first field
    # R15: the sum of all spots' nets, the dealer's net and the house rake is zero.
    if sum(spot.net for spot in spots) + dealer.net + house_rake:
        raise ConservationError(f"R15 violated: {spots}, {dealer}, rake {house_rake}")
    return Settlement(misdeal, dealer, spots, order, house_rake)
