"""What the layers above do, in the same transaction, when an exclusion list or a player's
identity changes.

Patrons knows nothing of seats or hands (they are layers above it), yet an entry recorded or
imported, or an identity recorded, may match a player sitting at a table, who must stop
playing at once. So the services here hand their new rows to whatever the layers above
registered at start-up (``wagers.apps``: hold the seated players they match). The services call
these explicitly, after their rows are written and before their own audit event, so that the
seatings are locked before any audit chain, as everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.contrib.auth.models import User

from .models import Exclusion, Player

ExclusionsRecorded = Callable[[Sequence[Exclusion], User], Any]
IdentityRecorded = Callable[[Player, User], Any]

_exclusions_recorded: list[ExclusionsRecorded] = []
_identity_recorded: list[IdentityRecorded] = []


def on_exclusions_recorded(hook: ExclusionsRecorded) -> None:
    """Run ``hook(rows, by)`` whenever entries are added to a list (once, however often it is
    registered)."""
    if hook not in _exclusions_recorded:
        _exclusions_recorded.append(hook)


def on_identity_recorded(hook: IdentityRecorded) -> None:
    """Run ``hook(player, by)`` whenever a player's identity is put on file."""
    if hook not in _identity_recorded:
        _identity_recorded.append(hook)


def exclusions_recorded(rows: Sequence[Exclusion], *, by: User) -> None:
    if rows:
        for hook in _exclusions_recorded:
            hook(rows, by)


def identity_recorded(player: Player, *, by: User) -> None:
    for hook in _identity_recorded:
        hook(player, by)
