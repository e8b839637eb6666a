"""The settlement entries as stored, read for the books' verification (``compliance.books``,
``compliance.ties``): a chunk at a time, each with its spot lines, fee entries and house bank
entries, so that memory stays bounded whatever the number of hands."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from core.money import ZERO
from wagers.models import BankBooking, FeeBooking, Settlement, SpotSettlement

CHUNK = 500


class Offence(Exception):
    """The first row that does not agree with the books."""

    def __init__(self, row: str, problem: str) -> None:
        super().__init__(f"{row}: {problem}")
        self.row, self.problem = row, problem


_SETTLEMENT_FIELDS = (
    "pk",
    "hand_id",
    "entry",
    "kind",
    "round",
    "result",
    "house_rake",
    "dealer_net",
    "gaming_day",
    "shift",
    "hand__table_id",
    "hand__dp_seating_id",
)


@dataclass
class Entry:
    """One settlement entry as stored, with its spot lines, fees and house bank entries."""

    pk: int
    hand_id: int
    entry: int
    kind: str
    round: Any
    result: Any
    house_rake: Decimal
    dealer_net: Decimal
    gaming_day: date | None
    shift: str
    table_id: int
    dp_seating_id: int | None
    spots: dict[int, tuple[Decimal, Decimal]] = field(default_factory=dict)  # seat: rake, net
    #: Each spot line's seating, what it paid back onto the stack, and its net.
    lines: list[tuple[int, Decimal, Decimal]] = field(default_factory=list)
    fees: Decimal = ZERO
    bank: Decimal = ZERO

    @property
    def row(self) -> str:
        return f"wagers_settlement #{self.pk}"

    @property
    def where(self) -> str:
        return f"hand {self.hand_id} entry {self.entry} ({self.kind})"

    @property
    def sign(self) -> int:
        return -1 if self.kind == Settlement.Kind.REVERSAL else 1

    @property
    def dp_bank(self) -> Decimal:
        """The designated player's bank the round was settled with (none at a house table)."""
        return Decimal(self.round.get("dealer", {}).get("bank") or "0")


def entries(settlements: QuerySet[Settlement] | None = None) -> Iterator[list[Entry]]:
    """The settlement entries in order, a chunk at a time, each with its lines and ledgers."""
    settlements = Settlement.objects.all() if settlements is None else settlements
    rows = settlements.order_by("pk").values_list(*_SETTLEMENT_FIELDS)
    chunk: list[Entry] = []
    for row in rows.iterator(chunk_size=CHUNK):
        chunk.append(Entry(*row))
        if len(chunk) == CHUNK:
            yield _filled(chunk)
            chunk = []
    if chunk:
        yield _filled(chunk)


def _filled(chunk: list[Entry]) -> list[Entry]:
    by_pk = {entry.pk: entry for entry in chunk}
    lines = SpotSettlement.objects.filter(settlement_id__in=by_pk).values_list(
        "settlement_id", "seat", "rake", "net", "paid_back", "spot__seating_id"
    )
    for settlement_id, seat, rake, net, paid_back, seating_id in lines:
        by_pk[settlement_id].spots[seat] = (rake, net)
        by_pk[settlement_id].lines.append((seating_id, paid_back, net))
    fees = FeeBooking.objects.filter(settlement_id__in=by_pk).values_list(
        "settlement_id", "fee__amount"
    )
    for settlement_id, amount in fees:
        by_pk[settlement_id].fees += amount
    bank = BankBooking.objects.filter(settlement_id__in=by_pk).values_list(
        "settlement_id", "bank_entry__amount"
    )
    for settlement_id, amount in bank:
        by_pk[settlement_id].bank += amount
    return chunk
