"""Filters the API's lists share."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError
from django_filters.fields import IsoDateTimeField

from .fields import MAX_ID


class UtcIsoDateTimeField(IsoDateTimeField):
    """An ISO 8601 moment, as UTC: the database is asked in UTC. A moment with an offset
    PostgreSQL does not take (beyond ±15:59, e.g. ``+23:03``) or with no UTC equivalent
    (``0001-01-01T00:00+14:00``) is refused here rather than by the database (a 500)."""

    def to_python(self, value: object) -> datetime | None:
        moment = super().to_python(value)
        if moment is None:
            return None
        try:
            return moment.astimezone(UTC)
        except OverflowError:
            raise ValidationError("This moment is outside the calendar kept.") from None


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UtcIsoDateTimeField


class IdFilter(django_filters.NumberFilter):
    """A row's id: a whole number a database can be asked about (SQLite's driver raises on a
    larger one, a 500)."""

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)
