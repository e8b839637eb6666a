"""A scripted gaming day on both kinds of table, every figure computed by hand here: openings,
hands, a fill, a credit, a voided slip, drops, counts (one with a variance explained and signed
off), closings, the three shift closes and compliance's day close; then a correction the next
day that lands as an adjustment, the closed day keeping its figures.

The cardroom (New York, gaming day from 06:00) has shifts day 06:00, swing 14:00, grave 22:00.
Gaming day 2024-03-01.

House-banked table (no fee, R12):
  07:00  opened; opening count 100×$1 + 100×$5 + 80×$25 + 20×$100 = 100 + 500 + 2000 + 2000
         = $4,600
  07:05  Pat buys in $500 cash (chips out of the rack), Quinn $300 in chips from the cage
  hand 1 Pat antes 10 and raises 10 with a winner; Quinn antes 10 and folds. The dealer
         qualifies: Pat +10 +10 = +20; Quinn −10; the house −20 + 10 = −$10
  09:00  fill F-000001: 5×$100 = $500, prepared by the cashier, counted and signed by the
         dealer, signed by the floor supervisor: into the rack
  09:30  fill F-000002: 10×$5 = $50, voided (wrong table) with a witness
  10:00  Pat adds $200 cash
  hand 2 Pat antes 25 and raises 25 with a loser: −50; Quinn antes 5 and folds: −5; the
         house +$55
  12:00  credit C-000001: 20×$25 = $500, signed by the dealer and the floor, received by the
         cashier; the originals of both found in the house's drop box by the count
  13:30  closing count; the table closes (everyone cashes out)
  rack by the books: 4600 − 500 (sold) − 200 (sold) − 10 + 55 + 500 − 500 = $3,945
  closing count: 20×$100 + 60×$25 + 80×$5 + 45×$1 = 2000 + 1500 + 400 + 45 = $3,945
  expected drop (day): cash 500 + 200 = $700; counted 7×$100 = $700, no variance
  win = closing − opening + credits − fills + drop = 3945 − 4600 + 500 − 500 + 700 = $45
  the house in the settled hands: −10 + 55 = $45 → no mismatch; hold 45 / 700 = 6.43 %

Designated-player table ($1 fee from every spot and the DP, R12), players buy in with chips:
  day    two hands, each: 2 spots + the DP = $3 of fees → $6; the count team finds 5×$1 = $5:
         variance −$1, explained and signed off by a floor supervisor
  swing  one hand: $3 of fees; counted 3×$1 = $3; the table closes at 16:00
  grave  nothing

The day's statistics: drop 700 + 5 + 3 = $708; win 45 + 5 + 3 = $53; fills $500; credits
$500; fees 6 + 3 = $9; drop variance −$1; hold 53 / 708 = 7.49 %.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal

import pytest

from cage import selectors, services, shift_figures
from cage.models import DayClose, InventoryCount, Slip
from cage.slip_selectors import slips_unmatched
from rake.models import FeeEntry
from tables.models import HouseBankEntry, StackEntry
from tables.services.configuration import table_create
from tables.services.seating import player_seat_new
from tables.services.sessions import table_close, table_open
from tables.services.stacks import stack_add
from tests.conftest import signed
from wagers import services as hand_services
from wagers.models import Settlement

from ..audit.support import raw
from ..runtime_role import assert_append_only
from .support import DEALER_DOES_NOT_QUALIFY, LOSER, WINNER, play, seating, sign_through

pytestmark = pytest.mark.django_db

DAY = date(2024, 3, 1)
D = Decimal


def draw(first: int, seats: tuple[int, ...]) -> dict[int, str]:
    """The session's first high-card draw, won by seat ``first`` (R16)."""
    cards = {seat: f"{'23456789TJQK'[i]}c" for i, seat in enumerate(seats)}
    cards[first] = "As"
    return cards


