"""What makes a round settleable: R1 (cards), R5–R8 (wagers), R13/R14 (dealer and dead spots).

The wager checks are public so that the persisted hand refuses the same amounts, with the same
messages, when a dealer enters them one at a time. The round check runs before every
settlement, so its common path is a few comparisons per spot and builds no strings.
"""

from __future__ import annotations

from .cards import HAND_SIZE, card_name
from .errors import RoundError
from .fees import dealer_fee
from .hands import flush_key, flush_size
from .money import Cents, format_amount
from .round import DeadReason, Decision, Misdeal, Round, Spot
from .table import MAX_SPOTS, TableRules, check_multiple

_RAISE = Decision.RAISE
_WRONG_CARD_COUNT = DeadReason.WRONG_CARD_COUNT


def check_ante(table: TableRules, ante: Cents, *, field: str, two_spots: bool = False) -> None:
    """R5, and R6: a player on two spots antes at least double the table minimum on each."""
    low = table.ante_min * 2 if two_spots else table.ante_min
    if not low <= ante <= table.ante_max:
        why = " on each of a player's two spots (R6)" if two_spots else " (R5)"
        raise RoundError(
            field,
            f"The ante ${format_amount(ante)} is off the limits: it must be between "
            f"${format_amount(low)} and ${format_amount(table.ante_max)}{why}.",
        )
    check_multiple(table, ante, field=field, what="The ante")


def check_bonus(table: TableRules, amount: Cents, *, field: str, name: str) -> None:
    """R5: a bonus wager, when placed (non-zero), lies within the table's bonus limits."""
    if amount and not table.bonus_min <= amount <= table.bonus_max:
        raise RoundError(
            field,
            f"The {name} ${format_amount(amount)} is off the limits: it must be between "
            f"${format_amount(table.bonus_min)} and ${format_amount(table.bonus_max)} (R5).",
        )
    check_multiple(table, amount, field=field, what=f"The {name}")


def raise_cap_multiple(size: int) -> int:
    """R8: the raise may be up to 1× the ante for a 2–4 card flush, 2× for 5, 3× for 6–7."""
    return 1 if size <= 4 else 2 if size == 5 else 3


def check_raise(table: TableRules, ante: Cents, amount: Cents, size: int, *, field: str) -> None:
    """R8: at least the ante, at most the multiple the spot's flush size allows."""
    multiple = raise_cap_multiple(size)
    if not ante <= amount <= ante * multiple:
        raise RoundError(
            field,
            f"The raise ${format_amount(amount)} is off the limits: with a {size}-card flush "
            f"it must be between the ante ${format_amount(ante)} and {multiple}× the ante "
            f"${format_amount(ante * multiple)} (R8).",
        )
    check_multiple(table, amount, field=field, what="The raise")


_RAISE_CAP = tuple(raise_cap_multiple(size) for size in range(HAND_SIZE + 1))  # by flush size


def check_hand_size(hand: int, *, field: str) -> None:
    """R1: a hand is exactly 7 distinct cards."""
    if hand.bit_count() != HAND_SIZE:
        raise RoundError(
            field,
            f"A hand is exactly {HAND_SIZE} cards; {hand.bit_count()} were entered (R1). "
            "If the dealer dealt the wrong number, declare the spot dead or the round a misdeal.",
        )


