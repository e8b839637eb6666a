"""What every input must be, wherever it comes from (a JSON body, a form, a query, a CSV
file): text with no NUL character, and numbers and dates written in ASCII digits.

PostgreSQL's text and jsonb cannot hold a NUL (a value echoed into an error that is then
stored, as an Idempotency-Key's answer is, would fail as a 500); Python's ``int()`` and the
date parsers read "٥" (Arabic-Indic five) or "５" (full-width) as 5, which a person checking
a slip would not.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date
from typing import Any

from django import forms
from django.core.exceptions import SuspiciousOperation, ValidationError

NUL = "\x00"


class NulCharacter(SuspiciousOperation):
    """A request whose path, query, form field or file name holds a NUL: a 400 naming where."""

    def __init__(self, field: str | None) -> None:
        super().__init__(f"A NUL character in {field or 'the path'}.")
        self.field = field


def nul_message(field: str | None) -> str:
    where = f"'{field}'" if field else "the address"
    return f"{where} holds a NUL character (\\u0000), which is never accepted."


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is written in ASCII only: the test every number and date typed as
    text passes before it is parsed."""
    return text.isascii()


ASCII_DIGITS_MESSAGE = "Write numbers and dates with the digits 0-9."

_MONTH = re.compile(r"([0-9]{4})-([0-9]{2})")


def month_of(text: str) -> tuple[int, int]:
    """``"2026-03"`` → ``(2026, 3)``; a ValueError for anything else."""
    match = _MONTH.fullmatch(text)
    if match is None:
        raise ValueError(f"{text!r} is not a month (YYYY-MM).")
    year, number = int(match[1]), int(match[2])
    date(year, number, 1)  # a month of the calendar
    return year, number


def whole_number(text: str | None) -> int | None:
    """A whole number typed in ASCII digits (a page, an id in a query), or None."""
    if text is None or not re.fullmatch(r"[0-9]{1,18}", text):
        return None
    return int(text)


#: Form fields that read a number, a date or a row's id from text (Django's would read "٥").
FORM_FIELDS_IN_DIGITS = (
    forms.IntegerField,
    forms.DecimalField,
    forms.FloatField,
    forms.DateField,
    forms.DateTimeField,
    forms.TimeField,
    forms.DurationField,
    forms.ModelChoiceField,
)


class AsciiDigitsForm(forms.Form):
    """The base of every form (the screens', and the API's filters): a number, a date or an
    id typed with other digits than ASCII's is refused next to its field."""

    def full_clean(self) -> None:
        # At cleaning, not construction: a form may add fields in its own __init__. Each form
        # has its own copies of its fields, so the class's fields are left as they are.
        for field in self.fields.values():
            if isinstance(field, FORM_FIELDS_IN_DIGITS) and not hasattr(field, _CHECKED):
                field.to_python = _ascii_first(field.to_python)  # type: ignore[method-assign,assignment]
                setattr(field, _CHECKED, True)
        super().full_clean()


_CHECKED = "_cardroom_ascii_digits"


def _ascii_first(to_python: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def checked(value: Any) -> Any:
        if isinstance(value, str) and not ascii_digits(value):
            raise ValidationError(ASCII_DIGITS_MESSAGE, code="ascii_digits")
        return to_python(value)

    return checked
