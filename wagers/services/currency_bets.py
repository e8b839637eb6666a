"""Money plays: currency a player puts down as a spot's wagers at a house-banked table.

Only chips on the table play (R5): the dealer changes exactly the wagers' amount for chips out
of the rack, onto the player's stack, and the wagers are taken from it at once — one
transaction, so the currency never becomes chips that could be played later. The cash goes
on the player's cash log as a *bet of currency* (31 CFR 1021.311(a)), with the multiple
transaction log, the CTR line and its identity requirement, and the structuring watch, like
any cash in. A designated-player table has no rack to change currency from: refused there.

A bet is paid in chips onto the stack when it settles (R9–R15); the house never pays a wager
in currency at the table, so a *payment on a bet* does not arise here — winnings leave as
chips redeemed at the cage.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import DomainError
from core.money import ZERO, money
from engine.table import Banking
from patrons.age import player_age_screen
from patrons.exclusions import player_screen
from patrons.models import CashKind
from tables import selectors as table_selectors
from tables.holds import hold_refusal
from tables.models import Seating, StackEntry, Tender
from tables.services.incidents import alerting
from tables.services.locks import seating_lock_for_change
from tables.services.racks import rack_require_counted
from tables.services.stacks import stack_entry_add
from wagers.models import Hand, Spot

from .lifecycle import locked_hand
from .play import wager_place

#: Where a refusal of the currency itself points (the wagers' own refusals name their fields).
CURRENCY_FIELD = "paid_with"


def wager_place_in_currency(
    *,
    hand: Hand,
    seating: Seating,
    ante: object,
    flush_bonus: object = ZERO,
    straight_flush_bonus: object = ZERO,
    seat: int | None = None,
    by: User,
) -> Spot:
    """A spot's ante and bonuses put down in currency (see the module): the player is screened
    like a buy-in (exclusions, age), and a refusal of the wagers changes nothing — neither the
    stack nor the rack nor the cash log."""
    with alerting(by):
        return _place(hand, seating, ante, flush_bonus, straight_flush_bonus, seat, by)


@transaction.atomic
def _place(
    hand: Hand,
    seating: Seating,
    ante: object,
    flush_bonus: object,
    straight_flush_bonus: object,
    seat: int | None,
    by: User,
) -> Spot:
    hand = locked_hand(hand, by, "take wagers")  # the lock order: the hand, then the seating
    table = hand.table
    if table.banking != Banking.HOUSE:
        raise DomainError(
            f"{table} is a designated-player table: it has no house bank to change currency "
            "for chips. The player buys chips at the cage; only chips play (R5).",
            field=CURRENCY_FIELD,
        )
    seating = seating_lock_for_change(seating, by, "take a bet of currency")
    if seating.table_id != table.pk:
        raise DomainError(f"{seating.player} is not seated at {table}.", field="seating")
    if seating.exclusion_hold_id is not None:
        raise hold_refusal(seating, by=by, action="bet currency")
    stakes = (
        money(ante, field="ante")
        + money(flush_bonus or ZERO, field="flush_bonus")
        + money(straight_flush_bonus or ZERO, field="straight_flush_bonus")
    )
    if stakes <= ZERO:
        raise DomainError("Give the ante the currency plays for.", field="ante")
    session = table_selectors.open_session(table)
    assert session is not None  # locked_hand refuses a hand of a closed table
    rack_require_counted(table, session, field=CURRENCY_FIELD, action="change currency for chips")
    player_screen(action="bet currency", player=seating.player, table=table, by=by)
    player_age_screen(action="bet currency", player=seating.player, table=table, by=by)
    stack_entry_add(
        seating=seating,
        amount=stakes,
        reason=StackEntry.Reason.ADD_ON,
        tender=Tender.CASH,
        by=by,
        field=CURRENCY_FIELD,
        cash_kind=CashKind.BET_OF_CURRENCY,
    )
    # The wagers' own checks (R5–R7) refuse here, rolling the change of currency back with them.
    return wager_place(
        hand=hand,
        seating=seating,
        ante=ante,
        flush_bonus=flush_bonus,
        straight_flush_bonus=straight_flush_bonus,
        seat=seat,
        by=by,
    )
