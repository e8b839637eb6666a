"""The checks of a slip's signature chain (Nevada MICS, table games: fills and credits; 25 CFR
543.18): a slip takes signatures only while neither void nor delivered, each step in its turn,
each by its own person (one person never signs two steps of one slip), the dealer's by the
dealer on duty at the slip's table; a credit never takes more than the rack holds."""

from __future__ import annotations

from collections.abc import Mapping

from core.errors import Conflict, DomainError
from core.people import person_name
from tables.models import Table, TableSession
from tables.services.racks import rack_credit_check
from tables.signatures import Signed

from ..models import Slip, SlipDelivery, SlipStep, SlipVoid
from ..slip_selectors import slip_chain
from .common import locked_table


def locked_slip(slip: Slip) -> tuple[Slip, Table]:
    """The slip, its table locked (the slip is append-only: the table's row is its lock),
    refused once it is delivered or void: it takes no more signatures."""
    table = locked_table(slip.table)
    slip = Slip.objects.select_related("table__cardroom", "cardroom", "requested_by").get(
        pk=slip.pk
    )
    if SlipVoid.objects.filter(slip=slip).exists():
        raise Conflict(f"{slip.get_kind_display()} {slip.number} is void.", field="slip")
    if SlipDelivery.objects.filter(slip=slip).exists():
        raise Conflict(
            f"{slip.get_kind_display()} {slip.number} is delivered already.", field="slip"
        )
    return slip, table


def check_rack_holds(table: Table, pieces: Mapping[str, int]) -> None:
    """A credit takes no denomination of the rack below zero by the books (refused naming
    ``chips.<denomination>``); the delivery checks again under the rack's lock."""
    rack_credit_check(table=table, pieces=named_pieces(pieces), field="chips")


def named_pieces(pieces: Mapping[str, int]) -> dict[str, int]:
    """The denominations a slip names (the others are 0)."""
    return {denomination: number for denomination, number in pieces.items() if number}


def _label(step: str) -> str:
    return str(SlipStep.Name(step).label)


def require_step_due(slip: Slip, step: str, done: list[SlipStep]) -> None:
    """``step`` is the one the slip waits for; otherwise refused, naming the step it waits
    for (field ``slip``)."""
    name = f"{slip.get_kind_display()} {slip.number}"
    chain = slip_chain(slip, done)
    if step not in chain:
        why = "the cardroom sets no runner" if step == SlipStep.Name.CARRIED else "not its step"
        raise Conflict(f"{name} is never {_label(step)}: {why}.", field="slip")
    signed = {s.step for s in done}
    if step in signed:
        raise Conflict(f"{name} is {_label(step)} already.", field="slip")
    due = next(s for s in chain if s not in signed)
    if due != step:
        raise Conflict(
            f"{name} is not {_label(due)} yet: it is {_label(step)} only after that.",
            field="slip",
        )


def require_open_table(slip: Slip, session: TableSession | None) -> TableSession:
    if session is None:
        raise Conflict(
            f"{slip.table} is closed: no {slip.kind} goes to a closed table.", field="slip"
        )
    return session


def require_dealer_on_duty(slip: Slip, session: TableSession, signed: Signed) -> None:
    """The dealer's step is signed by the dealer on duty at the slip's table, no one else."""
    if signed.signer.pk != session.dealer_id:
        raise DomainError(
            f"{person_name(signed.signer)} is not the dealer on duty at {slip.table}: the "
            "dealer at the table counts the chips and signs.",
            field="signature",
        )
