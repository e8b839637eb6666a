"""Which audit events belong to which cardrooms: a cardroom's chain (``cardroom:2``), its
tables' chains (``table:7``) and the global chain's events of its people."""

from __future__ import annotations

from django.db.models import CharField, Exists, Q, QuerySet, Subquery, Value
from django.db.models.functions import Cast, Concat

from audit.models import AuditEvent
from core import scoping
from patrons.models import Cardroom

from .models import CardroomMembership, Table


def audit_events_in_scope(
    events: QuerySet[AuditEvent], ids: frozenset[int] | None = None
) -> QuerySet[AuditEvent]:
    """The audit events of these cardrooms (by default the request's): their own chains, their
    tables' chains, and the global chain's events of their people (sign-ins, accounts). Who
    reaches every cardroom there is sees every event (the chains from before chains per table
    too)."""
    ids = scoping.current() if ids is None else ids
    if ids is None:
        return events
    tables = Table._base_manager.filter(cardroom_id__in=ids).annotate(
        chain_name=Concat(Value("table:"), Cast("pk", CharField()))
    )
    members = CardroomMembership._base_manager.filter(cardroom_id__in=ids).values("user_id")
    every_room = ~Exists(Cardroom._base_manager.exclude(pk__in=ids))
    return events.filter(
        every_room
        | Q(chain__in=[f"cardroom:{pk}" for pk in ids])
        | Q(chain__in=Subquery(tables.values("chain_name")))
        | Q(chain="global", actor_id__in=Subquery(members))
    )
