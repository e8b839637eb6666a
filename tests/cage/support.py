"""Helpers the cage tests share: playing a hand to the end through the services, chips by
denomination, and a floor moved through its gaming day with every signature given."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User

from cage import services as cage_services
from cage.models import DropCount, Slip
from tables.models import Seating, Table
from tables.services.sessions import table_close
from tables.signatures import SignatureInput
from tests.cage_books import cage_opened, slip_prepared
from tests.conftest import signed
from wagers import services
from wagers.models import Hand

from .conftest import RACK

#: The gaming day the cage tests play (conftest.T0).
DAY = date(2024, 3, 1)

# Hands that never share a card (R1); the dealer's qualifies (3 spades), a spade 4 for a
# diamond 4 makes it a two-card flush that does not (R4).
DEALER_QUALIFIES = "Ks 9s 4s 2c 7h 8c 3c"
DEALER_DOES_NOT_QUALIFY = "Ks 9s 4d 2c 7h 8c 3c"
WINNER = "Ah Th 6h 2h Jd 5c 9c"  # a four-card heart flush: beats the dealer's three spades
LOSER = "Qd 8d 5d As 6c 4h 3s"  # a three-card diamond flush, Q high: loses to K-9-4


def seating(table: Table, seat: int) -> Seating:
    return Seating.objects.get(table=table, seat=seat, left_at=None)


def play(
    table: Table,
    by: Any,
    spots: dict[int, tuple[str, str, str]],
    *,
    dealer_cards: str = DEALER_QUALIFIES,
    **start: Any,
) -> Hand:
    """Start, wager, deal, decide and settle one hand: ``spots`` maps a seat to (ante, cards,
    decision); a raise is 1× the ante (R8)."""
    hand = services.hand_start(table=table, by=by, **start)
    for seat, (ante, _, _) in spots.items():
        services.wager_place(hand=hand, seating=seating(table, seat), ante=ante, by=by)
    services.hand_cards_enter(
        hand=hand,
        dealer_cards=dealer_cards,
        spot_cards={seat: cards for seat, (_, cards, _) in spots.items()},
        by=by,
    )
    for seat, (ante, _, decision) in spots.items():
        raise_amount = ante if decision == "raise" else None
        services.spot_decide(
            hand=hand, seat=seat, decision=decision, raise_amount=raise_amount, by=by
        )
    services.hand_settle(hand=hand, by=by)
    hand.refresh_from_db()
    return hand


def sign_through(slip: Slip, people: dict[str, User], *, runner: User | None = None) -> Slip:
    """Every step of the slip's chain, each person signing as themselves: the cashier, the
    runner (when given), the dealer on duty, the floor supervisor; the chips move at the end."""
    cashier, dealer, supervisor = people["cashier"], people["dealer"], people["supervisor"]
    cage_opened(slip.cardroom, cashier)
    carry = (
        (lambda: cage_services.slip_carry(slip=slip, signature=signed(runner), by=cashier))
        if runner is not None
        else (lambda: None)
    )
    if slip.kind == Slip.Kind.FILL:
        slip_prepared(slip, cashier)
        carry()
    cage_services.slip_dealer_sign(slip=slip, signature=signed(dealer), by=dealer)
    cage_services.slip_supervisor_sign(slip=slip, signature=signed(supervisor), by=supervisor)
    if slip.kind == Slip.Kind.CREDIT:
        carry()
        cage_services.slip_cage_receive(slip=slip, signature=signed(cashier), by=cashier)
    return slip


class Floor:
    """The floor of ``conftest.floor`` and its people, moved through the day by the cage's
    services, each second person signing with the right password."""

    def __init__(self, floor: dict, clock: Any, people: dict[str, User]) -> None:
        self.house, self.dp, self.clock, self.p = floor["house"], floor["dp"], clock, people
        self.cardroom = self.house.cardroom
        self.supervisor, self.dealer = people["supervisor"], people["dealer"]
        self.fill: Slip | None = None

    def request_fill(self) -> None:
        """A fill requested, the cage open for the cashier to prepare it."""
        cage_opened(self.cardroom, self.p["cashier"])
        self.fill = cage_services.slip_request(
            table=self.house, kind="fill", chips={"100": 5}, by=self.supervisor
        )

    def prepare_fill(self) -> None:
        """A fill requested and prepared at the cage: it waits for the dealer."""
        self.request_fill()
        assert self.fill is not None
        cashier = self.p["cashier"]
        slip_prepared(self.fill, cashier)

    def dealer_sign(self, entry: SignatureInput | None) -> Any:
        """The dealer counts the fill and signs on the supervisor's device."""
        assert self.fill is not None
        return cage_services.slip_dealer_sign(slip=self.fill, signature=entry, by=self.supervisor)

    def dealer_signed(self) -> None:
        self.prepare_fill()
        self.dealer_sign(signed(self.dealer))

    def supervisor_sign(self, entry: SignatureInput | None) -> Any:
        assert self.fill is not None
        return cage_services.slip_supervisor_sign(
            slip=self.fill, signature=entry, by=self.supervisor
        )

    def void(self, entry: SignatureInput | None) -> Any:
        assert self.fill is not None
        return cage_services.slip_void(
            slip=self.fill, reason="Wrong table", witness=entry, by=self.supervisor
        )

    def count_rack(
        self, counted_by: SignatureInput | None, signature: SignatureInput | None
    ) -> Any:
        return cage_services.inventory_count_record(
            table=self.house,
            kind="closing",
            chips=RACK,
            counted_by=counted_by,
            signature=signature,
            by=self.supervisor,
        )

    def count_box(self, table: Any, entry: SignatureInput | None, chips: dict | None = None) -> Any:
        return cage_services.drop_count_record(
            table=table,
            gaming_day=DAY,
            shift="day",
            cash={},
            chips=chips or {},
            second_counter=entry,
            by=self.p["counter"],
        )

    def day_shift_counted(self, *, over: bool = False) -> None:
        """14:05: the day shift over, its racks and boxes counted (the house's box a dollar
        over when ``over``)."""
        self.clock.at("14:05")
        cage_services.inventory_count_record(
            table=self.house,
            kind="shift_change",
            chips=RACK,
            counted_by=signed(self.dealer),
            signature=signed(self.supervisor),
            by=self.supervisor,
        )
        self.count_box(self.dp, signed(self.p["second_counter"]))
        self.count_box(self.house, signed(self.p["second_counter"]), {"1": 1} if over else None)

    def close_shift(self, shift: str = "day", entry: SignatureInput | None = None) -> Any:
        return cage_services.shift_close(
            cardroom=self.cardroom,
            gaming_day=DAY,
            shift=shift,
            signature=entry or signed(self.supervisor),
            by=self.supervisor,
        )

    def house_box(self) -> DropCount:
        return DropCount.objects.get(table=self.house)

    def dp_box(self) -> DropCount:
        return DropCount.objects.get(table=self.dp)

    def sign_off(self, entry: SignatureInput | None) -> Any:
        return cage_services.drop_variance_sign_off(
            count=self.house_box(),
            reason="A dollar chip tipped into the box",
            signature=entry,
            by=self.supervisor,
        )

    def day_over(self) -> None:
        """06:30 the next morning: every table closed, every box counted, every shift closed."""
        self.count_rack(signed(self.dealer), signed(self.supervisor))
        table_close(table=self.dp, by=self.supervisor)
        self.clock.at("06:30", days=1)
        for table in (self.house, self.dp):
            self.count_box(table, signed(self.p["second_counter"]))
        for shift in ("day", "swing", "grave"):
            self.close_shift(shift)

    def close_day(self, entry: SignatureInput | None) -> Any:
        return cage_services.gaming_day_close(
            cardroom=self.cardroom, gaming_day=DAY, signature=entry, by=self.p["auditor"]
        )
