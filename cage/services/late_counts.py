"""A late closing count: the rack of a table session closed without its closing count (old
data, or a fault), counted afterwards by two floor supervisors, each signing as themselves —
so that no sequence of actions leaves a shift, or its gaming day, that cannot close (Nevada
MICS table games; N.J.A.C. 13:69D-1.21, the closer; 25 CFR 543.10)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict, DomainError
from core.permissions import require_supervisor
from core.roles import FLOOR_SUPERVISOR
from tables import selectors as table_selectors
from tables.models import HouseBankEntry, Table, TableSession
from tables.services.racks import rack_books_set
from tables.signatures import SignatureInput, Signed, signature_record, signature_verify, signing

from ..models import InventoryCount
from ..shift_figures import money_sum
from .common import count_parse, locked_table, require_house_banked, require_open_period
from .counts import audit_count


@signing
@transaction.atomic
def inventory_late_closing_count_record(
    *,
    session: TableSession,
    chips: Mapping[str, Any],
    counted_by: SignatureInput | None,
    signature: SignatureInput | None,
    note: str,
    by: User,
) -> InventoryCount:
    """The closing count of ``session``, taken late: a floor supervisor counts (``counted_by``
    signs), a second floor supervisor (``by``) verifies and signs (``signature``), and ``note``
    says why it is late. It is booked in the gaming day and shift the session closed in, marked
    ``late``, beside the books as they stood at the close; once it is in, that shift (and so its
    gaming day) may close. Refused for an open session (its closing count closes it), one
    with its closing count, or a shift already closed."""
    require_supervisor(by, action="record a late closing count")
    if not note or not note.strip():
        raise DomainError("Say why the closing count is late.", field="note")
    table = locked_table(session.table)
    session = TableSession.objects.select_for_update().get(pk=session.pk)
    require_house_banked(table, "inventory count")
    _require_closed_uncounted(table, session)
    assert session.closed_at is not None
    span = table_selectors.shift_of(table.cardroom, session.closed_at)
    require_open_period(table.cardroom, span.day, span.shift)
    pieces, total = count_parse(
        chips,
        table.cardroom.chip_denominations,
        field="chips",
        largest=table.cardroom.largest_cage_amount,
    )
    counter, verifier = _late_signatures(counted_by, signature, by)
    book, through = _books_at_close(table, session)
    count = InventoryCount.objects.create(
        table=table,
        session=session,
        kind=InventoryCount.Kind.CLOSING,
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
        late=True,
    )
    if _latest_session(table, session):
        rack_books_set(table=table, pieces=pieces, total=total)
    signature_record(count, counter)
    signature_record(count, verifier)
    audit_count(count, counter, verifier, by)
    return count


def _require_closed_uncounted(table: Table, session: TableSession) -> None:
    if session.table_id != table.pk or session.closed_at is None:
        raise Conflict(
            f"{table} is open: take its closing count, which closes the table.", field="session"
        )
    closing = InventoryCount.objects.filter(session=session, kind=InventoryCount.Kind.CLOSING)
    if closing.exists():
        raise Conflict(f"This session of {table} has its closing count already.", field="session")


def _late_signatures(
    counted_by: SignatureInput | None, signature: SignatureInput | None, by: User
) -> tuple[Signed, Signed]:
    """Two floor supervisors: no dealer is on duty at a closed table, so the count is the
    floor's, each supervisor signing as themselves (never one person twice)."""
    counter = signature_verify(
        counted_by,
        capacity="counter",
        roles=(FLOOR_SUPERVISOR,),
        field="counted_by",
        signed_already=(by,),
    )
    verifier = signature_verify(
        signature, capacity="verifier", roles=(FLOOR_SUPERVISOR,), field="signature", signer=by
    )
    return counter, verifier


def _books_at_close(table: Table, session: TableSession) -> tuple[Decimal | None, int]:
    """The rack by the books as the session closed: its last count plus every house bank
    entry up to the close (none after, which belong to a later session); ``None`` when the
    session was never counted."""
    entries = HouseBankEntry.objects.filter(table=table, created_at__lte=session.closed_at)
    through = entries.order_by("-id").values_list("id", flat=True).first() or 0
    previous = InventoryCount.objects.filter(session=session).order_by("-id").first()
    if previous is None:
        return None, through
    since = entries.filter(id__gt=previous.bank_through).values_list("amount", flat=True)
    return previous.total + money_sum(since), through


def _latest_session(table: Table, session: TableSession) -> bool:
    """Whether ``session`` is the table's latest: then its late count is what the rack holds
    by the books now; otherwise a later session's counts have reset them since."""
    return not TableSession.objects.filter(table=table, id__gt=session.pk).exists()
