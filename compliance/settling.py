"""Each settlement entry against the audit event that booked it (``verify_books``, beside
``compliance.ties``): an original entry is named by exactly one ``hand.settled`` (or
``hand.misdeal``) event, with the same house rake, dealer's net and spots' nets; a reversal and
its correction by one ``hand.corrected`` event, the correction with its spots' nets; and every
such event names entries that are there. A settlement deleted whole, or written again with
other money, while its event stays is found: the event is on the hash chain.

The entries are matched as the books read them, a chunk at a time, to the events of their
hands (one query a chunk, by the events' object index); the events are then only counted, and
read one by one when the count does not match.
"""

from __future__ import annotations

import json
from collections import defaultdict
from decimal import Decimal
from typing import Any

from django.db.models import Count

from audit.actions import AuditAction
from audit.models import AuditEvent
from wagers.models import Settlement

from .entries import Entry, Offence

Kind = Settlement.Kind
#: The actions that settle a hand, and how many settlement entries each names.
SETTLING = {AuditAction.HAND_SETTLED: 1, AuditAction.HAND_MISDEAL: 1, AuditAction.HAND_CORRECTED: 2}
#: Where an event's payload names its entries.
_KEYS = ("settlement", "reversal", "correction")


def _cents(value: Decimal) -> str:
    return f"{value:.2f}"


class SettlingEvents:
    """Fed every chunk of settlement entries (``events_of``), then ``finish``ed."""

    def __init__(self) -> None:
        self.named = 0  # settlement entries found with their event
        self.events = 0  # settling events counted

    def events_of(self, chunk: list[Entry]) -> None:
        """Each entry of the chunk against the event that settled or corrected it."""
        hands = sorted({str(entry.hand_id) for entry in chunk})
        found: dict[tuple[int, int], list[tuple[int, str, dict[str, Any]]]] = defaultdict(list)
        rows = AuditEvent.objects.filter(
            action__in=list(SETTLING), object_type="wagers.hand", object_id__in=hands
        ).values_list("seq", "action", "object_id", "payload")
        for seq, action, hand, text in rows:
            payload = json.loads(text)
            for key in _KEYS:
                if key in payload:
                    found[(int(hand), int(payload[key]))].append((seq, action, payload))
        for entry in chunk:
            named = found.get((entry.hand_id, entry.entry), [])
            if len(named) != 1:
                many = f"{len(named)} events ({', '.join(f'#{s}' for s, _, _ in named)})"
                raise Offence(
                    entry.row,
                    f"{entry.where}: it is named by {many if named else 'no audit event'}; "
                    "a settlement entry is named by exactly one",
                )
            self._same_as_event(entry, *named[0])
            self.named += 1

    def _same_as_event(self, entry: Entry, seq: int, action: str, payload: dict) -> None:
        if (action == AuditAction.HAND_CORRECTED) != (entry.kind != Kind.ORIGINAL):
            raise Offence(entry.row, f"{entry.where}: it is named by event #{seq} ({action})")
        if entry.kind == Kind.REVERSAL:
            return  # its money is the reversed entry's, negated (checked against the engine)
        said = {int(seat): Decimal(net) for seat, net in payload.get("spots", {}).items()}
        stored = {seat: net for seat, (_rake, net) in entry.spots.items()}
        if entry.kind == Kind.ORIGINAL:
            said_rake = Decimal(payload["house_rake"])
            said_net = Decimal(payload["dealer_net"])
            if (said_rake, said_net) != (entry.house_rake, entry.dealer_net):
                raise Offence(
                    entry.row,
                    f"{entry.where}: its house rake and dealer's net are "
                    f"{_cents(entry.house_rake)} and {_cents(entry.dealer_net)}, its audit "
                    f"event #{seq} ({action}) says {_cents(said_rake)} and {_cents(said_net)}",
                )
        if said != stored:
            raise Offence(
                entry.row,
                f"{entry.where}: its spots' nets are not those of event #{seq} ({action})",
            )

    def finish(self) -> None:
        """Every settling event names entries that are there (the walk matched each entry to
        one event; here the events are counted, and only read when the counts differ)."""
        counts = _action_counts()
        keys = sum(SETTLING[AuditAction(action)] * n for action, n in counts.items())
        self.events += sum(counts.values())
        if keys == self.named:
            return
        events = AuditEvent.objects.filter(action__in=list(SETTLING)).order_by("seq")
        for seq, action, hand, text in events.values_list(
            "seq", "action", "object_id", "payload"
        ).iterator(chunk_size=2000):
            payload = json.loads(text)
            for key in _KEYS:
                if (
                    key in payload
                    and not Settlement.objects.filter(
                        hand_id=int(hand), entry=int(payload[key])
                    ).exists()
                ):
                    raise Offence(
                        f"audit event #{seq}",
                        f"{action} of hand {hand} names settlement entry {payload[key]}, which "
                        "is not in wagers_settlement",
                    )
        raise Offence("wagers_settlement", "the settling events and the entries do not agree")


def _action_counts() -> dict[str, int]:
    rows = (
        AuditEvent.objects.filter(action__in=list(SETTLING))
        .order_by()
        .values("action")
        .annotate(events=Count("id"))
        .values_list("action", "events")
    )
    return dict(rows)
