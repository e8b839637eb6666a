"""Writes for tables: configuration and its governance (R17), sessions, seats and stacks.

Every service runs in one transaction, locks what it changes, and appends its audit event
last (after its own locks, so lock order is always: table or seating rows, then the chain).
The designated-player rotation (R16) is in ``tables.rotation``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import time
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError, NotFound, PermissionDenied
from core.money import MONEY_LIMIT, ZERO, MoneyInput, money, money_text
from core.permissions import require_role, require_supervisor, require_table_staff
from core.prepared import PreparedRead
from core.roles import ADMINISTRATOR, DEALER, FLOOR_SUPERVISOR, TABLE_STAFF
from engine.game_math import TableFigures
from engine.table import MAX_SEATS, Banking
from patrons.cash import cash_transaction_record
from patrons.exclusions import alerting, exclusion_screen, player_screen
from patrons.identity import IdentityInput, identity_check, identity_record
from patrons.models import CashTransaction

from . import catalogue, figures, rules, selectors
from .holds import hold_refusal, require_floor_for_held
from .lineage import require_independent
from .models import (
    Cardroom,
    HouseBankEntry,
    Player,
    Seating,
    SelfApprovalChange,
    SelfApprovalDecision,
    SettingChange,
    Shift,
    StackEntry,
    Table,
    TableCash,
    TableSession,
    TableSettings,
    Tender,
)
from .signatures import SignatureInput, signature_record, signature_verify, signing

# --- configuration ---------------------------------------------------------------------------


@transaction.atomic
def cardroom_create(
    *,
    name: str,
    time_zone: str = "UTC",
    gaming_day_starts_at: time = time(6, 0),
    by: User,
) -> Cardroom:
    """An administrator creates a cardroom. Self-approval (R17) starts off: switching it on is
    a change of its own, approved by a second administrator (``self_approval_change_*``)."""
    require_role(by, ADMINISTRATOR, action="create a cardroom")
    try:
        ZoneInfo(time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise DomainError(f"'{time_zone}' is not a time zone name.", field="time_zone") from None
    if Cardroom.objects.filter(name=name).exists():
        raise Conflict(f"A cardroom named {name!r} exists already.", field="name")
    cardroom = Cardroom.objects.create(
        name=name, time_zone=time_zone, gaming_day_starts_at=gaming_day_starts_at
    )
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_CREATED,
        target=cardroom,
        payload={
            "name": name,
            "time_zone": time_zone,
            "gaming_day_starts_at": gaming_day_starts_at,
            "self_approval_allowed": False,
        },
    )
    # R17: its catalogue of approved paytables starts with the new-table defaults.
    seeded = catalogue.catalogue_seed(cardroom=cardroom, by=by)
    audit_record(
        actor=by,
        action=AuditAction.PAYTABLE_CATALOGUE_SEEDED,
        target=cardroom,
        payload={
            "by": "cardroom_create",
            "entries": [
                {"change": c.pk, "kind": c.kind, "lines": c.lines, "origin": c.origin}
                for c in seeded
            ],
        },
    )
    return cardroom


@transaction.atomic
def cardroom_shifts_set(
    *, cardroom: Cardroom, shifts: Sequence[tuple[str, time]], by: User
) -> list[Shift]:
    """The shifts of the cardroom's gaming day (e.g. day / swing / grave), each from its start
    to the next one's; the first starts when the gaming day does. Records already made keep
    the gaming day and shift they were booked in."""
    require_supervisor(by, action="define a cardroom's shifts")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    names = [name.strip() for name, _ in shifts]
    starts = [start for _, start in shifts]
    if not shifts:
        raise DomainError("Define at least one shift.", field="shifts")
    if any(not name or len(name) > 20 for name in names):
        raise DomainError("Every shift needs a name of 1 to 20 characters.", field="shifts")
    if len(set(names)) < len(names) or len(set(starts)) < len(starts):
        raise DomainError("Two shifts share a name or a start.", field="shifts")
    day_start = cardroom.gaming_day_starts_at
    if day_start not in starts:
        raise DomainError(
            f"The first shift starts when the gaming day does, at {day_start:%H:%M}.",
            field="shifts",
        )
    Shift.objects.filter(cardroom=cardroom).delete()
    made = Shift.objects.bulk_create(
        Shift(cardroom=cardroom, name=name, starts_at=start)
        for name, start in zip(names, starts, strict=True)
    )
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_SHIFTS_SET,
        target=cardroom,
        payload={
            "shifts": [[name, f"{start:%H:%M}"] for name, start in zip(names, starts, strict=True)]
        },
    )
    order = [name for name, _ in selectors.shift_starts(cardroom)]
    return sorted(made, key=lambda shift: order.index(shift.name))


@transaction.atomic
def cardroom_denominations_set(
    *, cardroom: Cardroom, denominations: Sequence[MoneyInput], by: User
) -> Cardroom:
    """The chip denominations the cardroom's racks, fills and credits are counted in."""
    require_supervisor(by, action="set a cardroom's chip denominations")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    values = sorted({money(value, field="denominations") for value in denominations})
    if not values or values[0] <= 0 or len(values) < len(denominations):
        raise DomainError(
            "Chip denominations are distinct amounts above $0.00.", field="denominations"
        )
    cardroom.chip_denominations = [money_text(value) for value in values]
    cardroom.save(update_fields=["chip_denominations"])
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_DENOMINATIONS_SET,
        target=cardroom,
        payload={"denominations": cardroom.chip_denominations},
    )
    return cardroom


