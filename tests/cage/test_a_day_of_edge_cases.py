"""One gaming day (2024-03-01, New York; shifts day 06:00, swing 14:00, grave 22:00) that
replays every edge case the cage and the racks once let through, and shows each is now
refused (naming its field, writing nothing) or closes:

1. chips sold for cash and a hand started before the table's opening count; a sale and a hand
   in a new shift before that shift's rack count: refused; after the count the table plays;
2. $2,000 of chips sold from a rack that holds $500: refused at seating and on an add-on; the
   books never go below zero;
3. a house-banked table closed with the plain close: refused, its closing count closes it; a
   table closed without its count (old data) keeps the shift open, naming the table and the
   late count, until two floor supervisors record that late count: the shifts and the day close;
4. a chip denomination withdrawn while a rack holds four of those chips: refused, naming them;
5. shifts redefined after money was booked: in force from tomorrow, today's drop unchanged;
6. a fill "delivered" by a second floor supervisor before the cage prepared it: refused; the
   whole chain moves the cage down and the rack up; the floor keying the cage's cash: refused,
   the cashier records it at the cage;
7. a $5 rack shortage and a $1 drop shortage under a $4 incident threshold: both on the
   discrepancy report, the $5 one with a chip-discrepancy incident, the $1 one with none;
8. chips in circulation: the cage opens with cash only, the chips are issued into it, it sends
   each table's impress; at the end issued = cage + racks + outstanding, the outstanding being
   the players' chips and the $5 chip the rack lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal
from typing import Any

import pytest
from django.contrib.auth.models import User

from cage import selectors, services
from cage.cashier_books import cage_pieces
from cage.circulation import circulation_statement
from cage.models import InventoryCount, Variance
from cage.services import CountGiven
from compliance.discrepancies import discrepancies
from core.errors import Conflict, PermissionDenied
from patrons.cash import cage_cash
from tables.models import Seating, Table, TableSession
from tables.rack_selectors import rack_pieces_by_the_books, rack_value_by_the_books
from tables.services.cardrooms import cardroom_shifts_set
from tables.services.configuration import table_create
from tables.services.seating import player_create, seat_player, seating_leave
from tables.services.sessions import table_close, table_open
from tables.services.stacks import stack_add
from tests.cage_books import slip_prepared
from tests.conftest import signed
from tests.racks import rack_closing_count
from wagers import services as wagers

from .conftest import RACK
from .support import DAY, LOSER, WINNER, play, seating

pytestmark = pytest.mark.django_db

TOMORROW = date(2024, 3, 2)
ISSUED = {"1": 1000, "5": 1000, "25": 400, "100": 100, "500": 10}  # $31,000
SMALL_RACK = {"100": 5}  # $500


@dataclass
class Day:
    """The day's cardroom, clock, people, tables and players, as the story goes."""

    cardroom: Any
    clock: Any
    p: dict[str, User]
    refusal: Any
    house: Table | None = None
    small: Table | None = None
    players: dict[str, Any] | None = None

    def count(self, table: Table, kind: str, chips: dict, note: str = "") -> InventoryCount:
        return services.inventory_count_record(
            table=table,
            kind=kind,
            chips=chips,
            counted_by=signed(self.p["dealer"]),
            signature=signed(self.p["supervisor"]),
            note=note,
            by=self.p["supervisor"],
        )

    def drop(self, table: Table, shift: str, cash: dict) -> Any:
        return services.drop_count_record(
            table=table,
            gaming_day=DAY,
            shift=shift,
            cash=cash,
            chips={},
            second_counter=signed(self.p["second_counter"]),
            by=self.p["counter"],
        )

    def send_impress(self, name: str, chips: dict) -> None:
        """The cage sends a table's opening rack: chips from a counted place."""
        services.cage_entry_add(
            cardroom=self.cardroom,
            kind="fill_sent",
            chips=chips,
            cash=0,
            reference=f"{name} impress",
            by=self.p["cashier"],
        )


