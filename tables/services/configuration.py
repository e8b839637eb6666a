"""A table's creation, and the guardrails every version of its settings passes (R5, R10,
R12, R16, R17)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_supervisor
from engine.table import MAX_SEATS, Banking
from patrons.models import Cardroom

from .. import catalogue, figures, rules
from ..models import Table, TableSettings


@transaction.atomic
def table_create(
    *,
    cardroom: Cardroom,
    name: str,
    banking: str,
    seat_count: int = MAX_SEATS,
    settings: dict[str, Any] | None = None,
    by: User,
) -> Table:
    """A new table with its first settings version; ``settings`` override the defaults."""
    require_supervisor(by, action="create a table")
    if banking not in {b.value for b in Banking}:
        raise DomainError("Banking is 'designated_player' or 'house'.", field="banking")
    if isinstance(seat_count, bool) or not isinstance(seat_count, int):
        raise DomainError("The number of seats is a whole number.", field="seat_count")
    if not 1 <= seat_count <= MAX_SEATS:
        raise DomainError(f"A table has 1 to {MAX_SEATS} seats (R1).", field="seat_count")
    if not name.strip():
        raise DomainError("A table needs a name.", field="name")
    if Table.objects.filter(cardroom=cardroom, name=name).exists():
        raise Conflict(f"{cardroom} has a table named {name!r} already.", field="name")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)  # the catalogue's lock
    table = Table(cardroom=cardroom, name=name, banking=banking, seat_count=seat_count)
    given = rules.parse_settings(settings or {})
    values = rules.defaults_for(banking) | given
    settings_check(table, values, changed=given)
    table.save()
    first = TableSettings.objects.create(table=table, version=1, **values)
    audit_record(
        actor=by,
        action=AuditAction.TABLE_CREATED,
        target=table,
        payload={
            "name": name,
            "banking": banking,
            "seat_count": seat_count,
            "settings_version": first.version,
            "settings": rules.as_json(values),
        },
    )
    return table


def settings_check(table: Table, values: dict[str, Any], *, changed: Iterable[str]) -> None:
    """A table's complete settings as they would be: the rules (R5, R10, R12, R16), then R17's
    guardrails: a house-banked table's every wager returns less than 100%, and the table posts
    only paytables of its cardroom's catalogue. Each refusal names the setting at fault."""
    rules.check_settings(table, values)
    changed = set(changed)
    if table.banking == Banking.HOUSE and "rake_amount" in changed and values["rake_amount"]:
        raise DomainError(
            "A house-banked table takes no collection fee (R12): leave the fee at 0.00.",
            field="rake_amount",
        )
    figures.check_house_return(table.banking, values, changed=changed)
    catalogue.check_catalogue(table, values)
