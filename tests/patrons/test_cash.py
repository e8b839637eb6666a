"""Cash reporting: the cash log per player and gaming day, the multiple transaction log at the
cardroom's threshold, the CTR over $10,000.00 (identity first), structuring watch — on both
sides of each line, across tables, the cage and a gaming-day boundary in New York."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from audit.models import AuditEvent
from compliance.cash_reports import ctr_csv, mtl_csv
from core.errors import DomainError, PermissionDenied
from patrons.cash import cage_cash, cash_policy_set, cash_transaction_record
from patrons.identity import identity_record
from patrons.models import CashTransaction, CurrencyTransactionReport, StructuringFlag
from tables.services.seating import player_create, seat_player, seating_leave
from tables.services.stacks import stack_add
from tests.racks import rack_counted_for_play

from .conftest import an_id, local

pytestmark = pytest.mark.django_db
D = Decimal


def identify(player, supervisor):
    return identity_record(player=player, identity=an_id(), by=supervisor)


@pytest.mark.parametrize(
    ("amount", "logged"), [("2999.99", False), ("3000.00", True), ("3000.01", True)]
)
def test_the_mtl_takes_each_cash_transaction_at_or_over_the_log_threshold(
    player, supervisor, amount, logged, cashier
):
    row = cage_cash(player=player, direction="in", amount=amount, by=cashier)
    assert row.logged is logged
    assert row.amount == D(amount)


def test_a_cardrooms_own_log_threshold_applies_from_the_next_transaction(
    cardroom, player, supervisor, auditor, cashier
):
    first = cage_cash(player=player, direction="in", amount="2500.00", by=cashier)
    cash_policy_set(
        cardroom=cardroom,
        log_threshold="2500.00",
        structuring_count=3,
        structuring_band="0.80",
        by=auditor,
    )
    second = cage_cash(player=player, direction="in", amount="2500.00", by=cashier)
    assert (first.logged, second.logged) == (False, True)


def test_the_ctr_line_is_more_than_10000_one_cent_under_at_and_over(
    cashier, player, supervisor, refusal
):
    cage_cash(player=player, direction="in", amount="9999.99", by=cashier)  # under
    at = cage_cash(player=player, direction="in", amount="0.01", by=cashier)
    assert at.day_total == D("10000.00")  # at the line: no report, no identity needed
    assert not CurrencyTransactionReport.objects.exists()
    with refusal(DomainError, field="player", says="identity") as refused:
        cage_cash(player=player, direction="in", amount="0.01", by=cashier)  # over
    assert refused.value.code == "identity_required"
    assert "$10000.01" in refused.value.message
    identify(player, supervisor)
    over = cage_cash(player=player, direction="in", amount="0.01", by=cashier)
    report = CurrencyTransactionReport.objects.get()
    assert (report.cash_in, report.cash_out, report.status) == (D("10000.01"), D(0), "to_file")
    assert set(report.transactions.all()) == set(CashTransaction.objects.all())
    assert over.day_total == D("10000.01")
    assert AuditEvent.objects.filter(action="cash.ctr_created").count() == 1


def test_cash_out_is_summed_apart_from_cash_in(cashier, player, supervisor, refusal):
    cage_cash(player=player, direction="in", amount="9000.00", by=cashier)
    cage_cash(player=player, direction="out", amount="9000.00", by=cashier)
    cage_cash(player=player, direction="out", amount="1000.00", by=cashier)  # out: 10000
    with refusal(DomainError, field="player", says="cash out today would be $10000.01"):
        cage_cash(player=player, direction="out", amount="0.01", by=cashier)


def test_buy_ins_add_up_across_two_tables_and_the_cage(
    player, house_a, house_b, dealer, supervisor, refusal, cashier
):
    first = seat_player(
        table=house_a, seat=1, player=player, buy_in="6000", tender="cash", by=dealer
    )
    seating_leave(seating=first, by=dealer)  # a chips cash-out: not cash
    second = seat_player(
        table=house_b, seat=2, player=player, buy_in="3000", tender="cash", by=dealer
    )
    cage_cash(player=player, direction="in", amount="1000.00", by=cashier)  # 10000.00
    stack_add(seating=second, amount="500", tender="chips", by=dealer)  # chips
    with refusal(DomainError, field="player", says="identity"):
        stack_add(seating=second, amount="1", tender="cash", by=dealer)
    identify(player, supervisor)
    stack_add(seating=second, amount="1", tender="cash", by=dealer)
    report = CurrencyTransactionReport.objects.get()
    assert report.cash_in == D("10001.00")
    assert sorted(tx.place for tx in report.transactions.all()) == [
        "cage",
        "table",
        "table",
        "table",
    ]
    assert not CashTransaction.objects.filter(direction="out").exists()


def test_the_gaming_day_ends_at_six_in_new_york_and_the_sum_starts_again(
    player, house_a, dealer, clock
):
    clock.set(local(2026, 4, 3, 5, 59))  # still the gaming day of April 2
    seating = seat_player(
        table=house_a, seat=1, player=player, buy_in="9000", tender="cash", by=dealer
    )
    clock.set(local(2026, 4, 3, 6, 0))  # April 3's gaming day
    rack_counted_for_play(house_a)  # a new shift's rack count before the sale
    stack_add(seating=seating, amount="9000", tender="cash", by=dealer)
    days = list(CashTransaction.objects.order_by("id").values_list("gaming_day", "day_total"))
    assert [(str(day), total) for day, total in days] == [
        ("2026-04-02", D("9000.00")),
        ("2026-04-03", D("9000.00")),
    ]
    assert not CurrencyTransactionReport.objects.exists()


def test_several_transactions_just_under_a_line_flag_structuring(cashier, player, supervisor):
    for amount in ("2400.00", "2999.99"):
        cage_cash(player=player, direction="in", amount=amount, by=cashier)
    cage_cash(player=player, direction="in", amount="2399.99", by=cashier)  # below the band
    assert not StructuringFlag.objects.exists()
    cage_cash(player=player, direction="out", amount="2500.00", by=cashier)
    flag = StructuringFlag.objects.get()
    assert len(flag.transactions) == 3
    assert "$2999.99" in flag.detail
    cage_cash(player=player, direction="out", amount="2500.00", by=cashier)
    assert StructuringFlag.objects.count() == 1  # once a day


def test_the_ctr_file_carries_the_whole_id_and_its_making_is_audited(
    cardroom, player, supervisor, auditor, clock, cashier
):
    identify(player, supervisor)
    cage_cash(player=player, direction="in", amount="10000.01", by=cashier)
    day = local(2026, 4, 2, 20, 0).date()
    text = ctr_csv(cardroom=cardroom, start=day, end=day, by=auditor)
    assert "D1234567" in text and "10000.01" in text
    event = AuditEvent.objects.filter(action="player.identity_revealed").get()
    assert str(player.pk) in event.payload
    mtl = mtl_csv(cardroom=cardroom, start=day, end=day, by=auditor)
    assert "10000.01" in mtl and "D1234567" not in mtl and "4567" in mtl
    # Who recorded the cash, by name, the username beside it.
    assert mtl.splitlines()[1].endswith(",Cy Moss,cashier")


def test_only_compliance_exports_cash_reports(cardroom, supervisor, refusal):
    day = local(2026, 4, 2, 20, 0).date()
    with refusal(PermissionDenied, field=None, says="compliance auditor"):
        ctr_csv(cardroom=cardroom, start=day, end=day, by=supervisor)


def test_a_player_named_like_a_formula_reaches_the_mtl_as_text(
    cardroom, dealer, supervisor, auditor, clock, cashier
):
    player = player_create(cardroom=cardroom, name='=HYPERLINK("http://evil")', by=dealer)
    cage_cash(player=player, direction="in", amount="3000.00", by=cashier)
    day = local(2026, 4, 2, 20, 0).date()

    rows = list(csv.reader(io.StringIO(mtl_csv(cardroom=cardroom, start=day, end=day, by=auditor))))

    names = [row[rows[0].index("player")] for row in rows[1:]]
    assert names == ['\'=HYPERLINK("http://evil")']


def test_each_cash_transaction_carries_its_31_cfr_1021_311_type_on_the_mtl(
    cardroom, player, auditor, clock, cashier
):
    cage_cash(player=player, direction="in", amount="3000.00", by=cashier)
    cage_cash(player=player, direction="out", amount="3000.00", by=cashier)
    day = local(2026, 4, 2, 20, 0).date()

    rows = list(csv.reader(io.StringIO(mtl_csv(cardroom=cardroom, start=day, end=day, by=auditor))))

    kinds = [(row[rows[0].index("direction")], row[rows[0].index("kind")]) for row in rows[1:]]
    assert kinds == [("in", "chip_purchase"), ("out", "chip_redemption")]


@pytest.mark.parametrize(
    ("direction", "kind"), [("in", "chip_redemption"), ("out", "front_money_deposit")]
)
def test_a_kind_on_the_other_side_of_the_cash_log_is_refused_and_nothing_is_logged(
    cardroom, player, cashier, refusal, direction, kind
):
    with refusal(DomainError, field="kind", says="cannot be a"):
        cash_transaction_record(
            cardroom=cardroom,
            player=player,
            direction=direction,
            amount=D("100.00"),
            place=CashTransaction.Place.CAGE,
            by=cashier,
            kind=kind,
        )
    assert not CashTransaction.objects.exists()
