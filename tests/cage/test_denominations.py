"""A chip denomination is withdrawn only once no rack (by the books: its last count and the
fills and credits since) and not the cage holds it; the refusal names ``denominations`` and
who holds the chips, and changes nothing."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from cage import holdings, services
from core.errors import Conflict
from patrons.models import Cardroom
from tests.cage_books import cage_out_of, slip_delivered

pytestmark = pytest.mark.django_db

ALL = ["1.00", "5.00", "25.00", "100.00"]


def test_the_racks_holding_a_denomination_are_named(floor):
    # conftest.RACK: 100×$1, 100×$5, 80×$25, 20×$100 at the house table; none elsewhere.
    cardroom = floor["house"].cardroom
    assert holdings.denomination_holders(cardroom, "25.00") == ["House: 80 chips"]
    assert holdings.denomination_holders(cardroom, "500.00") == []


def test_a_denomination_a_rack_holds_cannot_be_withdrawn(floor, supervisor):
    cardroom = floor["house"].cardroom
    cardroom.chip_denominations = [*ALL, "500.00"]
    cardroom.save(update_fields=["chip_denominations"])
    events = AuditEvent.objects.count()

    with pytest.raises(Conflict) as refused:
        services.cardroom_denominations_change(
            cardroom=cardroom, denominations=["1", "5", "100"], by=supervisor
        )

    assert refused.value.field == "denominations"
    assert "$25.00 (House: 80 chips)" in refused.value.message
    assert Cardroom.objects.get(pk=cardroom.pk).chip_denominations == [*ALL, "500.00"]
    assert AuditEvent.objects.count() == events


def test_a_denomination_nobody_holds_is_withdrawn(floor, supervisor):
    cardroom = floor["house"].cardroom
    cardroom.chip_denominations = [*ALL, "500.00"]
    cardroom.save(update_fields=["chip_denominations"])

    changed = services.cardroom_denominations_change(
        cardroom=cardroom, denominations=ALL, by=supervisor
    )

    assert changed.chip_denominations == ALL


def test_a_fill_delivered_since_the_count_is_held_by_the_rack(floor, clock, supervisor, dealer):
    house = floor["house"]
    clock.at("09:00")
    fill = services.slip_request(table=house, kind="fill", chips={"100": 5}, by=supervisor)
    slip_delivered(fill, dealer, supervisor)
    credit = services.slip_request(table=house, kind="credit", chips={"1": 100}, by=supervisor)
    slip_delivered(credit, dealer, supervisor)

    assert holdings.rack_pieces(house)["100.00"] == 25
    # The credit's $1 chips went to the cage: it holds them now, not the rack.
    in_cage = holdings.cage_pieces(house.cardroom)["1.00"]
    assert holdings.denomination_holders(house.cardroom, "1.00") == [f"The cage: {in_cage} chips"]
    cage_out_of(house.cardroom, "1.00", "500.00")
    assert holdings.denomination_holders(house.cardroom, "1.00") == []
    services.cardroom_denominations_change(
        cardroom=house.cardroom, denominations=["5", "25", "100"], by=supervisor
    )
