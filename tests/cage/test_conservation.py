"""Conservation over random days (R15 for the house, and the cage around it): chips are neither
created nor lost across the table inventory, the stacks, the house bank, fills, credits, the
drop and the fee ledger; cash for chips is the drop's cash; and a closing count that holds
what the books say makes win = closing − opening + credits − fills + drop equal the house's
result in the settled hands, to the cent.

Each example builds its own cardroom with a house-banked and a designated-player table and
runs a random sequence of buy-ins (cash or chips), add-ons, cash-outs, hands, fills and
credits, checking the books after every step.
"""

from __future__ import annotations

import itertools
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cage import selectors, services, shift_figures
from cage.models import InventoryCount, Slip
from core.errors import DomainError
from rake.models import FeeEntry
from tables.models import HouseBankEntry, Seating, StackEntry, Table
from tables.services.cardrooms import cardroom_create
from tables.services.configuration import table_create
from tables.services.seating import player_seat_new, seating_leave
from tables.services.sessions import table_open
from tables.services.stacks import stack_add
from tests.conftest import an_administrator, signed
from wagers import services as hand_services

from ..wagers.support import SEVEN_HANDS, draw_won_by, total
from .support import sign_through

pytestmark = pytest.mark.django_db

D = Decimal
ROOMS = itertools.count(1)
OPENING = {"1": 200, "5": 200, "25": 100, "100": 30}  # 200 + 1000 + 2500 + 3000 = $6,700
STEPS = st.sampled_from(["buy_in", "add_on", "cash_out", "hand", "hand", "fill", "credit"])


def flows(table: Table) -> dict[str, Decimal]:
    """What the ledgers say came onto and off the table's stacks, by tender."""
    entries = StackEntry.objects.filter(seating__table=table)
    chips_in = entries.filter(tender="chips", amount__gt=0)
    cash_in = entries.filter(tender="cash", amount__gt=0)
    out = entries.filter(reason="cash_out")
    return {
        "chips_in": total(chips_in, "amount"),
        "cash_in": total(cash_in, "amount"),
        "out": -total(out, "amount"),
    }


def assert_conserved(house: Table, dp: Table, opening: Decimal) -> None:
    # The house-banked table: rack (by the books) + stacks + the drop's chips (fees) are the
    # opening rack, the chips the cage filled less those it took back, and the chips players
    # brought less those they took away. Chips sold for cash moved from the rack to a stack.
    rack, _ = selectors.rack_by_the_books(house)
    assert rack is not None
    bank = HouseBankEntry.objects.filter(table=house)
    fills = total(bank.filter(reason="fill"), "amount")
    credits = -total(bank.filter(reason="credit"), "amount")
    stacks = total(Seating.objects.filter(table=house), "stack")
    fees = total(FeeEntry.objects.filter(table=house), "amount")
    moved = flows(house)
    assert rack + stacks + fees == (opening + fills - credits + moved["chips_in"] - moved["out"]), (
        "chips were created or lost at the house-banked table"
    )
    # The cash for chips is the drop's cash, and the rack gave exactly those chips.
    assert moved["cash_in"] == -total(bank.filter(reason="chips_sold"), "amount")
    # The designated-player table: stacks and fees are what players brought less what left.
    dp_moved = flows(dp)
    dp_stacks = total(Seating.objects.filter(table=dp), "stack")
    dp_fees = total(FeeEntry.objects.filter(table=dp), "amount")
    assert dp_stacks + dp_fees == dp_moved["chips_in"] - dp_moved["out"]
    assert dp_moved["cash_in"] == D("0.00")  # no rack, no chips sold for cash


def play_hand(data, table: Table, dealer) -> None:
    seated = list(Seating.objects.filter(table=table, left_at=None).order_by("seat"))
    if table.banking == "designated_player":
        if len(seated) < 2:
            return
        dp = data.draw(st.sampled_from([s.seat for s in seated]), label="dp")
        hand = hand_services.hand_start(table=table, by=dealer, draw_cards=draw_won_by(table, dp))
    else:
        hand = hand_services.hand_start(table=table, by=dealer)
    players = [s for s in seated if s.pk != hand.dp_seating_id]
    placed = []
    for seating in players:
        ante = data.draw(st.sampled_from(["5", "10", "25"]), label="ante")
        if seating.stack < 3 * D(ante) + 1 or not data.draw(st.booleans(), label="plays"):
            continue
        try:
            hand_services.wager_place(hand=hand, seating=seating, ante=ante, by=dealer)
        except DomainError:  # the DP's bank cannot cover it (R7, R13): no spot
            continue
        placed.append((seating.seat, ante))
    if not placed:
        hand_services.hand_cancel(hand=hand, by=dealer)
        return
    hands = iter(SEVEN_HANDS[1:])
    hand_services.hand_cards_enter(
        hand=hand,
        dealer_cards=SEVEN_HANDS[0],
        spot_cards={seat: next(hands) for seat, _ in placed},
        by=dealer,
    )
    for seat, ante in placed:
        decision = data.draw(st.sampled_from(["raise", "fold"]), label="decision")
        hand_services.spot_decide(
            hand=hand,
            seat=seat,
            decision=decision,
            raise_amount=ante if decision == "raise" else None,
            by=dealer,
        )
    hand_services.hand_settle(hand=hand, by=dealer)