def cage_opens_with_cash_only(day: Day) -> None:
    """07:00: the cage opens with $20,000 cash and no chip; the cardroom issues its chips into
    it and sets a $4 incident threshold; the cage sends the house table's impress."""
    day.clock.at("07:00")
    cashier, supervisor = day.p["cashier"], day.p["supervisor"]
    services.cage_open(
        cardroom=day.cardroom,
        count=CountGiven(chips={}, cash={"100": 200}),
        signature=signed(cashier),
        witness=signed(supervisor),
        by=cashier,
    )
    services.chip_issue_record(
        cardroom=day.cardroom,
        direction="issue",
        chips=ISSUED,
        reason="The cardroom's chip inventory",
        witness=signed(supervisor),
        by=cashier,
    )
    services.cage_controls_set(
        cardroom=day.cardroom, variance_incident_threshold="4.00", by=supervisor
    )
    day.send_impress("House", RACK)
    day.players = {
        name: player_create(cardroom=day.cardroom, name=name, by=day.p["dealer"])
        for name in ("Pat", "Quinn", "Ray")
    }


def no_play_before_the_opening_count(day: Day, house: Table) -> None:
    """Case 1, opening: no cash sale, no hand before the count; then the table plays."""
    dealer, pat = day.p["dealer"], day.players["Pat"]
    with day.refusal(Conflict, field="tender", says="no opening count"):
        seat_player(table=house, seat=1, player=pat, buy_in="500", tender="cash", by=dealer)
    with day.refusal(Conflict, field="table", says="no opening count"):
        wagers.hand_start(table=house, by=dealer)
    day.count(house, "opening", RACK)
    day.clock.at("07:05")
    seat_player(table=house, seat=1, player=pat, buy_in="500", tender="cash", by=dealer)


def the_cage_records_the_cash(day: Day, house: Table) -> None:
    """Case 6, cash: the floor may not key the cage's cash; the cashier sells at the cage."""
    quinn = day.players["Quinn"]
    with day.refusal(PermissionDenied, field=None, says="Only a cashier may"):
        cage_cash(player=quinn, direction="in", amount="300.00", by=day.p["supervisor"])
    sale = services.cage_chips_sell(player=quinn, chips={"100": 3}, by=day.p["cashier"])
    assert (sale.cash, sale.chips) == (Decimal("300.00"), {"100.00": -3})
    seat_player(table=house, seat=2, player=quinn, buy_in="300", tender="chips", by=day.p["dealer"])
    day.clock.at("08:00")
    play(house, day.p["dealer"], {1: ("10", WINNER, "raise"), 2: ("10", LOSER, "fold")})
    assert rack_value_by_the_books(house) == Decimal("4090.00")  # 4600 − 500 − 20 + 10


def no_sale_beyond_the_rack(day: Day) -> Table:
    """Case 2, 08:30: a second house table opens with $500 sent from the cage; $2,000 of
    chips at seating and a $200 add-on over what is left are refused."""
    day.clock.at("08:30")
    supervisor, dealer, ray = day.p["supervisor"], day.p["dealer"], day.players["Ray"]
    small = table_create(cardroom=day.cardroom, name="Small", banking="house", by=supervisor)
    day.send_impress("Small", SMALL_RACK)
    table_open(table=small, dealer=dealer, by=supervisor)
    day.count(small, "opening", SMALL_RACK)
    with day.refusal(Conflict, field="buy_in", says="The rack holds $500.00 by the books"):
        seat_player(table=small, seat=1, player=ray, buy_in="2000", by=dealer)
    seated = seat_player(table=small, seat=1, player=ray, buy_in="400", by=dealer)
    with day.refusal(Conflict, field="amount", says="The rack holds $100.00 by the books"):
        stack_add(seating=seated, amount="200", tender="cash", by=dealer)
    assert rack_value_by_the_books(small) == Decimal("100.00")  # never below zero
    assert min(rack_pieces_by_the_books(small).values()) >= 0
    seating_leave(seating=seated, by=dealer)  # Ray carries $400 of chips away
    return small


