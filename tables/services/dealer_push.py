"""The push in one tap: the rotation (``dealer_selectors.push_plan``) says who goes where —
the dealer due next takes the table, the relieved dealer goes on to the next table due or on
break if due — and this makes every move in one transaction.

Lock order: the tables the plan touches (ascending id, as every change at a table locks its
table first) → the dealers' shifts and places → the sessions (``table_dealer_change``) → the
audit chain. The plan is made again under the locks: what the floor confirmed is what is
done, or the push is refused and nothing changes.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from core.errors import Conflict
from core.permissions import require_supervisor
from patrons.models import Cardroom

from ..dealer_selectors import BREAK, TABLE, Move, PushPlan, push_plan
from ..models import DealerAssignment, DealerShift, Table
from .dealer_shifts import (
    audit_shift,
    lock_shift,
    one_place_at_a_time,
)
from .sessions import require_between_hands, require_on_no_other_table, table_dealer_change


@transaction.atomic
def dealer_push(*, cardroom: Cardroom, table: Table | None = None, by: User) -> PushPlan:
    """Push ``table`` (by default the table longest due): refused by name while its hand is
    in progress, when no table is due, and when no dealer waits to take it."""
    require_supervisor(by, action="push dealers")
    if table is not None and table.cardroom_id != cardroom.pk:
        raise Conflict(f"{table} is not a table of {cardroom}.", field="table")
    seen = _plan(cardroom, table)
    touched = Table.objects.select_for_update().filter(pk__in=[t.pk for t in seen.tables])
    list(touched.order_by("pk"))  # takes the locks, in order
    plan = _plan(cardroom, seen.table)
    if _moves(plan) != _moves(seen):
        raise Conflict("The floor changed while you pushed: look again.", field="table")
    require_between_hands(plan.table)
    require_on_no_other_table(plan.moves[0].dealer, plan.table)
    _make(plan, by)
    return plan


def _plan(cardroom: Cardroom, table: Table | None) -> PushPlan:
    plan = push_plan(cardroom, timezone.now(), table)
    if plan is None:
        raise Conflict("No table is due for a push yet.", field="table")
    if not plan.moves:
        raise Conflict(
            f"No dealer is waiting to take {plan.table}: clock one in or bring one back "
            "from break.",
            field="dealer",
        )
    return plan


def _moves(plan: PushPlan) -> list[tuple[int, str, int | None]]:
    return [(m.dealer.pk, m.to, m.table.pk if m.table else None) for m in plan.moves]


def _make(plan: PushPlan, by: User) -> None:
    """End every moving dealer's place, then give each their new one, in the plan's order
    (each table's dealer on duty changes as its new dealer takes it)."""
    now = timezone.now()
    shifts = {move.dealer.pk: lock_shift(move.dealer) for move in plan.moves}
    moving = [move.dealer.pk for move in plan.moves]
    DealerAssignment.objects.select_for_update().filter(dealer_id__in=moving, ended_at=None).update(
        ended_at=now
    )
    for move in plan.moves:
        if move.to == TABLE and move.table is not None:
            table_dealer_change(table=move.table, dealer=move.dealer, by=by)
        if move.to in (TABLE, BREAK):
            _place(move, shifts[move.dealer.pk], now, by)
    audit_shift(
        shifts[plan.moves[0].dealer.pk],
        AuditAction.DEALER_PUSHED,
        by,
        table=plan.table.pk,
        moves=[
            {"dealer": m.dealer.pk, "to": m.to, "table": m.table.pk if m.table else None}
            for m in plan.moves
        ],
        words=plan.sentence(),
    )


def _place(move: Move, shift: DealerShift, now: datetime, by: User) -> None:
    try:
        with transaction.atomic():
            DealerAssignment.objects.create(
                shift=shift,
                dealer=move.dealer,
                kind=move.to,
                table=move.table if move.to == TABLE else None,
                started_at=now,
                started_by=by,
            )
    except IntegrityError as error:
        raise one_place_at_a_time(error, move.dealer) from None
