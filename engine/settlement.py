"""R9–R15: settle one round. ``settle`` is the only place in the project that applies them.

Amounts are cents; every spot line is signed from the player's side, the dealer's net from the
dealer's (the DP's, or the house's on a house-banked table).
"""

from __future__ import annotations

from typing import NamedTuple

from .checks import check_round
from .errors import ConservationError
from .fees import dealer_fee, spot_fee
from .money import Cents
from .results import DealerResult, Settlement, SpotResult, SpotStatus, WagerLines, lines_net
from .round import DeadReason, Decision, Misdeal, Round, Spot
from .table import MAX_SEATS
from .wager_lines import Showdown, cap_bonus_wins, returned_lines, wager_lines

__all__ = ["settle", "settlement_order"]


# Enum members read once: on Python 3.11 each ``SpotStatus.PLAYED`` is a metaclass attribute
# lookup, several times slower than a module global, and settlement reads them for every spot.
_PLAYED, _FOLDED, _DEAD = SpotStatus.PLAYED, SpotStatus.FOLDED, SpotStatus.DEAD
_RAISE = Decision.RAISE
# A NamedTuple's own constructor is a Python function; ``_new(SpotResult, (seat, ...))``
# builds the same tuple in about half the time, which counts for the lines and results built
# for every spot (settle_round --jsonl). The fields go in their declared order.
_new = tuple.__new__


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

    showdown = Showdown.of(rnd)
    lines = [
        wager_lines(spot, flush, showdown) for spot, flush in zip(rnd.spots, flushes, strict=True)
    ]
    lines = cap_bonus_wins(lines, rnd.table.max_aggregate_payout)
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
        net = lines_net(spot_lines)
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
    return SpotResult(spot.seat, _DEAD, reason, *returned_lines(spot), 0, 0, spot.hand, flush)


def _dealer_result(rnd: Round, showdown: Showdown, paid: _Paid) -> DealerResult:
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