@transaction.atomic
def cardroom_cage_limit_set(*, cardroom: Cardroom, largest: MoneyInput, by: User) -> Cardroom:
    """The most a fill or credit, a rack count or a drop count may total in the cardroom."""
    require_supervisor(by, action="set a cardroom's largest cage amount")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    amount = money(largest, field="largest_cage_amount")
    if amount <= 0:
        raise DomainError("The largest amount is above $0.00.", field="largest_cage_amount")
    before = cardroom.largest_cage_amount
    cardroom.largest_cage_amount = amount
    cardroom.save(update_fields=["largest_cage_amount"])
    audit_record(
        actor=by,
        action=AuditAction.CARDROOM_CAGE_LIMIT_SET,
        target=cardroom,
        payload={"largest_cage_amount": amount, "before": before},
    )
    return cardroom


@transaction.atomic
def self_approval_change_propose(
    *, cardroom: Cardroom, allowed: bool, reason: str, by: User
) -> SelfApprovalChange:
    """R17 dual control of dual control: an administrator proposes switching a cardroom's
    self-approval on or off, with a reason; another administrator decides. One pending
    change per cardroom at a time."""
    require_role(by, ADMINISTRATOR, action="propose a change to a cardroom's self-approval")
    if not reason or not reason.strip():
        raise DomainError("Say why self-approval should change.", field="reason")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)
    if cardroom.self_approval_allowed == allowed:
        state = "on" if allowed else "off"
        raise DomainError(f"Self-approval is {state} already in {cardroom}.", field="allowed")
    if selectors.self_approval_pending(cardroom).exists():
        raise Conflict(
            f"{cardroom} has a self-approval change waiting for a decision.", field="cardroom"
        )
    change = SelfApprovalChange.objects.create(
        cardroom=cardroom,
        allowed=allowed,
        reason=reason.strip(),
        proposed_by=by,
        proposed_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.SELF_APPROVAL_CHANGE_PROPOSED,
        target=change,
        payload={"cardroom": cardroom.pk, "allowed": allowed, "reason": change.reason},
    )
    return change


@signing
@transaction.atomic
def self_approval_change_decide(
    *,
    change: SelfApprovalChange,
    approve: bool,
    by: User,
    reason: str = "",
    signature: SignatureInput | None = None,
) -> SelfApprovalDecision:
    """A second administrator, off the proposer's maker's line, approves and signs, and the
    cardroom's switch changes; or an administrator rejects it (the proposer: withdraws)."""
    require_role(by, ADMINISTRATOR, action="decide a change to a cardroom's self-approval")
    cardroom = Cardroom.objects.select_for_update().get(pk=change.cardroom_id)
    change = SelfApprovalChange.objects.select_related("decision").get(pk=change.pk)
    if hasattr(change, "decision"):
        raise Conflict("This change was decided already.", field="status")
    if approve and change.proposed_by_id == by.pk:
        raise PermissionDenied(
            "A change to self-approval needs a second administrator: not its proposer."
        )
    signed = None
    if approve:
        require_independent(
            approver=by, proposer=change.proposed_by, what="A change to self-approval"
        )
        signed = signature_verify(
            signature, capacity="approver", roles=(ADMINISTRATOR,), field="signature", signer=by
        )
    decision = SelfApprovalDecision.objects.create(
        change=change, approved=approve, reason=reason.strip(), decided_by=by,
        decided_at=timezone.now(),
    )  # fmt: skip
    if signed is not None:
        cardroom.self_approval_allowed = change.allowed
        cardroom.save(update_fields=["self_approval_allowed"])
        signature_record(change, signed)
    audit_record(
        actor=by,
        action=AuditAction.SELF_APPROVAL_CHANGE_APPROVED
        if approve
        else AuditAction.SELF_APPROVAL_CHANGE_REJECTED,
        target=change,
        payload={
            "cardroom": cardroom.pk,
            "allowed": change.allowed,
            "proposed_by": change.proposed_by_id,
            "reason": decision.reason,
        },
    )
    return decision


