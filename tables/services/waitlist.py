"""The waitlist's lists and their order: a list opened for a game, players joining in person
(registered or by name) or by phone with a hold, arriving, leaving, and the floor's changes of
order. Every change of order is audited with the order it left.

Lock order: a table (``locks``) → a list's row → its entries; a change of a list's order takes
the list's row first, so two changes of one list happen one at a time.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.errors import Conflict, DomainError, NotFound
from core.money import MoneyInput, money, money_text
from core.permissions import require_supervisor
from engine.table import Banking
from patrons.age import age_screen, player_age_screen
from patrons.exclusions import exclusion_screen, player_screen
from patrons.models import Cardroom, Player

from .. import waitlist_selectors
from ..models import Waitlist, WaitlistEntry
from .incidents import alerting

Status = WaitlistEntry.Status


@transaction.atomic
def waitlist_open(
    *, cardroom: Cardroom, banking: str, ante_min: MoneyInput, ante_max: MoneyInput, by: User
) -> Waitlist:
    """A list for a game the cardroom's tables offer: a table kind (R1) and its ante limits
    (R5), as a table's current settings have them."""
    require_supervisor(by, action="open a waitlist")
    if banking not in Banking._value2member_map_:
        raise DomainError("Banking is 'designated_player' or 'house'.", field="banking")
    low, high = money(ante_min, field="ante_min"), money(ante_max, field="ante_max")
    offered = {(kind, s.ante_min, s.ante_max) for kind, s in waitlist_selectors.games(cardroom)}
    if (banking, low, high) not in offered:
        raise DomainError(
            f"No table of {cardroom} is a {banking.replace('_', '-')} game with antes "
            f"${money_text(low)}–${money_text(high)}: a list is for a game a table offers.",
            field="ante_min",
        )
    if Waitlist.objects.filter(
        cardroom=cardroom, banking=banking, ante_min=low, ante_max=high
    ).exists():
        raise Conflict("That game has its list already.", field="ante_min")
    waitlist = Waitlist.objects.create(
        cardroom=cardroom,
        banking=banking,
        ante_min=low,
        ante_max=high,
        opened_by=by,
        opened_at=timezone.now(),
    )
    audit_record(
        actor=by,
        action=AuditAction.WAITLIST_OPENED,
        target=waitlist,
        payload={"banking": banking, "ante_min": low, "ante_max": high},
    )
    return waitlist


def waitlist_join(
    *,
    waitlist: Waitlist,
    player: Player | None = None,
    name: str = "",
    phone: bool = False,
    by: User,
) -> WaitlistEntry:
    """A player joins a list at its end: a registered ``player`` or a ``name`` only, in
    person or by ``phone`` (the place is held ``Cardroom.phone_hold_minutes`` for the player
    to arrive). The exclusion and age checks run now, as at a seat: a match is refused (a
    dealer is told only to call the floor) and raises its alert."""
    with alerting(by):
        return _join(waitlist=waitlist, player=player, name=name, phone=phone, by=by)


@transaction.atomic
def _join(
    *, waitlist: Waitlist, player: Player | None, name: str, phone: bool, by: User
) -> WaitlistEntry:
    require_supervisor(by, action="put a player on the waitlist")
    waitlist = _locked(waitlist)
    cardroom = waitlist.cardroom
    if player is not None:
        if player.cardroom_id != cardroom.pk:
            raise DomainError(f"{player} is not a player of {cardroom}.", field="player")
        if entries_of(waitlist).filter(player=player).exists():
            raise Conflict(f"{player} is on the {waitlist} list already.", field="player")
        player_screen(action="join", player=player, by=by)
        player_age_screen(action="join", player=player, by=by)
        name = player.name
    else:
        name = " ".join(name.split())
        if not name:
            raise DomainError("A player joins by a registered record or a name.", field="name")
        exclusion_screen(
            action="join", cardroom=cardroom, name=name, date_of_birth=None, hashed_id="", by=by
        )
        age_screen(action="join", cardroom=cardroom, name=name, date_of_birth=None, by=by)
    now = timezone.now()
    last = entries_of(waitlist).aggregate(last=Max("position"))["last"] or 0
    try:
        with transaction.atomic():
            entry = WaitlistEntry.objects.create(
                waitlist=waitlist,
                player=player,
                name=name[:100],
                channel=WaitlistEntry.Channel.PHONE if phone else WaitlistEntry.Channel.IN_PERSON,
                hold_until=now + timedelta(minutes=cardroom.phone_hold_minutes) if phone else None,
                arrived_at=None if phone else now,
                position=last + 1,
                joined_by=by,
                joined_at=now,
            )
    except IntegrityError:
        raise Conflict(f"{player} is on the {waitlist} list already.", field="player") from None
    _audit(entry, AuditAction.WAITLIST_JOINED, by, channel=entry.channel, place=last + 1)
    return entry