def step(data, name: str, house: Table, dp: Table, people) -> None:
    supervisor, second, dealer, cashier = people
    table = data.draw(st.sampled_from([house, dp]), label="table")
    seated = list(Seating.objects.filter(table=table, left_at=None).order_by("seat"))
    amount = data.draw(st.sampled_from(["20", "100", "250"]), label="amount")
    if name == "buy_in":
        free = sorted(set(range(1, 8)) - {s.seat for s in seated})
        if free:
            tender = "chips" if table == dp else data.draw(st.sampled_from(["cash", "chips"]))
            player_seat_new(
                table=table, seat=free[0], name="P", buy_in=amount, tender=tender, by=dealer
            )
    elif name == "add_on" and seated:
        tender = "chips" if table == dp else data.draw(st.sampled_from(["cash", "chips"]))
        stack_add(seating=seated[0], amount=amount, tender=tender, by=dealer)
    elif name == "cash_out" and seated:
        seating_leave(seating=seated[-1], by=dealer)
    elif name == "hand":
        play_hand(data, table, dealer)
    elif name in ("fill", "credit"):
        chips = {"25": data.draw(st.integers(1, 8), label="chips")}
        rack, _ = selectors.rack_by_the_books(house)
        if name == "credit" and rack is not None and rack < 25 * chips["25"]:
            return
        slip = services.slip_request(table=house, kind=name, chips=chips, by=supervisor)
        sign_through(slip, {"cashier": cashier, "dealer": dealer, "supervisor": supervisor})


@settings(
    max_examples=12,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_chips_are_neither_created_nor_lost_and_the_win_is_the_houses_result(
    data, supervisor, second_supervisor, dealer, cashier
):
    room = cardroom_create(name=f"Room {next(ROOMS)}", by=an_administrator())
    house = table_create(cardroom=room, name="House", banking="house", by=supervisor)
    dp = table_create(cardroom=room, name="DP", banking="designated_player", by=supervisor)
    for table in (house, dp):
        table_open(table=table, dealer=dealer, by=supervisor)
    opening = services.inventory_count_record(
        table=house,
        kind="opening",
        chips=OPENING,
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    ).total
    for number in (1, 2, 4):
        player_seat_new(table=dp, seat=number, name="D", buy_in="500", by=dealer)
    people = (supervisor, second_supervisor, dealer, cashier)
    for name in data.draw(st.lists(STEPS, min_size=3, max_size=12), label="steps"):
        step(data, name, house, dp, people)
        assert_conserved(house, dp, opening)
    # A closing count that holds what the books say: every figure reconciles.
    rack, _ = selectors.rack_by_the_books(house)
    assert rack is not None and rack == int(rack)
    closing = services.inventory_count_record(
        table=house,
        kind="closing",
        chips={"1": int(rack)},
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    assert closing.book_total == closing.total
    assert_conserved(house, dp, opening)  # closing cashes everyone out: chips leave with them
    span_day, span_shift = InventoryCount.objects.get(pk=closing.pk).gaming_day, closing.shift
    figures = shift_figures.table_shift_figures(house, span_day, span_shift)
    slips = Slip.objects.filter(table=house)
    assert figures.fills == total(slips.filter(kind="fill"), "total")
    assert figures.credits == total(slips.filter(kind="credit"), "total")
    # win = closing − opening + credits − fills + drop (the expected drop: not counted yet)
    assert figures.win == (
        closing.total - opening + figures.credits - figures.fills + figures.expected_drop
    )
    settled = total(HouseBankEntry.objects.filter(table=house, reason="settlement"), "amount")
    assert figures.house_result == settled  # no fee at a house-banked table (R12)
    assert figures.mismatch == D("0.00")