def check_round(rnd: Round) -> list[int]:
    """Refuse a round that cannot be settled; return each spot's flush key (0 without cards).

    The table was checked when its ``TableRules`` was made. The spots are checked one by one,
    each rule in the same order, so a round with several faults is refused at the first.
    """
    _check_dealer(rnd)
    table, dealer_seat, misdeal = rnd.table, rnd.dealer.seat, rnd.misdeal
    if not 1 <= len(rnd.spots) <= MAX_SPOTS:
        raise RoundError("spots", f"A round has between 1 and {MAX_SPOTS} spots (R1).")
    seats, unit = table.seats, table.chip_unit
    ante_min, ante_max, bonus_min, bonus_max = (
        table.ante_min,
        table.ante_max,
        table.bonus_min,
        table.bonus_max,
    )
    taken_seats: set[int] = set()
    dealt = rnd.dealer.hand or 0  # every card in a hand so far (R1)
    flushes: list[int] = []
    for index, spot in enumerate(rnd.spots):
        # The common case is one test per rule, inline (this runs for every spot
        # settled); a fault goes to the step that explains it.
        seat, ante, _, flush_bonus, straight_bonus, hand, decision, raised, dead = spot
        if not 1 <= seat <= seats or seat == dealer_seat or seat in taken_seats:
            _refuse_seat(rnd, index)
        taken_seats.add(seat)
        if (  # R5: within the limits, in whole chips; a bonus only when placed
            not ante_min <= ante <= ante_max
            or ante % unit
            or (flush_bonus and (not bonus_min <= flush_bonus <= bonus_max or flush_bonus % unit))
            or (
                straight_bonus
                and (not bonus_min <= straight_bonus <= bonus_max or straight_bonus % unit)
            )
        ):
            _check_wagers(table, index, spot)
        if dead is not None or misdeal is not None or hand is None or decision is None:
            _check_dead_or_incomplete(rnd, index)
        if (decision is _RAISE) != bool(raised):  # R8: a raise, and only a raise
            _refuse_raise_amount(index, decision)
        if hand is None:
            flushes.append(0)
            continue
        if hand.bit_count() != HAND_SIZE or dealt & hand:  # R1: 7 cards, each dealt once
            _check_hand(rnd, index, hand, dealt)
        flush = flush_key(hand)
        if decision is _RAISE and (  # R8: within the multiple the hand's flush allows
            not ante <= raised <= ante * _RAISE_CAP[flush_size(flush)] or raised % unit
        ):
            _check_hand(rnd, index, hand, dealt)
        flushes.append(flush)
        dealt |= hand
    _check_players(rnd)
    return flushes


def _check_dealer(rnd: Round) -> None:
    """R13 and R16: a DP has a seat and a bank that covers its fee, the house neither; R14: the
    dealer's 7 cards, unless the round is a misdeal."""
    table, dealer = rnd.table, rnd.dealer
    if table.is_house_banked:
        if dealer.seat is not None:
            raise RoundError("dealer.seat", "A house dealer has no seat (R13).")
        if dealer.bank is not None:
            raise RoundError("dealer.bank", "The house's bank is unlimited: give no bank (R13).")
    else:
        if dealer.seat is None or not 1 <= dealer.seat <= table.seats:
            raise RoundError(
                "dealer.seat",
                f"The designated player's seat must be a number from 1 to {table.seats} (R16).",
            )
        fee = dealer_fee(table.rake_mode, table.rake_amount)
        if dealer.bank is None or dealer.bank < fee:
            raise RoundError(
                "dealer.bank",
                f"The designated player's bank must cover at least the fee "
                f"${format_amount(fee)} (R12, R13).",
            )
    if dealer.hand is None:
        if rnd.misdeal is None:
            raise RoundError(
                "dealer.cards", "Enter the dealer's 7 cards, or declare a misdeal (R14)."
            )
    elif rnd.misdeal is not Misdeal.DEALER_CARD_COUNT:
        # A dealer's hand misdealt for its count is kept as entered, never evaluated.
        check_hand_size(dealer.hand, field="dealer.cards")


def _refuse_seat(rnd: Round, index: int) -> None:
    """R1 and R16: a seat of the table, not the DP's, and one spot to a seat."""
    seat, field = rnd.spots[index].seat, f"spots[{index}].seat"
    if not 1 <= seat <= rnd.table.seats:
        raise RoundError(field, f"Seat {seat} is not a seat from 1 to {rnd.table.seats}.")
    if seat == rnd.dealer.seat:
        raise RoundError(
            field, f"Seat {seat} is the designated player's; the DP places no wagers (R16)."
        )
    raise RoundError(field, f"Seat {seat} has two spots in this round.")


def _check_wagers(table: TableRules, index: int, spot: Spot) -> None:
    """R5: the ante and each bonus placed (non-zero) lie within the table's limits, in whole
    chips; the public check explains a fault."""
    ante, flush_bonus, straight_bonus = spot.ante, spot.flush_bonus, spot.straight_flush_bonus
    unit, bonus_min, bonus_max = table.chip_unit, table.bonus_min, table.bonus_max
    if not table.ante_min <= ante <= table.ante_max or ante % unit:
        check_ante(table, ante, field=f"spots[{index}].ante")
    if flush_bonus and (not bonus_min <= flush_bonus <= bonus_max or flush_bonus % unit):
        check_bonus(table, flush_bonus, field=f"spots[{index}].flush_bonus", name="Flush Bonus")
    if straight_bonus and (not bonus_min <= straight_bonus <= bonus_max or straight_bonus % unit):
        check_bonus(
            table,
            straight_bonus,
            field=f"spots[{index}].straight_flush_bonus",
            name="Straight Flush Bonus",
        )


