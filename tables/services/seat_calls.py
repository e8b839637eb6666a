"""Seat calls: when a seat opens, the floor calls the next player on the list of its game;
the player has ``Cardroom.seat_call_minutes`` to take it, else the call passes to the next.
Taking the seat seats the player through the seating service (or, for a player seated at
another table, moves them with their stack: ``seat_changes``).

Two calls for one seat: both lock the table's row first, so one waits for the other and then
finds the seat called (a unique constraint on the called seat is the last word).
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import ZERO, MoneyInput, money
from core.permissions import require_supervisor
from patrons.models import Cardroom

from .. import waitlist_selectors
from ..models import Seating, Table, Waitlist, WaitlistEntry
from .incidents import alerting
from .locks import table_lock_open
from .seat_changes import seating_move_locked, tables_lock
from .seating import _player_create, _seat_player
from .waitlist import (
    entries_of,
    entry_end,
    entry_locked,
    holds_expire,
    local_time,
    require_on_list,
)

Status = WaitlistEntry.Status


@transaction.atomic
def waitlist_call(
    *, table: Table, seat: int, entry: WaitlistEntry | None = None, by: User
) -> WaitlistEntry:
    """Call a player to an empty seat: ``entry``, or the first waiting on the list of the
    table's game. A player no longer on the list is refused by name; so is a seat that is
    taken or called already."""
    require_supervisor(by, action="call a player to a seat")
    table, _ = table_lock_open(table, by=by, action="call a player to a seat")
    seat_open_check(table, seat)
    if entry is None:
        waitlist = _list_of(table)
        holds_expire(waitlist, by)
        entry = _first_waiting(waitlist)
    else:
        entry = entry_locked(entry)
        holds_expire(entry.waitlist, by)
        entry.refresh_from_db()
        require_on_list(entry, action="call")
        if not waitlist_selectors.table_fits(table, entry.waitlist):
            raise DomainError(
                f"{table} is not a table of the {entry.waitlist} list's game.", field="table"
            )
        if entry.status == Status.CALLED:
            raise Conflict(
                f"{entry.name} is called to seat {entry.called_seat} at {entry.called_table} "
                "already.",
                field="entry",
            )
    return _call(entry, table, seat, by)


def seat_open_check(table: Table, seat: int) -> None:
    """The seat is one of the table's, empty, and not called for (the caller holds the
    table's lock)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
        raise DomainError(f"Seat must be a number from 1 to {table.seat_count}.", field="seat")
    if Seating.objects.filter(table=table, seat=seat, left_at=None).exists():
        raise Conflict(f"Seat {seat} at {table} is taken.", field="seat")
    called = WaitlistEntry.objects.filter(
        called_table=table, called_seat=seat, status=Status.CALLED
    ).first()
    if called is not None and called.call_expires_at is not None:
        raise Conflict(
            f"Seat {seat} at {table} is called for {called.name} already, until "
            f"{local_time(called.call_expires_at, table.cardroom)}.",
            field="seat",
        )


def _list_of(table: Table) -> Waitlist:
    for waitlist in Waitlist.objects.filter(cardroom=table.cardroom_id, banking=table.banking):
        if waitlist_selectors.table_fits(table, waitlist):
            return (
                Waitlist.objects.select_for_update(of=("self",))
                .select_related("cardroom")
                .get(pk=waitlist.pk)
            )
    raise Conflict(f"No waitlist is open for {table}'s game.", field="table")


def _first_waiting(waitlist: Waitlist) -> WaitlistEntry:
    entry = (
        entries_of(waitlist)
        .filter(status=Status.WAITING)
        .select_for_update(of=("self",))
        .select_related("waitlist__cardroom", "player")
        .order_by("position", "id")
        .first()
    )
    if entry is None:
        raise Conflict(f"No one is waiting on the {waitlist} list.", field="waitlist")
    return entry


def _call(entry: WaitlistEntry, table: Table, seat: int, by: User | None) -> WaitlistEntry:
    now = timezone.now()
    minutes = entry.waitlist.cardroom.seat_call_minutes
    entry.status = Status.CALLED
    entry.called_table, entry.called_seat = table, seat
    entry.called_at, entry.call_expires_at = now, now + timedelta(minutes=minutes)
    try:
        with transaction.atomic():
            entry.save(
                update_fields=[
                    "status",
                    "called_table",
                    "called_seat",
                    "called_at",
                    "call_expires_at",
                ]
            )
    except IntegrityError:
        raise Conflict(f"Seat {seat} at {table} was just called for.", field="seat") from None
    audit_record(
        actor=by,
        action=AuditAction.WAITLIST_CALLED,
        target=entry.waitlist,
        payload={
            "waitlist": entry.waitlist_id,
            "entry": entry.pk,
            "player": entry.player_id,
            "table": table.pk,
            "seat": seat,
            "until": entry.call_expires_at,
        },
    )
    return entry


