"""Who holds chips of a denomination: every table's rack by the books, and the cage. A
denomination may be withdrawn only once nobody does (Nevada MICS, table games: every chip
issued is accounted for in a rack, the cage or the players' hands until it is redeemed), for
chips of a withdrawn denomination could be neither counted nor credited."""

from __future__ import annotations

from patrons.models import Cardroom
from tables.models import Table
from tables.rack_selectors import rack_pieces_by_the_books

from . import cashier_books


def rack_pieces(table: Table) -> dict[str, int]:
    """A house-banked table's rack by the books, by denomination (``tables.Rack``: its last
    count, plus fills, less credits); nothing before its first count."""
    return rack_pieces_by_the_books(table) or {}


def cage_pieces(cardroom: Cardroom) -> dict[str, int]:
    """The pieces of each denomination the cage holds (its float and vault included), by the
    cashier's books: its last count plus every cage entry since."""
    return cashier_books.cage_pieces(cardroom)


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