def _refuse_raise_amount(index: int, decision: Decision | None) -> None:
    """R8: a raise comes with its amount, and nothing else has one."""
    if decision is _RAISE:
        raise RoundError(f"spots[{index}].raise", "A raise needs its amount (R8).")
    raise RoundError(f"spots[{index}].raise", "Only a spot that raises has a raise amount (R8).")


def _check_hand(rnd: Round, index: int, hand: int, dealt: int) -> int:
    """R1: 7 cards, none already in another hand (``dealt``); R8: a raise within the multiple
    the hand's flush allows; the fault explained. Returns the hand's flush key (R2)."""
    if hand.bit_count() != HAND_SIZE:
        check_hand_size(hand, field=f"spots[{index}].cards")
    if dealt & hand:
        _refuse_dealt_twice(rnd, index, hand)
    flush = flush_key(hand)
    spot = rnd.spots[index]
    if spot.decision is _RAISE:
        ante, raised, size = spot.ante, spot.raise_amount, flush_size(flush)
        if not ante <= raised <= ante * raise_cap_multiple(size) or raised % rnd.table.chip_unit:
            check_raise(rnd.table, ante, raised, size, field=f"spots[{index}].raise")
    return flush


def _check_dead_or_incomplete(rnd: Round, index: int) -> None:
    """R14: a spot dead for its card count has no cards or decision; outside a misdeal, every
    other spot has both; a decision always comes with the cards it was made on."""
    spot, path = rnd.spots[index], f"spots[{index}]"
    if spot.dead is not None:
        if spot.dead is not _WRONG_CARD_COUNT:
            raise RoundError(
                f"{path}.dead",
                "A spot is declared dead only for a wrong card count; "
                "dealer_funds and misdeal follow from the settlement (R14).",
            )
        for key, value in (("cards", spot.hand), ("decision", spot.decision)):
            if value is not None:
                raise RoundError(
                    f"{path}.{key}",
                    f"A spot dead for a wrong card count takes no {key}: it is declared before "
                    "the spot acts (R14).",
                )
    elif rnd.misdeal is None:
        if spot.hand is None:
            raise RoundError(f"{path}.cards", "Enter the spot's 7 cards, or declare it dead (R14).")
        if spot.decision is None:
            raise RoundError(
                f"{path}.decision", "Enter the spot's decision: raise, fold or walked_away (R8)."
            )
    elif spot.decision is not None and spot.hand is None:
        raise RoundError(f"{path}.cards", "A spot that took a decision needs its cards (R8).")


def _refuse_dealt_twice(rnd: Round, index: int, hand: int) -> None:
    """R1: in one round no card may appear in two hands; name the card and its first hand."""
    holders = [("dealer.cards", rnd.dealer.hand)] + [
        (f"spots[{i}].cards", spot.hand) for i, spot in enumerate(rnd.spots[:index])
    ]
    for holder, other in holders:
        if other is not None and other & hand:
            card = card_name((other & hand).bit_length() - 1)
            raise RoundError(
                f"spots[{index}].cards",
                f"{card} is already in {holder}: a card is dealt once (R1).",
            )


def _check_players(rnd: Round) -> None:
    """R6: at most two spots a player, each with at least double the table minimum ante."""
    players = [spot.player for spot in rnd.spots if spot.player is not None]
    if len(set(players)) == len(players):
        return  # no player has two spots: R6 has nothing to check
    spots_of: dict[str, list[int]] = {}
    for index, spot in enumerate(rnd.spots):
        if spot.player is None:
            continue
        indexes = spots_of.setdefault(spot.player, [])
        indexes.append(index)
        if len(indexes) > 2:
            raise RoundError(
                f"spots[{index}].player",
                f"Player {spot.player} already plays two spots; a third is not allowed (R6).",
            )
    for indexes in spots_of.values():
        if len(indexes) == 2:
            for index in indexes:
                check_ante(
                    rnd.table, rnd.spots[index].ante, field=f"spots[{index}].ante", two_spots=True
                )
