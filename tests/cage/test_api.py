"""The cage through the API: a day shift at a house-banked table run with tokens (the floor
supervisor, the dealer, the cashier, two counters), every second person signing in the
request with their password, its statistics as JSON and CSV, and refusals in the one error
shape naming the field."""

from __future__ import annotations

import pytest

from tables.services.configuration import table_create
from tables.services.seating import player_create
from tests.cage_books import cage_opened
from tests.conftest import PASSWORD

from ..api.conftest import token_client

pytestmark = pytest.mark.django_db

V = "/api/v1"


def test_a_shift_is_run_and_reported_through_the_api(
    cardroom, clock, supervisor, second_supervisor, dealer, counter, second_counter, cashier
):
    floor, dealer_api, cage = token_client(supervisor), token_client(dealer), token_client(cashier)
    counting = token_client(counter)
    clock.at("07:00")
    table = table_create(cardroom=cardroom, name="House", banking="house", by=supervisor)
    assert (
        floor.post(f"{V}/tables/{table.pk}/open/", {"dealer": dealer.pk}, format="json").status_code
        == 201
    )
    opening = floor.post(
        f"{V}/tables/{table.pk}/inventory/",
        {
            "kind": "opening",
            "chips": {"100": 10},
            "counted_by": {"username": "dealer", "secret": PASSWORD},
            "signature": {"secret": PASSWORD},
        },
        format="json",
    )
    assert opening.status_code == 201 and opening.json()["total"] == "1000.00"
    assert (opening.json()["counted_by"], opening.json()["counted_by_name"]) == (
        dealer.pk,
        "Dee Lee",
    )
    assert opening.json()["verified_by_name"] == "Fran Ortiz"
    seat = dealer_api.post(
        f"{V}/tables/{table.pk}/seatings/",
        {
            "player": player_create(cardroom=cardroom, name="Pat", by=dealer).pk,
            "seat": 1,
            "buy_in": "200",
            "tender": "cash",
        },
        format="json",
    )
    assert seat.status_code == 201
    fill = floor.post(
        f"{V}/tables/{table.pk}/slips/", {"kind": "fill", "chips": {"25": 4}}, format="json"
    )
    assert fill.json()["number"] == "F-000001" and fill.json()["status"] == "requested"
    assert fill.json()["requested_by_name"] == "Fran Ortiz"
    assert fill.json()["next_step"] == "prepared"
    own = {"signature": {"secret": PASSWORD}}  # each person signed in signs as themselves
    slip = f"{V}/slips/{fill.json()['id']}"
    early = dealer_api.post(f"{slip}/dealer-sign/", own, format="json")
    assert early.status_code == 409 and early.json()["error"]["field"] == "slip"
    assert "not prepared by the cashier yet" in early.json()["error"]["message"]
    cage_opened(cardroom, cashier)
    prepared = cage.post(f"{slip}/prepare/", own, format="json")
    assert (prepared.status_code, prepared.json()["next_step"]) == (200, "dealer")
    counted = dealer_api.post(f"{slip}/dealer-sign/", own, format="json")
    assert (counted.json()["status"], counted.json()["next_step"]) == ("requested", "supervisor")
    delivered = floor.post(f"{slip}/supervisor-sign/", own, format="json")
    assert delivered.json()["status"] == "delivered"
    assert [(s["step"], s["person_name"]) for s in delivered.json()["steps"]] == [
        ("prepared", "Cy Moss"),
        ("dealer", "Dee Lee"),
        ("supervisor", "Fran Ortiz"),
    ]
    assert (delivered.json()["delivered_by"], delivered.json()["next_step"]) == (
        supervisor.pk,
        None,
    )
    # rack by the books: 1000 − 200 (sold to Pat) + 100 (the fill) = 900
    closing = floor.post(
        f"{V}/tables/{table.pk}/inventory/",
        {
            "kind": "closing",
            "chips": {"100": 9},
            "counted_by": {"username": "dealer", "secret": PASSWORD},
            "signature": {"secret": PASSWORD},
        },
        format="json",
    )
    assert (closing.json()["book_total"], closing.json()["variance"]) == ("900.00", "0.00")
    early = counting.post(
        f"{V}/tables/{table.pk}/drop-counts/",
        {
            "gaming_day": "2024-03-01",
            "shift": "day",
            "cash": {"100": 2},
            "second_counter": {"username": "counter2", "secret": PASSWORD},
        },
        format="json",
    )
    assert early.status_code == 409
    assert early.json()["error"]["field"] == "shift"
    clock.at("14:10")
    boxes = counting.get(f"{V}/cardrooms/{cardroom.pk}/drop-boxes/?day=2024-03-01&shift=day")
    assert boxes.json() == [
        {"table": table.pk, "table_name": "House", "counted": False, "count": None}
    ]
    counted = counting.post(
        f"{V}/tables/{table.pk}/drop-counts/",
        {
            "gaming_day": "2024-03-01",
            "shift": "day",
            "cash": {"100": 2},
            "second_counter": {"username": "counter2", "secret": PASSWORD},
        },
        format="json",
    )
    assert (counted.json()["expected_total"], counted.json()["variance"]) == ("200.00", "0.00")
    assert (counted.json()["counted_by_name"], counted.json()["second_counter_name"]) == (
        "Cam Diaz",
        "Jo Fox",
    )
    closed = floor.post(
        f"{V}/cardrooms/{cardroom.pk}/shift-closes/",
        {"gaming_day": "2024-03-01", "shift": "day", "signature": {"secret": PASSWORD}},
        format="json",
    )
    assert closed.status_code == 201 and closed.json()["closed_by_name"] == "Fran Ortiz"
    stats = floor.get(f"{V}/cardrooms/{cardroom.pk}/statistics/?day=2024-03-01&shift=day").json()
    [house] = stats["tables"]
    # win = 900 − 1000 + 0 − 100 + 200 = 0: no hand was played, the house won nothing
    assert (house["win"], house["fills"], house["drop"], house["mismatch"]) == (
        "0.00",
        "100.00",
        "200.00",
        "0.00",
    )
    assert stats["closed"] is True
    csv = floor.get(f"{V}/cardrooms/{cardroom.pk}/statistics/csv/?day=2024-03-01")
    assert csv["Content-Type"] == "text/csv"
    assert "2024-03-01,day,House,house,1000.00,900.00,100.00,0.00" in csv.content.decode()
    month = floor.get(f"{V}/cardrooms/{cardroom.pk}/statistics/?month=2024-03").json()
    assert month["totals"]["drop"] == "200.00"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("?day=yesterday", "day"),
        ("?day=2024-03-01&shift=brunch", "shift"),
        ("?month=2024-13", "month"),
        ("?day=", "day"),
    ],
)
def test_a_bad_period_is_refused_naming_the_field(cardroom, supervisor, query, field):
    response = token_client(supervisor).get(f"{V}/cardrooms/{cardroom.pk}/statistics/{query}")
    assert response.status_code == 422
    assert response.json()["error"]["field"] == field


