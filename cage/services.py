"""Writes for the cage: table inventory counts, fills and credits, drop counts and their
variances, shift close and gaming-day close.

Every service is one transaction that locks (the cardroom's serial counter, the table, then
the audit chain, which ``audit_record`` locks last) and records its audit event. A closed
shift or gaming day takes no more cage records: they are refused with a Conflict, as is
anything out of order (a fill to a closed table, a second opening count, a drop box counted
before its shift is over). Records are append-only: a delivery, a void, a reprint, a sign-off
is a new row.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.alarms import checkpoint_problems_outstanding
from audit.services import audit_checkpoint_record, audit_record
from cardroom.kernel.errors import Conflict, DomainError, PermissionDenied
from cardroom.kernel.money import ZERO, money, money_text
from cardroom.kernel.permissions import require_role, require_supervisor, require_table_staff
from cardroom.kernel.roles import COMPLIANCE_AUDITOR, COUNT_TEAM, DEALER, FLOOR_SUPERVISOR, role_of
from tables import selectors as table_selectors
from tables import services as table_services
from tables.models import Cardroom, HouseBankEntry, Table, TableSession
from wagers.engine.table import Banking

from . import selectors
from .models import (
    DayClose,
    DropCount,
    InventoryCount,
    SerialCounter,
    ShiftClose,
    Slip,
    SlipDelivery,
    SlipPrint,
    SlipVoid,
    VarianceSignOff,
)

# --- chips and cash by denomination -------------------------------------------------------------


def count_parse(
    given: Mapping[str, Any],
    denominations: list[str],
    *,
    field: str,
    largest: Decimal | None = None,
) -> tuple[dict[str, int], Decimal]:
    """``{"25": 20, "100.00": 5}`` → every denomination with its number of pieces (zero for the
    ones not given), and the total. A denomination the cardroom does not use, a negative or a
    fractional number of pieces is refused, naming ``field.<denomination>``; so is a total
    above ``largest`` (the cardroom's ``largest_cage_amount``), naming ``field``."""
    if not isinstance(given, Mapping):
        raise DomainError("Give the number of pieces of each denomination.", field=field)
    pieces = dict.fromkeys(denominations, 0)
    for key, value in given.items():
        denomination = money_text(money(key, field=field))
        if denomination not in pieces:
            raise DomainError(
                f"${denomination} is not a denomination here ({', '.join(denominations)}).",
                field=f"{field}.{key}",
            )
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise DomainError(
                "The number of pieces is a whole number, 0 or more.", field=f"{field}.{key}"
            )
        pieces[denomination] += value
    total = sum((Decimal(d) * n for d, n in pieces.items()), ZERO)
    if total >= Decimal(10**10):
        raise DomainError("That is more than the books can hold.", field=field)
    if largest is not None and total > largest:
        raise DomainError(
            f"${money_text(total)} is more than the cardroom's largest fill, credit or count "
            f"(${money_text(largest)}): check the count, or ask a floor supervisor to raise it.",
            field=field,
        )
    return pieces, total


# --- guards ---------------------------------------------------------------------------------------


def _locked_table(table: Table) -> Table:
    return Table.objects.select_for_update().select_related("cardroom").get(pk=table.pk)


def _require_house_banked(table: Table, what: str) -> None:
    if table.banking != Banking.HOUSE:
        raise Conflict(
            f"{table} is a designated-player table: it has no house bank (rack), so no "
            f"{what}; its chips in play are the players' stacks.",
            field="table",
        )


def _require_open_period(cardroom: Cardroom, day: date, shift: str) -> None:
    """Cage records for a closed gaming day or shift are refused: the day is locked."""
    if selectors.day_closed(cardroom, day):
        raise Conflict(
            f"The gaming day {day} is closed: it takes no more records. A correction lands on "
            "the current day as an adjustment.",
            field="gaming_day",
        )
    if selectors.shift_closed(cardroom, day, shift):
        raise Conflict(
            f"The {shift} shift of {day} is closed: it takes no more records.", field="shift"
        )


def _require_other_person(first: User, second: User, *, field: str, roles: tuple[str, ...]) -> None:
    """A second signature is another person's, in one of ``roles``."""
    if first.pk == second.pk:
        raise DomainError("The second signature must be another person's.", field=field)
    if role_of(second) not in roles:
        allowed = " or ".join(r.lower() for r in roles)
        raise DomainError(f"{second.get_username()} is not a {allowed}.", field=field)


def _now_span(cardroom: Cardroom) -> table_selectors.ShiftSpan:
    return table_selectors.shift_of(cardroom, timezone.now())


# --- table inventory ------------------------------------------------------------------------------


@transaction.atomic
def inventory_count_record(
    *,
    table: Table,
    kind: str,
    chips: Mapping[str, Any],
    counted_by: User,
    note: str = "",
    by: User,
) -> InventoryCount:
    """The dealer's count of a house-banked table's rack, by denomination, verified by the
    floor supervisor (``by``): two signatures. ``opening`` once per session, before anything
    else is counted; ``shift_change`` once in each later shift the table stays open (the
    count that closes the previous shift and opens this one: count before play resumes);
    ``closing`` last, which also closes the table (its players cash out). The books' figure
    for the rack at that moment is kept beside the count; a count that differs from it is
    recorded only with a ``note`` explaining the difference."""
    require_supervisor(by, action="verify a table inventory count")
    _require_other_person(by, counted_by, field="counted_by", roles=(DEALER, FLOOR_SUPERVISOR))
    if kind not in InventoryCount.Kind.values:
        raise DomainError("The count is opening, shift_change or closing.", field="kind")
    table = _locked_table(table)
    _require_house_banked(table, "inventory count")
    session = table_selectors.open_session(table)
    if session is None:
        raise Conflict(f"{table} is closed: open it before counting its rack.", field="table")
    span = _now_span(table.cardroom)
    _require_open_period(table.cardroom, span.day, span.shift)
    _check_count_order(session, InventoryCount.Kind(kind), span)
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
        counted_by=counted_by,
        verified_by=by,
        created_at=timezone.now(),
        note=note.strip(),
    )
    audit_record(
        actor=by,
        action=AuditAction.INVENTORY_COUNTED,
        target=count,
        payload={
            "table": table.pk,
            "kind": kind,
            "gaming_day": span.day,
            "shift": span.shift,
            "chips": pieces,
            "total": total,
            "book_total": book,
            "counted_by": counted_by.pk,
            "note": note.strip(),
        },
    )
    if kind == InventoryCount.Kind.CLOSING:
        table_services.table_close(table=table, by=by)
    return count


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


