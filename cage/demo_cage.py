"""The demo's cage (``cage.demo`` calls it): on the demo day the cashier opens the cage with a
cash float, the cardroom issues its chips into it (the floor supervisor witnessing), players
buy chips there (on the cash log: the MTL and CTR of the demo day), and the cashier closes it
at the end of the day; today the cashier opens it again with its count, and holds it.

Log in as ``cashier`` (password ``cardroom-demo``) for the cage screen, ``/cashier/``.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth.models import User

from patrons.models import Cardroom, Player
from tables.demo import demo_signature

from . import cashier_books, services

#: The cage's cash float at opening: $20,000 in hundreds.
FLOAT = {"100.00": 200}
#: The chips the demo cardroom owns, issued into the cage on the demo day: $70,000.
ISSUED = {"1.00": 1000, "5.00": 1000, "25.00": 400, "100.00": 200, "500.00": 100}


def demo_cage_open(cardroom: Cardroom, people: dict[str, User], *, first: bool) -> None:
    """The cashier opens the cage with the count its books hold (the float, the first time),
    the floor supervisor witnessing; the first time, the chips are issued into it."""
    cashier, floor = people["cashier"], people["floor"]
    if cashier_books.open_cage_shift(cardroom) is not None:
        return
    books = cashier_books.cage_books(cardroom)
    services.cage_open(
        cardroom=cardroom,
        count=services.CountGiven(chips=books.chips, cash=FLOAT if first else _bills(books.cash)),
        signature=demo_signature(cashier.username),
        witness=demo_signature(floor.username),
        by=cashier,
    )
    if first:
        services.chip_issue_record(
            cardroom=cardroom,
            direction="issue",
            chips=ISSUED,
            reason="The demo cardroom's chip inventory",
            witness=demo_signature(floor.username),
            by=cashier,
        )


def demo_cage_sell(player: Player, amount: Decimal, cashier: User) -> None:
    """The player buys ``amount`` in chips at the cage, the largest chips first."""
    chips: dict[str, int] = {}
    for value in sorted(player.cardroom.chip_denominations, key=Decimal, reverse=True):
        count, amount = divmod(amount, Decimal(value))
        if count:
            chips[value] = int(count)
    services.cage_chips_sell(player=player, chips=chips, by=cashier)


def demo_cage_close(cardroom: Cardroom, people: dict[str, User]) -> None:
    """The cashier closes the cage with its count as the books say, the floor witnessing."""
    cashier, floor = people["cashier"], people["floor"]
    books = cashier_books.cage_books(cardroom)
    services.cage_close(
        cardroom=cardroom,
        count=services.CountGiven(chips=books.chips, cash=_bills(books.cash)),
        signature=demo_signature(cashier.username),
        witness=demo_signature(floor.username),
        by=cashier,
    )


def _bills(cash: Decimal) -> dict[str, int]:
    """The cage's cash in hundreds, and what is left in ones (the demo's sums are whole)."""
    hundreds, rest = divmod(cash, Decimal(100))
    return {"100.00": int(hundreds), "1.00": int(rest)}
