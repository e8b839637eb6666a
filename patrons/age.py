"""The age line: the youngest a player may be in a cardroom (``Cardroom.minimum_age``, its
jurisdiction's: 21 in California, B&P §19921), checked when a player is registered with a
date of birth, seated, or buys chips for cash (at a table or the cage).

A player under it is refused like an excluded one (``patrons.refusals``): a dealer or a cashier
is told only to call a floor supervisor (``call_floor``); the floor and compliance are told why
(``under_age``: "under the minimum age of 21"). The refusal raises an ``under_age`` incident,
once per player and gaming day, recorded after the refused transaction rolled back
(``patrons.exclusions.alerting`` runs ``age_alert``). The age is counted on the cardroom's
gaming day in its zone: a player whose birthday it is has the new age all that gaming day. A
player with no date of birth on file is not refused: the floor checks age at the door.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core import days
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import ADMINISTRATOR, FLOOR_SUPERVISOR

from . import selectors
from .incidents import AtTable
from .models import MINIMUM_AGE_BOUNDS, Cardroom, Incident, Player
from .refusals import CALL_FLOOR, NEUTRAL, told_the_reason

#: The code of the refusal for the floor and compliance, whose message gives the reason.
UNDER_AGE = "under_age"
#: Who sets a cardroom's minimum age: the floor, and the administrator who set the room up.
SETTERS = (FLOOR_SUPERVISOR, ADMINISTRATOR)
#: What the floor and compliance are told was refused, by action.
_CANNOT = {
    "register": "be registered",
    "seat": "be seated",
    "buy chips": "buy chips",
    "join": "join the waitlist",
}


def age_on(born: date, day: date) -> int:
    """Whole years from ``born`` to ``day``; a birthday on ``day`` counts (born on 29 February:
    a year older on 1 March of a common year)."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def gaming_day_now(cardroom: Cardroom, at: datetime | None = None) -> date:
    return days.day_of(cardroom.time_zone, cardroom.gaming_day_starts_at, at or timezone.now())


class UnderAge(Conflict):
    """An action refused because the person is under the cardroom's minimum age: neutral
    (``call_floor``) for anyone but the floor and compliance (``by``); what was refused travels
    with the error, for the alert."""

    def __init__(
        self,
        *,
        action: str,
        cardroom: Cardroom,
        player: Player | None,
        name: str,
        born: date,
        day: date,
        table: AtTable | None,
        by: User | None,
        field: str,
    ) -> None:
        self.action, self.cardroom, self.player, self.name = action, cardroom, player, name
        self.born, self.day, self.table = born, day, table
        self.alerted = False
        if told_the_reason(by):
            message = f"{self.who()} cannot {_CANNOT[action]}: {self.reason()}."
            super().__init__(message, field=field, code=UNDER_AGE)
        else:
            super().__init__(NEUTRAL[action], field=field, code=CALL_FLOOR)

    def who(self) -> str:
        """``Kit Young (born 2009-05-01)``."""
        return f"{self.player or self.name} (born {self.born:%Y-%m-%d})"

    def reason(self) -> str:
        """``under the minimum age of 21 (17 on gaming day 2026-04-02)``."""
        age = age_on(self.born, self.day)
        return (
            f"under the minimum age of {self.cardroom.minimum_age} ({age} on gaming day "
            f"{self.day:%Y-%m-%d})"
        )


def age_screen(
    *,
    action: str,
    cardroom: Cardroom,
    name: str,
    date_of_birth: date | None,
    by: User,
    player: Player | None = None,
    table: AtTable | None = None,
    field: str = "player",
) -> None:
    """Refuse ``action`` (``register``, ``seat``, ``buy chips``) for a person younger than the
    cardroom's minimum age on its gaming day. No date of birth: nothing to refuse on."""
    if date_of_birth is None:
        return
    day = gaming_day_now(cardroom)
    if age_on(date_of_birth, day) >= cardroom.minimum_age:
        return
    raise UnderAge(
        action=action,
        cardroom=cardroom,
        player=player,
        name=name,
        born=date_of_birth,
        day=day,
        table=table,
        by=by,
        field=field,
    )