# --- fills and credits ----------------------------------------------------------------------------


def _next_serial(cardroom: Cardroom, kind: str) -> int:
    """The next serial number of a kind of slip in the cardroom: the counter row, locked, so
    that two slips requested at once get two numbers."""
    counter = SerialCounter.objects.select_for_update().filter(cardroom=cardroom, kind=kind)
    row = counter.first()
    if row is None:
        try:
            with transaction.atomic():
                SerialCounter.objects.create(cardroom=cardroom, kind=kind)
        except IntegrityError:  # made by a concurrent request: lock it below
            pass
        row = counter.get()
    row.last += 1
    row.save(update_fields=["last"])
    return row.last


@transaction.atomic
def slip_request(*, table: Table, kind: str, chips: Mapping[str, Any], by: User) -> Slip:
    """A floor supervisor asks for chips to a table's rack (a fill) or for chips to go back
    to the cage (a credit), by denomination. The slip gets the cardroom's next serial number;
    the chips move when another person signs its delivery."""
    require_supervisor(by, action="request a fill or a credit")
    if kind not in Slip.Kind.values:
        raise DomainError("A slip is a fill or a credit.", field="kind")
    table = _locked_table(table)
    _require_house_banked(table, "fill or credit")
    if table_selectors.open_session(table) is None:
        raise Conflict(f"{table} is closed: no {kind} goes to a closed table.", field="table")
    span = _now_span(table.cardroom)
    _require_open_period(table.cardroom, span.day, span.shift)
    pieces, total = count_parse(
        chips,
        table.cardroom.chip_denominations,
        field="chips",
        largest=table.cardroom.largest_cage_amount,
    )
    if not total:
        raise DomainError(f"A {kind} is for some chips: every count is 0.", field="chips")
    if kind == Slip.Kind.CREDIT:
        _check_rack_holds(table, total)
    slip = Slip.objects.create(
        cardroom=table.cardroom,
        table=table,
        kind=kind,
        serial=_next_serial(table.cardroom, kind),
        gaming_day=span.day,
        shift=span.shift,
        chips=pieces,
        total=total,
        requested_by=by,
        requested_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.SLIP_REQUESTED,
        target=slip,
        payload={
            "table": table.pk,
            "kind": kind,
            "number": slip.number,
            "chips": pieces,
            "total": total,
            "gaming_day": span.day,
            "shift": span.shift,
        },
    )
    return slip


