"""A closed gaming day stays closed for every record: a hand settled after the close, a cash
transaction, a fill, a count or a drop count made after it changes none of the closed day's
figures (win, hold, drop, the cash log and its MTL/CTR totals). Each is booked on the current
day; a hand of the closed day settled late is listed as an adjustment of it, as a
correction is (Nevada MICS and N.J.A.C. 13:69D-1.21: a signed-off day's figures are final)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from cage import selectors, services
from cage.models import DropCount, InventoryCount
from core.errors import Conflict
from patrons import selectors as patron_selectors
from patrons.models import CashTransaction
from rake.models import FeeEntry
from tables.models import HouseBankEntry
from tables.services.seating import player_seat_new
from tables.services.sessions import table_open
from tables.services.stacks import stack_add
from tests.cage_books import slip_delivered
from tests.conftest import signed
from wagers import services as hand_services
from wagers.models import Hand, Settlement

from .conftest import RACK
from .support import DEALER_QUALIFIES, LOSER, WINNER, seating

pytestmark = pytest.mark.django_db

DAY = date(2024, 3, 1)
NEXT = date(2024, 3, 2)
D = Decimal
#: conftest.RACK less the $500 of $25 chips Pat bought: what the rack holds from the close on.
LEFT = {**RACK, "25": 60}


def closed_figures(cardroom) -> dict:
    """Everything the closed day reports: its statistics and every player's cash log."""
    stats = selectors.day_statistics(cardroom, DAY).as_json()
    cash = [
        (row.player_id, row.direction, row.amount, row.day_total, row.logged)
        for row in patron_selectors.cash_log(cardroom.pk, DAY)
    ]
    totals = {
        (row.player_id, row.direction): patron_selectors.day_total(
            row.player.person_id, DAY, row.direction
        )
        for row in CashTransaction.objects.filter(gaming_day=DAY)
    }
    return {"stats": stats, "cash": cash, "totals": totals}


@pytest.fixture
def late(floor, clock, supervisor, dealer, auditor, counter, second_counter):
    """Gaming day 2024-03-01 closed by compliance at 06:40 the next morning, with a hand at
    the DP table started at 05:50 (the grave shift) and not yet settled."""
    house, dp = floor["house"], floor["dp"]
    player_seat_new(table=house, seat=1, name="Pat", buy_in="500", by=dealer)
    for seat, name in ((1, "Avery"), (2, "Blake"), (4, "Casey")):
        player_seat_new(table=dp, seat=seat, name=name, buy_in="1000", by=dealer)
    services.inventory_count_record(
        table=house,
        kind="closing",
        chips=LEFT,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    clock.at("05:50", days=1)
    hand = hand_services.hand_start(table=dp, by=dealer, draw_cards={1: "As", 2: "Kc", 4: "Qc"})
    seats = sorted({1, 2, 4} - {hand.dp_seating.seat})
    for seat in seats:
        hand_services.wager_place(hand=hand, seating=seating(dp, seat), ante="10", by=dealer)
    clock.at("06:30", days=1)
    for table, shifts, cash in ((house, ["day"], {"100": 5}), (dp, ["day", "swing", "grave"], {})):
        for shift in shifts:
            services.drop_count_record(
                table=table,
                gaming_day=DAY,
                shift=shift,
                cash=cash if shift == "day" else {},
                chips={},
                second_counter=signed(second_counter),
                by=counter,
            )
    for shift in ("day", "swing", "grave"):
        services.shift_close(
            cardroom=dp.cardroom,
            gaming_day=DAY,
            shift=shift,
            signature=signed(supervisor),
            by=supervisor,
        )
    closed = services.gaming_day_close(
        cardroom=dp.cardroom, gaming_day=DAY, signature=signed(auditor), by=auditor
    )
    clock.at("06:40", days=1)
    return {"house": house, "dp": dp, "hand": hand, "seats": seats, "closed": closed}


def test_the_closed_day_keeps_its_figures_as_signed(late):
    cardroom = late["dp"].cardroom
    assert selectors.day_statistics(cardroom, DAY).as_json() == late["closed"].figures
    assert closed_figures(cardroom)["cash"]  # Pat's $500 is on the closed day's cash log


def test_a_hand_of_the_closed_day_settled_late_is_booked_today_as_its_adjustment(late, dealer):
    cardroom, hand, seats = late["dp"].cardroom, late["hand"], late["seats"]
    before = closed_figures(cardroom)

    hand_services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_QUALIFIES, spot_cards={seats[0]: WINNER, seats[1]: LOSER},
        by=dealer,
    )  # fmt: skip
    hand_services.spot_decide(
        hand=hand, seat=seats[0], decision="raise", raise_amount="10", by=dealer
    )
    hand_services.spot_decide(hand=hand, seat=seats[1], decision="fold", by=dealer)
    hand_services.hand_settle(hand=hand, by=dealer)

    assert closed_figures(cardroom) == before
    entry = Settlement.objects.get(hand=hand)
    assert (entry.gaming_day, entry.shift, entry.adjusts_day, entry.adjusts_shift) == (
        NEXT, "day", DAY, "grave",
    )  # fmt: skip
    fees = FeeEntry.objects.filter(booking__hand=hand)
    assert {(f.gaming_day, f.adjusts_day) for f in fees} == {(NEXT, DAY)}
    [note] = selectors.adjustments_to(cardroom, DAY)
    assert (note.hand, note.booked_day, note.adjusts_shift, note.house) == (
        hand.pk, NEXT, "grave", D("3.00"),  # the DP table's fees: 2 spots and the DP
    )  # fmt: skip


