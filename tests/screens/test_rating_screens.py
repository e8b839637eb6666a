"""Player ratings on the player's page (floor supervisors and compliance): each session's
figures, the sums per gaming day and month, the CSV and its columns, "value now" for an open
session, refused by name for one that has ended; a dealer reads none of it."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from compliance.ratings.rows import RATING_COLUMNS
from tables.services.seating import seating_leave
from wagers.models import DecisionCost

from .support import parse

pytestmark = pytest.mark.django_db


def test_the_player_s_page_shows_the_rating_of_each_session_and_of_each_day(
    compliance, settled, world
):
    player = world.seats[1].player
    page = parse(compliance.get(reverse("compliance-player", args=[player.pk])).content)
    rows = page.by_id("rating-sessions").find_all("tr")[1:]
    cells = [td.text for td in rows[0].find_all("td")]
    # Seat 1 antes $10, bets a $5 Flush Bonus and raises $10: $25 wagered on one spot.
    assert (cells[0], cells[1], cells[3], cells[5], cells[6], cells[7]) == (
        "Table 1",
        "1",
        "playing",
        "1",
        "25.00",
        "25.00",
    )
    assert cells[12] == "0 / 0 / 1"  # one decision, waiting for the worker
    assert page.by_id(f"value-session-{world.seats[1].pk}").text == "Value 1 pending now"
    periods = [tr.find_all("td")[0].text for tr in page.by_id("rating-days").find_all("tr")[1:]]
    assert len(periods) == 2 and periods[0].startswith("day ") and periods[1].startswith("month ")


def test_value_now_values_an_open_session_s_decisions(compliance, settled, world):
    seating = world.seats[1]
    response = compliance.post(reverse("compliance-session-value", args=[seating.pk]))
    assert response.status_code == 302
    assert DecisionCost.objects.filter(spot__seating=seating).count() == 1
    page = parse(compliance.get(reverse("compliance-player", args=[seating.player_id])).content)
    cells = [td.text for td in page.by_id("rating-sessions").find_all("tr")[1].find_all("td")]
    assert cells[12].endswith(" / 1 / 1")


def test_a_session_that_has_ended_is_refused_by_name_and_nothing_is_written(
    compliance, settled, world, dealer, nothing_written
):
    seating = world.seats[5]
    seating_leave(seating=seating, by=dealer)
    with nothing_written():
        response = compliance.post(reverse("compliance-session-value", args=[seating.pk]))
    assert response.status_code == 409
    alert = parse(response.content).by_id("refusal")
    assert alert.attrs["role"] == "alert"
    assert "Casey's session at Table 1 seat 5 has ended: its rating is final" in alert.text


def test_the_ratings_csv_has_a_row_per_gaming_day_then_per_month(compliance, settled, world):
    player = world.seats[1].player
    response = compliance.get(reverse("compliance-player-ratings", args=[player.pk]))
    assert response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == RATING_COLUMNS
    assert [row[2] for row in rows[1:]] == ["day", "month"]
    day = dict(zip(RATING_COLUMNS, rows[1], strict=True))
    assert (day["player_name"], day["hands"], day["wagered_total"]) == ("Avery", "1", "25.00")
    assert (day["wagered_ante"], day["wagered_raise"], day["wagered_flush_bonus"]) == (
        "10.00",
        "10.00",
        "5.00",
    )
    assert day["buy_in_chips"] == "500.00" and day["decisions_pending"] == "1"


@pytest.mark.parametrize("name", ["compliance-player-ratings", "compliance-player"])
def test_a_dealer_reads_no_rating(client, dealer, settled, world, name):
    client.force_login(dealer)
    response = client.get(reverse(name, args=[world.seats[1].player_id]))
    assert response.status_code == 403