def _check_rack_holds(table: Table, amount: Decimal) -> None:
    book, _ = selectors.rack_by_the_books(table)
    if book is not None and amount > book:
        raise Conflict(
            f"The rack holds ${money_text(book)} by the books: a credit of "
            f"${money_text(amount)} would take more than it has.",
            field="chips",
        )


def _locked_slip(slip: Slip) -> tuple[Slip, Table]:
    table = _locked_table(slip.table)
    slip = Slip.objects.select_related("table__cardroom").get(pk=slip.pk)
    if SlipVoid.objects.filter(slip=slip).exists():
        raise Conflict(f"{slip.kind.capitalize()} {slip.number} is void.", field="slip")
    if SlipDelivery.objects.filter(slip=slip).exists():
        raise Conflict(
            f"{slip.kind.capitalize()} {slip.number} is delivered already.", field="slip"
        )
    return slip, table


@transaction.atomic
def slip_deliver(*, slip: Slip, by: User) -> SlipDelivery:
    """The second signature: the dealer on duty (or another floor supervisor) signs for the
    chips, and they move: into the rack (a fill) or out of it (a credit)."""
    slip, table = _locked_slip(slip)
    session = table_selectors.open_session(table)
    require_table_staff(by, session, action=f"sign for a {slip.kind}")
    if by.pk == slip.requested_by_id:
        raise PermissionDenied(
            f"The {slip.kind} was requested by you: another person signs for its delivery."
        )
    if session is None:
        raise Conflict(f"{table} is closed: no {slip.kind} goes to a closed table.", field="slip")
    span = _now_span(table.cardroom)
    _require_open_period(table.cardroom, span.day, span.shift)
    fill = slip.kind == Slip.Kind.FILL
    if not fill:
        _check_rack_holds(table, slip.total)
    entry = table_services.house_bank_entry_add(
        table=table,
        amount=slip.total if fill else -slip.total,
        reason=HouseBankEntry.Reason.FILL if fill else HouseBankEntry.Reason.CREDIT,
        reference=slip.number,
        by=by,
    )
    delivery = SlipDelivery.objects.create(
        slip=slip, delivered_by=by, delivered_at=timezone.now(), bank_entry=entry
    )
    audit_record(
        actor=by,
        action=AuditAction.SLIP_DELIVERED,
        target=slip,
        payload={"number": slip.number, "total": slip.total, "bank_entry": entry.pk},
    )
    return delivery


@transaction.atomic
def slip_void(*, slip: Slip, reason: str, witness: User, by: User) -> SlipVoid:
    """A slip never delivered is voided by a floor supervisor and a witness, with a reason;
    it stays, marked void, and its serial number is never used again. A delivered slip is not
    voided: chips delivered by mistake go back with a credit (or come with a fill)."""
    require_supervisor(by, action="void a slip")
    _require_other_person(by, witness, field="witness", roles=(DEALER, FLOOR_SUPERVISOR))
    if not reason or not reason.strip():
        raise DomainError("Say why the slip is void.", field="reason")
    slip, _ = _locked_slip(slip)
    _require_open_period(slip.cardroom, slip.gaming_day, slip.shift)
    void = SlipVoid.objects.create(
        slip=slip,
        reason=reason.strip(),
        voided_by=by,
        witness=witness,
        voided_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.SLIP_VOIDED,
        target=slip,
        payload={"number": slip.number, "reason": void.reason, "witness": witness.pk},
    )
    return void


@transaction.atomic
def slip_print(*, slip: Slip, by: User) -> SlipPrint:
    """Record a printing of the slip: the first is the original, every later one is marked
    as a reprint on the paper."""
    require_role(by, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR, action="print a slip")
    # The slip is append-only: its table's row is the lock, as for a delivery or a void, so
    # that two printings at once cannot both be the original.
    _locked_table(slip.table)
    slip = Slip.objects.get(pk=slip.pk)
    printed = SlipPrint.objects.create(
        slip=slip,
        reprint=SlipPrint.objects.filter(slip=slip).exists(),
        printed_by=by,
        printed_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.SLIP_PRINTED,
        target=slip,
        payload={"number": slip.number, "reprint": printed.reprint},
    )
    return printed


