"""Drop boxes and their custody (4 CCR §12384; 25 CFR 543.18(c)): a box is issued to a table
for a shift with its identifier, then removed, transported, stored, delivered to the count
room and opened for the count — in that order, each step once, each naming who and when."""

from __future__ import annotations

import re
from datetime import date

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.permissions import require_role
from core.roles import COUNT_TEAM, FLOOR_SUPERVISOR
from tables import selectors as table_selectors
from tables.models import Table

from ..models import DropBox, DropBoxStep
from ..models.drop_boxes import STEPS
from .common import locked_table, require_open_period

#: Who carries a box: the floor that removes it from the table, the count team that takes it
#: to the count room and opens it.
CUSTODIANS = (FLOOR_SUPERVISOR, COUNT_TEAM)


def drop_box_identifier(table: Table, gaming_day: date, shift: str, kind: str) -> str:
    """``T3-20240301-day`` (and ``…-pool`` for a pool's box): the table's name without
    spaces or punctuation, the gaming day, the shift."""
    name = re.sub(r"[^A-Za-z0-9]+", "", table.name) or f"T{table.pk}"
    suffix = "-pool" if kind == DropBox.Kind.POOL else ""
    return f"{name}-{gaming_day:%Y%m%d}-{shift}{suffix}"


@transaction.atomic
def drop_box_issue(
    *, table: Table, gaming_day: date, shift: str, kind: str = DropBox.Kind.TABLE, by: User
) -> DropBox:
    """Issue a table's drop box (or its pool box) for a shift of a gaming day."""
    require_role(by, FLOOR_SUPERVISOR, action="issue a drop box")
    if kind not in DropBox.Kind.values:
        raise DomainError("A drop box is a table's or a pool's.", field="kind")
    table = locked_table(table)
    table_selectors.shift_bounds(table.cardroom, gaming_day, shift)  # refuses an unknown shift
    require_open_period(table.cardroom, gaming_day, shift)
    if DropBox.objects.filter(table=table, gaming_day=gaming_day, shift=shift, kind=kind).exists():
        raise Conflict(
            f"{table} has its {kind} drop box for the {shift} shift of {gaming_day} already.",
            field="table",
        )
    box = DropBox.objects.create(
        cardroom=table.cardroom,
        table=table,
        gaming_day=gaming_day,
        shift=shift,
        kind=kind,
        identifier=drop_box_identifier(table, gaming_day, shift, kind),
        issued_by=by,
        issued_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.DROP_BOX_ISSUED,
        target=box,
        payload={"identifier": box.identifier, "table": table.pk, "kind": kind},
    )
    return box


@transaction.atomic
def drop_box_step(*, box: DropBox, step: str, by: User, note: str = "") -> DropBoxStep:
    """The next step of a box's custody, by the person signed in; any other is refused."""
    require_role(by, *CUSTODIANS, action="record a drop box's custody")
    locked_table(box.table)  # one custody step of a table's boxes at a time
    if step not in DropBoxStep.Step.values:
        raise DomainError(f"The step is one of: {', '.join(STEPS)}.", field="step")
    done = list(box.steps.values_list("step", flat=True))
    expected = STEPS[len(done)] if len(done) < len(STEPS) else None
    if step != expected:
        if expected is None:
            message = f"Drop box {box} is opened already: its custody is complete."
        else:
            message = (
                f"Drop box {box} is {done[-1] if done else 'issued'}: its next step is {expected}."
            )
        raise Conflict(message, field="step")
    row = DropBoxStep.objects.create(
        box=box, step=step, by=by, at=timezone.now(), note=note.strip()
    )
    audit_record(
        actor=by,
        action=AuditAction.DROP_BOX_STEP,
        target=box,
        payload={"identifier": box.identifier, "step": step, "note": row.note},
    )
    return row


def require_box_opened(table: Table, gaming_day: date, shift: str) -> None:
    """A table's box that was issued is counted only once opened in the count room; a box
    never issued (a cardroom that does not track custody) is counted as before."""
    box = DropBox.objects.filter(
        table=table, gaming_day=gaming_day, shift=shift, kind=DropBox.Kind.TABLE
    ).first()
    if box is None:
        return
    if not box.steps.filter(step=DropBoxStep.Step.OPENED).exists():
        raise Conflict(
            f"Drop box {box} is not opened in the count room yet: record its custody first.",
            field="box",
        )
