"""What ties each stack entry to what it books (``verify_books``, after the engine's checks): a
movement changed together with its stack still has to agree with the record it came from.

5. **Stack entries.** Every payout stack entry is a settlement entry's movement of that stack
   (its spot lines' chips paid back, and the designated player's bank and net); every
   correction stack entry a correction's (the nets of the reversal and of the correction).
   Per stack, the wager entries add up to the stakes of its spots (the original settlement's
   round; the spots themselves while the hand is in play), and the designated player's bank
   entries to the banks of its hands. Every buy-in, add-on and cash-out is named by its audit
   event (``stack.*``, the entry and its amount), as is every single wager or bank movement;
   every cash buy-in has its cash transaction on the cash log (``patrons``), and back.

Memory stays bounded by the number of stacks, not of entries: the movements expected of each
stack and those found are compared as multisets kept as a count and a sum of hashes; only a
stack that differs is read again, to name the entry at fault.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from django.db.models import Q

from audit.actions import AuditAction
from audit.models import AuditEvent
from core.money import ZERO
from patrons.models import CashTransaction
from tables.models import Seating, StackEntry, TableCash, Tender
from wagers.models import Hand, Settlement, Spot

from .entries import Entry, Offence, entries

Reason = StackEntry.Reason
Kind = Settlement.Kind
_MASK = (1 << 64) - 1
#: The actions that settle a hand, and how many settlement entries each names.
SETTLING = {AuditAction.HAND_SETTLED: 1, AuditAction.HAND_MISDEAL: 1, AuditAction.HAND_CORRECTED: 2}
#: The single movements ``tables.services.stacks.stack_entry_add`` books, each with its event.
STACK_EVENTS = {
    AuditAction.STACK_BUY_IN: Reason.BUY_IN,
    AuditAction.STACK_ADD_ON: Reason.ADD_ON,
    AuditAction.STACK_CASH_OUT: Reason.CASH_OUT,
    AuditAction.STACK_WAGER: Reason.WAGER,
    AuditAction.STACK_DP_BANK: Reason.DP_BANK,
}
#: Movements that are only ever booked one at a time, so each has its event.
ALWAYS_SINGLE = (Reason.BUY_IN, Reason.ADD_ON, Reason.CASH_OUT)


def _cents(value: Decimal) -> str:
    return f"{value:.2f}"


def _item_hash(*parts: object) -> int:
    text = "\x1f".join(str(part) for part in parts)
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


class _Bag:
    """Multisets per stack, each kept as its size and the sum of its items' hashes."""

    def __init__(self) -> None:
        self.size: dict[int, int] = defaultdict(int)
        self.sum: dict[int, int] = defaultdict(int)

    def add(self, seating: int, *item: object) -> None:
        self.size[seating] += 1
        self.sum[seating] = (self.sum[seating] + _item_hash(*item)) & _MASK

    def differ(self, other: _Bag) -> list[int]:
        keys = set(self.size) | set(other.size)
        return sorted(
            k for k in keys if (self.size[k], self.sum[k]) != (other.size[k], other.sum[k])
        )


def _payout_moves(entry: Entry) -> dict[int, Decimal]:
    """The chips an original entry moved onto each stack (``wagers.services.booking``)."""
    moves: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for seating, paid_back, _net in entry.lines:
        moves[seating] += paid_back
    if entry.dp_seating_id is not None:
        moves[entry.dp_seating_id] += entry.dp_bank + entry.dealer_net
    return {seating: amount for seating, amount in moves.items() if amount}


def _correction_moves(reversal: Entry, correction: Entry) -> dict[int, Decimal]:
    """What a correction moved onto each stack: the corrected nets less the reversed ones (a
    changed raise's stake is in both, and cancels)."""
    moves: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for entry in (reversal, correction):
        for seating, _paid_back, net in entry.lines:
            moves[seating] += net
        if entry.dp_seating_id is not None:
            moves[entry.dp_seating_id] += entry.dealer_net
    return {seating: amount for seating, amount in moves.items() if amount}


