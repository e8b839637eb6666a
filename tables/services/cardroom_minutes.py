"""The cardroom's minute settings the floor sets as a group (the waitlist's clocks, the dealers'
rotation): every value is checked before any is kept, a setting not named keeps its value,
and the change is audited with both sides. The caller checks the role."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError
from patrons.models import Cardroom


@transaction.atomic
def cardroom_minutes_set(
    *,
    cardroom: Cardroom,
    values: dict[str, object],
    labels: dict[str, str],
    bounds: tuple[int, int],
    group: str,
    action: AuditAction,
    by: User,
) -> Cardroom:
    """Set the settings named in ``values``, each one of ``labels`` (setting → its words in a
    refusal), whole minutes within ``bounds``; ``group`` names them in a refusal of a name
    that is not one of them."""
    low, high = bounds
    for name, value in values.items():
        if name not in labels:
            raise DomainError(f"There is no {group} setting {name!r}.", field=name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise DomainError(f"Give {labels[name]} in whole minutes, {low} to {high}.", field=name)
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    before = {name: getattr(cardroom, name) for name in labels}
    for name, minutes in values.items():
        setattr(cardroom, name, minutes)
    cardroom.save(update_fields=list(labels))
    after = {name: getattr(cardroom, name) for name in labels}
    audit_record(
        actor=by, action=action, target=cardroom, payload={"before": before, "after": after}
    )
    return cardroom
