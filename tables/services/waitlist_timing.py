"""The waitlist's two clocks, set by the floor: the minutes a called player has to take the
seat before the call passes to the next (``seat_call_minutes``), and the minutes a place
joined by phone is held for its player (``phone_hold_minutes``). A call or hold already
running keeps the deadline it was given; the next one is timed by the new setting."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError
from core.permissions import require_supervisor
from patrons.models import WAITLIST_MINUTES_BOUNDS, WAITLIST_MINUTES_SETTINGS, Cardroom

_NAMES = {
    "seat_call_minutes": "the minutes to take a called seat",
    "phone_hold_minutes": ("the minutes a phone entry is held"),
}


def _checked_minutes(name: str, value: object) -> int:
    if name not in WAITLIST_MINUTES_SETTINGS:
        raise DomainError(f"There is no waitlist setting {name!r}.", field=name)
    low, high = WAITLIST_MINUTES_BOUNDS
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DomainError(
            f"Give {_NAMES[name]} as a whole number of minutes, {low} to {high}.", field=name
        )
    return value


@transaction.atomic
def cardroom_waitlist_timing_set(
    *, cardroom: Cardroom, values: dict[str, object], by: User
) -> Cardroom:
    """Set the waitlist's minutes named in ``values`` (a setting not named keeps its value);
    every value is checked before any is kept, and the change is audited with both sides."""
    require_supervisor(by, action="set the waitlist's minutes")
    checked = {name: _checked_minutes(name, value) for name, value in values.items()}
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    before = {name: getattr(cardroom, name) for name in WAITLIST_MINUTES_SETTINGS}
    for name, minutes in checked.items():
        setattr(cardroom, name, minutes)
    cardroom.save(update_fields=list(WAITLIST_MINUTES_SETTINGS))
    after = {name: getattr(cardroom, name) for name in WAITLIST_MINUTES_SETTINGS}
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_WAITLIST_TIMING_SET,
        target=cardroom,
        payload={"before": before, "after": after},
    )
    return cardroom
