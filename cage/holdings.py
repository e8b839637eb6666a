"""Who holds chips of a denomination: every table's rack by the books, and the cage. A
denomination may be withdrawn only once nobody does (Nevada MICS, table games: every chip
issued is accounted for in a rack, the cage or the players' hands until it is redeemed), for
chips of a withdrawn denomination could be neither counted nor credited."""

from __future__ import annotations

from patrons.models import Cardroom
from tables.models import Table

from .models import InventoryCount, Slip


def rack_pieces(table: Table) -> dict[str, int]:
    """A house-banked table's rack by the books, by denomination: its last count plus the
    pieces of every fill delivered since, less those of every credit. Chips paid out or
    taken in by play and sales move amounts, not pieces, so the count they reach next
    settles them; until then the count is what the books know of the pieces."""
    count = InventoryCount.objects.filter(table=table).order_by("-id").first()
    if count is None:
        return {}
    pieces = {denomination: int(n) for denomination, n in count.chips.items()}
    delivered = Slip.objects.filter(
        table=table, delivery__isnull=False, delivery__bank_entry_id__gt=count.bank_through
    )
    for slip in delivered:
        sign = 1 if slip.kind == Slip.Kind.FILL else -1
        for denomination, n in slip.chips.items():
            pieces[denomination] = pieces.get(denomination, 0) + sign * int(n)
    return pieces


def cage_pieces(cardroom: Cardroom) -> dict[str, int]:
    """The pieces of each denomination the cage holds (its float and vault included), by its
    books. The cashier's cage books plug in here: until the cage department keeps them, the
    cage is not known to hold any piece."""
    return {}


def denomination_holders(cardroom: Cardroom, denomination: str) -> list[str]:
    """Everyone holding chips of ``denomination`` (``"25.00"``), one line each: "Table 3: 4
    chips", "The cage: 120 chips"."""
    holders = []
    for table in Table.objects.filter(cardroom=cardroom).order_by("name", "pk"):
        held = rack_pieces(table).get(denomination, 0)
        if held:
            holders.append(f"{table.name}: {held} chip{'s' if held != 1 else ''}")
    in_cage = cage_pieces(cardroom).get(denomination, 0)
    if in_cage:
        holders.append(f"The cage: {in_cage} chip{'s' if in_cage != 1 else ''}")
    return holders
