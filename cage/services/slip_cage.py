"""The cage's side of a fill or a credit (Nevada MICS cage; 25 CFR 543.18): a fill's chips
leave the cage's books when the cashier holding the cage prepares them, a credit's come in
when the cashier receives them, and a prepared fill that is voided brings its chips back. So
the cage's count always agrees with its books, whichever step the slip is at."""

from __future__ import annotations

from django.contrib.auth.models import User

from core.errors import Conflict
from core.money import ZERO

from .. import cashier_books
from ..models import CageEntry, Slip, SlipStep
from .cage_ledger import entry_write
from .cashier import held_cage
from .common import locked_cardroom

Kind = CageEntry.Kind


def _pieces(slip: Slip, sign: int) -> dict[str, int]:
    return {denomination: sign * n for denomination, n in slip.chips.items() if n}


def slip_cage_sends(slip: Slip, by: User) -> CageEntry:
    """A fill prepared: its chips out of the cage, by ``by``, who must hold it (refused
    naming ``cashier``; a closed cage naming ``cardroom``); never below what the cage holds
    (refused naming ``chips.<denomination>``)."""
    cardroom, shift = held_cage(slip.cardroom, by, action="prepare a fill")
    return entry_write(
        cardroom, shift, Kind.FILL_SENT, _pieces(slip, -1), ZERO, reference=slip.number, by=by
    )


def slip_cage_receives(slip: Slip, by: User) -> CageEntry:
    """A credit received at the cage: its chips into the cage, by the cashier holding it."""
    cardroom, shift = held_cage(slip.cardroom, by, action="receive a credit")
    return entry_write(
        cardroom,
        shift,
        Kind.CREDIT_RECEIVED,
        _pieces(slip, 1),
        ZERO,
        reference=slip.number,
        by=by,
    )


def slip_cage_takes_back(slip: Slip) -> CageEntry | None:
    """A fill voided after the cage prepared it: its chips come back to the cage, booked to
    the cashier holding it now. Refused while the cage is closed (field ``slip``): the chips
    go back to a cage that counts them."""
    if not SlipStep.objects.filter(slip=slip, step=SlipStep.Name.PREPARED).exists():
        return None
    cardroom = locked_cardroom(slip.cardroom)
    shift = cashier_books.open_cage_shift(cardroom)
    if shift is None:
        raise Conflict(
            f"{slip.number}'s chips left the cage: open the cage to take them back before the "
            "void.",
            field="slip",
        )
    return entry_write(
        cardroom,
        shift,
        Kind.FILL_RETURNED,
        _pieces(slip, 1),
        ZERO,
        reference=slip.number,
        by=shift.cashier,
    )