# --- drop and count -------------------------------------------------------------------------------


@transaction.atomic
def drop_count_record(
    *,
    table: Table,
    gaming_day: date,
    shift: str,
    cash: Mapping[str, Any],
    chips: Mapping[str, Any],
    second_counter: User,
    note: str = "",
    by: User,
) -> DropCount:
    """Two members of the count team enter what they found in a table's drop box for one
    shift: cash by bill, chips by denomination. The system keeps the drop the books expect
    beside it, and the variance; a variance needs a floor supervisor's sign-off before the
    shift closes. A box is counted once its shift is over, and once."""
    require_role(by, COUNT_TEAM, action="enter a drop count")
    _require_other_person(by, second_counter, field="second_counter", roles=(COUNT_TEAM,))
    table = _locked_table(table)
    cardroom = table.cardroom
    _, end = table_selectors.shift_bounds(cardroom, gaming_day, shift)
    if timezone.now() < end:
        raise Conflict(
            f"The {shift} shift of {gaming_day} is not over: its drop box is counted after "
            f"{timezone.localtime(end):%Y-%m-%d %H:%M %Z}.",
            field="shift",
        )
    _require_open_period(cardroom, gaming_day, shift)
    if DropCount.objects.filter(table=table, gaming_day=gaming_day, shift=shift).exists():
        raise Conflict(
            f"The drop box of {table} for the {shift} shift of {gaming_day} is counted already.",
            field="table",
        )
    largest = cardroom.largest_cage_amount
    cash_pieces, cash_total = count_parse(
        cash, list(selectors.CASH_DENOMINATIONS), field="cash", largest=largest
    )
    chip_pieces, chips_total = count_parse(
        chips, cardroom.chip_denominations, field="chips", largest=largest
    )
    expected = selectors.expected_drop(table, gaming_day, shift)
    total = cash_total + chips_total
    count = DropCount.objects.create(
        table=table,
        gaming_day=gaming_day,
        shift=shift,
        cash=cash_pieces,
        chips=chip_pieces,
        cash_total=cash_total,
        chips_total=chips_total,
        total=total,
        expected_cash=expected.cash,
        expected_chips=expected.chips,
        expected_total=expected.total,
        variance=total - expected.total,
        counted_by=by,
        second_counter=second_counter,
        note=note.strip(),
        created_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.DROP_COUNTED,
        target=count,
        payload={
            "table": table.pk,
            "gaming_day": gaming_day,
            "shift": shift,
            "cash": cash_pieces,
            "chips": chip_pieces,
            "total": total,
            "expected": expected.total,
            "variance": count.variance,
            "second_counter": second_counter.pk,
        },
    )
    return count


@transaction.atomic
def drop_variance_sign_off(*, count: DropCount, reason: str, by: User) -> VarianceSignOff:
    """A floor supervisor explains a drop count's variance and signs it off."""
    require_supervisor(by, action="sign off a drop variance")
    if not reason or not reason.strip():
        raise DomainError("Explain the variance.", field="reason")
    table = _locked_table(count.table)
    count = DropCount.objects.get(pk=count.pk)
    if not count.variance:
        raise Conflict("This count matches the expected drop: it has no variance.", field="count")
    if VarianceSignOff.objects.filter(count=count).exists():
        raise Conflict("This variance is signed off already.", field="count")
    _require_open_period(table.cardroom, count.gaming_day, count.shift)
    sign_off = VarianceSignOff.objects.create(
        count=count, reason=reason.strip(), signed_by=by, signed_at=timezone.now()
    )
    audit_record(
        actor=by,
        action=AuditAction.DROP_VARIANCE_SIGNED_OFF,
        target=count,
        payload={"variance": count.variance, "reason": sign_off.reason},
    )
    return sign_off


# --- shift and gaming-day close -------------------------------------------------------------------


def _locked_cardroom(cardroom: Cardroom) -> Cardroom:
    return Cardroom.objects.select_for_update().get(pk=cardroom.pk)


