"""``{% seat_openings as openings %}``: the open seats of the floor's dashboard, with who is
called to each (``tables.waitlist_selectors``), for the partial the dashboard includes."""

from __future__ import annotations

from django import template

from cardroom.screens.base import working_cardroom
from tables import waitlist_selectors

register = template.Library()


@register.simple_tag
def seat_openings() -> waitlist_selectors.ListedOpenings:
    """The open seats a list waits for, listed, and the rest counted (a room of many tables
    has many, and the floor acts on the seats a list waits for)."""
    cardroom = working_cardroom()
    none = waitlist_selectors.ListedOpenings([], 0)
    return none if cardroom is None else waitlist_selectors.listed_openings(cardroom)
