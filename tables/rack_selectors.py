"""Reads of a house-banked table's rack by the books (``tables.Rack``)."""

from __future__ import annotations

from decimal import Decimal

from .models import Rack, Table

CENT = Decimal("0.01")


def rack_pieces_by_the_books(table: Table) -> dict[str, int] | None:
    """The rack's chips by denomination as the books know them (the last count, plus fills,
    less credits); ``None`` before the table's first count."""
    rack = Rack.objects.filter(table=table).only("pieces").first()
    return None if rack is None else dict(rack.pieces)


def rack_value_by_the_books(table: Table) -> Decimal | None:
    """What the rack holds by the books now, every move included; ``None`` before the
    table's first count."""
    held = Rack.objects.filter(table=table).values_list("cents", flat=True).first()
    return None if held is None else held * CENT