def the_fill_goes_through_its_whole_chain(day: Day, house: Table) -> None:
    """Case 6, fill, 09:00: a second floor supervisor's "delivery" before the cage prepared
    the fill is refused; the whole chain moves four $500 chips from the cage to the rack."""
    day.clock.at("09:00")
    supervisor, second = day.p["supervisor"], day.p["second_supervisor"]
    fill = services.slip_request(table=house, kind="fill", chips={"500": 4}, by=supervisor)
    with day.refusal(Conflict, field="slip", says="is not prepared by the cashier yet"):
        services.slip_supervisor_sign(slip=fill, signature=signed(second), by=second)
    in_cage = cage_pieces(day.cardroom)["500.00"]
    slip_prepared(fill, day.p["cashier"])
    services.slip_dealer_sign(slip=fill, signature=signed(day.p["dealer"]), by=day.p["dealer"])
    services.slip_supervisor_sign(slip=fill, signature=signed(second), by=second)
    assert cage_pieces(day.cardroom)["500.00"] == in_cage - 4 == 6
    assert rack_pieces_by_the_books(house)["500.00"] == 4
    assert rack_value_by_the_books(house) == Decimal("6090.00")


def no_withdrawal_of_chips_a_rack_holds(day: Day) -> None:
    """Case 4, 09:30: the $500 chip is not withdrawn while the house's rack holds four."""
    day.clock.at("09:30")
    kept = [d for d in day.cardroom.chip_denominations if d != "500.00"]
    with day.refusal(Conflict, field="denominations", says="House: 4 chips"):
        services.cardroom_denominations_change(
            cardroom=day.cardroom, denominations=kept, by=day.p["supervisor"]
        )
    day.cardroom.refresh_from_db()
    assert "500.00" in day.cardroom.chip_denominations


def closed_without_its_count(day: Day, small: Table) -> TableSession:
    """Case 3, old data, 10:00: the small table's session closed as the plain close once did,
    with no closing count (written straight to the row)."""
    day.clock.at("10:00")
    session = TableSession.objects.get(table=small, closed_at=None)
    TableSession.objects.filter(pk=session.pk).update(
        closed_at=day.clock.now, closed_by=day.p["supervisor"]
    )
    session.refresh_from_db()
    return session


def shifts_redefined_take_effect_tomorrow(day: Day) -> None:
    """Case 5, 10:30: today keeps its shifts and its expected drop."""
    day.clock.at("10:30")

    def drops() -> list[tuple[str, str]]:
        shifts = selectors.day_statistics(day.cardroom, DAY).as_json()["shifts"]
        return [(s["shift"], s["totals"]["expected_drop"]) for s in shifts]

    before = drops()
    assert before[0] == ("day", "900.00")  # Pat's $500 and Ray's $400, cash at the tables
    made = cardroom_shifts_set(
        cardroom=day.cardroom,
        shifts=[("early", time(6)), ("late", time(18))],
        by=day.p["supervisor"],
    )
    assert made.effective_from == TOMORROW
    assert drops() == before


def a_new_shift_counts_its_rack_first(day: Day, house: Table) -> InventoryCount:
    """Case 1, new shift, and case 7's rack, 14:05: no sale, no hand before the swing
    shift's count; the count is $5 short of the books (noted); then the table plays."""
    day.clock.at("14:05")
    dealer, pat = day.p["dealer"], seating(house, 1)
    with day.refusal(Conflict, field="table", says="no shift-change count in this shift"):
        wagers.hand_start(table=house, by=dealer)
    with day.refusal(Conflict, field="tender", says="no shift-change count"):
        stack_add(seating=pat, amount="25", tender="cash", by=dealer)
    short = {"500": 4, "100": 40, "25": 3, "5": 2}  # $6,085: a $5 chip missing
    counted = day.count(house, "shift_change", short, note="A $5 chip missing")
    assert (counted.book_total, counted.total) == (Decimal("6090.00"), Decimal("6085.00"))
    stack_add(seating=pat, amount="25", tender="cash", by=dealer)
    play(house, dealer, {1: ("10", LOSER, "raise")})
    assert rack_value_by_the_books(house) == Decimal("6080.00")  # 6085 − 25 + 20
    return counted


def small_variances_escalate(day: Day, rack: InventoryCount) -> None:
    """Case 7, 14:10: the house's day box is $1 short; both variances reach the report,
    only the $5 one over the $4 threshold raises an incident."""
    day.clock.at("14:10")
    box = day.drop(day.house, "day", {"100": 4, "20": 4, "10": 1, "5": 1, "2": 2})  # $499
    day.drop(day.small, "day", {"100": 4})
    rack_variance = Variance.objects.get(source="rack_count", record_id=rack.pk)
    drop_variance = Variance.objects.get(source="drop_count", record_id=box.pk)
    assert (rack_variance.amount, drop_variance.amount) == (Decimal("-5.00"), Decimal("-1.00"))
    assert rack_variance.incident is not None
    assert rack_variance.incident.kind == "chip_discrepancy"
    assert drop_variance.incident is None
    reported = [row.variance for row in discrepancies(day.cardroom, DAY, DAY)]
    assert rack_variance in reported and drop_variance in reported
    services.drop_variance_sign_off(
        count=box,
        reason="A dollar short: the count team recounted",
        signature=signed(day.p["supervisor"]),
        by=day.p["supervisor"],
    )


