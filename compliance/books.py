"""Books verification: the money, not only the audit chain.

The audit chain proves that no event was rewritten; it says nothing of a stack raised by raw
SQL, or of a settlement whose fee a superuser changed. ``verify_books`` reads the books and
checks them against each other and against the engine:

1. **Stacks**: every seating's ``stack`` equals the sum of its stack entries.
2. **Settlements**: every stored settlement entry equals the engine re-settling its stored
   round (``settle``): the stored result, the house rake, the dealer's net and each spot's
   fee and net (a reversal's negated).
3. **Fee ledger** (R12): each entry's fee entries add up to its house rake; on a house-banked
   table the house bank's settlement entry is the dealer's net.
4. **Conservation** (R15): per hand, every spot's net, the dealer's net and the house rake
   add up to zero; per table and gaming day, the same, and the day's fee ledger equals the
   day's settlements' fees.
5. **Stack entries** (``compliance.ties``): each is its settlement entry's movement, its
   hands' stakes and banks, or its audit event's and cash transaction's.
6. **Settling events** (``compliance.settling``): each settlement entry is named by exactly one
   settling audit event with its money, and each such event names entries that are there.

The first offending row is reported by table and id (e.g. ``tables_seating #12``); exit 1 of
``manage.py verify_books``. Sums are taken in Python on ``Decimal`` (SQLite sums decimals as
floating point), a chunk of settlements at a time: memory stays bounded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from core.money import ZERO
from engine import round_from_json, settle, settlement_to_json
from engine.errors import ConservationError, RoundError
from engine.money import to_decimal
from rake.models import FeeEntry
from tables.models import Seating, StackEntry
from wagers.models import Settlement

from .entries import Entry, Offence, entries
from .settling import SettlingEvents
from .ties import Ties

Progress = Callable[[int], None]


@dataclass
class BooksReport:
    ok: bool = True
    row: str = ""  # the first offending row, e.g. "tables_seating #12"
    problem: str = ""
    stacks: int = 0
    settlements: int = 0
    hands: int = 0
    days: int = 0
    entries: int = 0  # stack entries tied to what they book
    events: int = 0  # audit events tied to the rows they name

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "row": self.row,
            "problem": self.problem,
            "stacks": self.stacks,
            "settlements": self.settlements,
            "hands": self.hands,
            "days": self.days,
            "entries": self.entries,
            "events": self.events,
        }


def verify_books(progress: Progress | None = None) -> BooksReport:
    """Check every stack, settlement, fee and hand; stop at the first offending row."""
    report = BooksReport()
    steps = _Steps(progress, Seating.objects.count() + Settlement.objects.count())
    ties, settling = Ties(), SettlingEvents()
    try:
        _check_stacks(report, steps)
        _check_settlements(report, steps, ties, settling)
        settling.finish()
        ties.finish()
    except Offence as offence:
        report.ok, report.row, report.problem = False, offence.row, offence.problem
    report.entries, report.events = ties.entries, ties.events + settling.events
    steps.finish()
    return report


class _Steps:
    """Progress in percent, reported when it moves by at least one."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self.progress, self.total, self.done, self.shown = progress, max(total, 1), 0, -1

    def advance(self, count: int) -> None:
        self.done += count
        self._show(min(99, self.done * 100 // self.total))

    def finish(self) -> None:
        self._show(100)

    def _show(self, percent: int) -> None:
        if self.progress is not None and percent > self.shown:
            self.shown = percent
            self.progress(percent)


def _cents(value: Decimal) -> str:
    return f"{value:.2f}"


# --- 1. stacks ---------------------------------------------------------------------------------


def _check_stacks(report: BooksReport, steps: _Steps) -> None:
    sums: dict[int, Decimal] = defaultdict(lambda: ZERO)
    for seating_id, amount in StackEntry.objects.values_list("seating_id", "amount").iterator(
        chunk_size=5000
    ):
        sums[seating_id] += amount
    seatings = Seating.objects.order_by("pk").values_list("pk", "table_id", "seat", "stack")
    for pk, table_id, seat, stack in seatings.iterator(chunk_size=5000):
        if stack != sums.get(pk, ZERO):
            raise Offence(
                f"tables_seating #{pk}",
                f"table {table_id} seat {seat}: the stack is {_cents(stack)} but its stack "
                f"entries add up to {_cents(sums.get(pk, ZERO))}",
            )
        report.stacks += 1
        steps.advance(1)


# --- 2–4. settlements, fees, conservation ------------------------------------------------------


class _Days:
    """Per table and gaming day: the settlements' money and the fee ledger."""

    def __init__(self) -> None:
        self.balance: dict[tuple[int, date | None], Decimal] = defaultdict(lambda: ZERO)
        self.rake: dict[tuple[int, date | None], Decimal] = defaultdict(lambda: ZERO)

    def add(self, entry: Entry) -> None:
        key = (entry.table_id, entry.gaming_day)
        nets = sum((net for _, net in entry.spots.values()), ZERO)
        self.balance[key] += nets + entry.dealer_net + entry.house_rake
        self.rake[key] += entry.house_rake


def _check_settlements(
    report: BooksReport, steps: _Steps, ties: Ties, settling: SettlingEvents
) -> None:
    days, hands = _Days(), set()
    for chunk in entries():
        for entry in chunk:
            _check_engine(entry)
            _check_fees(entry)
            _check_hand(entry)
            ties.add(entry)
            days.add(entry)
            hands.add(entry.hand_id)
            report.settlements += 1
        settling.events_of(chunk)
        steps.advance(len(chunk))
    report.hands = len(hands)
    report.days = _check_days(days)


def _check_engine(entry: Entry) -> None:
    """The engine re-settles the stored round: the same result, the same money."""
    try:
        settled = settle(round_from_json(entry.round))
    except (RoundError, ConservationError) as error:
        raise Offence(entry.row, f"{entry.where}: its round does not settle: {error}") from None
    if settlement_to_json(settled) != entry.result:
        raise Offence(entry.row, f"{entry.where}: its stored result is not the engine's")
    sign = entry.sign
    _same(entry, "house rake", entry.house_rake, sign * to_decimal(settled.house_rake))
    _same(entry, "dealer's net", entry.dealer_net, sign * to_decimal(settled.dealer.net))
    engine_seats = {line.seat for line in settled.spots}
    if engine_seats != set(entry.spots):
        raise Offence(entry.row, f"{entry.where}: its spot lines are not the engine's spots")
    for line in settled.spots:
        rake, net = entry.spots[line.seat]
        _same(entry, f"seat {line.seat}'s fee", rake, sign * to_decimal(line.rake))
        _same(entry, f"seat {line.seat}'s net", net, sign * to_decimal(line.net))


def _same(entry: Entry, what: str, stored: Decimal, engine: Decimal) -> None:
    if stored != engine:
        raise Offence(
            entry.row,
            f"{entry.where}: the {what} is {_cents(stored)}, the engine settles {_cents(engine)}",
        )


def _check_fees(entry: Entry) -> None:
    """R12: the fee ledger holds exactly the entry's fees; the house bank its net."""
    if entry.fees != entry.house_rake:
        raise Offence(
            entry.row,
            f"{entry.where}: its fee entries (rake_feeentry) add up to {_cents(entry.fees)}, "
            f"its house rake is {_cents(entry.house_rake)}",
        )
    house_net = entry.dealer_net if entry.dp_seating_id is None else ZERO
    if entry.bank != house_net:
        raise Offence(
            entry.row,
            f"{entry.where}: its house bank entries add up to {_cents(entry.bank)}, the "
            f"house's net is {_cents(house_net)}",
        )


def _check_hand(entry: Entry) -> None:
    """R15 on the stored rows: spots' nets + dealer's net + house rake = 0."""
    nets = sum((net for _, net in entry.spots.values()), ZERO)
    total = nets + entry.dealer_net + entry.house_rake
    if total:
        raise Offence(
            entry.row, f"{entry.where}: R15 does not hold, the money adds up to {_cents(total)}"
        )


def _check_days(days: _Days) -> int:
    """R15 and R12 per table and gaming day: the day balances, and its fee ledger (by the
    day each fee was booked) equals its settlements' fees."""
    ledger: dict[tuple[int, date | None], Decimal] = defaultdict(lambda: ZERO)
    # Fees of entries made before gaming days were recorded on settlements are left out.
    fees = FeeEntry.objects.filter(booking__settlement__gaming_day__isnull=False)
    for table_id, day, amount in fees.values_list("table_id", "gaming_day", "amount").iterator(
        chunk_size=5000
    ):
        ledger[(table_id, day)] += amount
    for key in sorted(set(days.balance) | set(ledger), key=_day_order):
        _check_day(key, days.balance.get(key, ZERO), days.rake.get(key, ZERO), ledger)
    return len(days.balance)


def _check_day(
    key: tuple[int, date | None],
    balance: Decimal,
    rake: Decimal,
    ledger: dict[tuple[int, date | None], Decimal],
) -> None:
    table_id, day = key
    row = f"table {table_id} gaming day {day}"
    if balance:
        raise Offence(row, f"R15 does not hold for the day: its money adds up to {balance}")
    fees = ledger.get(key, ZERO)
    if day is not None and fees != rake:
        raise Offence(
            row,
            f"the day's fee ledger (rake_feeentry) adds up to {_cents(fees)}, its "
            f"settlements' fees to {_cents(rake)}",
        )


def _day_order(key: tuple[int, date | None]) -> tuple[int, date]:
    return key[0], key[1] or date.min


def as_lines(report: BooksReport) -> Iterable[str]:
    """The report in words, for the command and the logs."""
    counted = (
        f"{report.stacks} stacks, {report.settlements} settlement entries, {report.hands} "
        f"hands, {report.days} table days, {report.entries} stack entries, {report.events} "
        "audit events"
    )
    if report.ok:
        yield f"OK: {counted} agree."
    else:
        yield f"BROKEN: {report.row}: {report.problem}."
        yield f"Checked before it: {counted}."
