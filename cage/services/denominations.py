"""A change of the cardroom's chip denominations, guarded: a denomination is withdrawn only
when no rack and not the cage holds a chip of it (Nevada MICS, table games and cage: every
chip is accounted for until it is redeemed)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction

from core.errors import Conflict
from core.money import MoneyInput, money, money_text
from core.permissions import require_supervisor
from patrons.models import Cardroom
from tables.services.cardrooms import cardroom_denominations_set

from ..holdings import denomination_holders
from .common import locked_cardroom


@transaction.atomic
def cardroom_denominations_change(
    *, cardroom: Cardroom, denominations: Sequence[MoneyInput], by: User
) -> Cardroom:
    """The chip denominations from now on (``tables.services.cardrooms``), refused naming
    ``denominations`` while any withdrawn one is still held, with who holds it."""
    require_supervisor(by, action="set a cardroom's chip denominations")
    cardroom = locked_cardroom(cardroom)
    kept = {money_text(money(value, field="denominations")) for value in denominations}
    held = []
    for withdrawn in sorted(set(cardroom.chip_denominations) - kept, key=Decimal):
        holders = denomination_holders(cardroom, withdrawn)
        if holders:
            held.append(f"${withdrawn} ({'; '.join(holders)})")
    if held:
        raise Conflict(
            "A denomination is withdrawn only once no rack and not the cage holds it; still "
            f"held: {', '.join(held)}. Credit those chips to the cage first.",
            field="denominations",
        )
    return cardroom_denominations_set(cardroom=cardroom, denominations=denominations, by=by)
