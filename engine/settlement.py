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
    flush_size,
    qualifies,
    run_length,
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
    "WagerLines",
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


class WagerLines(NamedTuple):
    """A spot's four wagers, each settled on its own line; ``None`` where it was not placed."""

    ante: WagerResult
    raise_: WagerResult | None
    flush_bonus: WagerResult | None
    straight_flush_bonus: WagerResult | None


def _lines_net(lines: WagerLines) -> Cents:
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


# Enum members read once: on Python 3.11 each ``Outcome.WIN`` is a metaclass attribute lookup,
# several times slower than a module global, and settlement reads them for every wager line.
_WIN, _LOSE = Outcome.WIN, Outcome.LOSE
_PLAYED, _FOLDED, _DEAD = SpotStatus.PLAYED, SpotStatus.FOLDED, SpotStatus.DEAD
_RAISE = Decision.RAISE
# A NamedTuple's own constructor is a Python function; ``_new(WagerResult, (outcome, net))``
# builds the same tuple in about half the time, which counts for the lines and results built
# for every spot (issue 16). The fields go in their declared order.
_new = tuple.__new__
_RETURNED = WagerResult(Outcome.RETURNED, 0)
_PUSH = WagerResult(Outcome.PUSH, 0)


def settlement_order(dp_seat: int | None) -> tuple[int, ...]:
    """R13: from the DP's right, counter-clockwise (seats are numbered clockwise): descending
    seats below the DP's, then descending from the top seat. House-banked: descending seats."""
    seats = range(MAX_SEATS, 0, -1)
    if dp_seat is None:
        return tuple(seats)
    return tuple(s for s in seats if s < dp_seat) + tuple(s for s in seats if s > dp_seat)


# Every seat's order worked out once; index 0 stands for the house dealer, who has no seat.
_SEAT_ORDER = [settlement_order(seat or None) for seat in range(MAX_SEATS + 1)]


def settle(rnd: Round) -> Settlement:
    """Settle one round: R9 ante and raise, R10 bonuses, R11 cap, R12 fees, R13 order and the
    DP's bank, R14 dead hands; R15 is checked before anything is returned.

    Raises ``RoundError`` naming the field at fault for a round the rules do not allow, and
    ``ConservationError`` if R15 fails (a defect: nothing may be paid).
    """
    flushes = check_round(rnd)
    order = _spots_in_settlement_order(rnd)
    seats_in_order = tuple([rnd.spots[index].seat for index in order])
    if rnd.misdeal is not None:
        return _settle_misdeal(rnd, flushes, seats_in_order)

    showdown = _Showdown.of(rnd)
    lines = [
        _wager_lines(spot, flush, showdown) for spot, flush in zip(rnd.spots, flushes, strict=True)
    ]
    lines = _cap_bonus_wins(lines, rnd.table.max_aggregate_payout)
    paid = _pay_in_order(rnd, flushes, lines, order)
    dealer = _dealer_result(rnd, showdown, paid)
    return _finish(None, dealer, paid.spots, seats_in_order, paid.spot_rake + dealer.rake)


# --- R13: the order -------------------------------------------------------------------------


def _spots_in_settlement_order(rnd: Round) -> list[int]:
    """R13: the indexes of the round's spots, in the order they are settled."""
    index_of_seat = [-1] * (MAX_SEATS + 1)  # -1: no spot at that seat
    for index, spot in enumerate(rnd.spots):
        index_of_seat[spot.seat] = index
    seats = _SEAT_ORDER[rnd.dealer.seat or 0]
    return [index_of_seat[seat] for seat in seats if index_of_seat[seat] >= 0]


# --- R14: a misdeal -------------------------------------------------------------------------


def _settle_misdeal(rnd: Round, flushes: list[int], seats_in_order: tuple[int, ...]) -> Settlement:
    """R14: a misdeal makes every hand of the round dead; nothing is won, lost or charged."""
    spots = [
        _dead_result(spot, DeadReason.MISDEAL, flush)
        for spot, flush in zip(rnd.spots, flushes, strict=True)
    ]
    dealer = DealerResult(
        seat=rnd.dealer.seat, qualifies=None, net=0, rake=0, hand=None, flush_key=0
    )
    return _finish(rnd.misdeal, dealer, spots, seats_in_order, 0)


# --- R9 and R10: each spot's wager lines -----------------------------------------------------


