"""What a drop count takes beyond its two counters (4 CCR §12385): the further members of a
larger count team, each signing as themselves, and the slip originals found in the box."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import User

from core.errors import DomainError
from core.roles import COUNT_TEAM
from patrons.models import Cardroom
from tables.signatures import SignatureInput, Signed, signature_verify

from .. import selectors
from ..models import DropCount, DropCountCounter, DropSlipOriginal, Slip
from .common import count_parse
from .slip_originals import slip_matchable, slip_original_found

#: The most slip originals one box holds: a shift's fills and credits at one table.
MAX_SLIP_ORIGINALS = 200


Pieces = tuple[dict[str, int], Decimal]


def drop_pieces_parse(
    cardroom: Cardroom, cash: Mapping[str, Any], chips: Mapping[str, Any]
) -> tuple[Pieces, Pieces]:
    """A box's cash by bill and chips by denomination, each within the largest cage amount."""
    largest = cardroom.largest_cage_amount
    return (
        count_parse(cash, list(selectors.CASH_DENOMINATIONS), field="cash", largest=largest),
        count_parse(chips, cardroom.chip_denominations, field="chips", largest=largest),
    )


def further_counters_verify(
    cardroom: Cardroom, entries: Sequence[SignatureInput], *, signed_already: Iterable[User]
) -> list[Signed]:
    """Each further counter authenticates now, none twice; with the two on the count, the
    team is at least the cardroom's ``count_team_size``."""
    on_record = list(signed_already)
    signed: list[Signed] = []
    for index, entry in enumerate(entries):
        one = signature_verify(
            entry,
            capacity=f"counter_{index + 3}",
            roles=(COUNT_TEAM,),
            field=f"further_counters.{index}",
            signed_already=on_record,
        )
        on_record.append(one.signer)
        signed.append(one)
    if len(on_record) < cardroom.count_team_size:
        raise DomainError(
            f"{cardroom} counts with {cardroom.count_team_size} members of the count team: "
            f"{len(on_record)} signed. The others sign here as themselves.",
            field="further_counters",
        )
    return signed


def further_counters_record(count: DropCount, signed: Sequence[Signed]) -> None:
    DropCountCounter.objects.bulk_create(
        DropCountCounter(count=count, counter=one.signer, signed_at=one.at) for one in signed
    )


def slip_originals_record(count: DropCount, serials: Sequence[str]) -> list[str]:
    """The serials of the fill and credit slip originals found in the box, kept on the
    count. Matching each to its duplicate at the cage is the slips' service's part: this is
    where the count tells it (``_tell_the_slips``)."""
    if isinstance(serials, str) or len(serials) > MAX_SLIP_ORIGINALS:
        raise DomainError(
            f"List the slips' serials ({MAX_SLIP_ORIGINALS} at most).", field="slip_originals"
        )
    cleaned: list[str] = []
    for index, serial in enumerate(serials):
        text = serial.strip() if isinstance(serial, str) else ""
        if not text or len(text) > 40:
            raise DomainError("A slip's serial, as printed on it.", field=f"slip_originals.{index}")
        if text in cleaned:
            raise DomainError(f"Slip {text} is listed twice.", field=f"slip_originals.{index}")
        cleaned.append(text)
    DropSlipOriginal.objects.bulk_create(
        DropSlipOriginal(count=count, serial=serial) for serial in cleaned
    )
    _tell_the_slips(count, cleaned)
    return cleaned


def _tell_the_slips(count: DropCount, serials: list[str]) -> None:
    """Each serial that is one of this table's delivered slips, not matched yet, matches its
    duplicate at the cage (``slip_original_found``), in this transaction; any other serial
    stays on the count as found, unmatched, for the count sheet and compliance to see."""
    wanted = set(serials)
    for slip in Slip.objects.filter(table=count.table).order_by("pk"):
        if slip.number in wanted and slip_matchable(slip, count):
            slip_original_found(slip=slip, drop_count=count)
