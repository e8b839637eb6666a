"""How a table's cards come, on the screens: a table with a shuffler waits for its hands (the
play area polled, nothing to tap but Misdeal, R14), shows a refused message's reason there, and
says so in words on the dealer screen and the floor's pages; a table without one has the card
picker and the system's deal labelled for electronic and training tables. Never "CSPRNG" on a
screen."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from tests.tables.shuffler_support import (
    MAKE,
    MODEL,
    SERIAL,
    deal_world,
    register_shuffler,
    wagered_hand,
)
from wagers.models import Hand
from wagers.selectors import settlement_in_force
from wagers.shuffler_selectors import last_shuffler_refusal

from .support import parse

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
NAMED = f"Cards read by the table's shuffler ({MAKE} {MODEL}, serial {SERIAL})"


@pytest.fixture
def shuffler_world(supervisor, dealer):
    return deal_world(supervisor, dealer)


def _deal(table, token, **options) -> None:
    call_command(
        "shuffler_simulate", table=table.pk, token=token, in_process=True, wait=1,
        stdout=StringIO(), **options,
    )  # fmt: skip


def test_no_screen_nor_screen_code_says_csprng():
    screens = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("cardroom/screens/**/*.py")]
    assert screens
    assert [str(p) for p in screens if "CSPRNG" in p.read_text()] == []


def test_without_a_shuffler_the_dealer_enters_the_cards_or_an_electronic_table_deals(
    client, dealer, shuffler_world
):
    wagered_hand(shuffler_world, dealer)
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[shuffler_world.table.pk])).content)
    assert page.by_id("table-card-source").text == "Cards entered by the dealer"
    assert page.by_id("card-source").text.startswith("Cards entered by the dealer: tap the cards")
    assert page.by_id("cards-form").find_all("button", **{"data-card": "Ah"})
    assert page.by_id("deal").text == "Deal by the system (electronic or training table)"
    assert page.find_all(id="shuffler-wait") == []


def test_with_a_shuffler_the_waiting_hand_says_so_and_polls_with_only_misdeal_to_tap(
    client, dealer, supervisor, shuffler_world
):
    table = shuffler_world.table
    register_shuffler(table, supervisor)
    hand = wagered_hand(shuffler_world, dealer)
    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-table", args=[table.pk])).content)

    assert page.by_id("table-card-source").text == NAMED
    wait = page.by_id("shuffler-wait")
    assert "Waiting for the shuffler's hands" in page.by_id("shuffler-waiting").text
    assert wait.attrs["hx-get"] == reverse("dealer-play", args=[table.pk])
    assert wait.attrs["hx-trigger"].startswith("every 1s")
    assert wait.attrs["hx-target"] == "#play"
    # No picker, no system deal, no other misdeal panel: only Misdeal, asked first (R14).
    assert page.find_all(id="cards-form") == [] and page.find_all(id="deal") == []
    assert not [s.text for s in page.find_all("summary") if "misdeal" in s.text.lower()]
    buttons = [b for b in wait.find_all("button")]
    assert [b.text for b in buttons] == ["Misdeal"]
    assert buttons[0].attrs["data-confirm"].startswith(f"Declare hand {hand.number} a misdeal?")
    assert wait.find("input", name="reason").attrs["value"] == "shuffler_fault"


def test_the_play_area_shows_the_shuffler_s_cards_once_they_arrive(
    client, dealer, supervisor, shuffler_world
):
    table = shuffler_world.table
    _, token = register_shuffler(table, supervisor)
    hand = wagered_hand(shuffler_world, dealer)
    client.force_login(dealer)
    play = reverse("dealer-play", args=[table.pk])
    assert "Waiting for the shuffler's hands" in parse(client.get(play).content).text

    _deal(table, token)

    response = client.get(play)
    page = parse(response.content)
    assert page.find("div", id="play") and "<html" not in response.content.decode()
    assert page.find_all(id="shuffler-wait") == []
    hand.refresh_from_db()
    for spot in hand.spots.all():
        dealt = {c.attrs["data-dealt"] for c in page.by_id(f"spot-{spot.seat}").find_all()
                 if "data-dealt" in c.attrs}  # fmt: skip
        assert dealt == set(spot.cards.split())
    assert page.by_id("decisions-form")


def test_a_refused_message_shows_its_reason_where_the_dealer_looks_and_misdeal_kills_the_hand(
    client, dealer, supervisor, shuffler_world
):
    table = shuffler_world.table
    _, token = register_shuffler(table, supervisor)
    hand = wagered_hand(shuffler_world, dealer)
    _deal(table, token, fault="repeated_card")
    refusal = last_shuffler_refusal(hand)
    assert refusal is not None

    client.force_login(dealer)
    page = parse(client.get(reverse("dealer-play", args=[table.pk])).content)
    alert = page.by_id("shuffler-refused")
    assert alert.attrs["role"] == "alert" and refusal.reason in alert.text
    assert page.find_all(id="shuffler-waiting") == []
    assert page.by_id("shuffler-misdeal").text == "Misdeal"

    response = client.post(
        reverse("dealer-step", args=[table.pk, "misdeal"]),
        {"reason": "shuffler_fault", "confirmed": "1"},
    )
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.status == Hand.Status.DEAD and hand.misdeal == "shuffler_fault"
    result = settlement_in_force(hand).result  # R14: every hand of the round is dead
    assert {(s["status"], s["dead_reason"]) for s in result["spots"]} == {("dead", "misdeal")}


def test_the_floor_sees_how_the_table_and_each_hand_got_their_cards(
    client, dealer, supervisor, shuffler_world
):
    table = shuffler_world.table
    _, token = register_shuffler(table, supervisor)
    hand = wagered_hand(shuffler_world, dealer)
    _deal(table, token)
    client.force_login(supervisor)

    page = parse(client.get(reverse("floor-table", args=[table.pk])).content)
    assert page.by_id("table-card-source").text == NAMED
    rows = [td.text for td in page.find_all("td", class_="card-source")]
    assert rows == ["Cards read by the table's shuffler"]
    detail = parse(client.get(reverse("floor-hand", args=[hand.pk])).content)
    assert detail.by_id("hand-card-source").text == "Cards read by the table's shuffler"


def test_the_play_area_is_refused_to_a_dealer_not_on_duty(client, make_user, shuffler_world):
    from core.roles import DEALER

    client.force_login(make_user("other", role=DEALER))
    response = client.get(reverse("dealer-play", args=[shuffler_world.table.pk]))
    assert response.status_code == 403