@transaction.atomic
def table_create(
    *,
    cardroom: Cardroom,
    name: str,
    banking: str,
    seat_count: int = MAX_SEATS,
    settings: dict[str, Any] | None = None,
    by: User,
) -> Table:
    """A new table with its first settings version; ``settings`` override the defaults."""
    require_supervisor(by, action="create a table")
    if banking not in {b.value for b in Banking}:
        raise DomainError("Banking is 'designated_player' or 'house'.", field="banking")
    if isinstance(seat_count, bool) or not isinstance(seat_count, int):
        raise DomainError("The number of seats is a whole number.", field="seat_count")
    if not 1 <= seat_count <= MAX_SEATS:
        raise DomainError(f"A table has 1 to {MAX_SEATS} seats (R1).", field="seat_count")
    if not name.strip():
        raise DomainError("A table needs a name.", field="name")
    if Table.objects.filter(cardroom=cardroom, name=name).exists():
        raise Conflict(f"{cardroom} has a table named {name!r} already.", field="name")
    cardroom = Cardroom.objects.select_for_update().get(pk=cardroom.pk)  # the catalogue's lock
    table = Table(cardroom=cardroom, name=name, banking=banking, seat_count=seat_count)
    given = rules.parse_settings(settings or {})
    values = rules.defaults_for(banking) | given
    _check_values(table, values, changed=given)
    table.save()
    first = TableSettings.objects.create(table=table, version=1, **values)
    audit_record(
        actor=by,
        action=AuditAction.TABLE_CREATED,
        target=table,
        payload={
            "name": name,
            "banking": banking,
            "seat_count": seat_count,
            "settings_version": first.version,
            "settings": rules.as_json(values),
        },
    )
    return table


@transaction.atomic
def setting_change_propose(
    *, table: Table, values: dict[str, Any], reason: str, by: User
) -> SettingChange:
    """R17: a floor supervisor proposes new values for some settings, with a reason."""
    require_supervisor(by, action="propose a change to a table's settings")
    if not reason or not reason.strip():
        raise DomainError("Say why the settings change.", field="reason")
    new = rules.parse_settings(values)
    current = selectors.current_settings(table)
    old = rules.settings_values(current)
    changed = {name: value for name, value in new.items() if value != old[name]}
    if not changed:
        raise DomainError("The proposed values are the table's current values.", field="values")
    _check_values(table, old | changed, changed=changed)
    change = SettingChange.objects.create(
        table=table,
        proposed_by=by,
        proposed_at=timezone.now(),
        reason=reason.strip(),
        based_on=current,
        new_values=rules.as_json(changed),
        old_values=rules.as_json({name: old[name] for name in changed}),
    )
    audit_record(
        actor=by,
        action=AuditAction.SETTING_CHANGE_PROPOSED,
        target=change,
        payload={
            "table": table.pk,
            "based_on_version": current.version,
            "new": change.new_values,
            "old": change.old_values,
            "reason": change.reason,
        },
    )
    return change


@dataclass(frozen=True)
class SettingPreview:
    """What a proposal would be, written nowhere (R17): the settings that change, the figures
    of the settings it would make (None when the rules refuse them) and of those in force, and
    the refusal ``setting_change_propose`` would meet (None: it would be accepted)."""

    changed: dict[str, Any]
    proposed: TableFigures | None
    in_force: TableFigures
    refusal: DomainError | None


def setting_change_preview(*, table: Table, values: dict[str, Any]) -> SettingPreview:
    """Everything ``setting_change_propose`` checks, and the figures a supervisor weighs,
    before anything is proposed: it reads and writes nothing else. Malformed values raise
    the same DomainError as a proposal."""
    new = rules.parse_settings(values)
    current = selectors.current_settings(table)
    old = rules.settings_values(current)
    changed = {name: value for name, value in new.items() if value != old[name]}
    proposed, refusal = None, None
    try:
        rules.check_settings(table, old | changed)
        proposed = figures.settings_figures(old | changed)
        _check_values(table, old | changed, changed=changed)
    except DomainError as error:
        refusal = error
    return SettingPreview(changed, proposed, figures.settings_figures(current), refusal)


