"""Template filters for money, settlement lines and game-math figures."""

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django import template

from cardroom.kernel.money import money_text
from wagers.engine.game_math import format_figure

register = template.Library()


@register.filter
def money(value: Decimal | str | int | None) -> str:
    """``Decimal("5")`` → ``"5.00"``; empty for None."""
    return "" if value is None else money_text(Decimal(value))


@register.filter
def signed(value: Decimal | str | int) -> str:
    """A net with its sign: ``+25.00``, ``-5.00``, ``0.00``."""
    try:
        number = Decimal(value)
    except (InvalidOperation, TypeError):
        return str(value)
    return f"+{money_text(number)}" if number > 0 else money_text(number)


@register.filter
def sign(value: Decimal | str | int) -> str:
    """A CSS class for a net: win, lose or push."""
    try:
        number = Decimal(value)
    except (InvalidOperation, TypeError):
        return ""
    return "win" if number > 0 else "lose" if number < 0 else "push"


@register.filter
def wager_lines(spot: dict[str, Any]) -> list[Any]:
    return [spot.get(name) for name in ("ante", "raise", "flush_bonus", "straight_flush_bonus")]


@register.filter
def percent(value: Fraction | None, places: int = 4) -> str:
    """An exact ratio as a percentage: ``Fraction(921928, 10**6)|percent`` → ``92.1928%``
    (rounded half-even, as game-math.md prints figures); a dash for None."""
    if value is None:
        return "–"
    return f"{format_figure(Fraction(value) * 100, int(places))}%"
