"""Cardrooms: their creation, chip denominations and largest cage amount (shifts:
``shifts``)."""

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
from patrons.models import Cardroom, Licensee

from .. import catalogue
from .memberships import membership_of_creator
from .shifts import cardroom_shifts_set as cardroom_shifts_set


@transaction.atomic
def cardroom_create(
    *,
    name: str,
    time_zone: str = "UTC",
    gaming_day_starts_at: time = time(6, 0),
    licensee: Licensee | None = None,
    by: User,
) -> Cardroom:
    """An administrator creates a cardroom, of ``licensee`` (by default a licensee of its
    own, of the same name). Self-approval (R17) starts off: switching it on is a change of its
    own, approved by a second administrator (``self_approval_change_*``)."""
    require_role(by, ADMINISTRATOR, action="create a cardroom")
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise DomainError(f"'{time_zone}' is not a time zone name.", field="time_zone") from None
    if Cardroom._base_manager.filter(name=name).exists():  # in every room, not only the user's
        raise Conflict(f"A cardroom named {name!r} exists already.", field="name")
    if licensee is None:
        licensee, _ = Licensee.objects.get_or_create(name=name)
    cardroom = Cardroom.objects.create(
        name=name,
        licensee=licensee,
        time_zone=time_zone,
        gaming_day_starts_at=gaming_day_starts_at,
    )
    membership_of_creator(cardroom, by)
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_CREATED,
        target=cardroom,
        payload={
            "name": name,
            "time_zone": time_zone,
            "gaming_day_starts_at": gaming_day_starts_at,
            "licensee": licensee.pk,
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
def cardroom_denominations_set(
    *, cardroom: Cardroom, denominations: Sequence[MoneyInput], by: User
) -> Cardroom:
    """The chip denominations the cardroom's racks, fills and credits are counted in. The
    API and screens change them through ``cage.services.cardroom_denominations_change``,
    which first refuses to withdraw a denomination a rack or the cage still holds."""
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