@signing
@transaction.atomic
def setting_change_approve(
    *, change: SettingChange, signature: SignatureInput | None, by: User
) -> TableSettings:
    """R17: another floor supervisor, off the proposer's maker's line, approves and signs
    (dual control), or the proposer where the cardroom allows self-approval, recorded as such.
    The new version applies from the next hand: a hand records the version it started under
    and keeps it."""
    require_supervisor(by, action="approve a change to a table's settings")
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("cardroom")
        .get(pk=change.table_id)
    )
    change = SettingChange.objects.select_for_update().get(pk=change.pk)
    _require_pending(change)
    # The catalogue's lock (tables.catalogue): no paytable is retired while this is approved.
    Cardroom.objects.select_for_update().get(pk=table.cardroom_id)
    self_approved = change.proposed_by_id == by.pk
    if self_approved and not table.cardroom.self_approval_allowed:
        raise PermissionDenied(
            "A change needs approval by a different floor supervisor (R17 dual control)."
        )
    if not self_approved:
        require_independent(approver=by, proposer=change.proposed_by, what="A settings change")
    signed = signature_verify(
        signature, capacity="approver", roles=(FLOOR_SUPERVISOR,), field="signature", signer=by
    )
    current = selectors.current_settings(table)
    old = rules.settings_values(current)
    new = rules.parse_settings(change.new_values)
    # Still valid on top of anything approved since, and with the catalogue as it is now.
    _check_values(table, old | new, changed=new)
    version = TableSettings.objects.create(table=table, version=current.version + 1, **(old | new))
    change.status = SettingChange.Status.APPROVED
    change.decided_by, change.decided_at = by, timezone.now()
    change.self_approved = self_approved
    change.old_values = rules.as_json({name: old[name] for name in new})
    change.result = version
    change.save()
    signature_record(change, signed)
    audit_record(
        actor=by,
        action=AuditAction.SETTING_CHANGE_APPROVED,
        target=change,
        payload={
            "table": table.pk,
            "version": version.version,
            "new": change.new_values,
            "old": change.old_values,
            "self_approved": self_approved,
            "proposed_by": change.proposed_by_id,
        },
    )
    return version


@transaction.atomic
def setting_change_reject(*, change: SettingChange, by: User, reason: str = "") -> SettingChange:
    require_supervisor(by, action="reject a change to a table's settings")
    return _close_change(
        change, SettingChange.Status.REJECTED, AuditAction.SETTING_CHANGE_REJECTED, by, reason
    )


@transaction.atomic
def setting_change_withdraw(*, change: SettingChange, by: User) -> SettingChange:
    require_supervisor(by, action="withdraw a change to a table's settings")
    if change.proposed_by_id != by.pk:
        raise PermissionDenied("Only the supervisor who proposed a change may withdraw it.")
    return _close_change(
        change, SettingChange.Status.WITHDRAWN, AuditAction.SETTING_CHANGE_WITHDRAWN, by, ""
    )


def _close_change(
    change: SettingChange, status: str, action: AuditAction, by: User, reason: str
) -> SettingChange:
    change = SettingChange.objects.select_for_update().get(pk=change.pk)
    _require_pending(change)
    change.status, change.decided_by, change.decided_at = status, by, timezone.now()
    change.save(update_fields=["status", "decided_by", "decided_at"])
    audit_record(
        actor=by,
        action=action,
        target=change,
        payload={"table": change.table_id, "reason": reason},
    )
    return change


def _check_values(table: Table, values: dict[str, Any], *, changed: Iterable[str]) -> None:
    """A table's complete settings as they would be: the rules (R5, R10, R12, R16), then R17's
    guardrails: a house-banked table's every wager returns less than 100%, and the table posts
    only paytables of its cardroom's catalogue. Each refusal names the setting at fault."""
    rules.check_settings(table, values)
    changed = set(changed)
    if table.banking == Banking.HOUSE and "rake_amount" in changed and values["rake_amount"]:
        raise DomainError(
            "A house-banked table takes no collection fee (R12): leave the fee at 0.00.",
            field="rake_amount",
        )
    figures.check_house_return(table.banking, values, changed=changed)
    catalogue.check_catalogue(table, values)


def _require_pending(change: SettingChange) -> None:
    if change.status != SettingChange.Status.PENDING:
        raise Conflict(f"This change was {change.status} already.", field="status")


# --- sessions --------------------------------------------------------------------------------


@transaction.atomic
def table_open(*, table: Table, dealer: User, by: User) -> TableSession:
    """A floor supervisor opens a table with any dealer on duty; a dealer opens one only as
    its own dealer on duty."""
    role = require_role(by, *TABLE_STAFF, action="open a table")
    if role == DEALER and dealer.pk != by.pk:
        raise PermissionDenied("A dealer opens a table only as its own dealer on duty.")
    require_role(dealer, DEALER, action="deal at a table")
    table = Table.objects.select_for_update().get(pk=table.pk)
    if selectors.open_session(table) is not None:
        raise Conflict(f"{table} is open already.")
    session = TableSession.objects.create(
        table=table, dealer=dealer, opened_by=by, opened_at=timezone.now()
    )
    audit_record(
        actor=by,
        action=AuditAction.TABLE_OPENED,
        target=session,
        payload={"table": table.pk, "dealer": dealer.pk},
    )
    return session


