"""Money plays: currency put down as a spot's wagers at a house-banked table is changed for
chips from the rack and wagered at once (R5: only chips on the table play), and the player's
cash log records a bet of currency (31 CFR 1021.311(a)) that counts toward the CTR line with
the player's chip purchases."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from compliance.fincen_codes import CASH_IN_CODES, DETAIL_CODE
from core.errors import DomainError
from patrons.models import CashTransaction, CurrencyTransactionReport
from tables.models import Seating
from tables.rack_selectors import rack_value_by_the_books
from wagers import services

pytestmark = pytest.mark.django_db
D = Decimal


def test_money_plays_changes_the_currency_for_chips_and_wagers_it_at_once_r5(
    house_table, seat, dealer
):
    seating = seat(house_table, 1, buy_in="100")
    rack_before = rack_value_by_the_books(house_table)
    hand = services.hand_start(table=house_table, by=dealer)

    spot = services.wager_place_in_currency(
        hand=hand, seating=seating, ante="10", flush_bonus="5", by=dealer
    )

    assert (spot.ante, spot.flush_bonus) == (D("10.00"), D("5.00"))
    # the currency became chips and the chips the wagers: the stack is as it was
    assert Seating.objects.get(pk=seating.pk).stack == D("100.00")
    assert rack_value_by_the_books(house_table) == rack_before - D("15.00")
    bet = CashTransaction.objects.get(kind="bet_of_currency")
    assert (bet.direction, bet.amount, bet.place, bet.player_id) == (
        "in",
        D("15.00"),
        "table",
        seating.player_id,
    )
    event = AuditEvent.objects.filter(action="stack.add_on").latest("pk")
    assert json.loads(event.payload)["cash_kind"] == "bet_of_currency"


def test_a_refused_wager_in_currency_changes_nothing_r5(house_table, seat, dealer, refusal):
    seating = seat(house_table, 1, buy_in="100")
    hand = services.hand_start(table=house_table, by=dealer)
    with refusal(DomainError, field="ante", says="ante"):
        services.wager_place_in_currency(hand=hand, seating=seating, ante="1", by=dealer)
    assert not CashTransaction.objects.filter(kind="bet_of_currency").exists()


def test_a_designated_player_table_takes_no_currency_naming_the_field(
    dp_table, seat, dealer, refusal
):
    seat(dp_table, 1, buy_in="500")
    player = seat(dp_table, 2, buy_in="500")
    hand = services.hand_start(table=dp_table, by=dealer)
    with refusal(DomainError, field="paid_with", says="no house bank"):
        services.wager_place_in_currency(hand=hand, seating=player, ante="10", by=dealer)


def test_bets_of_currency_count_toward_the_ctr_line_with_chip_purchases(
    house_table, seat, dealer, identify, refusal
):
    """31 CFR 1021.313: every kind of cash in of the gaming day adds up; crossing the line
    asks for the ID first, and the CTR lists each transaction by its type (FinCEN code 21 for
    a bet of currency)."""
    seating = seat(house_table, 1, buy_in="9990")  # a purchase of chips, in cash
    hand = services.hand_start(table=house_table, by=dealer)
    with refusal(DomainError, field="player", says="identity"):
        services.wager_place_in_currency(hand=hand, seating=seating, ante="15", by=dealer)
    identify(seating.player)
    services.wager_place_in_currency(hand=hand, seating=seating, ante="15", by=dealer)

    report = CurrencyTransactionReport.objects.get()
    assert report.cash_in == D("10005.00")
    kinds = sorted(tx.kind for tx in report.transactions.all())
    assert kinds == ["bet_of_currency", "chip_purchase"]
    assert DETAIL_CODE["bet_of_currency"] == "21" and "21" in CASH_IN_CODES
