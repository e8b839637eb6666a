"""Reads of a table's card-reading shuffler or shoe and its credential."""

from __future__ import annotations

from django.db.models import QuerySet

from .device_tokens import token_digest, token_matches
from .models import DeviceToken, ShufflerDevice, Table


def active_device(table: Table) -> ShufflerDevice | None:
    """The table's device in service (one at most), or None."""
    return ShufflerDevice.objects.filter(table_id=table.pk, revoked_at=None).first()


def devices_of(table: Table) -> QuerySet[ShufflerDevice]:
    """Every device the table has had, the one in service first, then newest first; each
    with its active token's prefix (``token_prefix``, "" when revoked)."""
    return (
        ShufflerDevice.objects.filter(table_id=table.pk)
        .select_related("table", "registered_by", "revoked_by")
        .prefetch_related("tokens")
        .order_by("revoked_at", "-registered_at", "-id")
    )


def token_prefix_of(device: ShufflerDevice) -> str:
    """The prefix of the device's active token ("" when none): from the prefetched tokens."""
    return next((t.prefix for t in device.tokens.all() if t.revoked_at is None), "")


def device_for_token(token: str) -> ShufflerDevice | None:
    """The device in service whose active token this is, with its table, or None (unknown,
    rotated out, revoked): one query."""
    digest = token_digest(token)
    row = (
        DeviceToken.objects.select_related("device__table")
        .filter(digest=digest, revoked_at=None, device__revoked_at=None)
        .first()
    )
    if row is None or not token_matches(token, row.digest):
        return None
    return row.device