def test_a_cash_transaction_after_the_close_is_booked_today(late, supervisor, dealer):
    house, cardroom = late["house"], late["house"].cardroom
    before = closed_figures(cardroom)
    table_open(table=house, dealer=dealer, by=supervisor)
    services.inventory_count_record(
        table=house, kind="opening", chips=LEFT, counted_by=signed(dealer),
        signature=signed(supervisor), by=supervisor,
    )  # fmt: skip

    player_seat_new(table=house, seat=2, name="Robin", buy_in="300", by=dealer)
    stack_add(seating=seating(house, 2), amount="200", by=dealer)

    assert closed_figures(cardroom) == before
    rows = CashTransaction.objects.filter(player__name="Robin")
    assert [(r.gaming_day, r.amount, r.day_total) for r in rows] == [
        (NEXT, D("300.00"), D("300.00")),
        (NEXT, D("200.00"), D("500.00")),
    ]


def test_a_count_and_a_fill_after_the_close_are_booked_today(late, supervisor, dealer):
    house, cardroom = late["house"], late["house"].cardroom
    before = closed_figures(cardroom)

    table_open(table=house, dealer=dealer, by=supervisor)
    count = services.inventory_count_record(
        table=house, kind="opening", chips=LEFT, counted_by=signed(dealer),
        signature=signed(supervisor), by=supervisor,
    )  # fmt: skip
    fill = services.slip_request(table=house, kind="fill", chips={"100": 5}, by=supervisor)
    slip_delivered(fill, dealer, supervisor)
    credit = services.slip_request(table=house, kind="credit", chips={"25": 4}, by=supervisor)
    slip_delivered(credit, dealer, supervisor)

    assert closed_figures(cardroom) == before
    assert (count.gaming_day, fill.gaming_day, credit.gaming_day) == (NEXT, NEXT, NEXT)
    bank = HouseBankEntry.objects.filter(table=house, reason__in=["fill", "credit"])
    assert {e.gaming_day for e in bank} == {NEXT}
    assert InventoryCount.objects.filter(gaming_day=DAY).count() == 2  # as the day closed


def test_a_drop_count_of_the_closed_day_is_refused_and_changes_nothing(
    late, counter, second_counter
):
    cardroom = late["house"].cardroom
    before, boxes = closed_figures(cardroom), DropCount.objects.count()

    with pytest.raises(Conflict) as refused:
        services.drop_count_record(
            table=late["house"], gaming_day=DAY, shift="swing", cash={"100": 1}, chips={},
            second_counter=signed(second_counter), by=counter,
        )  # fmt: skip

    assert refused.value.field == "gaming_day"
    assert closed_figures(cardroom) == before
    assert DropCount.objects.count() == boxes
    assert Hand.objects.filter(settled_at__isnull=True).count() == 1
