"""A house-banked table's rack counts: the dealer counts, the floor supervisor verifies — two
people, each signing as themselves at the moment of the count."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import money_text
from core.people import person_name
from core.permissions import require_supervisor
from core.roles import DEALER, FLOOR_SUPERVISOR
from tables import selectors as table_selectors
from tables.models import Table, TableSession
from tables.services.racks import rack_counted
from tables.services.sessions import table_close
from tables.signatures import SignatureInput, Signed, signature_record, signature_verify, signing

from .. import selectors
from ..models import InventoryCount
from .common import (
    count_parse,
    locked_table,
    now_span,
    require_house_banked,
    require_open_period,
    signed_payload,
)
from .variances import rack_count_escalate


@signing
@transaction.atomic
def inventory_count_record(
    *,
    table: Table,
    kind: str,
    chips: Mapping[str, Any],
    counted_by: SignatureInput | None,
    signature: SignatureInput | None,
    note: str = "",
    by: User,
) -> InventoryCount:
    """The dealer's count of a house-banked table's rack, by denomination, verified by the
    floor supervisor (``by``): two signatures — the person who counted (``counted_by``: a
    dealer or another floor supervisor) and the verifier's own (``signature``). ``opening``
    once per session, before anything else is counted; ``shift_change`` once in each later
    shift the table stays open (the count that closes the previous shift and opens this one:
    count before play resumes); ``closing`` last, which also closes the table (its players
    cash out). The books' figure for the rack at that moment is kept beside the count; a count
    that differs from it is recorded only with a ``note`` explaining the difference."""
    table, session, span = _count_opened(table, kind, by)
    pieces, total = count_parse(
        chips,
        table.cardroom.chip_denominations,
        field="chips",
        largest=table.cardroom.largest_cage_amount,
    )
    book, through = selectors.rack_by_the_books(table)
    if book is not None and book != total and not note.strip():
        raise DomainError(
            f"The rack holds ${money_text(book)} by the books and ${money_text(total)} by this "
            "count: recount, or explain the difference.",
            field="note",
        )
    counter, verifier = _count_signatures(counted_by, signature, by)
    count = InventoryCount.objects.create(
        table=table,
        session=session,
        kind=kind,
        gaming_day=span.day,
        shift=span.shift,
        chips=pieces,
        total=total,
        book_total=book,
        bank_through=through,
        counted_by=counter.signer,
        verified_by=by,
        created_at=timezone.now(),
        note=note.strip(),
    )
    rack_counted(
        table=table, session=session, pieces=pieces, total=total, kind=kind, until=span.end
    )
    signature_record(count, counter)
    signature_record(count, verifier)
    audit_count(count, counter, verifier, by)
    rack_count_escalate(count=count, by=by)
    if kind == InventoryCount.Kind.CLOSING:
        table_close(table=table, by=by)
    return count


def _count_opened(
    table: Table, kind: str, by: User
) -> tuple[Table, TableSession, table_selectors.ShiftSpan]:
    """The table locked for a count of this kind, its open session and the current shift."""
    require_supervisor(by, action="verify a table inventory count")
    if kind not in InventoryCount.Kind.values:
        raise DomainError("The count is opening, shift_change or closing.", field="kind")
    table = locked_table(table)
    require_house_banked(table, "inventory count")
    session = table_selectors.open_session(table)
    if session is None:
        raise Conflict(f"{table} is closed: open it before counting its rack.", field="table")
    span = now_span(table.cardroom)
    require_open_period(table.cardroom, span.day, span.shift)
    _check_count_order(session, InventoryCount.Kind(kind), span)
    return table, session, span


def _count_signatures(
    counted_by: SignatureInput | None, signature: SignatureInput | None, by: User
) -> tuple[Signed, Signed]:
    """The person who counted signs first; the verifier, who may not be them, signs last."""
    counter = signature_verify(
        counted_by,
        capacity="counter",
        roles=(DEALER, FLOOR_SUPERVISOR),
        field="counted_by",
        signed_already=(by,),
    )
    verifier = signature_verify(
        signature, capacity="verifier", roles=(FLOOR_SUPERVISOR,), field="signature", signer=by
    )
    return counter, verifier


def audit_count(count: InventoryCount, counter: Signed, verifier: Signed, by: User) -> None:
    audit_record(
        actor=by,
        action=AuditAction.INVENTORY_COUNTED,
        target=count,
        payload={
            "table": count.table.pk,
            "kind": count.kind,
            "gaming_day": count.gaming_day,
            "shift": count.shift,
            "chips": count.chips,
            "total": count.total,
            "book_total": count.book_total,
            "counted_by": counter.signer.pk,
            "counted_by_name": person_name(counter.signer),
            "signed": signed_payload(counter, verifier),
            "note": count.note,
            "late": count.late,
        },
    )


def _check_count_order(
    session: TableSession, kind: InventoryCount.Kind, span: table_selectors.ShiftSpan
) -> None:
    counts = list(InventoryCount.objects.filter(session=session).order_by("id"))
    K = InventoryCount.Kind
    if kind == K.OPENING:
        if counts:
            raise Conflict("This table's opening count is recorded already.", field="kind")
        return
    if not counts:
        raise Conflict("Count the rack at opening first.", field="kind")
    last = counts[-1]
    if kind == K.SHIFT_CHANGE and (last.gaming_day, last.shift) == (span.day, span.shift):
        raise Conflict(
            f"The rack was counted in the {span.shift} shift already: a shift-change count is "
            "made once the next shift has begun.",
            field="kind",
        )
