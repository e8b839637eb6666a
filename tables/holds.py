"""A seat held because an exclusion list entry matched its player while seated
(``Seating.exclusion_hold``): who sits where an entry may match, and what a held seat is
refused.

The hold itself is written by ``wagers.services.holds``, which also gives back the player's
wagers of a hand not yet dealt. From then on, until the seating ends:
- no wager is taken for the seat (``wagers.services.play``), and the rotation never offers it
  the designated-player position (R16, ``tables.rotation``);
- a dealer's every change to the seat (add chips, cash out, sit out, come back, waive, leave)
  is refused with the neutral ``call_floor``: the chips leave the table only through a floor
  supervisor's cash-out (or leave, or closing the table);
- nobody adds chips to it; a floor supervisor is told why (``patrons.refusals``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.utils import timezone

from core.errors import Conflict
from core.roles import FLOOR_SUPERVISOR, role_of
from patrons.refusals import held_refusal, told_the_reason
from patrons.selectors import Person

from .models import Seating


def hold_refusal(
    seating: Seating, *, by: User, action: str = "play", field: str = "seating"
) -> Conflict:
    """The refusal of ``action`` at a held seat: neutral for a dealer; for the floor and
    compliance, the entry that holds it (read only for them)."""
    exclusion = seating.exclusion_hold if told_the_reason(by) else None
    return held_refusal(action, exclusion, by=by, who=seating.player, field=field)


def require_floor_for_held(seating: Seating, *, by: User, action: str = "play") -> None:
    """A held seat changes only by a floor supervisor's hand: anyone else is refused."""
    if seating.exclusion_hold_id is not None and role_of(by) != FLOOR_SUPERVISOR:
        raise hold_refusal(seating, by=by, action=action, field="seating")


@dataclass(frozen=True)
class Seated:
    """A seated player who is not held, as an exclusion entry is matched against them, with
    the day it is in the cardroom's zone."""

    seating_id: int
    table_id: int
    person: Person
    today: date


def seated_unheld(
    *, cardroom_ids: set[int] | None = None, player_id: int | None = None
) -> list[Seated]:
    """Everybody seated and not held (in those cardrooms, or that player), in one query: the
    name, date of birth and ID hash on file; never the ID number (which would be decrypted)."""
    rows = Seating.objects.filter(left_at=None, exclusion_hold__isnull=True)
    if cardroom_ids is not None:
        rows = rows.filter(player__cardroom_id__in=cardroom_ids)
    if player_id is not None:
        rows = rows.filter(player_id=player_id)
    zones: dict[str, date] = {}
    found = []
    for pk, table_id, player, name, cardroom_id, zone, born, hashed in rows.values_list(
        "pk",
        "table_id",
        "player_id",
        "player__name",
        "player__cardroom_id",
        "player__cardroom__time_zone",
        "player__identity__date_of_birth",
        "player__identity__id_hash",
    ).order_by("pk"):
        if zone not in zones:
            zones[zone] = timezone.localdate(timezone=ZoneInfo(zone))
        person = Person(cardroom_id, player, name, born, hashed or "")
        found.append(Seated(pk, table_id, person, zones[zone]))
    return found