def the_house_table_closes_with_its_closing_count(day: Day, house: Table) -> Decimal:
    """Case 3, 21:00: the plain close is refused; the closing count closes the table and
    cashes its players out. Returns the chips the players hold (case 8)."""
    day.clock.at("21:00")
    with day.refusal(Conflict, field="table", says="take the closing count"):
        table_close(table=house, by=day.p["supervisor"])
    stacks = sum(s.stack for s in Seating.objects.filter(table=house, left_at=None))
    closing = rack_closing_count(house)
    closing.session.refresh_from_db()
    assert closing.session.closed_at is not None
    assert not Seating.objects.filter(table=house, left_at=None).exists()
    return stacks + Decimal("400.00")  # and Ray's chips from the small table


def the_shifts_and_the_day_close(day: Day, old: TableSession) -> None:
    """Case 3, the next morning: the old session keeps the day shift open, naming the table
    and the late count; two floor supervisors record it; every shift and the day close."""
    day.clock.at("06:30", days=1)
    supervisor, second = day.p["supervisor"], day.p["second_supervisor"]
    day.drop(day.house, "swing", {"20": 1, "5": 1})

    def close(shift: str) -> Any:
        return services.shift_close(
            cardroom=day.cardroom,
            gaming_day=DAY,
            shift=shift,
            signature=signed(supervisor),
            by=supervisor,
        )

    with day.refusal(Conflict, field="shift", says="Small: no closing count") as refused:
        close("day")
    assert "record a late closing count" in refused.value.message
    late = services.inventory_late_closing_count_record(
        session=old,
        chips={"100": 1},
        counted_by=signed(second),
        signature=signed(supervisor),
        note="Closed with the plain close before the closing count was required",
        by=supervisor,
    )
    assert (late.late, late.book_total) == (True, Decimal("100.00"))
    for shift in ("day", "swing", "grave"):
        close(shift)
    auditor = day.p["auditor"]
    closed = services.gaming_day_close(
        cardroom=day.cardroom, gaming_day=DAY, signature=signed(auditor), by=auditor
    )
    assert closed.gaming_day == DAY


def chips_in_circulation_reconcile(day: Day, held: Decimal) -> None:
    """Case 8: issued = cage + racks + outstanding; outstanding is what the players carry and
    the $5 chip the house's rack lost."""
    statement = circulation_statement(day.cardroom, DAY)
    assert statement.final
    assert statement.issued_total == Decimal("31000.00")
    assert statement.issued_total == (
        statement.cage_total + statement.racks_total + statement.outstanding
    )
    assert statement.outstanding == held + Decimal("5.00")
    assert statement.cage["500.00"] == 6
    assert statement.cage["100.00"] == 100 - RACK["100"] - SMALL_RACK["100"] - 3
    assert statement.cage_cash == Decimal("20000.00") + Decimal("300.00")


def test_a_day_of_edge_cases_each_refused_or_closing(cardroom, clock, people, house, refusal):
    day = Day(cardroom=cardroom, clock=clock, p=people, refusal=refusal, house=house)
    cage_opens_with_cash_only(day)
    no_play_before_the_opening_count(day, house)
    the_cage_records_the_cash(day, house)
    day.small = no_sale_beyond_the_rack(day)
    the_fill_goes_through_its_whole_chain(day, house)
    no_withdrawal_of_chips_a_rack_holds(day)
    old = closed_without_its_count(day, day.small)
    shifts_redefined_take_effect_tomorrow(day)
    rack = a_new_shift_counts_its_rack_first(day, house)
    small_variances_escalate(day, rack)
    held = the_house_table_closes_with_its_closing_count(day, house)
    the_shifts_and_the_day_close(day, old)
    chips_in_circulation_reconcile(day, held)
