"""Money in the database: ``Decimal`` with two places, never float (design.md, convention 3).

Parsing and formatting live in the engine (``engine.money``), which computes in cents;
this module is the bridge the Django side uses.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import models

from core.errors import DomainError
from engine.errors import RoundError
from engine.money import format_amount, parse_amount, to_decimal

ZERO = Decimal("0.00")
#: Every stored amount is below this: 12 digits, 2 of them cents (``MoneyField``).
MONEY_LIMIT = Decimal(10**10)
#: An amount as it comes from a form, a request body or a caller: parsed by ``money``.
MoneyInput = Decimal | str | int


def MoneyField(**kwargs: Any) -> models.DecimalField:  # noqa: N802 - reads like a field class
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)


def money(value: object, *, field: str) -> Decimal:
    """An amount from user input (a decimal string, an int or a Decimal), or a DomainError
    naming ``field``. Floats are refused."""
    try:
        return to_decimal(parse_amount(value, field=field))
    except RoundError as error:
        raise DomainError(error.message, field=field) from None


def cents(value: Decimal) -> int:
    return int(value * 100)


def money_text(value: Decimal) -> str:
    """``Decimal("5")`` → ``"5.00"``: the form money takes in audit payloads and exports."""
    return format_amount(cents(value))


def dollars_text(value: Decimal) -> str:
    """``Decimal("20000")`` → ``"$20,000.00"``, ``-5`` → ``"-$5.00"``: an amount as a person
    reads it on a screen or in a sentence (thousands separated, always two decimals)."""
    text = f"{abs(value):,.2f}"
    return f"-${text}" if value < 0 else f"${text}"
