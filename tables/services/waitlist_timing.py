"""The waitlist's two clocks, set by the floor: the minutes a called player has to take the
seat before the call passes to the next (``seat_call_minutes``), and the minutes a place
joined by phone is held for its player (``phone_hold_minutes``). A call or hold already
running keeps the deadline it was given; the next one is timed by the new setting."""

from __future__ import annotations

from django.contrib.auth.models import User

from audit.actions import AuditAction
from core.permissions import require_supervisor
from patrons.models import WAITLIST_MINUTES_BOUNDS, Cardroom

from .cardroom_minutes import cardroom_minutes_set

LABELS = {
    "seat_call_minutes": "the minutes to take a called seat",
    "phone_hold_minutes": "the minutes a phone entry is held",
}


def cardroom_waitlist_timing_set(
    *, cardroom: Cardroom, values: dict[str, object], by: User
) -> Cardroom:
    """Set the waitlist's minutes named in ``values`` (whole minutes, 1 to 120; a setting not
    named keeps its value); audited with both sides."""
    require_supervisor(by, action="set the waitlist's minutes")
    return cardroom_minutes_set(
        cardroom=cardroom,
        values=values,
        labels=LABELS,
        bounds=WAITLIST_MINUTES_BOUNDS,
        group="waitlist",
        action=AuditAction.CARDROOM_WAITLIST_TIMING_SET,
        by=by,
    )
