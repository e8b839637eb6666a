"""An exclusion takes effect at once: the seated players a new list entry (or a newly recorded
identity) matches stop playing, in the same transaction as the entry.

Registered with ``patrons.hooks`` at start-up (``wagers.apps``), so that every way an entry is
recorded (the floor's "Bar a player", compliance, the API), a state list imported, or a seated
player's identity recorded, runs it. For each seated player an entry in force today matches:

- the seating is held (``Seating.exclusion_hold``, ``held_at``; ``tables.holds`` says what a
  held seat is refused): no wager is taken for it from now on, the rotation passes it by
  (R16), and its chips leave the table only through a floor supervisor;
- a hand at the table not yet dealt gives the player's wagers back: the spots are withdrawn,
  their chips back on the stack, and the round is dealt without them. When the player is the
  designated player, or no spot is left, the hand is called off before the deal as
  ``hand_cancel`` does: every wager and the bank go back. A hand already dealt finishes by the
  rules (R8–R15) with the player's spots or bank in it;
- an ``exclusion_match`` incident tells the floor and compliance who, where and why, and the
  seat is flagged on the dealer screen and the floor dashboard.

Locks, in the project's order: the tables (as a hand's start takes them, so that no hand starts
meanwhile from a rotation that read the seat unheld), their hands in progress, the seatings at
those tables (ascending ids), then the audit chains: the tables' first, the entries' cardroom or
global chain last (the caller's own event comes after).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from audit.actions import AuditAction
from audit.services import audit_record
from core.money import ZERO
from patrons import selectors as patron_selectors
from patrons.keys import normal_text
from patrons.models import Exclusion, Incident
from patrons.refusals import exclusion_reason
from tables.holds import Seated, seated_unheld
from tables.models import Seating, StackEntry, Table
from wagers import selectors
from wagers.models import Hand, Spot

from .booking import booked_now, move_stacks
from .incidents import incident_report
from .lifecycle import S, hand_transition


def exclusions_hold_seated(rows: Sequence[Exclusion], by: User) -> list[Seating]:
    """Hold every seated player one of the new entries ``rows`` matches (in force today in
    the player's cardroom): one read of who is seated, the entries matched in memory."""
    if not rows:
        return []
    index: dict[tuple[object, ...], list[Exclusion]] = defaultdict(list)
    for row in rows:
        if row.id_hash:
            index[("id", row.id_hash)].append(row)
        if row.date_of_birth is not None:
            index[("name", row.name_key, row.date_of_birth)].append(row)
        if row.player_id is not None:
            index[("player", row.player_id)].append(row)
    states = any(row.cardroom_id is None for row in rows)
    cardrooms = None if states else {row.cardroom_id for row in rows if row.cardroom_id}
    matches: list[tuple[Seated, Exclusion]] = []
    for seated in seated_unheld(cardroom_ids=cardrooms):
        person = seated.person
        keys: list[tuple[object, ...]] = [("player", person.player_id), ("id", person.id_hash)]
        if person.date_of_birth is not None:
            keys.append(("name", normal_text(person.name), person.date_of_birth))
        entry = next(
            (
                row
                for key in keys
                for row in index.get(key, ())
                if patron_selectors.entry_matches(row, person, on=seated.today)
            ),
            None,
        )
        if entry is not None:
            matches.append((seated, entry))
    return _hold(matches, by, cause="the entry was recorded")


def player_hold_if_excluded(player: object, by: User) -> list[Seating]:
    """Hold the player, if seated, when the identity just recorded matches an entry in force
    (an entry that could not match on the name alone)."""
    found = seated_unheld(player_id=getattr(player, "pk", None))
    if not found:
        return []
    seated = found[0]
    person = seated.person
    entry = patron_selectors.exclusion_match(
        cardroom_id=person.cardroom_id,
        name=person.name,
        date_of_birth=person.date_of_birth,
        id_hash=person.id_hash,
        on=seated.today,
        player_id=person.player_id,
    )
    if entry is None:
        return []
    return _hold([(seated, entry)], by, cause="the player's identity was recorded")


@transaction.atomic
def _hold(matches: list[tuple[Seated, Exclusion]], by: User, *, cause: str) -> list[Seating]:
    if not matches:
        return []
    table_ids = sorted({seated.table_id for seated, _ in matches})
    list(Table.objects.select_for_update().filter(pk__in=table_ids).order_by("pk"))
    hands = {
        hand.table_id: hand
        for hand in Hand.objects.select_for_update(of=("self",))
        .select_related("table__cardroom", "dp_seating")
        .filter(table_id__in=table_ids, status__in=Hand.IN_PROGRESS)
        .order_by("pk")
    }
    seatings = {
        s.pk: s
        for s in Seating.objects.select_for_update(of=("self",))
        .select_related("player", "table__cardroom")
        .filter(table_id__in=table_ids, left_at=None)
        .order_by("pk")
    }
    now = timezone.now()
    held: dict[int, list[Seating]] = defaultdict(list)
    for seated, entry in sorted(matches, key=lambda match: match[0].seating_id):
        seating = seatings.get(seated.seating_id)
        if seating is None or seating.exclusion_hold_id is not None:
            continue  # left, or held by another entry, since it was read
        seating.exclusion_hold, seating.held_at = entry, now
        seating.save(update_fields=["exclusion_hold", "held_at"])
        held[seating.table_id].append(seating)
    incidents: list[tuple[Seating, Incident]] = []
    for table_id in sorted(held):
        hand = hands.get(table_id)
        told = _take_back(hand, held[table_id], by) if hand is not None else ""
        for seating in held[table_id]:
            incident = _alert(seating, hand, cause=cause, told=told, by=by)
            incidents.append((seating, incident))
    for seating, incident in incidents:  # the entries' chains, after every table's
        audit_record(
            actor=by,
            action=AuditAction.EXCLUSION_MATCHED,
            target=seating.exclusion_hold,
            payload={
                "action": "hold",
                "player": seating.player_id,
                "table": seating.table_id,
                "incident": incident.pk,
            },
        )
    return [seating for seating, _ in incidents]


def _take_back(hand: Hand, held: list[Seating], by: User) -> str:
    """The held players' part in the hand in progress, undone if it is not yet dealt; what
    happened, in words, for the incident."""
    ids = {seating.pk for seating in held}
    spots = selectors.spots_of(hand)
    theirs = [spot for spot in spots if spot.seating_id in ids]
    is_dp = hand.dp_seating_id in ids
    if not theirs and not is_dp:
        return ""
    if hand.status not in (S.OPEN, S.WAGERING):
        return f" Hand {hand.number}, already dealt, finishes by the rules."
    calls_off = is_dp or len(theirs) == len(spots)
    withdrawn = spots if calls_off else theirs
    if withdrawn:
        _withdraw(hand, withdrawn, by)
    if not calls_off:
        return f" Their wagers of hand {hand.number}, not yet dealt, went back onto the stack."
    hand_transition(hand, S.DEAD)
    hand.settled_at = timezone.now()
    hand.save(update_fields=["status", "settled_at"])
    if hand.dp_seating_id and hand.dp_bank:
        span = booked_now(hand.table).span
        move_stacks({hand.dp_seating_id: hand.dp_bank}, StackEntry.Reason.DP_BANK, by, span)
    audit_record(
        actor=by,
        action=AuditAction.HAND_CANCELLED,
        target=hand,
        payload={"number": hand.number, "held": sorted(seating.seat for seating in held)},
    )
    return (
        f" Hand {hand.number}, not yet dealt, was called off: every wager"
        + (" and the designated player's bank" if hand.dp_bank else "")
        + " went back."
    )


def _withdraw(hand: Hand, spots: list[Spot], by: User) -> None:
    """Spots taken back before the deal, as if never placed: their chips back on the stacks
    (a wager entry, positive), the rows gone, one audit event listing them."""
    moves: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for spot in spots:
        moves[spot.seating_id] += spot.ante + spot.flush_bonus + spot.straight_flush_bonus
    Spot.objects.filter(pk__in=[spot.pk for spot in spots]).delete()
    move_stacks(dict(moves), StackEntry.Reason.WAGER, by, booked_now(hand.table).span)
    audit_record(
        actor=by,
        action=AuditAction.HAND_WAGERS_WITHDRAWN,
        target=hand,
        payload={
            "number": hand.number,
            "spots": [
                {
                    "seat": spot.seat,
                    "player": spot.player_id,
                    "returned": spot.ante + spot.flush_bonus + spot.straight_flush_bonus,
                }
                for spot in spots
            ],
        },
    )


def _alert(seating: Seating, hand: Hand | None, *, cause: str, told: str, by: User) -> Incident:
    entry = seating.exclusion_hold
    assert entry is not None
    summary = (
        f"{seating.player}, seated at {seating.table} seat {seating.seat}, matched an exclusion "
        f"list entry ({exclusion_reason(entry)}) when {cause} by {by.get_username()}. The seat "
        "is held: no wagers from now on, and the chips leave the table only through a floor "
        f"supervisor's cash-out.{told}"
    )
    incident = incident_report(
        cardroom=seating.table.cardroom,
        kind=Incident.Kind.EXCLUSION_MATCH,
        summary=summary,
        table=seating.table,
        hand=hand if told else None,
        players=[seating.player],
        exclusion=entry,
        by=by,
    )
    audit_record(
        actor=by,
        action=AuditAction.SEAT_HELD,
        target=seating,
        payload={
            "table": seating.table_id,
            "seat": seating.seat,
            "player": seating.player_id,
            "exclusion": entry.pk,
            "incident": incident.pk,
        },
    )
    return incident