def dp_hand(table, dealer, **start) -> None:
    """A hand at the DP table: the two players who are not the DP ante 10; one raises with a
    winner, the other folds. Fees: 2 spots + the DP, $1 each."""
    hand = hand_services.hand_start(table=table, by=dealer, **start)
    seats = sorted({1, 2, 4} - {hand.dp_seating.seat})
    for seat in seats:
        hand_services.wager_place(hand=hand, seating=seating(table, seat), ante="10", by=dealer)
    hand_services.hand_cards_enter(
        hand=hand,
        dealer_cards="Ks 9s 4s 2c 7h 8c 3c",
        spot_cards={seats[0]: WINNER, seats[1]: LOSER},
        by=dealer,
    )
    hand_services.spot_decide(
        hand=hand, seat=seats[0], decision="raise", raise_amount="10", by=dealer
    )
    hand_services.spot_decide(hand=hand, seat=seats[1], decision="fold", by=dealer)
    hand_services.hand_settle(hand=hand, by=dealer)


@pytest.fixture
def day(
    cardroom,
    clock,
    supervisor,
    second_supervisor,
    dealer,
    auditor,
    counter,
    second_counter,
    cashier,
):
    """The scripted gaming day, up to (not including) the shift closes."""
    people = {"cashier": cashier, "dealer": dealer, "supervisor": supervisor}
    house = table_create(cardroom=cardroom, name="House table", banking="house", by=supervisor)
    dp = table_create(
        cardroom=cardroom, name="DP table", banking="designated_player", by=supervisor
    )
    clock.at("07:00")
    table_open(table=house, dealer=dealer, by=supervisor)
    table_open(table=dp, dealer=dealer, by=supervisor)
    opening = services.inventory_count_record(
        table=house,
        kind="opening",
        chips={"1": 100, "5": 100, "25": 80, "100": 20},
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    clock.at("07:05")
    player_seat_new(table=house, seat=1, name="Pat", buy_in="500", by=dealer)
    player_seat_new(table=house, seat=2, name="Quinn", buy_in="300", tender="chips", by=dealer)
    for seat, name in ((1, "Avery"), (2, "Blake"), (4, "Casey")):
        player_seat_new(table=dp, seat=seat, name=name, buy_in="1000", by=dealer)

    clock.at("08:00")
    hand1 = play(house, dealer, {1: ("10", WINNER, "raise"), 2: ("10", LOSER, "fold")})
    dp_hand(dp, dealer, draw_cards=draw(1, (1, 2, 4)))
    clock.at("09:00")
    fill = services.slip_request(table=house, kind="fill", chips={"100": 5}, by=supervisor)
    sign_through(fill, people)
    clock.at("09:30")
    wrong = services.slip_request(table=house, kind="fill", chips={"5": 10}, by=supervisor)
    services.slip_void(
        slip=wrong, reason="Asked for the wrong table", witness=signed(dealer), by=supervisor
    )
    clock.at("10:00")
    stack_add(seating=seating(house, 1), amount="200", by=dealer)
    hand2 = play(house, dealer, {1: ("25", LOSER, "raise"), 2: ("5", WINNER, "fold")})
    dp_hand(dp, dealer)
    clock.at("12:00")
    credit = services.slip_request(table=house, kind="credit", chips={"25": 20}, by=supervisor)
    sign_through(credit, people)
    clock.at("13:30")
    closing = services.inventory_count_record(
        table=house,
        kind="closing",
        chips={"100": 20, "25": 60, "5": 80, "1": 45},
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    clock.at("15:00")
    dp_hand(dp, dealer)
    clock.at("16:00")
    table_close(table=dp, by=supervisor)
    return {
        "house": house,
        "dp": dp,
        "opening": opening,
        "closing": closing,
        "fill": fill,
        "wrong": wrong,
        "credit": credit,
        "hands": (hand1, hand2),
    }


def test_the_house_table_books_every_chip_of_the_day(day):
    house = day["house"]
    # The house's side of each settlement entry (R15): −10, then +55.
    settled = HouseBankEntry.objects.filter(table=house, reason="settlement")
    assert [e.amount for e in settled.order_by("id")] == [D("-10.00"), D("55.00")]
    # Chips sold for cash: Pat's $500 buy-in and $200 add-on; Quinn brought chips.
    sold = HouseBankEntry.objects.filter(table=house, reason="chips_sold").order_by("id")
    assert [e.amount for e in sold] == [D("-500.00"), D("-200.00")]
    tenders = StackEntry.objects.filter(seating__table=house, reason__in=["buy_in", "add_on"])
    assert sorted((e.amount, e.tender) for e in tenders) == [
        (D("200.00"), "cash"),
        (D("300.00"), "chips"),
        (D("500.00"), "cash"),
    ]
    # Slips: serials per cardroom and kind, the void keeps its number.
    assert (day["fill"].number, day["wrong"].number, day["credit"].number) == (
        "F-000001",
        "F-000002",
        "C-000001",
    )
    # The closing count against the books: 4600 − 500 − 200 − 10 + 55 + 500 − 500 = 3945.
    assert day["opening"].total == D("4600.00")
    assert day["opening"].book_total is None  # the table's first count
    assert day["closing"].total == D("3945.00")
    assert day["closing"].book_total == D("3945.00")
    assert not house.sessions.filter(closed_at=None).exists()  # closed with the count


def test_the_day_shift_figures_reconcile_at_both_tables(day, clock, counter, second_counter):
    clock.at("14:30")
    services.drop_count_record(
        table=day["house"],
        gaming_day=DAY,
        shift="day",
        cash={"100": 7},
        chips={},
        second_counter=signed(second_counter),
        by=counter,
    )
    dp_count = services.drop_count_record(
        table=day["dp"],
        gaming_day=DAY,
        shift="day",
        cash={},
        chips={"1": 5},
        second_counter=signed(second_counter),
        by=counter,
    )
    assert (dp_count.expected_total, dp_count.total, dp_count.variance) == (
        D("6.00"),  # 2 hands × (2 spots + the DP) × $1
        D("5.00"),
        D("-1.00"),
    )
    house = shift_figures.table_shift_figures(day["house"], DAY, "day")
    assert house.opening == D("4600.00")
    assert house.closing == D("3945.00")
    assert (house.fills, house.credits) == (D("500.00"), D("500.00"))  # the void is not a fill
    assert (house.cash_in, house.fees) == (D("700.00"), D("0.00"))
    assert (house.expected_drop, house.counted_drop, house.drop_variance) == (
        D("700.00"),
        D("700.00"),
        D("0.00"),
    )
    # 3945 − 4600 + 500 − 500 + 700 = 45; the house in the hands: −10 + 55 = 45.
    assert house.win == D("45.00")
    assert house.house_result == D("45.00")
    assert house.mismatch == D("0.00")
    assert house.hold == D("6.43")  # 45 / 700 = 6.428…%
    assert house.missing == []
    dp = shift_figures.table_shift_figures(day["dp"], DAY, "day")
    assert (dp.fees, dp.expected_drop, dp.counted_drop, dp.drop_variance) == (
        D("6.00"),
        D("6.00"),
        D("5.00"),
        D("-1.00"),
    )
    assert dp.variance_signed_off is False
    assert (dp.opening, dp.win) == (None, None)  # no rack at a designated-player table


def close_the_day(day, clock, supervisor, counter, second_counter, auditor) -> DayClose:
    clock.at("14:30")
    for table, cash, chips in ((day["house"], {"100": 7}, {}), (day["dp"], {}, {"1": 5})):
        services.drop_count_record(
            table=table,
            gaming_day=DAY,
            shift="day",
            cash=cash,
            chips=chips,
            second_counter=signed(second_counter),
            by=counter,
        )
    house_box = selectors.drop_boxes(day["house"].cardroom, DAY, "day")[1][1]
    assert house_box is not None and house_box.table == day["house"]
    cardroom = day["house"].cardroom
    assert slips_unmatched(cardroom, DAY, "day") == [day["fill"], day["credit"]]
    for slip in (day["fill"], day["credit"]):
        services.slip_original_found(slip=slip, drop_count=house_box)
    assert slips_unmatched(cardroom, DAY, "day") == []
    short = selectors.drop_boxes(day["house"].cardroom, DAY, "day")[0][1]
    assert short is not None and short.table == day["dp"] and short.variance == D("-1.00")
    services.drop_variance_sign_off(
        count=short,
        reason="A $1 chip stuck in the box's slot; found after the count",
        signature=signed(supervisor),
        by=supervisor,
    )
    services.shift_close(
        cardroom=day["house"].cardroom,
        gaming_day=DAY,
        shift="day",
        signature=signed(supervisor),
        by=supervisor,
    )
    clock.at("22:15")
    services.drop_count_record(
        table=day["dp"],
        gaming_day=DAY,
        shift="swing",
        cash={},
        chips={"1": 3},
        second_counter=signed(second_counter),
        by=counter,
    )
    services.shift_close(
        cardroom=day["house"].cardroom,
        gaming_day=DAY,
        shift="swing",
        signature=signed(supervisor),
        by=supervisor,
    )
    clock.at("06:10", days=1)
    services.shift_close(
        cardroom=day["house"].cardroom,
        gaming_day=DAY,
        shift="grave",
        signature=signed(supervisor),
        by=supervisor,
    )
    return services.gaming_day_close(
        cardroom=day["house"].cardroom, gaming_day=DAY, signature=signed(auditor), by=auditor
    )


def test_a_supervisor_closes_each_shift_and_compliance_closes_the_day(
    day, clock, supervisor, counter, second_counter, auditor, checkpoint_sink,
    django_capture_on_commit_callbacks,
):  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        closed = close_the_day(day, clock, supervisor, counter, second_counter, auditor)
    stats = selectors.day_statistics(day["house"].cardroom, DAY)
    totals = stats.totals
    assert totals.drop == D("708.00")  # 700 + 5 + 3
    assert totals.win == D("53.00")  # 45 + 5 + 3
    assert (totals.fills, totals.credits) == (D("500.00"), D("500.00"))
    assert totals.fees == D("9.00")  # 6 + 3
    assert totals.drop_variance == D("-1.00")
    assert totals.mismatch == D("0.00")
    assert totals.hold == D("7.49")  # 53 / 708 = 7.485…%
    assert [s.shift for s in stats.shifts] == ["day", "swing", "grave"]
    assert [s.totals.drop for s in stats.shifts] == [D("705.00"), D("3.00"), D("0.00")]
    assert all(s.closed is not None for s in stats.shifts)
    assert closed.figures == stats.as_json()
    # The day close takes a signed checkpoint of every chain, appended to the sink.
    assert closed.checkpoint is not None and closed.checkpoint.signature
    [line] = [json.loads(text) for text in checkpoint_sink.read_text().splitlines()]
    assert (line["seq"], line["hash"], line["signature"]) == (
        closed.checkpoint.seq,
        closed.checkpoint.hash,
        closed.checkpoint.signature,
    )
    assert stats.adjustments == []


def test_a_correction_after_the_close_lands_as_an_adjustment_and_the_day_keeps_its_figures(
    day, clock, supervisor, counter, second_counter, auditor
):
    closed = close_the_day(day, clock, supervisor, counter, second_counter, auditor)
    # 2024-03-02 07:00: hand 2's dealer cards were misread; with the diamond 4 the dealer
    # does not qualify: Pat's ante wins even money (+25) and the raise pushes; Quinn folded
    # (−5). The house: 5 − 25 = −20 instead of +55, a change of −75.
    clock.at("07:00", days=1)
    hand2 = day["hands"][1]
    hand_services.hand_correct(
        hand=hand2,
        corrects=hand2.settlements.latest("entry").pk,
        reason="The dealer's 4s was the 4d",
        dealer_cards=DEALER_DOES_NOT_QUALIFY,
        by=supervisor,
    )
    entries = Settlement.objects.filter(hand=hand2).exclude(kind="original")
    assert {(e.gaming_day, e.shift, e.adjusts_day, e.adjusts_shift) for e in entries} == {
        (date(2024, 3, 2), "day", DAY, "day")
    }
    bank = HouseBankEntry.objects.filter(booking__settlement__hand=hand2).order_by("id")
    assert [(e.amount, e.gaming_day, e.adjusts_day) for e in bank] == [
        (D("55.00"), DAY, None),
        (D("-55.00"), date(2024, 3, 2), DAY),
        (D("-20.00"), date(2024, 3, 2), DAY),
    ]
    stats = selectors.day_statistics(day["house"].cardroom, DAY)
    assert stats.as_json() == closed.figures  # the closed day keeps its figures
    [note] = stats.adjustments
    assert (note.hand_number, note.booked_day, note.booked_shift, note.house) == (
        2,
        date(2024, 3, 2),
        "day",
        D("-75.00"),  # −55 (reversal) − 20 (correction)
    )
    # The adjustment is the next day's money: its house result carries it.
    next_day = shift_figures.table_shift_figures(day["house"], date(2024, 3, 2), "day")
    assert next_day.house_result == D("-75.00")


def test_the_fee_ledger_and_the_dp_table_carry_the_shift(day):
    fees = FeeEntry.objects.filter(table=day["dp"])
    by_shift: dict[str, Decimal] = {}
    for entry in fees:
        by_shift[entry.shift] = by_shift.get(entry.shift, D("0")) + entry.amount
    assert by_shift == {"day": D("6.00"), "swing": D("3.00")}
    assert not InventoryCount.objects.filter(table=day["dp"]).exists()
    assert Slip.objects.filter(table=day["dp"]).count() == 0


CAGE_TABLES = (
    "tables_housebankentry",
    "cage_inventorycount",
    "cage_slip",
    "cage_slipdelivery",
    "cage_slipvoid",
    "cage_slipprint",
    "cage_slipstep",
    "cage_sliporiginal",
    "cage_dropcount",
    "cage_variancesignoff",
    "cage_shiftclose",
    "cage_dayclose",
)


def test_every_cage_record_is_append_only_in_the_database(
    day, clock, supervisor, counter, second_counter, auditor
):
    """A delivery, a void, a reprint, a sign-off, a close: new rows, never updates; raw SQL
    through the application's own connection cannot rewrite or delete one."""
    close_the_day(day, clock, supervisor, counter, second_counter, auditor)
    first = services.slip_print(slip=day["fill"], by=supervisor)
    again = services.slip_print(slip=day["fill"], by=auditor)
    assert (first.reprint, again.reprint) == (False, True)
    for table in CAGE_TABLES:
        assert raw(f'SELECT COUNT(*) FROM "{table}"')[0][0] > 0, table
        for sql in (f'UPDATE "{table}" SET id = id', f'DELETE FROM "{table}"'):
            assert_append_only(lambda sql=sql: raw(sql))


def test_a_correction_in_a_later_shift_names_the_shift_it_adjusts_on_its_fees_too(
    cardroom, clock, supervisor, dealer
):
    """A DP hand of the day shift corrected in the swing shift: the reversal and the
    correction (settlement, fees) are booked in swing, naming the day shift they adjust."""
    table = table_create(cardroom=cardroom, name="DP", banking="designated_player", by=supervisor)
    clock.at("08:00")
    table_open(table=table, dealer=dealer, by=supervisor)
    for seat, name in ((1, "Avery"), (2, "Blake"), (4, "Casey")):
        player_seat_new(table=table, seat=seat, name=name, buy_in="500", by=dealer)
    dp_hand(table, dealer, draw_cards=draw(1, (1, 2, 4)))
    hand = table.hands.get()
    clock.at("15:00")
    hand_services.hand_correct(
        hand=hand,
        corrects=hand.settlements.latest("entry").pk,
        reason="Misread 4s",
        dealer_cards=DEALER_DOES_NOT_QUALIFY,
        by=supervisor,
    )
    fees = FeeEntry.objects.filter(booking__hand=hand).order_by("id")
    # The original $3 (2 spots + the DP), its reversal (−3) and the correction's $3.
    assert [(f.shift, f.adjusts_day, f.adjusts_shift) for f in fees] == [
        ("day", None, ""),
    ] * 3 + [("swing", DAY, "day")] * 6
    assert sum(f.amount for f in fees) == D("3.00")
