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
