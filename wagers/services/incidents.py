"""Reporting an incident with its table and hand: the log is layers down
(``patrons.incidents``, which checks them), and the links to the table and the hand are made
here and in tables, in the transaction that logs it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction

from patrons import incidents
from patrons.models import Cardroom, Exclusion, Incident, Player
from tables.models import Table
from tables.services.incidents import incident_at_table

from ..models import Hand, IncidentHand


@transaction.atomic
def incident_report(
    *,
    cardroom: Cardroom,
    kind: str,
    summary: str,
    by: User,
    occurred_at: datetime | None = None,
    table: Table | None = None,
    hand: Hand | None = None,
    players: Sequence[Player] = (),
    exclusion: Exclusion | None = None,
) -> Incident:
    """``patrons.incidents.incident_report``, linked to the table (a hand's, if only the hand
    is named) and the hand."""
    incident = incidents.incident_report(
        cardroom=cardroom,
        kind=kind,
        summary=summary,
        by=by,
        occurred_at=occurred_at,
        table=table,
        hand=hand,
        players=players,
        exclusion=exclusion,
    )
    incident_at_table(incident, hand.table if hand is not None else table)
    if hand is not None:
        IncidentHand.objects.create(incident=incident, hand=hand)
    return incident
