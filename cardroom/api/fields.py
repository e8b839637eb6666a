"""Serializer fields shared by the API modules: money, seats, ids, cards, times of day, people's
names."""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.errors import DomainError
from core.money import money, money_text
from core.people import person_name


@extend_schema_field({"type": "string", "pattern": r"^\d{1,10}(\.\d{1,2})?$", "example": "25.00"})
class MoneyField(serializers.Field):
    """Money in and out as a decimal string ("25.00"); an integer is accepted, a float never."""

    def to_internal_value(self, data: Any) -> Decimal:
        try:
            return money(data, field=self.field_name or "")
        except DomainError as error:
            raise serializers.ValidationError(error.message) from None

    def to_representation(self, value: Any) -> str:
        return money_text(value)


@extend_schema_field({"type": "string", "pattern": r"^-?\d{1,10}\.\d{2}$", "example": "-401.00"})
class SignedMoneyField(MoneyField):
    """Money that may be negative, out only: a net, a reversal, a stack movement ("-5.00")."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)


@extend_schema_field({"type": "string", "example": "Fran Ortiz"})
class PersonNameField(serializers.Field):
    """A person by full name (their username where the account has none), out only: beside
    the id that names them (``source`` is the user)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return person_name(value)


@extend_schema_field(
    {
        "type": "string",
        "pattern": r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,6})?)?$",
        "example": "06:00",
    }
)
class WallClockField(serializers.TimeField):
    """A time of day on the cardroom's wall clock ("06:00"): no date and no UTC offset, so not
    the RFC 3339 ``time`` format the schema would otherwise claim."""


#: The largest id a database keeps (SQLite's INTEGER, PostgreSQL's bigint: signed 64 bits).
#: A larger number names nothing; SQLite cannot even be asked about it.
MAX_ID = 2**63 - 1
#: Seats are small numbers (R1: at most 7); the services say which are valid.
MAX_SEAT = 32767


_ASCII_INTEGER = re.compile(r"-?[0-9]{1,19}")


class AsciiIntegerField(serializers.IntegerField):
    """DRF's IntegerField, but a number given as text has ASCII digits only: ``int()`` would
    also read "٥" (Arabic-Indic five) or "５" (full-width) as 5."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not _ASCII_INTEGER.fullmatch(data.strip()):
            self.fail("invalid")
        return super().to_internal_value(data)


def IdField(**kwargs: Any) -> serializers.IntegerField:  # noqa: N802 - reads like a field class
    """The id of a row, in a body."""
    return AsciiIntegerField(min_value=1, max_value=MAX_ID, **kwargs)


def SeatField(**kwargs: Any) -> serializers.IntegerField:  # noqa: N802 - reads like a field class
    """A seat number, in a body (bounded only so that a database can be asked about it)."""
    return AsciiIntegerField(min_value=-MAX_SEAT, max_value=MAX_SEAT, **kwargs)


def RowField(queryset: Any, **kwargs: Any) -> serializers.PrimaryKeyRelatedField:  # noqa: N802
    """A row named by its id, in a body (of the request's cardrooms: the models' managers
    limit the queryset when the body is read, ``core.scoping``)."""
    return serializers.PrimaryKeyRelatedField(queryset=queryset, pk_field=IdField(), **kwargs)


def seat_keys(mapping: dict[str, Any] | None, *, field: str) -> dict[int, Any]:
    """``{"3": …}`` (JSON keys are strings) as ``{3: …}``; a key that is not a seat number is
    refused naming ``field``."""
    seats = {}
    for key, value in (mapping or {}).items():
        if not re.fullmatch(r"[0-9]{1,5}", str(key)):
            raise DomainError(f"'{key}' is not a seat number.", field=field)
        seats[int(key)] = value
    return seats


@extend_schema_field(OpenApiTypes.STR)
class CardsField(serializers.CharField):
    """Cards in R1 notation, as the dealer types them: ``"As Td 9h 8c 7d 3s 2h"``."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 60)
        super().__init__(**kwargs)


class BoundedDictField(serializers.DictField):
    """A JSON object of at most ``max_length`` keys, counted before any value is read (the
    input serializers' walk checks the same first: ``inputs.refuse_too_long``)."""

    default_error_messages = {"max_length": "At most {max_length} keys are taken."}

    def __init__(self, *, max_length: int, **kwargs: Any) -> None:
        self.max_length = max_length
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> dict[Any, Any]:
        if isinstance(data, Mapping) and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)
