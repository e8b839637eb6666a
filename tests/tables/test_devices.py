"""A table's card-reading shuffler or shoe: registered, its token rotated and revoked by a
floor supervisor, each audited; one in service per table; the token kept as a digest only.
Every refusal names its field and writes nothing (``refusal``, tests/conftest.py)."""

import pytest

from audit.models import AuditEvent
from core.errors import Conflict, DomainError, PermissionDenied
from tables.device_selectors import active_device, device_for_token
from tables.device_tokens import token_digest
from tables.models import DeviceToken, ShufflerDevice
from tables.services.devices import device_register, device_revoke, device_token_rotate

from .support import audit_actions, last_seq

pytestmark = pytest.mark.django_db


@pytest.fixture
def register(dp_table, supervisor):
    def make(table=dp_table, **fields):
        values = {"make": "Shufflex", "model": "HF-7", "serial": "SX-1001"} | fields
        return device_register(table=table, **values, by=supervisor)

    return make


def test_a_supervisor_registers_the_tables_shuffler_and_gets_its_token_once(
    register, dp_table, supervisor
):
    since = last_seq()

    device, token = register(certification_ref="GLI-29 MO-123-HCF-25-01", kind="shoe")

    assert (device.table, device.kind, device.serial) == (dp_table, "shoe", "SX-1001")
    assert device.registered_by == supervisor and device.revoked_at is None
    assert active_device(dp_table) == device
    assert device_for_token(token) == device
    # Kept as a digest only: the token itself is nowhere in the database.
    stored = DeviceToken.objects.get(device=device)
    assert stored.digest == token_digest(token) and token not in stored.digest
    assert stored.prefix == token[:8] and len(token) >= 40
    assert audit_actions(since) == ["device.registered"]
    event = AuditEvent.objects.get(action="device.registered")
    assert event.actor_id == supervisor.pk and event.chain == f"table:{dp_table.pk}"
    assert token not in event.payload and stored.prefix in event.payload


def test_an_unknown_token_or_a_near_miss_finds_no_device(register):
    _, token = register()

    assert device_for_token(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert device_for_token("") is None


def test_a_table_has_one_device_in_service(register, refusal):
    register()

    with refusal(Conflict, field="table", says="revoke it first"):
        register(serial="SX-2002")


def test_a_device_in_service_at_one_table_is_not_registered_at_another(
    register, make_table, refusal
):
    register()
    second = make_table("Second table")

    with refusal(Conflict, field="serial", says="is in service at"):
        register(table=second, serial="sx-1001")


@pytest.mark.parametrize(
    ("fields", "field", "says"),
    [
        ({"serial": "  "}, "serial", "serial number"),
        ({"make": ""}, "make", "make"),
        ({"model": ""}, "model", "model"),
        ({"kind": "dealer"}, "kind", "shuffler or a shoe"),
    ],
)
def test_a_registration_is_refused_by_the_field_at_fault(register, refusal, fields, field, says):
    with refusal(DomainError, field=field, says=says):
        register(**fields)


def test_only_a_floor_supervisor_registers_rotates_or_revokes(dp_table, dealer, register, refusal):
    device, _ = register()

    with refusal(PermissionDenied, field=None, says="floor supervisor may register"):
        device_register(table=dp_table, make="A", model="B", serial="C", by=dealer)
    with refusal(PermissionDenied, field=None, says="floor supervisor may rotate"):
        device_token_rotate(device=device, by=dealer)
    with refusal(PermissionDenied, field=None, says="floor supervisor may revoke"):
        device_revoke(device=device, by=dealer)


def test_a_rotation_gives_a_new_token_and_the_old_one_stops_working(register, supervisor):
    device, old = register()
    since = last_seq()

    again, new = device_token_rotate(device=device, by=supervisor)

    assert again == device and new != old
    assert device_for_token(old) is None
    assert device_for_token(new) == device
    assert DeviceToken.objects.filter(device=device, revoked_at=None).count() == 1
    assert audit_actions(since) == ["device.token_rotated"]
    payload = AuditEvent.objects.get(action="device.token_rotated").payload
    assert old[:8] in payload and new[:8] in payload


def test_a_revoked_device_is_out_of_service_and_the_table_may_register_another(
    register, dp_table, supervisor, refusal
):
    device, token = register()
    since = last_seq()

    revoked = device_revoke(device=device, by=supervisor)

    assert revoked.revoked_at is not None and revoked.revoked_by == supervisor
    assert device_for_token(token) is None
    assert active_device(dp_table) is None
    assert not DeviceToken.objects.filter(device=device, revoked_at=None).exists()
    assert audit_actions(since) == ["device.revoked"]
    with refusal(Conflict, field="device", says="was revoked"):
        device_token_rotate(device=device, by=supervisor)
    with refusal(Conflict, field="device", says="was revoked"):
        device_revoke(device=device, by=supervisor)
    # The same device, registered again, is a new record with a new token.
    second, second_token = register()
    assert second != device and device_for_token(second_token) == second
    assert ShufflerDevice.objects.filter(table=dp_table).count() == 2
