"""The demo day's fills and credits, each through its whole signature chain (the cashier, the
dealer at the table, the floor supervisor; the demo cardroom sets no runner)."""

from __future__ import annotations

from django.contrib.auth.models import User

from tables.demo import demo_signature
from tables.models import Table
from tables.signatures import SignatureInput

from . import services
from .models import Slip


def _signed(user: User) -> SignatureInput:
    """The demo's person signs as themselves, with the demo password."""
    return demo_signature(user.get_username())


def demo_slip_signed_through(slip: Slip, people: dict[str, User]) -> None:
    """Every step of the slip's chain, each person signing as themselves: the cashier, the
    dealer at the table, the floor supervisor (the demo cardroom sets no runner)."""
    cashier, dealer, floor = people["cashier"], people["dealer"], people["floor"]
    if slip.kind == Slip.Kind.FILL:
        services.slip_prepare(slip=slip, signature=_signed(cashier), by=cashier)
    services.slip_dealer_sign(slip=slip, signature=_signed(dealer), by=dealer)
    services.slip_supervisor_sign(slip=slip, signature=_signed(floor), by=floor)
    if slip.kind == Slip.Kind.CREDIT:
        services.slip_cage_receive(slip=slip, signature=_signed(cashier), by=cashier)


def demo_slips(house: Table, people: dict[str, User]) -> None:
    """At 09:00 a fill through its whole chain; then one requested for the wrong table,
    voided with the dealer as witness."""
    floor, dealer = people["floor"], people["dealer"]
    fill = services.slip_request(table=house, kind="fill", chips={"100": 5}, by=floor)
    demo_slip_signed_through(fill, people)
    wrong = services.slip_request(table=house, kind="fill", chips={"5": 10}, by=floor)
    services.slip_void(
        slip=wrong,
        reason="Requested for the wrong table",
        witness=_signed(dealer),
        by=floor,
    )