class _Showdown(NamedTuple):
    """What every spot is settled against, worked out once a round: the dealer's hand and the
    table's bonus terms."""

    hand: int
    flush: int
    straight_flush: int
    qualifies: bool  # R4
    versus_dp: bool  # R10's bonus mode
    flush_odds: tuple[int, ...]  # R10, by flush size
    straight_flush_odds: tuple[int, ...]  # R10, by run length

    @classmethod
    def of(cls, rnd: Round) -> _Showdown:
        hand = rnd.dealer.hand
        # check_round refuses a dealer without cards outside a misdeal (R14).
        assert hand is not None
        flush = flush_key(hand)
        table = rnd.table
        versus_dp = table.bonus_mode is not BonusMode.PAYTABLE
        return cls(
            hand,
            flush,
            straight_flush_key(hand),
            qualifies(flush),
            versus_dp,
            table.flush_odds,
            table.straight_flush_odds,
        )


def _wager_lines(spot: Spot, flush: int, showdown: _Showdown) -> WagerLines:
    """R9 and R10 for one spot; a spot declared dead has every wager returned (R14)."""
    _, ante_stake, _, flush_stake, straight_stake, hand, decision, raised, dead = spot
    if dead is not None:
        return _returned_lines(spot)
    played = decision is _RAISE
    ante, raise_ = _ante_and_raise(ante_stake, raised, played, flush, showdown)
    flush_bonus = straight_flush_bonus = None
    if flush_stake:
        flush_bonus = _bonus(
            flush_stake,
            showdown.flush_odds[flush_size(flush)],
            showdown.versus_dp,
            played,
            flush,
            showdown.flush,
        )
    if straight_stake:
        # check_round refuses a live spot without cards outside a misdeal (R14).
        assert hand is not None
        straight = straight_flush_key(hand)
        straight_flush_bonus = _bonus(
            straight_stake,
            showdown.straight_flush_odds[run_length(straight)],
            showdown.versus_dp,
            played,
            straight,
            showdown.straight_flush,
        )
    return _new(WagerLines, (ante, raise_, flush_bonus, straight_flush_bonus))


def _ante_and_raise(
    ante: Cents, raised: Cents, played: bool, flush: int, showdown: _Showdown
) -> tuple[WagerResult, WagerResult | None]:
    """R9: a fold loses the ante; a raise wins the ante and pushes the raise against a dealer
    who does not qualify, else both lines follow the flush comparison (R2)."""
    if not played:
        return _new(WagerResult, (_LOSE, -ante)), None
    if not showdown.qualifies:
        return _new(WagerResult, (_WIN, ante)), _PUSH
    if flush > showdown.flush:
        return _new(WagerResult, (_WIN, ante)), _new(WagerResult, (_WIN, raised))
    if flush < showdown.flush:
        return _new(WagerResult, (_LOSE, -ante)), _new(WagerResult, (_LOSE, -raised))
    return _PUSH, _PUSH


def _bonus(
    stake: Cents, odds: int, versus_dp: bool, played: bool, key: int, dealer_key: int
) -> WagerResult:
    """R10: paid on one line only, at that line's odds; a size with no line (odds 0) loses."""
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


def _returned_lines(spot: Spot) -> WagerLines:
    """R14: a dead hand takes no action: every wager placed on it is returned."""
    return WagerLines(
        ante=_RETURNED,
        raise_=_RETURNED if spot.decision is _RAISE else None,
        flush_bonus=_RETURNED if spot.flush_bonus else None,
        straight_flush_bonus=_RETURNED if spot.straight_flush_bonus else None,
    )


# --- R11: the aggregate payout cap ----------------------------------------------------------


def _cap_bonus_wins(lines: list[WagerLines], cap: Cents | None) -> list[WagerLines]:
    """R11: if the round's bonus wins exceed the cap, each is scaled by cap / total and rounded
    down to the cent; the payer keeps the leftover cents. Integer cents keep it exact."""
    if cap is None:
        return lines
    total = _bonus_winnings(lines)
    if total <= cap:
        return lines
    return [
        spot_lines._replace(
            flush_bonus=_scaled(spot_lines.flush_bonus, cap, total),
            straight_flush_bonus=_scaled(spot_lines.straight_flush_bonus, cap, total),
        )
        for spot_lines in lines
    ]