@transaction.atomic
def table_dealer_change(*, table: Table, dealer: User, by: User) -> TableSession:
    """The dealer on duty changes (a break, a shift); the session goes on."""
    require_supervisor(by, action="change the dealer on duty")
    require_role(dealer, DEALER, action="deal at a table")
    session = _open_session_locked(table)
    previous, session.dealer = session.dealer_id, dealer
    session.save(update_fields=["dealer"])
    audit_record(
        actor=by,
        action=AuditAction.TABLE_DEALER_CHANGED,
        target=session,
        payload={"table": table.pk, "from": previous, "to": dealer.pk},
    )
    return session


@transaction.atomic
def table_close(*, table: Table, by: User) -> TableSession:
    """Close the table: refused while a hand is in progress; seated players cash out."""
    require_supervisor(by, action="close a table")
    session = _open_session_locked(table)
    if selectors.hand_in_progress(table):
        raise Conflict(f"{table} has a hand in progress: settle it or declare it dead first.")
    for seating in Seating.objects.select_for_update().filter(table=table, left_at__isnull=True):
        _leave(seating, by)
    session.closed_by, session.closed_at = by, timezone.now()
    session.save(update_fields=["closed_by", "closed_at"])
    audit_record(
        actor=by, action=AuditAction.TABLE_CLOSED, target=session, payload={"table": table.pk}
    )
    return session


#: The first read of every change at an open table (compiled once: core.prepared).
_LOCKED_TABLE = PreparedRead(
    lambda key: Table.objects.select_for_update().select_related("cardroom").filter(pk=key)
)


def table_lock_open(table: Table, *, by: User, action: str) -> tuple[Table, TableSession]:
    """The table's row, locked, for a change at an open table (a hand, a seat, the rotation).

    Every such change takes this lock first, so that changes at one table happen one at a
    time while other tables go on; ``by`` must be a floor supervisor or the table's dealer on
    duty, and the table must be open.
    """
    locked = _LOCKED_TABLE.first(table.pk)
    if locked is None:
        raise NotFound(f"There is no table {table.pk}.")
    table = locked
    session = selectors.open_session(table)
    require_table_staff(by, session, action=action)
    if session is None:
        raise Conflict(f"{table} is closed: open it to {action}.")
    return table, session


def _open_session_locked(table: Table) -> TableSession:
    session = TableSession.objects.select_for_update().filter(table=table, closed_at=None).first()
    if session is None:
        raise Conflict(f"{table} is closed.")
    return session


# --- players, seats and stacks ---------------------------------------------------------------


def player_create(
    *, cardroom: Cardroom, name: str, by: User, identity: IdentityInput | None = None
) -> Player:
    """Register a player, with an identity (date of birth and ID) if one is shown. A person
    on an exclusion list in force (matched on the ID, or name and date of birth) is refused
    with a neutral message, and the match raises an alert (``patrons.exclusions``)."""
    with alerting(by):
        return _player_create(cardroom=cardroom, name=name, identity=identity, by=by)


@transaction.atomic
def _player_create(
    *, cardroom: Cardroom, name: str, identity: IdentityInput | None, by: User
) -> Player:
    require_role(by, *TABLE_STAFF, action="register a player")
    if not name.strip():
        raise DomainError("A player needs a name.", field="name")
    if identity is not None:
        identity_check(identity, today=timezone.localdate())
    exclusion_screen(
        action="register",
        cardroom=cardroom,
        name=name.strip(),
        date_of_birth=identity.date_of_birth if identity else None,
        hashed_id=identity.hashed() if identity else "",
        by=by,
    )
    player = Player.objects.create(cardroom=cardroom, name=name.strip())
    audit_record(
        actor=by, action=AuditAction.PLAYER_CREATED, target=player, payload={"name": player.name}
    )
    if identity is not None:
        identity_record(player=player, identity=identity, by=by)
    return player


def player_seat_new(
    *,
    table: Table,
    seat: int,
    name: str,
    buy_in: MoneyInput = ZERO,
    tender: str | None = None,
    identity: IdentityInput | None = None,
    by: User,
) -> Seating:
    """A player new to the cardroom registers and sits down in one transaction, so that a
    refused seating (a taken seat, a closed table, a buy-in off the chip unit, an exclusion)
    leaves no player behind."""
    with alerting(by), transaction.atomic():
        player = _player_create(cardroom=table.cardroom, name=name, identity=identity, by=by)
        return _seat_player(
            table=table, seat=seat, player=player, buy_in=buy_in, tender=tender, by=by
        )


def seat_player(
    *,
    table: Table,
    seat: int,
    player: Player,
    buy_in: MoneyInput = ZERO,
    tender: str | None = None,
    by: User,
) -> Seating:
    """A player sits down at an open table and buys in: chips onto the table stack, bought
    with cash at the table or brought as chips (``tender``; see ``tender_for``). A player on
    an exclusion list in force is refused (neutrally) and the match raises an alert; cash
    goes on the player's cash log (``patrons.cash``: MTL, CTR, identity over $10,000)."""
    with alerting(by):
        return _seat_player(
            table=table, seat=seat, player=player, buy_in=buy_in, tender=tender, by=by
        )


