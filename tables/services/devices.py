"""A table's card-reading shuffler or shoe: registered, its token rotated, revoked — by a
floor supervisor, each audited. One device in service per table; its token is shown once,
here, and kept as a digest (``tables.device_tokens``)."""

from __future__ import annotations

from typing import NamedTuple

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError, NotFound
from core.permissions import require_supervisor

from ..device_tokens import token_digest, token_new, token_prefix
from ..models import DeviceToken, ShufflerDevice, Table

_TEXT_FIELDS = {"make": "make", "model": "model", "serial": "serial number"}


class Issued(NamedTuple):
    """A device with its new token: the secret is in this answer and nowhere else."""

    device: ShufflerDevice
    token: str


@transaction.atomic
def device_register(
    *,
    table: Table,
    make: str,
    model: str,
    serial: str,
    kind: str = ShufflerDevice.Kind.SHUFFLER,
    certification_ref: str = "",
    by: User,
) -> Issued:
    """Register the table's shuffler or shoe and issue its first token. A table has one
    device in service: revoke the old one first."""
    require_supervisor(by, action="register a table's shuffler")
    locked = Table.objects.select_for_update().filter(pk=table.pk).first()
    if locked is None:
        raise NotFound(f"There is no table {table.pk}.")
    table = locked
    values = _checked(table, kind, {"make": make, "model": model, "serial": serial})
    certification_ref = (certification_ref or "").strip()
    device = ShufflerDevice.objects.create(
        table=table,
        kind=kind,
        certification_ref=certification_ref,
        registered_by=by,
        registered_at=timezone.now(),
        **values,
    )
    token = _token_issue(device, by)
    audit_record(
        actor=by,
        action=AuditAction.DEVICE_REGISTERED,
        target=device,
        payload={
            "table": table.pk,
            "kind": kind,
            **values,
            "certification_ref": certification_ref,
            "token_prefix": token_prefix(token),
        },
    )
    return Issued(device, token)


@transaction.atomic
def device_token_rotate(*, device: ShufflerDevice, by: User) -> Issued:
    """A new token for the device; the one before stops working at once."""
    require_supervisor(by, action="rotate a shuffler's token")
    device = _locked_in_service(device, "rotate")
    old = list(DeviceToken.objects.filter(device=device, revoked_at=None))
    DeviceToken.objects.filter(pk__in=[t.pk for t in old]).update(revoked_at=timezone.now())
    token = _token_issue(device, by)
    audit_record(
        actor=by,
        action=AuditAction.DEVICE_TOKEN_ROTATED,
        target=device,
        payload={
            "revoked_prefixes": [t.prefix for t in old],
            "token_prefix": token_prefix(token),
        },
    )
    return Issued(device, token)


@transaction.atomic
def device_revoke(*, device: ShufflerDevice, by: User) -> ShufflerDevice:
    """Take the device out of service: its token stops working, and the table may register
    another. The device stays on record (hands it dealt name it)."""
    require_supervisor(by, action="revoke a table's shuffler")
    device = _locked_in_service(device, "revoke")
    now = timezone.now()
    DeviceToken.objects.filter(device=device, revoked_at=None).update(revoked_at=now)
    device.revoked_at, device.revoked_by = now, by
    device.save(update_fields=["revoked_at", "revoked_by"])
    audit_record(
        actor=by,
        action=AuditAction.DEVICE_REVOKED,
        target=device,
        payload={"table": device.table_id, "serial": device.serial},
    )
    return device


def _checked(table: Table, kind: str, values: dict[str, str]) -> dict[str, str]:
    """A registration's values, stripped, or a refusal naming the one at fault: the kind, a
    blank name, the table's device in service, the same device in service elsewhere."""
    if kind not in ShufflerDevice.Kind.values:
        raise DomainError("The device is a shuffler or a shoe.", field="kind")
    for field, value in values.items():
        if not isinstance(value, str) or not value.strip():
            raise DomainError(f"Give the device's {_TEXT_FIELDS[field]}.", field=field)
        values[field] = value.strip()
    current = ShufflerDevice.objects.filter(table=table, revoked_at=None).first()
    if current is not None:
        raise Conflict(
            f"{table} has a {current.get_kind_display().lower()} in service already "
            f"({current.make} {current.model}, serial {current.serial}): revoke it first.",
            field="table",
        )
    elsewhere = (
        ShufflerDevice.objects.filter(
            make__iexact=values["make"], serial__iexact=values["serial"], revoked_at=None
        )
        .select_related("table")
        .first()
    )
    if elsewhere is not None:
        raise Conflict(
            f"{elsewhere.make} serial {elsewhere.serial} is in service at {elsewhere.table}: "
            "revoke it there first.",
            field="serial",
        )
    return values


def _locked_in_service(device: ShufflerDevice, action: str) -> ShufflerDevice:
    locked = (
        ShufflerDevice.objects.select_for_update()
        .select_related("table")
        .filter(pk=device.pk)
        .first()
    )
    if locked is None:
        raise NotFound(f"There is no device {device.pk}.")
    if locked.revoked_at is not None:
        raise Conflict(
            f"{locked.make} {locked.model} serial {locked.serial} was revoked: there is "
            f"nothing to {action}. Register the table's device again.",
            field="device",
        )
    return locked


def _token_issue(device: ShufflerDevice, by: User) -> str:
    token = token_new()
    DeviceToken.objects.create(
        device=device,
        digest=token_digest(token),
        prefix=token_prefix(token),
        created_by=by,
        created_at=timezone.now(),
    )
    return token
