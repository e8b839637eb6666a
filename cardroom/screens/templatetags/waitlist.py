"""``{% seat_openings as openings %}``: the open seats of the floor's dashboard, with who is
called to each (``tables.waitlist_selectors``), for the partial the dashboard includes."""

from __future__ import annotations

from django import template

from patrons.models import Cardroom
from tables import waitlist_selectors

register = template.Library()


@register.simple_tag
def seat_openings() -> list[waitlist_selectors.SeatOpening]:
    cardroom = Cardroom.objects.order_by("pk").first()
    return [] if cardroom is None else waitlist_selectors.seat_openings(cardroom)


@register.filter
def with_list(openings: list[waitlist_selectors.SeatOpening]) -> list:
    """The open seats a list waits for: the rows the dashboard shows."""
    return [opening for opening in openings if opening.waitlist is not None]


@register.filter
def without_list(openings: list[waitlist_selectors.SeatOpening]) -> int:
    """How many open seats no list waits for: counted, not listed (a room of many tables has
    many, and the floor acts on the seats a list waits for)."""
    return sum(1 for opening in openings if opening.waitlist is None)
