"""The dealers due for a push, a break or back from one: the floor dashboard's rows read them
here, so that the dashboard and the dealers screen show one list."""

from __future__ import annotations

from django import template
from django.utils import timezone

from cardroom.screens.base import working_cardroom
from tables.dealer_selectors import DealerRow, dealers_due

register = template.Library()


@register.simple_tag
def dealers_due_now() -> list[DealerRow]:
    """The screens' cardroom's dealers due now, longest over first (none without a cardroom)."""
    cardroom = working_cardroom()
    return [] if cardroom is None else dealers_due(cardroom, timezone.now())