@transaction.atomic
def shift_close(*, cardroom: Cardroom, gaming_day: date, shift: str, by: User) -> ShiftClose:
    """A floor supervisor closes a shift once it is over and every count is in: every
    house-banked table's rack counted at the start and end of its play in the shift, every
    drop box counted, every variance signed off, every slip delivered or voided. Its
    statistics are kept as closed."""
    require_supervisor(by, action="close a shift")
    cardroom = _locked_cardroom(cardroom)
    _, end = table_selectors.shift_bounds(cardroom, gaming_day, shift)
    if timezone.now() < end:
        raise Conflict(
            f"The {shift} shift of {gaming_day} is not over: it closes after "
            f"{timezone.localtime(end):%Y-%m-%d %H:%M %Z}.",
            field="shift",
        )
    _require_open_period(cardroom, gaming_day, shift)
    outstanding = selectors.shift_outstanding(cardroom, gaming_day, shift)
    if outstanding:
        raise Conflict(
            f"The {shift} shift of {gaming_day} cannot close yet: " + "; ".join(outstanding) + ".",
            field="shift",
        )
    figures = selectors.shift_statistics(cardroom, gaming_day, shift).as_json()
    closed = ShiftClose.objects.create(
        cardroom=cardroom,
        gaming_day=gaming_day,
        shift=shift,
        closed_by=by,
        closed_at=timezone.now(),
        figures=figures,
    )
    audit_record(
        actor=by,
        action=AuditAction.SHIFT_CLOSED,
        target=closed,
        payload={"gaming_day": gaming_day, "shift": shift, "totals": figures["totals"]},
    )
    return closed


def gaming_day_close(*, cardroom: Cardroom, gaming_day: date, by: User) -> DayClose:
    """Compliance signs a gaming day off once it is over and every shift of it is closed:
    the audit chain is verified and a checkpoint of it recorded, the day's figures are kept,
    and the day is locked (a later correction of one of its hands lands on the current day,
    naming this one). A checkpoint problem not yet acknowledged by compliance refuses the
    close, after the checkpoint and the problems it found are committed, to be acknowledged."""
    closed = _gaming_day_close(cardroom=cardroom, gaming_day=gaming_day, by=by)
    if isinstance(closed, Conflict):
        raise closed
    return closed


@transaction.atomic
def _gaming_day_close(*, cardroom: Cardroom, gaming_day: date, by: User) -> DayClose | Conflict:
    require_role(by, COMPLIANCE_AUDITOR, action="close a gaming day")
    cardroom = _locked_cardroom(cardroom)
    _, end = table_selectors.gaming_day_bounds(cardroom, gaming_day)
    if timezone.now() < end:
        raise Conflict(f"The gaming day {gaming_day} is not over.", field="gaming_day")
    if selectors.day_closed(cardroom, gaming_day):
        raise Conflict(f"The gaming day {gaming_day} is closed already.", field="gaming_day")
    open_shifts = [
        span.shift
        for span in table_selectors.day_shifts(cardroom, gaming_day)
        if not selectors.shift_closed(cardroom, gaming_day, span.shift)
    ]
    if open_shifts:
        raise Conflict(
            f"The gaming day {gaming_day} cannot close: shift {', '.join(open_shifts)} is "
            "not closed.",
            field="gaming_day",
        )
    checkpoint = audit_checkpoint_record()
    if checkpoint is None:
        raise Conflict(
            "The audit chain does not verify: the day cannot be signed off.", field="gaming_day"
        )
    if outstanding := checkpoint_problems_outstanding():
        return Conflict(
            "The audit log has checkpoint problems that compliance has not acknowledged: "
            + "; ".join(problem.text for problem in outstanding)
            + ". Acknowledge each on the audit log screen, then close the day.",
            field="gaming_day",
        )
    figures = selectors.day_statistics(cardroom, gaming_day).as_json()
    closed = DayClose.objects.create(
        cardroom=cardroom,
        gaming_day=gaming_day,
        closed_by=by,
        closed_at=timezone.now(),
        figures=figures,
        checkpoint=checkpoint,
    )
    audit_record(
        actor=by,
        action=AuditAction.GAMING_DAY_CLOSED,
        target=closed,
        payload={
            "gaming_day": gaming_day,
            "totals": figures["totals"],
            "checkpoint": checkpoint.seq,
        },
    )
    return closed