def test_the_cashier_lists_the_slips_awaiting_the_cage_and_prepares_one(
    floor, supervisor, cashier, dealer
):
    cage = token_client(cashier)
    room = floor["house"].cardroom
    fill = token_client(supervisor).post(
        f"{V}/tables/{floor['house'].pk}/slips/", {"kind": "fill", "chips": {"5": 2}}, format="json"
    )
    listed = cage.get(f"{V}/cardrooms/{room.pk}/slips/?awaiting=prepared")
    assert [(s["number"], s["next_step"]) for s in listed.json()] == [("F-000001", "prepared")]
    assert cage.get(f"{V}/cardrooms/{room.pk}/slips/?awaiting=dealer").json() == []
    unknown = cage.get(f"{V}/cardrooms/{room.pk}/slips/?awaiting=delivered")
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "awaiting"
    cage_opened(room, cashier)
    signed = cage.post(
        f"{V}/slips/{fill.json()['id']}/prepare/",
        {"signature": {"secret": PASSWORD}},
        format="json",
    )
    assert signed.json()["steps"][0]["person_name"] == "Cy Moss"
    assert cage.get(f"{V}/cardrooms/{room.pk}/slips/?awaiting=prepared").json() == []
    # The dealer's list is the table's, not the cardroom's.
    assert token_client(dealer).get(f"{V}/cardrooms/{room.pk}/slips/").status_code == 403
