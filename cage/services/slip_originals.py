"""A slip's original, found by the count in the table's drop box and matched against the
duplicate kept at the cage (Nevada MICS, fills and credits; 4 CCR §12385: the count records
each document in the box). The drop count calls ``slip_original_found`` for each original it
finds; ``cage.slip_selectors.slips_unmatched`` lists the completed slips still without one."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict

from ..models import DropCount, Slip, SlipDelivery, SlipOriginal, SlipVoid
from .common import locked_table


def slip_matchable(slip: Slip, drop_count: DropCount) -> bool:
    """Whether ``drop_count`` can hold ``slip``'s original: the same table, not before the
    slip's day, the slip delivered and not void, its original not found yet."""
    return (
        drop_count.table_id == slip.table_id
        and drop_count.gaming_day >= slip.gaming_day
        and SlipDelivery.objects.filter(slip=slip).exists()
        and not SlipVoid.objects.filter(slip=slip).exists()
        and not SlipOriginal.objects.filter(slip=slip).exists()
    )


@transaction.atomic
def slip_original_found(*, slip: Slip, drop_count: DropCount) -> SlipOriginal:
    """Record that ``drop_count`` found ``slip``'s original in its box (inside the drop
    count's transaction when it calls this). Refused, naming ``slip``, for a slip of another
    table, one counted before the slip's gaming day, one void or not yet delivered (its
    original never left the cage), or one found already."""
    locked_table(slip.table)
    slip = Slip.objects.select_related("table").get(pk=slip.pk)
    name = f"{slip.get_kind_display()} {slip.number}"
    if drop_count.table_id != slip.table_id:
        raise Conflict(
            f"{name} is {slip.table}'s: its original is not in {drop_count.table}'s box.",
            field="slip",
        )
    if drop_count.gaming_day < slip.gaming_day:
        raise Conflict(
            f"{name} is of {slip.gaming_day}: a box of {drop_count.gaming_day} cannot hold it.",
            field="slip",
        )
    if SlipVoid.objects.filter(slip=slip).exists():
        raise Conflict(f"{name} is void: both its copies stay at the cage.", field="slip")
    if not SlipDelivery.objects.filter(slip=slip).exists():
        raise Conflict(f"{name} is not delivered: its original is not in a box.", field="slip")
    if SlipOriginal.objects.filter(slip=slip).exists():
        raise Conflict(f"{name}'s original is recorded already.", field="slip")
    original = SlipOriginal.objects.create(
        slip=slip, drop_count=drop_count, found_at=timezone.now()
    )
    audit_record(
        actor=drop_count.counted_by,
        action=AuditAction.SLIP_ORIGINAL_FOUND,
        target=slip,
        payload={
            "number": slip.number,
            "drop_count": drop_count.pk,
            "table": slip.table_id,
            "gaming_day": drop_count.gaming_day,
            "shift": drop_count.shift,
        },
    )
    return original