def player_age_screen(
    *, action: str, player: Player, by: User, table: AtTable | None = None
) -> None:
    """``age_screen`` for a registered player, by the date of birth on file (if any)."""
    identity = selectors.identity_of(player)
    age_screen(
        action=action,
        cardroom=player.cardroom,
        name=player.name,
        date_of_birth=identity.date_of_birth if identity else None,
        by=by,
        player=player,
        table=table,
    )


#: What a layer above adds to the alert (tables: the link to the table).
AgeAlertLinked = Callable[[Incident, UnderAge], object]


@transaction.atomic
def age_alert(refusal: UnderAge, *, by: User, linked: AgeAlertLinked | None = None) -> None:
    """After the refused transaction: the refusal in the audit log, and an ``under_age``
    incident for the floor and compliance unless one was raised for the person this gaming
    day already."""
    if refusal.alerted:
        return
    refusal.alerted = True
    incident = _incident_today(refusal)
    raised = incident is None
    if incident is None:
        incident = _raise_incident(refusal, by)
        if linked is not None:
            linked(incident, refusal)
    audit_record(
        actor=by,
        action=AuditAction.PLAYER_UNDER_AGE_REFUSED,
        target=refusal.player or refusal.cardroom,
        payload={
            "action": refusal.action,
            "player": refusal.player.pk if refusal.player else None,
            "table": refusal.table.pk if refusal.table else None,
            "minimum_age": refusal.cardroom.minimum_age,
            "age": age_on(refusal.born, refusal.day),
            "gaming_day": refusal.day,
            "incident": incident.pk,
            "incident_raised": raised,
        },
    )


def _incident_today(refusal: UnderAge) -> Incident | None:
    """The person's ``under_age`` incident of this gaming day: a player's by the player, a
    refused registration's by the name and date of birth it gave."""
    start, end = days.day_bounds(
        refusal.cardroom.time_zone, refusal.cardroom.gaming_day_starts_at, refusal.day
    )
    today = Incident.objects.filter(
        cardroom=refusal.cardroom,
        kind=Incident.Kind.UNDER_AGE,
        occurred_at__gte=start,
        occurred_at__lt=end,
    )
    if refusal.player is not None:
        return today.filter(players=refusal.player).first()
    return today.filter(players=None, summary__startswith=refusal.who()).first()


def _raise_incident(refusal: UnderAge, by: User) -> Incident:
    """The incident, raised by the age line itself (whoever was refused: a cashier, too); the
    person whose action it refused is its reporter."""
    where = f" at {refusal.table}" if refusal.table is not None else ""
    summary = (
        f"{refusal.who()} is {refusal.reason()}; {by.get_username()} tried to "
        f"{refusal.action}{where}, and the action was refused."
    )
    now = timezone.now()
    incident = Incident.objects.create(
        cardroom=refusal.cardroom,
        kind=Incident.Kind.UNDER_AGE,
        occurred_at=now,
        summary=summary,
        reported_by=by,
        created_at=now,
    )
    players = [refusal.player] if refusal.player is not None else []
    incident.players.set(players)
    audit_record(
        actor=by,
        action=AuditAction.INCIDENT_REPORTED,
        target=incident,
        payload={
            "kind": incident.kind,
            "table": refusal.table.pk if refusal.table else None,
            "hand": None,
            "players": [player.pk for player in players],
            "occurred_at": now,
            "raised_by": "control",
        },
    )
    return incident


@transaction.atomic
def cardroom_minimum_age_set(*, cardroom: Cardroom, minimum_age: object, by: User) -> Cardroom:
    """The cardroom's minimum age (its jurisdiction's), from the next check on: a player
    already seated stays seated, and is refused the next cash buy-in if under it."""
    require_role(by, *SETTERS, action="set a cardroom's minimum age")
    low, high = MINIMUM_AGE_BOUNDS
    if isinstance(minimum_age, bool) or not isinstance(minimum_age, int):
        raise DomainError("The minimum age is a whole number of years.", field="minimum_age")
    if not low <= minimum_age <= high:
        raise DomainError(f"The minimum age is {low} to {high}.", field="minimum_age")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    before = cardroom.minimum_age
    cardroom.minimum_age = minimum_age
    cardroom.save(update_fields=["minimum_age"])
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_MINIMUM_AGE_SET,
        target=cardroom,
        payload={"minimum_age": minimum_age, "before": before},
    )
    return cardroom
