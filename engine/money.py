"""Money: parsed once into integer cents, formatted once as a two-decimal string.

The engine computes in whole cents (exact, and several times faster than ``Decimal`` on the
settlement hot path); ``to_decimal``/``from_decimal`` are the bridge to the ``Decimal`` amounts
the database stores. Floats are refused everywhere.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from .errors import RoundError

Cents = int

# Ten digits before the point: what DecimalField(max_digits=12, decimal_places=2) can hold.
# ASCII digits only: ``\d`` and ``int()`` would also read "٥" (Arabic-Indic five) as 5.
_AMOUNT = re.compile(r"([0-9]{1,10})(?:\.([0-9]{1,2}))?")
_CENT = Decimal("0.01")
# Amounts repeat (antes, bonuses, the same few figures over and over): each text is parsed, and
# each number of cents formatted, once (``settle_round --jsonl``'s per-line cost).
# Bounded, so that a stream of distinct amounts cannot grow them without end.
_MEMO = 1 << 16
_PARSED: dict[str, Cents] = {}
_FORMATTED: dict[Cents, str] = {}
#: The amount texts parsed so far and their cents: a caller's fast path reads them without naming
#: the field that only a refusal needs (settle-json's spots). Any hashable value may be looked
#: up: all but a known text miss.
PARSED_AMOUNTS: Mapping[Any, Cents] = _PARSED


def parse_amount(value: object, *, field: str) -> Cents:
    """A non-negative amount given as a decimal string (``"12.50"``) or an integer (``12``)."""
    if type(value) is str and (known := _PARSED.get(value)) is not None:
        return known
    if isinstance(value, bool) or not isinstance(value, int | str | Decimal):
        raise RoundError(
            field,
            'An amount must be a decimal string like "12.50" or a whole number; '
            f"{_describe(value)} is not accepted.",
        )
    if isinstance(value, int):
        if not 0 <= value < 10**10:
            raise RoundError(field, f"{value} is not an amount between 0 and 9999999999.99.")
        return value * 100
    if isinstance(value, Decimal):
        return from_decimal(value, field=field)
    match = _AMOUNT.fullmatch(value)
    if match is None:
        raise RoundError(
            field,
            f"'{value}' is not an amount: write dollars and at most two decimals, like \"12.50\".",
        )
    dollars, cents = match.groups()
    parsed = int(dollars) * 100 + int((cents or "0").ljust(2, "0"))
    if type(value) is str and len(_PARSED) < _MEMO:
        _PARSED[value] = parsed
    return parsed


def format_amount(cents: Cents) -> str:
    """``-40100`` → ``"-401.00"``: always two decimals."""
    text = _FORMATTED.get(cents)
    if text is None:
        sign = "-" if cents < 0 else ""
        whole, part = divmod(abs(cents), 100)
        text = f"{sign}{whole}.{part:02d}"
        if len(_FORMATTED) < _MEMO:
            _FORMATTED[cents] = text
    return text


def to_decimal(cents: Cents) -> Decimal:
    return Decimal(cents).scaleb(-2)


def from_decimal(value: Decimal, *, field: str) -> Cents:
    if not value.is_finite() or value < 0 or value != value.quantize(_CENT):
        raise RoundError(field, f"{value} is not an amount in dollars and cents.")
    return int(value * 100)


def _describe(value: object) -> str:
    if isinstance(value, float):
        return f"the number {value!r} (a JSON float)"
    return f"a {type(value).__name__}"