def _bonus_winnings(lines: list[WagerLines]) -> Cents:
    """R11: what the bonus lines of every spot win together, stakes excluded."""
    total = 0
    for spot_lines in lines:
        flush_bonus, straight_flush_bonus = spot_lines.flush_bonus, spot_lines.straight_flush_bonus
        if flush_bonus is not None and flush_bonus.outcome is _WIN:
            total += flush_bonus.net
        if straight_flush_bonus is not None and straight_flush_bonus.outcome is _WIN:
            total += straight_flush_bonus.net
    return total


def _scaled(bonus: WagerResult | None, cap: Cents, total: Cents) -> WagerResult | None:
    if bonus is None or bonus.outcome is not _WIN:
        return bonus
    return WagerResult(_WIN, bonus.net * cap // total)


# --- R12–R14: spot by spot, the DP's bank and the fees ------------------------------------


class _Paid(NamedTuple):
    spots: list[SpotResult]  # in settlement order
    dealer_net: Cents  # from the dealer's side, before its own fee
    spot_rake: Cents  # R12: every live spot's fee
    live_spots: int  # R14: how many did not end dead


def _pay_in_order(
    rnd: Round, flushes: list[int], lines: list[WagerLines], order: list[int]
) -> _Paid:
    """R13: spot by spot in settlement order. A spot that owes the DP pays into its bank; one the
    DP owes is paid only if the bank covers its whole net, else the spot is dead (R14). A house
    bank is unlimited. R12: each live spot, folded ones too, pays the spot fee."""
    fee = spot_fee(rnd.table.rake_mode, rnd.table.rake_amount)
    bank = _opening_bank(rnd)
    spots: list[SpotResult] = []
    dealer_net = spot_rake = live_spots = 0
    round_spots = rnd.spots
    for index in order:
        spot, flush, spot_lines = round_spots[index], flushes[index], lines[index]
        seat, _, _, _, _, hand, decision, _, dead = spot
        if dead is not None:
            spots.append(_dead_result(spot, dead, flush))
            continue
        net = _lines_net(spot_lines)
        if bank is not None:
            if net > bank:
                spots.append(_dead_result(spot, DeadReason.DEALER_FUNDS, flush))
                continue
            bank -= net
        dealer_net -= net
        spot_rake += fee
        live_spots += 1
        status = _PLAYED if decision is _RAISE else _FOLDED
        # The four lines sit in SpotResult in WagerLines' own order.
        result = _new(SpotResult, (seat, status, None, *spot_lines, fee, net - fee, hand, flush))
        spots.append(result)
    return _Paid(spots, dealer_net, spot_rake, live_spots)


def _opening_bank(rnd: Round) -> Cents | None:
    """R13: what the DP's bank holds to pay winners; None for the house's, which is unlimited.
    R12: the DP's fee is taken before the deal, so it is not part of the bank."""
    table, bank = rnd.table, rnd.dealer.bank
    if table.is_house_banked or bank is None:  # check_round: a DP always has a bank
        return None
    return bank - dealer_fee(table.rake_mode, table.rake_amount)


def _dead_result(spot: Spot, reason: DeadReason, flush: int) -> SpotResult:
    """R14: every wager returned, and no fee."""
    return SpotResult(spot.seat, _DEAD, reason, *_returned_lines(spot), 0, 0, spot.hand, flush)


def _dealer_result(rnd: Round, showdown: _Showdown, paid: _Paid) -> DealerResult:
    """The dealer's net: what the spots lost to it less what it paid them, less its own fee.
    R12: the DP's fee is returned when every spot of the hand ends dead."""
    table = rnd.table
    fee = dealer_fee(table.rake_mode, table.rake_amount) if paid.live_spots else 0
    net = paid.dealer_net - fee
    return DealerResult(
        rnd.dealer.seat, showdown.qualifies, net, fee, showdown.hand, showdown.flush
    )


# --- R15 ------------------------------------------------------------------------------------


def _finish(
    misdeal: Misdeal | None,
    dealer: DealerResult,
    results: list[SpotResult],
    order: tuple[int, ...],
    house_rake: Cents,
) -> Settlement:
    spots = tuple(sorted(results))  # by seat, the first field
    # R15: the sum of all spots' nets, the dealer's net and the house rake is zero.
    if sum([spot.net for spot in spots]) + dealer.net + house_rake:
        raise ConservationError(f"R15 violated: {spots}, {dealer}, rake {house_rake}")
    return Settlement(misdeal, dealer, spots, order, house_rake)