@transaction.atomic
def waitlist_call_pass(*, entry: WaitlistEntry, by: User | None) -> WaitlistEntry | None:
    """The called player did not take the seat (the minutes ran out, or they declined): the
    call passes to the next waiting on the list, who is called to the same seat. Answers the
    new call, or None when no one else waits."""
    if by is not None:
        require_supervisor(by, action="pass a seat call on")
    table = _called_table(entry)
    if by is not None:
        table, _ = table_lock_open(table, by=by, action="pass a seat call on")
    else:  # the sweep of calls that ran out
        table = Table.objects.select_for_update().get(pk=table.pk)
    entry = entry_locked(entry)
    if entry.status != Status.CALLED:
        require_on_list(entry, action="pass on")
        raise Conflict(f"{entry.name} is not called to a seat.", field="entry")
    seat = entry.called_seat or 0
    entry_end(entry, Status.PASSED)
    audit_record(
        actor=by,
        action=AuditAction.WAITLIST_CALL_PASSED,
        target=entry.waitlist,
        payload={"waitlist": entry.waitlist_id, "entry": entry.pk, "table": table.pk, "seat": seat},
    )
    holds_expire(entry.waitlist, by)
    try:
        following = _first_waiting(entry.waitlist)
    except Conflict:
        return None
    return _call(following, table, seat, by)


def waitlist_calls_expire(*, cardroom: Cardroom, by: User | None = None) -> int:
    """Pass on every call of the cardroom whose minutes ran out, each in its own
    transaction; how many were passed."""
    ran_out = WaitlistEntry.objects.filter(
        waitlist__cardroom=cardroom, status=Status.CALLED, call_expires_at__lte=timezone.now()
    ).values_list("pk", flat=True)
    passed = 0
    for pk in list(ran_out):
        try:
            waitlist_call_pass(entry=WaitlistEntry(pk=pk), by=by)
            passed += 1
        except Conflict:
            continue  # taken or passed meanwhile
    return passed


def _called_table(entry: WaitlistEntry) -> Table:
    row = WaitlistEntry.objects.filter(pk=entry.pk).select_related("called_table").first()
    if row is None or row.called_table is None:
        name = row.name if row is not None else f"Entry {entry.pk}"
        if row is not None:
            require_on_list(row, action="seat")
        raise Conflict(f"{name} is not called to a seat.", field="entry")
    return row.called_table


def waitlist_seat(
    *,
    entry: WaitlistEntry,
    buy_in: MoneyInput = ZERO,
    tender: str | None = None,
    by: User,
) -> Seating:
    """The called player takes the seat within the call's minutes: seated through the seating
    service (registered first if on the list by name only; screened and bought in as at any
    seat), or, if seated at another table, moved with the stack."""
    with alerting(by), transaction.atomic():
        require_supervisor(by, action="seat a player from the waitlist")
        table = _called_table(entry)
        current = (
            Seating.objects.filter(player=entry.player_id, left_at=None)
            .select_related("table")
            .first()
            if WaitlistEntry.objects.filter(pk=entry.pk, player__isnull=False).exists()
            else None
        )
        tables_lock([table] + ([current.table] if current else []), by=by, action="seat a player")
        entry = entry_locked(entry)
        _require_called_in_time(entry)
        seating = _sit(entry, current, buy_in=buy_in, tender=tender, by=by)
        entry_end(entry, Status.SEATED)
        entry.seating = seating
        entry.save(update_fields=["seating"])
        audit_record(
            actor=by,
            action=AuditAction.WAITLIST_SEATED,
            target=entry.waitlist,
            payload={"waitlist": entry.waitlist_id, "entry": entry.pk, "seating": seating.pk},
        )
        return seating


def _require_called_in_time(entry: WaitlistEntry) -> None:
    require_on_list(entry, action="seat")
    if entry.status != Status.CALLED:
        raise Conflict(f"{entry.name} is waiting, not called to a seat.", field="entry")
    assert entry.call_expires_at is not None
    if entry.call_expires_at <= timezone.now():
        raise Conflict(
            f"{entry.name}'s call to seat {entry.called_seat} at {entry.called_table} ran out "
            f"at {local_time(entry.call_expires_at, entry.waitlist.cardroom)}: pass it on to the "
            "next player.",
            field="entry",
        )


def _sit(
    entry: WaitlistEntry,
    current: Seating | None,
    *,
    buy_in: MoneyInput,
    tender: str | None,
    by: User,
) -> Seating:
    table, seat = entry.called_table, entry.called_seat
    assert table is not None and seat is not None
    if current is not None:
        if money(buy_in, field="buy_in"):
            raise DomainError(
                f"{entry.name} brings the stack from {current.table}: add chips once seated.",
                field="buy_in",
            )
        return seating_move_locked(seating=current, table=table, seat=seat, by=by)
    player = entry.player
    if player is None:
        player = _player_create(
            cardroom=entry.waitlist.cardroom, name=entry.name, identity=None, by=by
        )
        entry.player = player
        entry.save(update_fields=["player"])
    return _seat_player(table=table, seat=seat, player=player, buy_in=buy_in, tender=tender, by=by)
