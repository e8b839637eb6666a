"""The cage's control settings of a cardroom: whether a runner carries fills and credits,
the count team's size (two, or three where the regulator asks: 4 CCR §12385), and the
variance thresholds — over the first an incident is raised, over the second the variance is
on the regulator's list (N.J.A.C. 13:69D-1.21: $100). A floor supervisor sets them, like the
cardroom's largest cage amount, and the audit log keeps what they were."""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import DomainError
from core.money import MoneyInput, money
from core.permissions import require_supervisor
from patrons.models import Cardroom

from .common import locked_cardroom

#: The count team's size: two at least (no one counts alone), and a team fits a count room.
COUNT_TEAM_SIZES = range(2, 7)
_FIELDS = (
    "runner_required",
    "count_team_size",
    "variance_incident_threshold",
    "variance_regulator_threshold",
)


@transaction.atomic
def cage_controls_set(
    *,
    cardroom: Cardroom,
    by: User,
    runner_required: bool | None = None,
    count_team_size: int | None = None,
    variance_incident_threshold: MoneyInput | None = None,
    variance_regulator_threshold: MoneyInput | None = None,
) -> Cardroom:
    """Change the settings given (None: unchanged). The incident threshold is at most the
    regulator's: a variance the regulator hears of always raised an incident."""
    require_supervisor(by, action="set the cage's controls")
    cardroom = locked_cardroom(cardroom)
    before = {name: getattr(cardroom, name) for name in _FIELDS}
    if runner_required is not None:
        if not isinstance(runner_required, bool):
            raise DomainError("Yes or no.", field="runner_required")
        cardroom.runner_required = runner_required
    if count_team_size is not None:
        if isinstance(count_team_size, bool) or count_team_size not in COUNT_TEAM_SIZES:
            raise DomainError(
                f"A count team is {COUNT_TEAM_SIZES[0]} to {COUNT_TEAM_SIZES[-1]} people.",
                field="count_team_size",
            )
        cardroom.count_team_size = count_team_size
    for name, given in (
        ("variance_incident_threshold", variance_incident_threshold),
        ("variance_regulator_threshold", variance_regulator_threshold),
    ):
        if given is not None:
            setattr(cardroom, name, _threshold(given, name))
    if cardroom.variance_incident_threshold > cardroom.variance_regulator_threshold:
        raise DomainError(
            "The incident threshold is at most the regulator's.",
            field="variance_incident_threshold",
        )
    after = {name: getattr(cardroom, name) for name in _FIELDS}
    cardroom.save(update_fields=list(_FIELDS))
    audit_record(
        actor=by,
        action=AuditAction.CAGE_CONTROLS_SET,
        target=cardroom,
        payload={"before": before, "after": after},
    )
    return cardroom


def _threshold(given: MoneyInput, field: str) -> Decimal:
    amount = money(given, field=field)
    if amount < 0:
        raise DomainError("A threshold is $0.00 or more.", field=field)
    return amount
