"""What the cage's API modules share: who reads and writes, pieces by denomination, days."""

from __future__ import annotations

from datetime import date
from typing import Any

from rest_framework.request import Request

from cardroom.api.fields import AsciiIntegerField, BoundedDictField
from core.errors import DomainError, PermissionDenied
from core.roles import COMPLIANCE_AUDITOR, COUNT_TEAM, FLOOR_SUPERVISOR
from tables import selectors as table_selectors

SUPERVISOR = (FLOOR_SUPERVISOR,)
#: Who reads the drop boxes: the count team that counts them, supervisors and compliance.
COUNTERS = (COUNT_TEAM, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


#: The most chip denominations (or bills) a cardroom counts in.
MAX_DENOMINATIONS = 50


def pieces(**kwargs: Any) -> BoundedDictField:
    """Pieces by denomination: ``{"25.00": 20}``, each a whole number (bounded so that a
    database can hold the total)."""
    return BoundedDictField(
        child=AsciiIntegerField(min_value=0, max_value=10**7),
        max_length=MAX_DENOMINATIONS,
        **kwargs,
    )


def require_sees_cage_records(request: Request, table_id: int) -> None:
    """A table's rack counts and slips: the dealer on duty there, floor supervisors and
    compliance (``tables.selectors.Viewer``); not another table's dealer, nor administrators."""
    if not table_selectors.viewer(request.user).sees_cage_records(table_id):
        raise PermissionDenied(
            "Only the table's dealer on duty, floor supervisors and compliance see its rack "
            "counts and slips."
        )


def gaming_day_of(text: str | None, field: str = "day") -> date:
    if not text:
        raise DomainError("Name the gaming day (YYYY-MM-DD).", field=field)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise DomainError(f"'{text}' is not a date (YYYY-MM-DD).", field=field) from None