@transaction.atomic
def waitlist_arrive(*, entry: WaitlistEntry, by: User) -> WaitlistEntry:
    """A player who joined by phone is here, within the hold: the place is kept."""
    require_supervisor(by, action="check a player in")
    entry = entry_locked(entry)
    require_on_list(entry, action="check in")
    cardroom = entry.waitlist.cardroom
    if entry.arrived_at is not None:
        raise Conflict(f"{entry.name} is here already.", field="entry")
    if entry.hold_until is not None and entry.hold_until <= timezone.now():
        raise Conflict(
            f"{entry.name}'s hold ran out at {local_time(entry.hold_until, cardroom)}: put them "
            "on the list again.",
            field="entry",
        )
    entry.arrived_at = timezone.now()
    entry.save(update_fields=["arrived_at"])
    _audit(entry, AuditAction.WAITLIST_ARRIVED, by)
    return entry


@transaction.atomic
def waitlist_remove(*, entry: WaitlistEntry, by: User) -> WaitlistEntry:
    """A player leaves the list (or the floor takes them off it); a call of theirs ends."""
    require_supervisor(by, action="take a player off the waitlist")
    entry = entry_locked(entry)
    require_on_list(entry, action="take off the list")
    before = _order(entry.waitlist)
    entry_end(entry, Status.REMOVED)
    _audit(entry, AuditAction.WAITLIST_LEFT, by, order_before=before)
    return entry


@transaction.atomic
def waitlist_move(*, entry: WaitlistEntry, place: int, by: User) -> WaitlistEntry:
    """The floor moves a player to ``place`` (1: first) on their list; the others keep their
    order around them. The event records the order before and after."""
    require_supervisor(by, action="change the waitlist's order")
    entry = entry_locked(entry)
    require_on_list(entry, action="move")
    order = [e.pk for e in entries_of(entry.waitlist)]
    if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= len(order):
        raise DomainError(f"The place is a number from 1 to {len(order)}.", field="place")
    before = list(order)
    order.remove(entry.pk)
    order.insert(place - 1, entry.pk)
    if order == before:
        raise DomainError(f"{entry.name} is at place {place} already.", field="place")
    for position, pk in enumerate(order, start=1):
        WaitlistEntry.objects.filter(pk=pk).update(position=position)
    entry.position = place
    _audit(entry, AuditAction.WAITLIST_REORDERED, by, order_before=before, order_after=order)
    return entry


def holds_expire(waitlist: Waitlist, by: User | None) -> list[WaitlistEntry]:
    """Phone places whose hold ran out with the player not here leave the list (the caller
    holds the list's lock); each is audited."""
    now = timezone.now()
    gone = list(
        entries_of(waitlist).filter(status=Status.WAITING, arrived_at=None, hold_until__lte=now)
    )
    for entry in gone:
        entry_end(entry, Status.EXPIRED)
        _audit(entry, AuditAction.WAITLIST_EXPIRED, by, hold_until=entry.hold_until)
    return gone


def entries_of(waitlist: Waitlist) -> Any:
    return WaitlistEntry.objects.filter(waitlist=waitlist, status__in=WaitlistEntry.ON_LIST)


def entry_end(entry: WaitlistEntry, status: str) -> None:
    entry.status = status
    entry.ended_at = timezone.now()
    entry.save(update_fields=["status", "ended_at"])


def entry_locked(entry: WaitlistEntry) -> WaitlistEntry:
    """The entry's list locked, then the entry (the lock order of this module)."""
    list_id = WaitlistEntry.objects.filter(pk=entry.pk).values_list("waitlist_id", flat=True)
    if not list_id:
        raise NotFound(f"There is no waitlist entry {entry.pk}.")
    _locked(Waitlist(pk=list_id[0]))
    return (
        WaitlistEntry.objects.select_for_update(of=("self",))
        .select_related("waitlist__cardroom", "player", "called_table")
        .get(pk=entry.pk)
    )


def require_on_list(entry: WaitlistEntry, *, action: str) -> None:
    """Refuse, by name, an action for a player no longer on the list."""
    if entry.status in WaitlistEntry.ON_LIST:
        return
    when = f" at {local_time(entry.ended_at, entry.waitlist.cardroom)}" if entry.ended_at else ""
    left = {
        Status.SEATED: "was seated from the list",
        Status.PASSED: "was passed over when the call ran out",
        Status.REMOVED: "left the list",
        Status.EXPIRED: "did not arrive within the phone hold",
    }[Status(entry.status)]
    raise Conflict(f"{entry.name} {left}{when}: there is no one to {action}.", field="entry")


def local_time(at: datetime, cardroom: Cardroom) -> str:
    """``21:04``: a moment as the cardroom's clock shows it."""
    return f"{at.astimezone(ZoneInfo(cardroom.time_zone)):%H:%M}"


def _locked(waitlist: Waitlist) -> Waitlist:
    found = (
        Waitlist.objects.select_for_update(of=("self",))
        .select_related("cardroom")
        .filter(pk=waitlist.pk)
    ).first()
    if found is None:
        raise NotFound(f"There is no waitlist {waitlist.pk}.")
    return found


def _order(waitlist: Waitlist) -> list[int]:
    return [e.pk for e in entries_of(waitlist).order_by("position", "id")]


def _audit(entry: WaitlistEntry, action: AuditAction, by: User | None, **more: Any) -> None:
    payload = {"waitlist": entry.waitlist_id, "entry": entry.pk, "player": entry.player_id}
    audit_record(actor=by, action=action, target=entry.waitlist, payload=payload | more)