class Ties:
    """Fed every settlement entry in order (``add``), then ``finish``ed."""

    def __init__(self) -> None:
        self.payouts, self.corrections = _Bag(), _Bag()
        self.staked: dict[int, Decimal] = defaultdict(lambda: ZERO)  # wager entries, expected
        self.banked: dict[int, Decimal] = defaultdict(lambda: ZERO)  # bank entries, expected
        self.reversals: dict[int, Entry] = {}  # by hand: a reversal waiting for its correction
        self.entries = 0  # stack entries tied
        self.events = 0  # audit events tied

    # --- fed by the books' walk over the settlement entries -----------------------------------

    def add(self, entry: Entry) -> None:
        if entry.kind == Kind.ORIGINAL:
            for seating, amount in _payout_moves(entry).items():
                self.payouts.add(seating, _cents(amount), entry.gaming_day, entry.shift)
            for seating, paid_back, net in entry.lines:
                self.staked[seating] -= paid_back - net
            if entry.dp_seating_id is not None:
                self.banked[entry.dp_seating_id] -= entry.dp_bank
        elif entry.kind == Kind.REVERSAL:
            self.reversals[entry.hand_id] = entry
        else:
            reversal = self.reversals.pop(entry.hand_id, None)
            if reversal is None or reversal.entry != entry.entry - 1:
                raise Offence(entry.row, f"{entry.where}: the reversal booked with it is missing")
            for seating, amount in _correction_moves(reversal, entry).items():
                self.corrections.add(seating, _cents(amount), entry.gaming_day, entry.shift)

    # --- after the walk ------------------------------------------------------------------------

    def finish(self) -> None:
        if self.reversals:
            orphan = min(self.reversals.values(), key=lambda entry: entry.pk)
            raise Offence(orphan.row, f"{orphan.where}: no correction was booked with it")
        self._in_play()
        self._stack_entries()
        self._stack_events()
        self._cash()

    def _in_play(self) -> None:
        """Stakes and banks of the hands still in play, read from their spots and hands."""
        live = Hand.objects.filter(status__in=Hand.IN_PROGRESS)
        spots = Spot.objects.filter(hand__in=live).values_list(
            "seating_id", "ante", "flush_bonus", "straight_flush_bonus", "raise_amount"
        )
        for seating, ante, flush, straight, raised in spots:
            self.staked[seating] -= ante + flush + straight + raised
        for seating, bank in live.exclude(dp_seating=None).values_list("dp_seating_id", "dp_bank"):
            self.banked[seating] -= bank or ZERO

    def _stack_entries(self) -> None:
        bags: dict[str, _Bag] = {Reason.PAYOUT: _Bag(), Reason.CORRECTION: _Bag()}
        sums: dict[str, dict[int, Decimal]] = {
            Reason.WAGER: defaultdict(lambda: ZERO),
            Reason.DP_BANK: defaultdict(lambda: ZERO),
        }
        rows = StackEntry.objects.values_list(
            "seating_id", "reason", "amount", "gaming_day", "shift"
        )
        for seating, reason, amount, day, shift in rows.iterator(chunk_size=5000):
            if reason in bags:
                bags[reason].add(seating, _cents(amount), day, shift)
            elif reason in sums:
                sums[reason][seating] += amount
            self.entries += 1
        for reason, expected in (
            (Reason.PAYOUT, self.payouts),
            (Reason.CORRECTION, self.corrections),
        ):
            if differ := expected.differ(bags[reason]):
                _name_the_movement(differ[0], reason)
        _same_sums("wager", self.staked, sums[Reason.WAGER])
        _same_sums("designated player's bank", self.banked, sums[Reason.DP_BANK])

    def _stack_events(self) -> None:
        """Each single movement's audit event names its entry, with the same stack and
        amount; each buy-in, add-on and cash-out has its event."""
        named: set[int] = set()
        events = AuditEvent.objects.filter(action__in=list(STACK_EVENTS)).order_by("seq")
        for chunk in _chunks(
            events.values_list("seq", "action", "object_id", "payload").iterator(chunk_size=2000)
        ):
            parsed = [
                (seq, action, seating, json.loads(text)) for seq, action, seating, text in chunk
            ]
            wanted = {int(payload["entry"]): (seq, action, seating, payload)
                      for seq, action, seating, payload in parsed}  # fmt: skip
            stored = {
                pk: (seating, reason, amount)
                for pk, seating, reason, amount in StackEntry.objects.filter(
                    pk__in=wanted
                ).values_list("pk", "seating_id", "reason", "amount")
            }
            for pk, (seq, action, seating, payload) in wanted.items():
                said = (int(seating), STACK_EVENTS[AuditAction(action)], Decimal(payload["amount"]))
                if pk not in stored:
                    raise Offence(
                        f"audit event #{seq}",
                        f"{action} names stack entry #{pk}, which is not in tables_stackentry",
                    )
                if stored[pk] != said:
                    raise Offence(
                        f"tables_stackentry #{pk}",
                        f"stack #{stored[pk][0]} {stored[pk][1]} of {_cents(stored[pk][2])}, its "
                        f"audit event #{seq} ({action}) says stack #{said[0]} {said[1]} of "
                        f"{_cents(said[2])}",
                    )
                if said[1] in ALWAYS_SINGLE:
                    named.add(pk)
            self.events += len(chunk)
        singles = StackEntry.objects.filter(reason__in=ALWAYS_SINGLE)
        if singles.count() != len(named):
            unnamed = singles.exclude(pk__in=named).order_by("pk").first()
            assert unnamed is not None  # every named one is a single movement (checked above)
            raise Offence(
                f"tables_stackentry #{unnamed.pk}",
                f"a {unnamed.reason} of {_cents(unnamed.amount)} no audit event names",
            )

    def _cash(self) -> None:
        """Every cash buy-in's chips are a cash transaction on the player's cash log, and every
        cash transaction at a table is a buy-in's."""
        cash = CashTransaction.objects.exclude(at_table__stack_entry=None).values_list(
            "pk",
            "direction",
            "amount",
            "player_id",
            "at_table__stack_entry_id",
            "at_table__stack_entry__reason",
            "at_table__stack_entry__tender",
            "at_table__stack_entry__amount",
            "at_table__stack_entry__seating__player_id",
        )
        count = 0
        for pk, direction, amount, player, entry, reason, tender, chips, seated in cash.iterator(
            chunk_size=5000
        ):
            ok = (direction, amount, player) == (CashTransaction.Direction.IN, chips, seated)
            if not ok or reason not in (Reason.BUY_IN, Reason.ADD_ON) or tender != Tender.CASH:
                raise Offence(
                    f"tables_stackentry #{entry}",
                    f"a {reason} of {_cents(chips)} paid with {tender or 'nothing'}, its cash "
                    f"transaction (patrons_cashtransaction #{pk}) is cash {direction} of "
                    f"{_cents(amount)}",
                )
            count += 1
        bought = StackEntry.objects.filter(
            reason__in=(Reason.BUY_IN, Reason.ADD_ON), tender=Tender.CASH, amount__gt=0
        )
        if bought.count() != count:
            missing = (
                bought.exclude(
                    pk__in=TableCash.objects.exclude(stack_entry=None).values("stack_entry_id")
                )
                .order_by("pk")
                .first()
            )
            assert missing is not None
            raise Offence(
                f"tables_stackentry #{missing.pk}",
                f"a cash {missing.reason} of {_cents(missing.amount)} with no cash transaction on "
                "the cash log (patrons_cashtransaction)",
            )


