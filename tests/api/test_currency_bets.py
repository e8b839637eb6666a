"""The API's wager in currency ("money plays", R5) at a house-banked table, and its refusal
at a designated-player table, naming the field."""

from __future__ import annotations

import pytest

from patrons.models import CashTransaction
from wagers import services

pytestmark = pytest.mark.django_db


def test_the_api_takes_a_wager_in_currency_and_names_a_refusals_field(
    house_table, dp_table, seat, dealer, api
):
    seating = seat(house_table, 1, buy_in="100")
    hand = services.hand_start(table=house_table, by=dealer)
    client = api(dealer)
    answer = client.post(
        f"/api/v1/hands/{hand.pk}/wagers/currency/",
        {"seating": seating.pk, "ante": "10"},
        format="json",
    )
    assert answer.status_code == 200, answer.json()
    assert [spot["ante"] for spot in answer.json()["spots"]] == ["10.00"]

    seat(dp_table, 1, buy_in="500")
    other = seat(dp_table, 2, buy_in="500")
    dp_hand = services.hand_start(table=dp_table, by=dealer)
    refused = client.post(
        f"/api/v1/hands/{dp_hand.pk}/wagers/currency/",
        {"seating": other.pk, "ante": "10"},
        format="json",
    )
    assert refused.status_code == 422  # a rule refusal (docs/api.md)
    assert refused.json()["error"]["field"] == "paid_with"
    assert not CashTransaction.objects.filter(kind="bet_of_currency", player=other.player).exists()