@transaction.atomic
def _seat_player(
    *,
    table: Table,
    seat: int,
    player: Player,
    buy_in: MoneyInput,
    tender: str | None,
    by: User,
) -> Seating:
    table, _ = table_lock_open(table, by=by, action="seat a player")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
        raise DomainError(f"Seat must be a number from 1 to {table.seat_count}.", field="seat")
    amount = money(buy_in, field="buy_in")
    _check_chips(table, amount, "buy_in")
    paid_with = tender_for(table, tender)
    if player.cardroom_id != table.cardroom_id:
        raise DomainError(f"{player} is not a player of {table.cardroom}.", field="player")
    if Seating.objects.filter(table=table, seat=seat, left_at=None).exists():
        raise Conflict(f"Seat {seat} at {table} is taken.", field="seat")
    if Seating.objects.filter(player=player, left_at=None).exists():
        raise Conflict(f"{player} is seated already.", field="player")
    player_screen(action="seat", player=player, table=table, by=by)
    try:
        with transaction.atomic():  # the constraints are the last word under a race
            seating = Seating.objects.create(
                table=table, seat=seat, player=player, sat_at=timezone.now()
            )
    except IntegrityError:
        # Which constraint: the seat (serialised by the table lock) or the player, who may be
        # seated at another table at the same moment (a different table lock).
        if Seating.objects.filter(table=table, seat=seat, left_at=None).exists():
            raise Conflict(f"Seat {seat} at {table} was just taken.", field="seat") from None
        raise Conflict(f"{player} was just seated at another table.", field="player") from None
    audit_record(
        actor=by,
        action=AuditAction.SEAT_TAKEN,
        target=seating,
        payload={"table": table.pk, "seat": seat, "player": player.pk},
    )
    if amount:
        stack_entry_add(
            seating=seating,
            amount=amount,
            reason=StackEntry.Reason.BUY_IN,
            tender=paid_with,
            by=by,
        )
    return seating


def stack_add(
    *, seating: Seating, amount: MoneyInput, tender: str | None = None, by: User
) -> Seating:
    """More chips onto a seated player's stack, bought with cash or brought as chips; the
    player is screened against the exclusion lists as at a buy-in."""
    with alerting(by):
        return _stack_add(seating=seating, amount=amount, tender=tender, by=by)


@transaction.atomic
def _stack_add(*, seating: Seating, amount: MoneyInput, tender: str | None, by: User) -> Seating:
    seating = _seating_for_change(seating, by, "add chips")
    if seating.exclusion_hold_id is not None:  # a held player buys no chips, whoever asks
        raise hold_refusal(seating, by=by, action="buy chips")
    value = money(amount, field="amount")
    if not value:
        raise DomainError("Add an amount above $0.00.", field="amount")
    _check_chips(seating.table, value, "amount")
    paid_with = tender_for(seating.table, tender)
    player_screen(action="buy chips", player=seating.player, table=seating.table, by=by)
    stack_entry_add(
        seating=seating, amount=value, reason=StackEntry.Reason.ADD_ON, tender=paid_with, by=by
    )
    return seating


def tender_for(table: Table, tender: str | None) -> Tender:
    """How a buy-in or add-on is paid. By default: cash at a house-banked table (the dealer
    sells chips out of the rack and drops the cash), chips at a designated-player table,
    whose players buy their chips at the cage: it has no house bank to sell them from, so a
    cash buy-in there is refused."""
    if tender is None or tender == "":
        return Tender.CASH if table.banking == Banking.HOUSE else Tender.CHIPS
    if tender not in Tender.values:
        raise DomainError("Tender is 'cash' or 'chips'.", field="tender")
    if tender == Tender.CASH and table.banking != Banking.HOUSE:
        raise DomainError(
            f"{table} is a designated-player table: it has no house bank to sell chips for "
            "cash. Buy chips at the cage and bring them (tender 'chips').",
            field="tender",
        )
    return Tender(tender)


@transaction.atomic
def stack_cash_out(*, seating: Seating, amount: MoneyInput | None = None, by: User) -> Seating:
    """Colour up: chips off the table stack — all of them unless an amount is given."""
    seating = _seating_for_change(seating, by, "cash out chips")
    if selectors.hand_in_progress(seating.table, seating=seating):
        raise Conflict("Chips in a hand in progress stay on the table until it settles.")
    value = seating.stack if amount is None else money(amount, field="amount")
    if not value:
        raise DomainError("There are no chips to cash out.", field="amount")
    if amount is not None:
        _check_chips(seating.table, value, "amount")  # all of a stack may hold odd cents
    if value > seating.stack:
        raise DomainError(
            f"The stack holds ${money_text(seating.stack)}; ${money_text(value)} cannot be "
            "cashed out.",
            field="amount",
        )
    stack_entry_add(
        seating=seating,
        amount=-value,
        reason=StackEntry.Reason.CASH_OUT,
        tender=Tender.CHIPS,
        by=by,
    )
    return seating


