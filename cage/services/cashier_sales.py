"""Players' cash at the cage, recorded by the cashier holding it: chips sold for cash and chips
redeemed for cash. Each moves the cage's books (chips by denomination one way, cash the other)
and goes on the player's cash log in the same transaction — the multiple transaction log, the
currency transaction report and its identity requirement, the structuring watch (31 CFR
1021.311–313, Title 31) — through ``patrons.cash.cage_cash_record``. A buyer is screened
against the exclusion lists like a buy-in at a table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import DomainError
from patrons.cash import cage_cash_record
from patrons.exclusions import alerting
from patrons.models import CashTransaction, Player

from ..models import CageEntry
from .cage_ledger import entry_write, require_covered
from .cashier import held_cage
from .common import count_parse


def cage_chips_sell(*, player: Player, chips: Mapping[str, Any], by: User) -> CageEntry:
    """The cashier sells ``player`` these chips (by denomination) for their value in cash."""
    with alerting(by):
        return _cage_player_cash(player, chips, CashTransaction.Direction.IN, by)


def cage_chips_redeem(*, player: Player, chips: Mapping[str, Any], by: User) -> CageEntry:
    """The cashier redeems ``player``'s chips (by denomination) for their value in cash."""
    with alerting(by):
        return _cage_player_cash(player, chips, CashTransaction.Direction.OUT, by)


@transaction.atomic
def _cage_player_cash(
    player: Player, chips: Mapping[str, Any], direction: str, by: User
) -> CageEntry:
    cardroom, shift = held_cage(player.cardroom, by, action="record a player's cash at the cage")
    pieces, total = count_parse(
        chips, cardroom.chip_denominations, field="chips", largest=cardroom.largest_cage_amount
    )
    if not total:
        raise DomainError("Give the chips, by denomination.", field="chips")
    selling = direction == CashTransaction.Direction.IN
    sign = -1 if selling else 1
    moved = {d: sign * n for d, n in pieces.items() if n}
    # What the cage cannot cover is refused before the cash log is asked.
    require_covered(cardroom, moved, -sign * total)
    row = cage_cash_record(player=player, direction=direction, amount=total, by=by)
    kind = CageEntry.Kind.CHIPS_SOLD_FOR_CASH if selling else CageEntry.Kind.CHIPS_REDEEMED
    return entry_write(
        cardroom,
        shift,
        kind,
        moved,
        -sign * total,
        reference=f"player {player.pk}",
        by=by,
        cash_transaction=row,
    )
