"""A player's money at the cage through the API: front money and safekeeping, markers and
their payments, currency exchanges, a player's balances; refusals name their field."""

from __future__ import annotations

import pytest

from patrons.models import CashTransaction
from tests.conftest import PASSWORD

from ..api.conftest import token_client

pytestmark = pytest.mark.django_db

V = "/api/v1"


@pytest.fixture
def cage(cardroom, clock, cashier, supervisor):
    client, url = token_client(cashier), f"{V}/cardrooms/{cardroom.pk}/cage"
    opened = client.post(
        f"{url}/counts/",
        {
            "kind": "opening",
            "chips": {"25": 40, "100": 10},
            "cash": {"100": 50},
            "signature": {"secret": PASSWORD},
            "other": {"username": supervisor.username, "secret": PASSWORD},
        },
        format="json",
    )
    assert opened.status_code == 201, opened.json()
    return client, url


def test_a_players_money_at_the_cage_through_the_api(cage, make_player, supervisor):
    client, url = cage
    player = make_player("Api Depositor")
    deposit = client.post(
        f"{url}/front-money/",
        {"player": player.pk, "direction": "deposit", "amount": "1500"},
        format="json",
    )
    assert deposit.status_code == 201, deposit.json()
    assert (deposit.json()["balance"], deposit.json()["player_name"]) == (
        "1500.00",
        "Api Depositor",
    )
    out = client.post(
        f"{url}/safekeeping/",
        {"player": player.pk, "direction": "deposit", "amount": "200"},
        format="json",
    )
    assert out.status_code == 201
    marker = client.post(
        f"{url}/markers/",
        {"player": player.pk, "issued_as": "cash", "amount": "1000"},
        format="json",
    )
    assert marker.status_code == 201 and marker.json()["outstanding"] == "1000.00"
    paid = client.post(
        f"{url}/markers/{marker.json()['id']}/payments/", {"amount": "400"}, format="json"
    )
    assert paid.status_code == 201
    assert (paid.json()["outstanding"], paid.json()["status"]) == ("600.00", "open")
    exchanged = client.post(
        f"{url}/currency-exchange/",
        {"player": player.pk, "amount": "54.25", "currency": "MXN", "foreign_amount": "1000"},
        format="json",
    )
    assert exchanged.status_code == 201 and exchanged.json()["currency"] == "MXN"
    floor = token_client(supervisor)
    balances = floor.get(f"{url}/player-balances/?player={player.pk}")
    assert balances.status_code == 200
    body = balances.json()[0]
    assert (body["front_money"], body["safekeeping"], body["markers_outstanding"]) == (
        "1500.00",
        "200.00",
        "600.00",
    )
    assert floor.get(f"{url}/markers/?player={player.pk}").json()[0]["paid"] == "400.00"
    everyone = floor.get(f"{url}/player-balances/").json()
    assert [row["player_name"] for row in everyone] == ["Api Depositor"]
    assert CashTransaction.objects.filter(player=player).count() == 6


def test_refusals_name_their_field_and_write_nothing(cage, make_player):
    client, url = cage
    player = make_player("Api Short")
    before = CashTransaction.objects.count()
    over = client.post(
        f"{url}/front-money/",
        {"player": player.pk, "direction": "withdrawal", "amount": "10"},
        format="json",
    )
    assert over.status_code == 422 and over.json()["error"]["field"] == "amount"
    assert "$0.00" in over.json()["error"]["message"]
    currency = client.post(
        f"{url}/currency-exchange/",
        {"player": player.pk, "amount": "5", "currency": "€€", "foreign_amount": "5"},
        format="json",
    )
    assert currency.json()["error"]["field"] == "currency"
    balances = client.get(f"{url}/player-balances/?player=x1")
    assert balances.status_code in (400, 422) and balances.json()["error"]["field"] == "player"
    assert client.get(f"{url}/player-balances/").json() == []  # nobody holds money yet
    assert CashTransaction.objects.count() == before
