"""The cashier's screen, a player's money at the cage: each form says what it will do (the
player by name, the balance) and asks first; a withdrawal over the balance is refused next to
its field; the player's balances and markers show by name."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from django.urls import reverse

from cage import cashier_books, player_accounts
from cage.models import Marker
from patrons.models import CashTransaction
from tests.conftest import PASSWORD

from ..screens.support import parse

pytestmark = pytest.mark.django_db

OPEN = {
    "kind": "opening",
    "other": "supervisor",
    "other_secret": PASSWORD,
    "secret": PASSWORD,
    "cash_100.00": 50,
    "confirmed": "1",
}
CONFIRMED = {"confirmed": "1"}


def action(name: str) -> str:
    return reverse("cashier-action", args=[name])


@pytest.fixture
def cashier_client(client, cardroom, cashier, supervisor):
    client.force_login(cashier)
    assert client.post(action("count"), OPEN).status_code == 302
    return client


def test_front_money_asks_first_then_records_and_shows_the_balance(
    cashier_client, cardroom, make_player
):
    client = cashier_client
    player = make_player("Dana Deposit")
    page = parse(client.get(reverse("cashier-home")).content)
    ids = Counter(tag.attrs["id"] for tag in page.find_all(attrs={"id": True}))
    assert [i for i, n in ids.items() if n > 1] == []
    deposit = {
        "player": player.pk,
        "account": "front_money",
        "direction": "deposit",
        "amount": "2500",
    }
    asked = client.post(action("player-account"), deposit)
    assert asked.status_code == 200 and not CashTransaction.objects.exists()
    assert parse(asked.content).by_id("confirm-sentence").text == (
        "Takes a deposit of $2,500.00 cash to Dana Deposit's front money (balance now "
        "$0.00), on the player's cash log."
    )
    done = client.post(action("player-account"), deposit | CONFIRMED)
    assert done.status_code == 302 and f"player={player.pk}" in done["Location"]
    assert cashier_books.cage_books(cardroom).cash == Decimal("7500.00")
    shown = parse(client.get(f"{reverse('cashier-home')}?player={player.pk}").content)
    text = shown.find(id="player-money").text
    assert "Dana Deposit" in text and "front money $2,500.00" in text
    over = deposit | {"direction": "withdrawal", "amount": "2500.01"} | CONFIRMED
    refused = client.post(action("player-account"), over)
    assert refused.status_code == 422
    assert "balance is $2500.00" in parse(refused.content).find(id="player-money").text
    assert CashTransaction.objects.count() == 1


def test_markers_payments_and_exchanges_from_the_screen(cashier_client, cardroom, make_player):
    client = cashier_client
    player = make_player("Mark Credit")
    issue = {"player": player.pk, "issued_as": "cash", "amount": "1000"}
    asked = client.post(action("marker"), issue)
    assert "Issues Mark Credit a marker of $1,000.00 paid in cash" in asked.text
    assert client.post(action("marker"), issue | CONFIRMED).status_code == 302
    marker = Marker.objects.get()
    pay = {"marker": marker.pk, "amount": "400"}
    asked = client.post(action("marker-payment"), pay)
    assert "from Mark Credit on marker" in asked.text and "$1,000.00 outstanding" in asked.text
    assert client.post(action("marker-payment"), pay | CONFIRMED).status_code == 302
    assert player_accounts.marker_outstanding(marker) == Decimal("600.00")
    exchange = {"player": player.pk, "currency": "eur", "foreign_amount": "100", "amount": "108"}
    asked = client.post(action("exchange"), exchange)
    assert "Takes 100.00 EUR from Mark Credit and pays $108.00" in asked.text
    assert client.post(action("exchange"), exchange | CONFIRMED).status_code == 302
    kinds = list(CashTransaction.objects.order_by("id").values_list("kind", flat=True))
    assert kinds == [
        "marker_advance",
        "marker_payment",
        "currency_exchange_in",
        "currency_exchange_out",
    ]