@transaction.atomic
def seating_sit_out(*, seating: Seating, by: User) -> Seating:
    return _set_flag(seating, "sitting_out", True, by, AuditAction.SEAT_SAT_OUT, "sit a player out")


@transaction.atomic
def seating_come_back(*, seating: Seating, by: User) -> Seating:
    return _set_flag(
        seating, "sitting_out", False, by, AuditAction.SEAT_CAME_BACK, "bring a player back"
    )


@transaction.atomic
def seating_waive_dp(*, seating: Seating, waived: bool, by: User) -> Seating:
    """R16: a standing waiver of the designated-player position (or its end)."""
    action = AuditAction.SEAT_DP_WAIVED if waived else AuditAction.SEAT_DP_WAIVER_ENDED
    return _set_flag(seating, "dp_waiver", waived, by, action, "record a waiver")


@transaction.atomic
def seating_flag_proposition(*, seating: Seating, flagged: bool, by: User) -> Seating:
    """A third-party proposition player; at most one at a table."""
    require_supervisor(by, action="flag a proposition player")
    seating = Seating.objects.select_for_update().get(pk=seating.pk)
    _require_seated(seating)
    if flagged and (
        Seating.objects.filter(table=seating.table_id, left_at=None, proposition_player=True)
        .exclude(pk=seating.pk)
        .exists()
    ):
        raise Conflict("This table has a proposition player already.", field="proposition_player")
    seating.proposition_player = flagged
    try:
        with transaction.atomic():
            seating.save(update_fields=["proposition_player"])
    except IntegrityError:
        raise Conflict(
            "This table has a proposition player already.", field="proposition_player"
        ) from None
    audit_record(
        actor=by,
        action=(
            AuditAction.SEAT_PROPOSITION_FLAGGED
            if flagged
            else AuditAction.SEAT_PROPOSITION_UNFLAGGED
        ),
        target=seating,
        payload={"table": seating.table_id, "seat": seating.seat, "player": seating.player_id},
    )
    return seating


@transaction.atomic
def seating_leave(*, seating: Seating, by: User) -> Seating:
    """The player leaves; chips left on the stack are cashed out first."""
    seating = _seating_for_change(seating, by, "record a player leaving")
    if selectors.hand_in_progress(seating.table, seating=seating):
        raise Conflict("A player in a hand in progress leaves once it settles.")
    return _leave(seating, by)


def stack_entry_add(
    *,
    seating: Seating,
    amount: Decimal,
    reason: StackEntry.Reason,
    tender: Tender | None = None,
    by: User,
) -> StackEntry:
    """One ledger entry and the stack it moves, on the gaming day and shift it falls in. The
    caller holds the seating's row lock (in the project's lock order); the stack stays within
    its bounds (``stack_bounds_check``). Chips bought for cash at a house-banked table come
    out of its rack: a house bank entry in the same transaction; and the cash goes on the
    player's cash log (``patrons.cash``), which may refuse it (over $10,000.00 in the gaming
    day without identity on file)."""
    stack_bounds_check([(seating, amount)], field="amount")
    now = timezone.now()
    table = seating.table
    span = selectors.shift_of(table.cardroom, now)
    entry = StackEntry.objects.create(
        seating=seating,
        amount=amount,
        reason=reason,
        actor=by,
        created_at=now,
        tender=tender or "",
        gaming_day=span.day,
        shift=span.shift,
    )
    seating.stack += amount
    seating.save(update_fields=["stack"])
    payload: dict[str, Any] = {"amount": amount, "stack": seating.stack, "entry": entry.pk}
    if tender:
        payload["tender"] = str(tender)
    if tender == Tender.CASH and amount > 0:
        bank = house_bank_entry_add(
            table=table,
            amount=-amount,
            reason=HouseBankEntry.Reason.CHIPS_SOLD,
            stack_entry=entry,
            by=by,
        )
        payload["bank_entry"] = bank.pk
        player = Player.objects.select_for_update().get(pk=seating.player_id)
        cash = cash_transaction_record(
            cardroom=table.cardroom,
            player=player,
            direction=CashTransaction.Direction.IN,
            amount=amount,
            place=CashTransaction.Place.TABLE,
            at=now,
            by=by,
        )
        TableCash.objects.create(cash_transaction=cash, table=table, stack_entry=entry)
        payload["cash_transaction"] = cash.pk
    audit_record(actor=by, action=_STACK_ACTIONS[reason], target=seating, payload=payload)
    return entry


