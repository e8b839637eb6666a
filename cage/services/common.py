"""What the cage's services share: chips and cash by denomination, the locks, the guards of
an open period, and how a signature is written into an audit event."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from django.utils import timezone

from core.errors import Conflict, DomainError
from core.money import ZERO, money, money_text
from core.people import person_name
from engine.table import Banking
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import Table
from tables.signatures import Signed

from .. import selectors

# --- chips and cash by denomination -------------------------------------------------------------


def count_parse(
    given: Mapping[str, Any],
    denominations: list[str],
    *,
    field: str,
    largest: Decimal | None = None,
) -> tuple[dict[str, int], Decimal]:
    """``{"25": 20, "100.00": 5}`` → every denomination with its number of pieces (zero for the
    ones not given), and the total. A denomination the cardroom does not use, a negative or a
    fractional number of pieces is refused, naming ``field.<denomination>``; so is a total
    above ``largest`` (the cardroom's ``largest_cage_amount``), naming ``field``."""
    if not isinstance(given, Mapping):
        raise DomainError("Give the number of pieces of each denomination.", field=field)
    pieces = dict.fromkeys(denominations, 0)
    for key, value in given.items():
        denomination = money_text(money(key, field=field))
        if denomination not in pieces:
            raise DomainError(
                f"${denomination} is not a denomination here ({', '.join(denominations)}).",
                field=f"{field}.{key}",
            )
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise DomainError(
                "The number of pieces is a whole number, 0 or more.", field=f"{field}.{key}"
            )
        pieces[denomination] += value
    total = sum((Decimal(d) * n for d, n in pieces.items()), ZERO)
    if total >= Decimal(10**10):
        raise DomainError("That is more than the books can hold.", field=field)
    if largest is not None and total > largest:
        raise DomainError(
            f"${money_text(total)} is more than the cardroom's largest fill, credit or count "
            f"(${money_text(largest)}): check the count, or ask a floor supervisor to raise it.",
            field=field,
        )
    return pieces, total


# --- locks and guards -----------------------------------------------------------------------------


def locked_table(table: Table) -> Table:
    return Table.objects.select_for_update().select_related("cardroom").get(pk=table.pk)


def locked_cardroom(cardroom: Cardroom) -> Cardroom:
    return Cardroom.objects.select_for_update().get(pk=cardroom.pk)


def require_house_banked(table: Table, what: str) -> None:
    if table.banking != Banking.HOUSE:
        raise Conflict(
            f"{table} is a designated-player table: it has no house bank (rack), so no "
            f"{what}; its chips in play are the players' stacks.",
            field="table",
        )


def require_open_period(cardroom: Cardroom, day: date, shift: str) -> None:
    """Cage records for a closed gaming day or shift are refused: the day is locked."""
    if selectors.day_closed(cardroom, day):
        raise Conflict(
            f"The gaming day {day} is closed: it takes no more records. A correction lands on "
            "the current day as an adjustment.",
            field="gaming_day",
        )
    if selectors.shift_closed(cardroom, day, shift):
        raise Conflict(
            f"The {shift} shift of {day} is closed: it takes no more records.", field="shift"
        )


def now_span(cardroom: Cardroom) -> table_selectors.ShiftSpan:
    return table_selectors.shift_of(cardroom, timezone.now())


def require_shift_over(cardroom: Cardroom, day: date, shift: str, *, what: str) -> None:
    """``what`` ("its drop box is counted", "it closes") only once the shift has ended."""
    _, end = table_selectors.shift_bounds(cardroom, day, shift)
    if timezone.now() < end:
        raise Conflict(
            f"The {shift} shift of {day} is not over: {what} after "
            f"{timezone.localtime(end):%Y-%m-%d %H:%M %Z}.",
            field="shift",
        )


# --- signatures in the audit log ------------------------------------------------------------------


def signed_payload(*signatures: Signed) -> dict[str, dict[str, Any]]:
    """The signatures of an audit event, by capacity: who (id and name) and how they signed."""
    return {
        signed.capacity: {
            "signer": signed.signer.pk,
            "name": person_name(signed.signer),
            "method": signed.method,
        }
        for signed in signatures
    }
