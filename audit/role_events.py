"""An account's role as the audit log tells it: what ``verify_state`` compares the role groups
with (``compliance.state_roles``), and what the demo loader records.

The contract, for every service that gives an account a role or takes it away: it records, in
the same transaction, an audit event whose target is the account (``object_type``
``auth.user``, ``object_id`` its id) and whose payload has a ``"role"`` key: the role's group
name (``core.roles``), or null (or "") for none. The latest such event, by ``seq``,
is the account's audited role; its action does not matter, so a new way of giving roles (a
two-person grant, an administrator's) slots in by following the contract. Today:
``staff.created`` ``{"username", "name", "role"}`` and ``staff.role_set``
``{"username", "role", "was"}`` (``tables.staff``), and the demo loader's ``staff.created``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from .models import AuditEvent

USER = "auth.user"


@dataclass(frozen=True)
class RoleEvent:
    seq: int
    action: str
    role: str | None  # None: no role


def latest_role_events(user_ids: Iterable[int] | None = None) -> dict[int, RoleEvent]:
    """By account id, the latest audit event that set the account's role."""
    events = AuditEvent.objects.filter(object_type=USER, payload__contains='"role":')
    if user_ids is not None:
        events = events.filter(object_id__in=[str(pk) for pk in user_ids])
    latest: dict[int, RoleEvent] = {}
    rows = events.order_by("seq").values_list("seq", "action", "object_id", "payload")
    for seq, action, object_id, text in rows.iterator(chunk_size=2000):
        payload = json.loads(text)
        if not isinstance(payload, dict) or "role" not in payload or not object_id.isdigit():
            continue  # "role" inside another value: not a role event
        latest[int(object_id)] = RoleEvent(seq, action, payload["role"] or None)
    return latest
