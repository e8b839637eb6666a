"""R9–R11: each spot's wager lines against the dealer's hand, and the aggregate payout cap."""

from __future__ import annotations

from typing import NamedTuple

from .hands import flush_key, flush_size, qualifies, run_length, straight_flush_key
from .money import Cents
from .results import Outcome, WagerLines, WagerResult
from .round import Decision, Round, Spot
from .table import BonusMode

# Enum members read once (a module global is several times faster than ``Outcome.WIN``), and
# NamedTuples built with tuple.__new__ (about half their constructor's time): every spot's
# lines are built here.
_WIN, _LOSE = Outcome.WIN, Outcome.LOSE
_RAISE = Decision.RAISE
_new = tuple.__new__
_RETURNED = WagerResult(Outcome.RETURNED, 0)
_PUSH = WagerResult(Outcome.PUSH, 0)


class Showdown(NamedTuple):
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
    def of(cls, rnd: Round) -> Showdown:
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


def wager_lines(spot: Spot, flush: int, showdown: Showdown) -> WagerLines:
    """R9 and R10 for one spot; a spot declared dead has every wager returned (R14)."""
    _, ante_stake, _, flush_stake, straight_stake, hand, decision, raised, dead = spot
    if dead is not None:
        return returned_lines(spot)
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
    ante: Cents, raised: Cents, played: bool, flush: int, showdown: Showdown
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


def returned_lines(spot: Spot) -> WagerLines:
    """R14: a dead hand takes no action: every wager placed on it is returned."""
    return WagerLines(
        ante=_RETURNED,
        raise_=_RETURNED if spot.decision is _RAISE else None,
        flush_bonus=_RETURNED if spot.flush_bonus else None,
        straight_flush_bonus=_RETURNED if spot.straight_flush_bonus else None,
    )


# --- R11: the aggregate payout cap ----------------------------------------------------------


def cap_bonus_wins(lines: list[WagerLines], cap: Cents | None) -> list[WagerLines]:
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
