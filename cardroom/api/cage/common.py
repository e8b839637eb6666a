"""What the cage's API modules share: who reads and writes, pieces by denomination, days."""

from __future__ import annotations

from datetime import date
from typing import Any

from rest_framework import serializers

from cardroom.kernel.errors import DomainError
from cardroom.kernel.roles import COMPLIANCE_AUDITOR, COUNT_TEAM, FLOOR_SUPERVISOR

SUPERVISOR = (FLOOR_SUPERVISOR,)
#: Who reads the drop boxes: the count team that counts them, supervisors and compliance.
COUNTERS = (COUNT_TEAM, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


def pieces(**kwargs: Any) -> serializers.DictField:
    """Pieces by denomination: ``{"25.00": 20}``, each a whole number (bounded so that a
    database can hold the total)."""
    return serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=10**7), **kwargs
    )


def gaming_day_of(text: str | None, field: str = "day") -> date:
    if not text:
        raise DomainError("Name the gaming day (YYYY-MM-DD).", field=field)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise DomainError(f"'{text}' is not a date (YYYY-MM-DD).", field=field) from None
