"""R8: each decision of a settled hand valued against the best play for its cards
(``engine.decisions``), stored for the player ratings (``compliance.ratings``).

Never in the settlement's transaction: ``wagers.tasks`` runs ``decision_costs_record`` after
the settlement commits (``wagers.services.booking`` enqueues it on commit of every original or
correction entry), and beat's sweep (``decision_costs_sweep``) values any entry a lost message
left without. Idempotent: an entry is valued once (a unique constraint); the rows are derived
from the entry's round, never edited, and say nothing a person decided, so they carry no audit
event of their own (the settlement's is the record).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from fractions import Fraction

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from core.errors import Conflict
from core.permissions import require_role
from core.roles import AUDITORS
from engine import round_from_json
from engine.decisions import DecisionValue, round_decisions
from engine.money import to_decimal
from tables.models import Seating
from wagers.models import DecisionCost, Settlement, Spot

logger = logging.getLogger(__name__)

#: Entries the sweep looks back over, and how many it values in one run.
SWEEP_WINDOW = timedelta(days=2)
SWEEP_BATCH = 500


def _numerator(value: DecisionValue, amount: Fraction) -> int:
    scaled = amount * value.dealer_hands
    assert scaled.denominator == 1  # every expectation is a count over the dealer hands
    return scaled.numerator


def decision_costs_record(*, settlement_id: int) -> int:
    """Value every decision of one settlement entry; the rows written (0 when valued already,
    or for a reversal, a misdeal, a hand with no decision)."""
    settlement = Settlement.objects.get(pk=settlement_id)
    if settlement.kind == Settlement.Kind.REVERSAL or settlement.decision_costs.exists():
        return 0
    values = round_decisions(round_from_json(settlement.round))
    if not values:
        return 0
    spots = dict(Spot.objects.filter(hand_id=settlement.hand_id).values_list("seat", "pk"))
    now = timezone.now()
    rows = [
        DecisionCost(
            settlement=settlement,
            spot_id=spots[value.seat],
            seat=value.seat,
            decision=str(value.decision),
            raise_amount=to_decimal(value.raise_amount),
            best_play=value.best_play,
            dealer_hands=value.dealer_hands,
            fold_ev=_numerator(value, value.fold),
            raise_once_ev=_numerator(value, value.raise_once),
            raise_cap_ev=_numerator(value, value.raise_cap),
            taken_ev=_numerator(value, value.taken),
            cost=_numerator(value, value.cost),
            computed_at=now,
        )
        for value in values
    ]
    with transaction.atomic():
        # Two deliveries of one message: the constraint keeps the first.
        DecisionCost.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def _unvalued() -> QuerySet[Settlement]:
    """Entries (originals and corrections) of hands with a live, decided spot, not valued."""
    decided = Spot.objects.filter(hand_id=OuterRef("hand_id"), dead_reason="").exclude(decision="")
    return (
        Settlement.objects.filter(hand__misdeal="")
        .exclude(kind=Settlement.Kind.REVERSAL)
        .filter(Exists(decided))
        .exclude(Exists(DecisionCost.objects.filter(settlement_id=OuterRef("pk"))))
    )


def decision_costs_sweep(*, now: datetime | None = None, limit: int = SWEEP_BATCH) -> list[int]:
    """Entries of the last SWEEP_WINDOW with a live, decided spot and no valuation yet (their
    message lost, or the broker down): valued now, oldest first. The ids valued."""
    since = (now or timezone.now()) - SWEEP_WINDOW
    pending = _unvalued().filter(created_at__gte=since).order_by("created_at", "id")
    ids = list(pending.values_list("pk", flat=True)[:limit])
    valued = []
    for pk in ids:
        try:
            decision_costs_record(settlement_id=pk)
        except Exception:  # noqa: BLE001 - one entry the engine refuses must not stop the rest
            logger.exception("The decisions of settlement %s could not be valued", pk)
            continue
        valued.append(pk)
    return valued


class SessionClosed(Conflict):
    """A closed session's rating is final: nothing is valued again for it."""

    code = "session_closed"


def seating_decisions_value(*, seating: Seating, by: User) -> int:
    """The floor (or compliance) wants an open session's rating now, without waiting for the
    worker: its settled hands' decisions not valued yet are valued here; the rows written. A
    session that has ended is refused: its rating is final (the sweep values what a lost
    message left; nobody asks for it again)."""
    require_role(by, *AUDITORS, action="value a session's decisions")
    seating = Seating.objects.select_related("player", "table").get(pk=seating.pk)
    if seating.left_at is not None:
        raise SessionClosed(
            f"{seating.player}'s session at {seating.table} seat {seating.seat} has ended: its "
            "rating is final and is not valued again.",
            field="seating",
        )
    in_force = _unvalued().filter(hand__spots__seating=seating, reversed_by__isnull=True)
    ids = list(in_force.distinct().order_by("id").values_list("pk", flat=True))
    return sum(decision_costs_record(settlement_id=pk) for pk in ids)