def house_bank_entry_add(
    *,
    table: Table,
    amount: Decimal,
    reason: HouseBankEntry.Reason,
    by: User,
    stack_entry: StackEntry | None = None,
    reference: str = "",
) -> HouseBankEntry:
    """One movement of a house-banked table's rack, on the gaming day and shift it falls in
    (the caller holds the table's lock and records its own audit event)."""
    now = timezone.now()
    span = selectors.shift_of(table.cardroom, now)
    return HouseBankEntry.objects.create(
        table=table,
        amount=amount,
        reason=reason,
        stack_entry=stack_entry,
        reference=reference,
        gaming_day=span.day,
        shift=span.shift,
        actor=by,
        created_at=now,
    )


def stack_bounds_check(
    moves: Iterable[tuple[Seating, Decimal]], *, field: str, remedy: str = ""
) -> None:
    """Refuse chips that would take a stack below zero (chips on the table are never a debt;
    also a DB constraint) or to ``MONEY_LIMIT`` (more than a stack's column holds). ``moves``
    pairs locked seatings with the chips each would gain (negative: lose); every stack is
    checked before any moves, and the refusal names each one at fault, under ``field``.
    ``remedy`` is the caller's advice, added to a refusal of a negative stack."""
    pairs = list(moves)
    short = [(seating, amount) for seating, amount in pairs if seating.stack + amount < 0]
    if short:
        raise DomainError(
            "; ".join(
                f"{seating.player} at seat {seating.seat} has ${money_text(seating.stack)} on "
                f"the table, and ${money_text(-amount)} would come off it"
                for seating, amount in short
            )
            + ": a stack never goes negative."
            + (f" {remedy}" if remedy else ""),
            field=field,
        )
    full = [(seating, amount) for seating, amount in pairs if seating.stack + amount >= MONEY_LIMIT]
    if full:
        raise DomainError(
            "; ".join(
                f"{seating.player} at seat {seating.seat} has ${money_text(seating.stack)} on "
                f"the table, and ${money_text(amount)} more would pass "
                f"${money_text(MONEY_LIMIT - Decimal('0.01'))}"
                for seating, amount in full
            )
            + ": that is the most a stack holds.",
            field=field,
        )


# The audit action of each movement ``stack_entry_add`` books one at a time; a settlement's
# payouts and corrections move every stack at once and are audited with the hand.
_STACK_ACTIONS = {
    StackEntry.Reason.BUY_IN: AuditAction.STACK_BUY_IN,
    StackEntry.Reason.ADD_ON: AuditAction.STACK_ADD_ON,
    StackEntry.Reason.CASH_OUT: AuditAction.STACK_CASH_OUT,
    StackEntry.Reason.WAGER: AuditAction.STACK_WAGER,
    StackEntry.Reason.DP_BANK: AuditAction.STACK_DP_BANK,
}


def _leave(seating: Seating, by: User) -> Seating:
    if seating.stack:
        stack_entry_add(
            seating=seating,
            amount=-seating.stack,
            reason=StackEntry.Reason.CASH_OUT,
            tender=Tender.CHIPS,
            by=by,
        )
    seating.left_at = timezone.now()
    seating.save(update_fields=["left_at"])
    audit_record(
        actor=by,
        action=AuditAction.SEAT_LEFT,
        target=seating,
        payload={"table": seating.table_id, "seat": seating.seat, "player": seating.player_id},
    )
    return seating


def _seating_for_change(seating: Seating, by: User, action: str) -> Seating:
    seating = (
        Seating.objects.select_for_update().select_related("table", "player").get(pk=seating.pk)
    )
    require_table_staff(by, selectors.open_session(seating.table), action=action)
    _require_seated(seating)
    require_floor_for_held(seating, by=by)  # a held seat changes by the floor's hand only
    return seating


def _set_flag(
    seating: Seating, name: str, value: bool, by: User, action: AuditAction, what: str
) -> Seating:
    seating = _seating_for_change(seating, by, what)
    setattr(seating, name, value)
    seating.save(update_fields=[name])
    audit_record(
        actor=by,
        action=action,
        target=seating,
        payload={"table": seating.table_id, "seat": seating.seat, "player": seating.player_id},
    )
    return seating


def _require_seated(seating: Seating) -> None:
    if seating.left_at is not None:
        raise Conflict(f"{seating.player} has left seat {seating.seat}.")


def _check_chips(table: Table, amount: Decimal, field: str) -> None:
    """Only chips play (R5): amounts onto a stack are whole chips of the table's unit."""
    unit = selectors.current_settings(table).chip_unit
    if amount % unit:
        raise DomainError(
            f"${money_text(amount)} is not a whole number of ${money_text(unit)} chips (R5).",
            field=field,
        )
