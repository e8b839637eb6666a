"""Keyset (cursor) pagination for every list (reads that stay flat as history
grows): a page is read through the index of the list's own order, from where the last page
ended; no ``COUNT(*)`` over the table and no ``OFFSET`` past millions of rows. A page answers
``{"next", "previous", "results"}``; ``next`` and ``previous`` carry an opaque cursor."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import DataError
from django.db.models import QuerySet
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination


class KeysetPagination(CursorPagination):
    """DRF's cursor pagination on the order each list's queryset already has (its
    ``order_by``, else its model's ``Meta.ordering``, else newest id first)."""

    page_size = 50
    cursor_query_param = "cursor"

    def paginate_queryset(self, queryset: QuerySet, request: Any, view: Any = None) -> Any:
        """A cursor is opaque but not signed: one whose position is not a value of the list's
        key (forged, or from another list) is a 404 like any cursor that cannot be read."""
        try:
            return super().paginate_queryset(queryset, request, view)
        except (ValidationError, ValueError, TypeError, OverflowError, DataError):
            raise NotFound(self.invalid_cursor_message) from None

    def get_ordering(self, request: Any, queryset: QuerySet, view: Any) -> tuple[str, ...]:
        ordering = tuple(
            field
            for field in (queryset.query.order_by or queryset.model._meta.ordering or ())
            if isinstance(field, str)
        )
        if not ordering:
            return ("-pk",)
        if not any(_unique(queryset.model, field.lstrip("-")) for field in ordering):
            # A unique last key: rows that tie on the others keep one order across pages.
            ordering += ("-pk",) if ordering[0].startswith("-") else ("pk",)
        return ordering


def _unique(model: Any, name: str) -> bool:
    if name in ("pk", "id"):
        return True
    try:
        return bool(model._meta.get_field(name).unique)
    except Exception:  # noqa: BLE001 - a lookup across a relation: not known to be unique
        return False
