"""The cage for the tests: a fill's chips leave the cage's books when the cashier holding the
cage prepares them, so a test that prepares a fill opens the cage first (when it is closed),
with plenty of every denomination, a floor supervisor witnessing."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth.models import User

from cage import cashier_books, services
from cage.models import CageShift, Slip, SlipDelivery, SlipStep
from cage.services import CountGiven
from core.roles import FLOOR_SUPERVISOR
from patrons.models import Cardroom
from tests.conftest import a_cashier, a_person, signed

#: Pieces of each of the cardroom's denominations the tests' cage opens with.
TEST_CAGE_PIECES = 10_000


def cage_witness() -> User:
    """A floor supervisor who witnesses the tests' cage openings (made on first use)."""
    return a_person("cage-witness", FLOOR_SUPERVISOR, "Wyn", "Ash")


def cage_opened(cardroom: Cardroom, cashier: User) -> CageShift:
    """The cardroom's cage, open and held by ``cashier`` (opened now if it is closed)."""
    shift = cashier_books.open_cage_shift(cardroom)
    if shift is not None:
        return shift
    chips = {denomination: TEST_CAGE_PIECES for denomination in cardroom.chip_denominations}
    return services.cage_open(
        cardroom=cardroom,
        count=CountGiven(chips=chips, cash={"100": 1000}),
        signature=signed(cashier),
        witness=signed(cage_witness()),
        by=cashier,
    )


def slip_prepared(slip: Slip, cashier: User) -> SlipStep:
    """The cashier prepares the fill at the cage, which is opened first if it is closed."""
    cage_opened(slip.cardroom, cashier)
    return services.slip_prepare(slip=slip, signature=signed(cashier), by=cashier)


def slip_up_to_last_step(
    slip: Slip, dealer: User, supervisor: User, cashier: User | None = None
) -> Callable[[], SlipStep]:
    """Every step of the slip's chain but the last, each person signing as themselves (no
    runner); the last step, which moves the chips, returned to be called."""
    cashier = cashier or a_cashier()
    if slip.kind == Slip.Kind.FILL:
        slip_prepared(slip, cashier)
        services.slip_dealer_sign(slip=slip, signature=signed(dealer), by=dealer)
        return lambda: services.slip_supervisor_sign(
            slip=slip, signature=signed(supervisor), by=supervisor
        )
    services.slip_dealer_sign(slip=slip, signature=signed(dealer), by=dealer)
    services.slip_supervisor_sign(slip=slip, signature=signed(supervisor), by=supervisor)
    cage_opened(slip.cardroom, cashier)
    return lambda: services.slip_cage_receive(slip=slip, signature=signed(cashier), by=cashier)


def slip_delivered(
    slip: Slip, dealer: User, supervisor: User, cashier: User | None = None
) -> SlipDelivery:
    """The slip through its whole chain: the chips moved (into the rack for a fill, out of it
    to the cage for a credit)."""
    slip_up_to_last_step(slip, dealer, supervisor, cashier)()
    return SlipDelivery.objects.get(slip=slip)


def cage_out_of(cardroom: Cardroom, *denominations: str) -> None:
    """The cage takes every chip it holds of ``denominations`` (``"1.00"``) out of
    circulation (a withdrawal, witnessed), as it does before a denomination is withdrawn."""
    shift = cashier_books.open_cage_shift(cardroom)
    assert shift is not None, "the cage is closed"
    held = cashier_books.cage_pieces(cardroom)
    services.chip_issue_record(
        cardroom=cardroom,
        direction="withdrawal",
        chips={d.removesuffix(".00"): held.get(d, 0) for d in denominations},
        reason="Denominations withdrawn",
        witness=signed(cage_witness()),
        by=shift.cashier,
    )
