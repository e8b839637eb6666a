"""Players and their seats: registration, sitting down (screened and bought in), flags, leaving."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError
from core.money import ZERO, MoneyInput, money
from core.permissions import require_role, require_supervisor
from core.roles import TABLE_STAFF
from patrons.age import age_screen, player_age_screen
from patrons.exclusion_alerts import name_only_alert
from patrons.exclusions import exclusion_screen, player_screen
from patrons.identity import IdentityInput, identity_check, identity_record
from patrons.models import Cardroom, Player
from patrons.persons import person_matches_find, player_record_new

from .. import selectors
from ..models import Seating, StackEntry, Table, Tender
from .incidents import alerting
from .locks import require_seated, seating_lock_for_change, table_lock_open
from .racks import rack_require_counted
from .stacks import check_chips, stack_entry_add, tender_for


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
    age_screen(
        action="register",
        cardroom=cardroom,
        name=name.strip(),
        date_of_birth=identity.date_of_birth if identity else None,
        by=by,
        field="date_of_birth",
    )
    player = player_record_new(cardroom=cardroom, name=name.strip())
    audit_record(
        actor=by, action=AuditAction.PLAYER_CREATED, target=player, payload={"name": player.name}
    )
    if identity is not None:
        identity_record(player=player, identity=identity, by=by)  # and its possible matches
    else:
        person_matches_find(player=player, by=by)
        name_only_alert(player, by=by)
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
    table, session = table_lock_open(table, by=by, action="seat a player")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= table.seat_count:
        raise DomainError(f"Seat must be a number from 1 to {table.seat_count}.", field="seat")
    amount = money(buy_in, field="buy_in")
    check_chips(table, amount, "buy_in")
    paid_with = tender_for(table, tender)
    if amount and paid_with == Tender.CASH:
        rack_require_counted(table, session, field="tender", action="sell chips for cash")
    if player.cardroom_id != table.cardroom_id:
        raise DomainError(f"{player} is not a player of {table.cardroom}.", field="player")
    if Seating.objects.filter(table=table, seat=seat, left_at=None).exists():
        raise Conflict(f"Seat {seat} at {table} is taken.", field="seat")
    if Seating.objects.filter(player=player, left_at=None).exists():
        raise Conflict(f"{player} is seated already.", field="player")
    player_screen(action="seat", player=player, table=table, by=by)
    player_age_screen(action="seat", player=player, table=table, by=by)
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
            field="buy_in",
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
    require_seated(seating)
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
    """The player leaves; chips left on the stack are cashed out first. A player in the hand
    in progress (on a spot, or its designated player: R16) is refused until it settles: their
    chips are in play, and the seat stays in the rotation until then. A seat not in the hand
    leaves at once."""
    seating = seating_lock_for_change(seating, by, "record a player leaving")
    number = selectors.hand_number_in_progress(seating.table, seating=seating)
    if number is not None:
        raise Conflict(
            f"Seat {seating.seat} ({seating.player}) is in hand {number}: the player can leave "
            "once it settles.",
            field="seating",
        )
    return seating_end(seating, by)


def seating_end(seating: Seating, by: User) -> Seating:
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


def _set_flag(
    seating: Seating, name: str, value: bool, by: User, action: AuditAction, what: str
) -> Seating:
    seating = seating_lock_for_change(seating, by, what)
    setattr(seating, name, value)
    seating.save(update_fields=[name])
    audit_record(
        actor=by,
        action=action,
        target=seating,
        payload={"table": seating.table_id, "seat": seating.seat, "player": seating.player_id},
    )
    return seating
