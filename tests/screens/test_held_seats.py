"""A player barred while seated, as the screens show it: the dealer screen flags the seat
("call a floor supervisor", no reason: the tablet is at the table), offers it no wager field
and no chip button, and "Same wagers as last hand" places everyone's wagers but hers; the floor
dashboard flags the seat with the reason, and the incident log holds the alert."""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from patrons.exclusions import ExclusionInput, exclusion_add
from patrons.identity import IdentityInput, identity_record
from tables.models import Seating
from wagers import services as hand_services
from wagers.models import Hand

from .support import DEALER_CARDS, STRONG, WEAK, error_summary, parse

pytestmark = pytest.mark.django_db

CALL_FLOOR = "call a floor supervisor"


@pytest.fixture
def last_hand(world, dealer) -> Hand:
    """A settled hand at the house table: seat 2 (Devon) antes $10 with a $5 Flush Bonus and
    raises, seat 4 (Emery) antes $10 and folds."""
    table = world.house_table
    hand = hand_services.hand_start(table=table, by=dealer)
    wagers = [
        {"seating": world.house_seats[2], "ante": "10", "flush_bonus": "5"},
        {"seating": world.house_seats[4], "ante": "10"},
    ]
    hand_services.wagers_place_many(hand=hand, wagers=wagers, by=dealer)
    hand_services.hand_cards_enter(
        hand=hand, dealer_cards=DEALER_CARDS, spot_cards={2: STRONG, 4: WEAK}, by=dealer
    )
    decisions = [
        {"seat": 2, "decision": "raise", "raise_amount": "10"},
        {"seat": 4, "decision": "fold"},
    ]
    hand_services.hand_decide_and_settle(hand=hand, decisions=decisions, by=dealer)
    return hand


def bar(seating: Seating, supervisor) -> None:
    identity_record(
        player=seating.player,
        identity=IdentityInput(
            date_of_birth=date(1980, 5, 17),
            id_type="driver_licence",
            id_number="D7654321",
            id_issuer="CA",
            id_expires=date(2031, 1, 1),
        ),
        by=supervisor,
    )
    entry = ExclusionInput(
        kind="barred", name="", starts_on=date(2024, 1, 1), reason="Past-posting"
    )
    exclusion_add(
        cardroom=seating.player.cardroom, entry=entry, player=seating.player, by=supervisor
    )


def play_area(client, world):
    return parse(client.get(reverse("dealer-table", args=[world.house_table.pk])).content)


def test_the_dealer_screen_flags_the_held_seat_and_offers_no_chip_button(
    client, world, dealer, supervisor
):
    bar(world.house_seats[2], supervisor)
    client.force_login(dealer)

    page = play_area(client, world)

    held, other = page.by_id("seat-2"), page.by_id("seat-4")
    assert CALL_FLOOR in held.find("span", class_="call-floor").text
    assert not held.find_all("button") and not other.find_all("span", class_="call-floor")
    assert "barred" not in page.by_id("play").text.lower()  # the reason is the floor's
    assert [b.text for b in other.find_all("button")][:2] == ["Add chips", "Cash out"]

    client.force_login(supervisor)
    buttons = [b.text for b in play_area(client, world).by_id("seat-2").find_all("button")]
    assert "Cash out" in buttons and "Leave" in buttons and "Add chips" not in buttons


def test_same_wagers_as_last_hand_places_everyones_but_the_held_players(
    client, world, dealer, supervisor, last_hand
):
    bar(world.house_seats[2], supervisor)
    hand = hand_services.hand_start(table=world.house_table, by=dealer)
    client.force_login(dealer)
    page = play_area(client, world)
    assert CALL_FLOOR in page.by_id("wager-2").text.lower()
    assert not page.by_id("wager-2").find_all("input")

    url = reverse("dealer-step", args=[world.house_table.pk, "wagers"])
    response = client.post(url, {"same": "all", "ante_2": "10"})  # a typed field is no way in

    assert response.status_code == 302, error_summary(parse(response.content))
    assert [(s.seat, s.ante) for s in hand.spots.order_by("seat")] == [(4, 10)]


def test_a_dealers_cash_out_at_the_held_seat_is_refused_with_the_neutral_message(
    client, world, dealer, supervisor
):
    seating = world.house_seats[2]
    bar(seating, supervisor)
    client.force_login(dealer)

    url = reverse("dealer-step", args=[world.house_table.pk, "stack"])
    response = client.post(url, {"seating": seating.pk, "action": "cash_out", "amount": "50"})

    assert response.status_code == 422
    assert error_summary(parse(response.content)) == [
        "Seating: This player cannot play on; call a floor supervisor."
    ]
    seating.refresh_from_db()
    assert seating.stack == 200 and seating.left_at is None

    client.force_login(supervisor)
    assert client.post(url, {"seating": seating.pk, "action": "leave"}).status_code == 302
    seating.refresh_from_db()
    assert seating.left_at is not None and seating.stack == 0


def test_the_floor_dashboard_and_the_incident_log_show_the_held_seat_and_why(
    client, world, supervisor
):
    bar(world.house_seats[4], supervisor)
    client.force_login(supervisor)

    page = parse(client.get(reverse("floor-dashboard")).content)
    row = page.by_id(f"held-{world.house_table.pk}-4")
    assert "Table 2 seat 4, Emery" in row.text
    assert "barred on the cardroom's own list since 2024-01-01, for life" in row.text
    assert not page.find_all("tr", id=f"held-{world.dp_table.pk}-1")

    log = parse(client.get(reverse("law-incidents")).content)
    alert = log.by_id("incidents").find("tr", class_="exclusion_match")
    assert "Emery, seated at Table 2 seat 4" in alert.text and "held" in alert.text
    assert alert.find_all("td")[3].text == "Table 2"  # its table, linked from tables