def _same_sums(what: str, expected: dict[int, Decimal], found: dict[int, Decimal]) -> None:
    for seating in sorted(set(expected) | set(found)):
        if expected[seating] != found[seating]:
            raise Offence(
                f"tables_seating #{seating}",
                f"its {what} stack entries add up to {_cents(found[seating])}, its hands' "
                f"{what}s to {_cents(expected[seating])}",
            )


def _chunks(rows: Iterable[tuple], size: int = 1000) -> Iterator[list[tuple]]:
    chunk: list[tuple] = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _name_the_movement(seating: int, reason: str) -> None:
    """One stack's payout (or correction) movements differ from its settlement entries': read
    that stack's alone, and name the first entry that is not a movement of the books."""
    expected: Counter[tuple[str, Any, str]] = Counter()
    source: dict[tuple[str, Any, str], str] = {}
    involved = Settlement.objects.filter(
        Q(spots__spot__seating_id=seating) | Q(hand__dp_seating_id=seating)
    ).values("hand_id")
    reversal: dict[int, Entry] = {}
    for chunk in entries(Settlement.objects.filter(hand_id__in=involved)):
        for entry in chunk:
            if entry.kind == Kind.REVERSAL:
                reversal[entry.hand_id] = entry
                continue
            if reason == Reason.PAYOUT and entry.kind == Kind.ORIGINAL:
                moves = _payout_moves(entry)
            elif reason == Reason.CORRECTION and entry.kind == Kind.CORRECTION:
                moves = _correction_moves(reversal[entry.hand_id], entry)
            else:
                continue
            if seating in moves:
                key = (_cents(moves[seating]), entry.gaming_day, entry.shift)
                expected[key] += 1
                source.setdefault(key, entry.row)
    found = StackEntry.objects.filter(seating_id=seating, reason=reason).order_by("pk")
    where = Seating.objects.filter(pk=seating).values_list("table_id", "seat").first()
    table, seat = where if where else (None, None)
    for pk, amount, day, shift in found.values_list("pk", "amount", "gaming_day", "shift"):
        key = (_cents(amount), day, shift)
        if expected[key]:
            expected[key] -= 1
            continue
        raise Offence(
            f"tables_stackentry #{pk}",
            f"table {table} seat {seat}: its {reason} of {_cents(amount)} (gaming day {day}) is "
            "no settlement entry's movement of the stack",
        )
    key = next(key for key, left in expected.items() if left)
    raise Offence(
        source[key],
        f"its {reason} of {key[0]} to table {table} seat {seat} has no stack entry",
    )
