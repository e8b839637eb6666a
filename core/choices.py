"""Model choices from the engine's enums, read as words ("walked away", not "walked_away")."""

from __future__ import annotations

from enum import StrEnum


def enum_choices(enum: type[StrEnum]) -> list[tuple[str, str]]:
    return [(member.value, member.value.replace("_", " ")) for member in enum]
