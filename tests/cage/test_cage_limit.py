"""A fill or credit slip, a rack count and a drop count are bounded by the cardroom's largest
cage amount (default $1,000,000.00; a floor supervisor changes it): a $6.25 billion fill is
refused naming its field, and nothing is written."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from cage import services as cage
from cage.models import Slip
from core.errors import DomainError, PermissionDenied
from patrons.models import DEFAULT_LARGEST_CAGE_AMOUNT
from tables.services.cardrooms import cardroom_cage_limit_set
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tests.conftest import signed

from ..api.conftest import token_client

pytestmark = pytest.mark.django_db

V = "/api/v1"
#: 10 million each of $500, $100 and $25 chips: $6,250,000,000.00.
BILLIONS = {"500": 10**7, "100": 10**7, "25": 10**7}


@pytest.fixture
def counted_house(house, supervisor, dealer):
    """The house table with its opening count: $1,000 in $100 chips."""
    cage.inventory_count_record(
        table=house,
        kind="opening",
        chips={"100": 10},
        counted_by=signed(dealer),
        signature=signed(supervisor),
        by=supervisor,
    )
    return house


def test_a_new_cardroom_takes_a_million_at_most(cardroom):
    assert cardroom.largest_cage_amount == DEFAULT_LARGEST_CAGE_AMOUNT == Decimal("1000000.00")


def test_a_fill_of_six_and_a_quarter_billion_is_refused_naming_the_chips(
    counted_house, second_supervisor
):
    response = token_client(second_supervisor).post(
        f"{V}/tables/{counted_house.pk}/slips/", {"kind": "fill", "chips": BILLIONS}, format="json"
    )

    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["field"] == "chips"
    assert "$6250000000.00" in error["message"] and "$1000000.00" in error["message"]
    assert not Slip.objects.exists()


def test_a_rack_count_over_the_largest_amount_is_refused(
    cardroom, clock, supervisor, dealer, refusal
):
    clock.at("07:00")
    table = table_create(cardroom=cardroom, name="Second", banking="house", by=supervisor)
    table_open(table=table, dealer=dealer, by=supervisor)
    with refusal(DomainError, field="chips", says="largest fill, credit or count"):
        cage.inventory_count_record(
            table=table,
            kind="opening",
            chips={"500": 2001},
            counted_by=signed(dealer),
            signature=signed(supervisor),
            by=supervisor,
        )


def test_a_drop_count_over_the_largest_amount_is_refused_naming_cash_or_chips(
    counted_house, clock, counter, second_counter, refusal
):
    clock.at("07:00", days=1)
    with refusal(DomainError, field="cash", says="largest fill, credit or count"):
        cage.drop_count_record(
            table=counted_house,
            gaming_day=date(2024, 3, 1),
            shift="day",
            cash={"100": 10_001},
            chips={},
            second_counter=signed(second_counter),
            by=counter,
        )


def test_a_floor_supervisor_raises_the_limit_and_a_larger_fill_is_taken(
    counted_house, supervisor, second_supervisor
):
    floor = token_client(supervisor)
    chips = {"500": 3000}  # $1,500,000

    refused = token_client(second_supervisor).post(
        f"{V}/tables/{counted_house.pk}/slips/", {"kind": "fill", "chips": chips}, format="json"
    )
    changed = floor.post(
        f"{V}/cardrooms/{counted_house.cardroom_id}/cage-limit/",
        {"largest_cage_amount": "2000000"},
        format="json",
    )
    taken = token_client(second_supervisor).post(
        f"{V}/tables/{counted_house.pk}/slips/", {"kind": "fill", "chips": chips}, format="json"
    )

    assert refused.status_code == 422
    assert changed.status_code == 200 and changed.json() == {"largest_cage_amount": "2000000.00"}
    limit = floor.get(f"{V}/cardrooms/{counted_house.cardroom_id}/cage-limit/")
    assert limit.json() == changed.json()
    assert taken.status_code == 201 and taken.json()["total"] == "1500000.00"


def test_only_a_floor_supervisor_changes_the_limit_and_never_to_nothing(
    cardroom, supervisor, dealer, refusal
):
    with refusal(PermissionDenied, field=None, says="floor supervisor"):
        cardroom_cage_limit_set(cardroom=cardroom, largest="5", by=dealer)
    with refusal(DomainError, field="largest_cage_amount", says="above $0.00"):
        cardroom_cage_limit_set(cardroom=cardroom, largest="0", by=supervisor)
