"""``{% seat_openings as openings %}``: the open seats of the floor's dashboard, with who is
called to each (``tables.waitlist_selectors``), for the partial the dashboard includes."""

from __future__ import annotations

from django import template

from cardroom.screens.base import working_cardroom
from tables import waitlist_selectors

register = template.Library()


@register.simple_tag
def seat_openings() -> list[waitlist_selectors.SeatOpening]:
    cardroom = working_cardroom()
    return [] if cardroom is None else waitlist_selectors.seat_openings(cardroom)


@register.filter
def without_list(openings: list[waitlist_selectors.SeatOpening]) -> int:
    """How many open seats no list waits for: counted, not listed (a room of many tables has
    many, and the floor acts on the seats a list waits for)."""
    return sum(1 for opening in openings if opening.waitlist is None)
