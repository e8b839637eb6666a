"""The objects of the audit log named as people read them: "Table 1, hand 5", "Table 1,
rotation for hand 5", not "wagers.hand 12" or "rotationrecord 7". Every model an audit event
can name (``audit_record(target=...)``) has its name here; an object of another kind, or gone,
keeps its kind and id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from audit.chain import model_of
from audit.models import AuditEvent
from core.people import person_name
from patrons.models import Incident, Player
from tables.models import RotationRecord

from .templatetags.cardroom import dollars, local, local_day


def _words(value: str) -> str:
    """A stored choice as words: ``shift_change`` → ``shift change``."""
    return str(value).replace("_", " ")


def _rotation(record: RotationRecord) -> str:
    """R16: the offer of the designated-player position that started a hand (the first hand
    of a session by the high-card draw), or that started none because nobody took it."""
    what = "high-card draw" if record.method == "draw" else "rotation"
    hand = getattr(record, "hand", None)  # the reverse one-to-one: absent when no hand started
    if hand is not None:
        return f"{record.table}, {what} for hand {hand.number}"
    return f"{record.table}, {what} at {local(record.created_at, 'H:i')}: no designated player"


def _incident(incident: Incident) -> str:
    link = getattr(incident, "at_table", None)  # the table's link: absent when at none
    at = f"{link.table}, " if link is not None else ""
    return f"{at}incident #{incident.pk} ({_words(incident.kind)})"


def _player(player: Player | None) -> str:
    return f"player {player.name}" if player is not None else "no player"


#: How an object is named, by its model (``app_label.model``).
OBJECT_NAMES: dict[str, Callable[[Any], str]] = {
    # hands and tables
    "wagers.hand": lambda hand: f"{hand.table}, hand {hand.number}",
    "tables.rotationrecord": _rotation,
    "tables.gamestop": lambda stop: f"{stop.table}, game stopped {local(stop.stopped_at)}",
    "tables.table": str,
    "tables.seating": lambda s: f"{s.table}, seat {s.seat} ({s.player})",
    "tables.player": _player,
    "tables.tablesession": lambda session: f"{session.table}, session #{session.pk}",
    "tables.dealershift": lambda shift: (
        f"{person_name(shift.dealer)}'s shift from {local(shift.clocked_in_at, 'H:i')}"
    ),
    "tables.cardroom": str,
    "auth.user": lambda user: user.get_full_name() or user.get_username(),
    # governance (R17)
    "tables.settingchange": lambda change: f"{change.table}, setting change #{change.pk}",
    "tables.paytablechange": lambda change: (
        f"paytable change #{change.pk}: {change.action} a {change.paytable_label} paytable"
    ),
    "tables.selfapprovalchange": lambda change: (
        f"{change.cardroom}, self-approval change #{change.pk}: "
        f"{'allow' if change.allowed else 'forbid'} self-approval"
    ),
    "tables.exclusionendchange": lambda change: (
        f"{change.cardroom}, end of house bar #{change.values['exclusion']} (change #{change.pk})"
    ),
    # the cage
    "cage.inventorycount": lambda count: (
        f"{count.table}, {_words(count.kind)} chip count, {local_day(count.gaming_day)} "
        f"{count.shift} shift"
    ),
    "cage.slip": lambda slip: f"{slip.table}, {slip.kind} slip {slip.number}",
    "cage.dropcount": lambda count: (
        f"{count.table}, drop count, {local_day(count.gaming_day)} {count.shift} shift"
    ),
    "cage.shiftclose": lambda closed: (
        f"close of the {closed.shift} shift, {local_day(closed.gaming_day)}"
    ),
    "cage.dayclose": lambda closed: f"close of gaming day {local_day(closed.gaming_day)}",
    "cage.cagecount": lambda count: f"cage {count.kind} count, {local_day(count.gaming_day)}",
    "cage.cageentry": lambda entry: f"cage entry #{entry.pk} ({_words(entry.kind)})",
    "cage.chipissue": lambda issue: f"chip {issue.direction} #{issue.pk} {dollars(issue.total)}",
    "cage.variancesignoff": lambda signed: (
        f"{signed.count.table}, drop count of {local_day(signed.count.gaming_day)} "
        f"{signed.count.shift} shift, variance {dollars(signed.amount)} signed off"
    ),
    "cage.dropbox": lambda box: f"{box.table}, drop box {box.identifier}",
    "cage.variance": lambda found: (
        f"{found.table or found.cardroom}, {_words(found.source)} variance {dollars(found.amount)}"
    ),
    # a player's money at the cage
    "cage.playeraccountentry": lambda row: (
        f"{_player(row.player)}, {_words(row.account)} {dollars(row.amount)}"
    ),
    "cage.marker": lambda marker: f"{_player(marker.player)}, marker #{marker.pk}",
    "cage.markerpayment": lambda paid: (
        f"{_player(paid.marker.player)}, payment {dollars(paid.amount)} on marker #{paid.marker_id}"
    ),
    "cage.currencyexchange": lambda exchange: (
        f"{_player(exchange.player)}, {exchange.currency} exchanged for {dollars(exchange.amount)}"
    ),
    # compliance and players under the law (an excluded person's name stays off the log,
    # as it stays off the event's payload)
    "compliance.export": lambda export: f"export #{export.pk} ({_words(export.kind)})",
    "patrons.exclusion": lambda row: f"exclusion #{row.pk} ({_words(row.kind)})",
    "patrons.incident": _incident,
    "patrons.cashtransaction": lambda row: (
        f"{_player(row.player)}, cash {row.direction} {dollars(row.amount)}"
    ),
    "patrons.currencytransactionreport": lambda report: (
        f"{_player(report.player)}, CTR of {local_day(report.gaming_day)}"
    ),
    "patrons.structuringflag": lambda flag: (
        f"{_player(flag.player)}, structuring flag of {local_day(flag.gaming_day)}"
    ),
    "patrons.suspiciousactivityreview": lambda review: (
        f"{_player(review.player)}, review #{review.pk}"
    ),
    "patrons.cashpolicy": lambda policy: f"{policy.cardroom}, cash-reporting policy",
    "patrons.sarcase": lambda case: f"{_player(case.player)}, SAR case #{case.pk}",
    # the log's own alarms
    "audit.checkpointproblem": lambda problem: f"checkpoint problem #{problem.pk}",
}
#: What to fetch with the object, for its name (one query per kind of object on the page).
RELATED: dict[str, list[str]] = {
    "wagers.hand": ["table"],
    "tables.rotationrecord": ["table", "hand"],
    "tables.gamestop": ["table"],
    "tables.seating": ["table", "player"],
    "tables.settingchange": ["table"],
    "tables.tablesession": ["table"],
    "tables.dealershift": ["dealer"],
    "tables.selfapprovalchange": ["cardroom"],
    "tables.exclusionendchange": ["cardroom"],
    "cage.inventorycount": ["table"],
    "cage.slip": ["table"],
    "cage.dropcount": ["table"],
    "cage.dropbox": ["table"],
    "cage.variancesignoff": ["count__table"],
    "cage.variance": ["table", "cardroom"],
    "cage.playeraccountentry": ["player"],
    "cage.marker": ["player"],
    "cage.markerpayment": ["marker__player"],
    "cage.currencyexchange": ["player"],
    "patrons.incident": ["at_table__table"],
    "patrons.cashtransaction": ["player"],
    "patrons.currencytransactionreport": ["player"],
    "patrons.structuringflag": ["player"],
    "patrons.suspiciousactivityreview": ["player"],
    "patrons.cashpolicy": ["cardroom"],
    "patrons.sarcase": ["player"],
}


def fallback_name(event: AuditEvent) -> str:
    """An object with no name of its own, or gone: its kind and id (``rotationrecord 7``)."""
    kind = event.object_type.rsplit(".", 1)[-1]
    return f"{kind} {event.object_id}".strip()


def named(events: list[AuditEvent]) -> list[AuditEvent]:
    """Each event with ``object_name``; one query per kind of object among the events."""
    wanted: dict[str, set[str]] = {}
    for event in events:
        if event.object_type and event.object_id:
            wanted.setdefault(event.object_type, set()).add(event.object_id)
    found: dict[tuple[str, str], str] = {}
    for label, ids in wanted.items():
        name = OBJECT_NAMES.get(label)
        if name is None:
            continue
        model = model_of(label)
        rows = model._default_manager.select_related(*RELATED.get(label, [])).in_bulk(
            [int(i) for i in ids if i.isdigit()]
        )
        found.update({(label, str(pk)): name(row) for pk, row in rows.items()})
    for event in events:
        event.object_name = found.get(  # type: ignore[attr-defined]
            (event.object_type, event.object_id), fallback_name(event)
        )
    return events
