"""Cardrooms: their creation, shifts, chip denominations and largest cage amount."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import time
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import MoneyInput, money, money_text
from core.permissions import require_role, require_supervisor
from core.roles import ADMINISTRATOR
from patrons.models import Cardroom

from .. import catalogue, selectors
from ..models import Shift


@transaction.atomic
def cardroom_create(
    *,
    name: str,
    time_zone: str = "UTC",
    gaming_day_starts_at: time = time(6, 0),
    by: User,
) -> Cardroom:
    """An administrator creates a cardroom. Self-approval (R17) starts off: switching it on is
    a change of its own, approved by a second administrator (``self_approval_change_*``)."""
    require_role(by, ADMINISTRATOR, action="create a cardroom")
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise DomainError(f"'{time_zone}' is not a time zone name.", field="time_zone") from None
    if Cardroom.objects.filter(name=name).exists():
        raise Conflict(f"A cardroom named {name!r} exists already.", field="name")
    cardroom = Cardroom.objects.create(
        name=name, time_zone=time_zone, gaming_day_starts_at=gaming_day_starts_at
    )
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_CREATED,
        target=cardroom,
        payload={
            "name": name,
            "time_zone": time_zone,
            "gaming_day_starts_at": gaming_day_starts_at,
            "self_approval_allowed": False,
        },
    )
    # R17: its catalogue of approved paytables starts with the new-table defaults.
    seeded = catalogue.catalogue_seed(cardroom=cardroom, by=by)
    audit_record(
        actor=by,
        action=AuditAction.PAYTABLE_CATALOGUE_SEEDED,
        target=cardroom,
        payload={
            "by": "cardroom_create",
            "entries": [
                {"change": c.pk, "kind": c.paytable, "lines": c.lines, "origin": c.origin}
                for c in seeded
            ],
        },
    )
    return cardroom


@transaction.atomic
def cardroom_shifts_set(
    *, cardroom: Cardroom, shifts: Sequence[tuple[str, time]], by: User
) -> list[Shift]:
    """The shifts of the cardroom's gaming day (e.g. day / swing / grave), each from its start
    to the next one's; the first starts when the gaming day does. Records already made keep
    the gaming day and shift they were booked in."""
    require_supervisor(by, action="define a cardroom's shifts")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    names = [name.strip() for name, _ in shifts]
    starts = [start for _, start in shifts]
    if not shifts:
        raise DomainError("Define at least one shift.", field="shifts")
    if any(not name or len(name) > 20 for name in names):
        raise DomainError("Every shift needs a name of 1 to 20 characters.", field="shifts")
    if len(set(names)) < len(names) or len(set(starts)) < len(starts):
        raise DomainError("Two shifts share a name or a start.", field="shifts")
    day_start = cardroom.gaming_day_starts_at
    if day_start not in starts:
        raise DomainError(
            f"The first shift starts when the gaming day does, at {day_start:%H:%M}.",
            field="shifts",
        )
    Shift.objects.filter(cardroom=cardroom).delete()
    made = Shift.objects.bulk_create(
        Shift(cardroom=cardroom, name=name, starts_at=start)
        for name, start in zip(names, starts, strict=True)
    )
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_SHIFTS_SET,
        target=cardroom,
        payload={
            "shifts": [[name, f"{start:%H:%M}"] for name, start in zip(names, starts, strict=True)]
        },
    )
    order = [name for name, _ in selectors.shift_starts(cardroom)]
    return sorted(made, key=lambda shift: order.index(shift.name))


@transaction.atomic
def cardroom_denominations_set(
    *, cardroom: Cardroom, denominations: Sequence[MoneyInput], by: User
) -> Cardroom:
    """The chip denominations the cardroom's racks, fills and credits are counted in."""
    require_supervisor(by, action="set a cardroom's chip denominations")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    values = sorted({money(value, field="denominations") for value in denominations})
    if not values or values[0] <= 0 or len(values) < len(denominations):
        raise DomainError(
            "Chip denominations are distinct amounts above $0.00.", field="denominations"
        )
    cardroom.chip_denominations = [money_text(value) for value in values]
    cardroom.save(update_fields=["chip_denominations"])
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_DENOMINATIONS_SET,
        target=cardroom,
        payload={"denominations": cardroom.chip_denominations},
    )
    return cardroom


@transaction.atomic
def cardroom_cage_limit_set(*, cardroom: Cardroom, largest: MoneyInput, by: User) -> Cardroom:
    """The most a fill or credit, a rack count or a drop count may total in the cardroom."""
    require_supervisor(by, action="set a cardroom's largest cage amount")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    amount = money(largest, field="largest_cage_amount")
    if amount <= 0:
        raise DomainError("The largest amount is above $0.00.", field="largest_cage_amount")
    before = cardroom.largest_cage_amount
    cardroom.largest_cage_amount = amount
    cardroom.save(update_fields=["largest_cage_amount"])
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_CAGE_LIMIT_SET,
        target=cardroom,
        payload={"largest_cage_amount": amount, "before": before},
    )
    return cardroom
