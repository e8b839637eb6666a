"""The floor dashboard's rows for a big room: a fixed number of queries whatever the number of
tables (a list open too), the rows of only the tables a push named (``?tables=``), and a
footer that says how the screen is kept up to date."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tables.services.waitlist import waitlist_join, waitlist_open

from .support import parse

pytestmark = pytest.mark.django_db


def _queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize("path", ["/floor/dashboard/", "/floor/"])
def test_the_dashboard_s_queries_do_not_grow_with_the_tables(
    floor, world, supervisor, dealer, path
):
    dp_list = waitlist_open(
        cardroom=world.cardroom,
        banking="designated_player",
        ante_min="5",
        ante_max="100",
        by=supervisor,
    )
    waitlist_join(waitlist=dp_list, name="Sam Ortiz", by=supervisor)
    floor.get(path)  # what is read once per process (the cache of roles, the time zone)
    two = _queries(floor, path)
    for n in range(3, 21):
        table = table_create(
            cardroom=world.cardroom, name=f"Table {n}", banking="designated_player", by=supervisor
        )
        table_open(table=table, dealer=dealer, by=supervisor)

    twenty = _queries(floor, path)

    page = parse(floor.get(path).content)
    assert len(page.by_id("tables").find_all("tr", class_="open")) == 20
    assert twenty == two, f"{two} queries for 2 tables, {twenty} for 20"


def test_the_rows_of_the_tables_named_alone_with_the_sections_under_them(floor, world):
    dp, house = world.dp_table, world.house_table
    answer = floor.get(reverse("floor-dashboard"), {"tables": f"{house.pk}"})
    assert answer.status_code == 200
    page = parse(answer.content)
    bodies = page.by_id("changed-rows").find_all("tbody")
    assert [body.attrs.get("id") for body in bodies] == [f"rows-{house.pk}"]
    assert page.find_all(id=f"table-{dp.pk}") == []
    cells = [td.text for td in page.by_id(f"table-{house.pk}").find_all("td")]
    assert cells[:3] == ["Table 2 house", "open", "Dee Lee"]
    for section in ("dealers-due", "dashboard-updated", "seat-openings"):
        assert len(page.find_all(id=section)) == 1, section


def test_the_whole_dashboard_has_a_body_of_rows_for_each_table(floor, world):
    page = parse(floor.get(reverse("floor-dashboard")).content)
    ids = [body.attrs.get("id") for body in page.by_id("tables").find_all("tbody")]
    assert ids == [f"rows-{world.dp_table.pk}", f"rows-{world.house_table.pk}"]


@pytest.mark.parametrize("tables", ["", "1,x", "-1", ",".join(str(n) for n in range(1, 22))])
def test_a_bad_list_of_tables_is_refused_naming_the_field(floor, world, tables):
    answer = floor.get(reverse("floor-dashboard"), {"tables": tables})
    assert answer.status_code == 400
    assert answer.content.decode().startswith("tables: ")


def test_the_footer_says_pushed_with_redis_and_polled_without(settings, floor, world):
    settings.REDIS_URL = "redis://127.0.0.1:6379/15"
    pushed = parse(floor.get(reverse("floor-dashboard")).content).by_id("dashboard-updated")
    assert "pushed live as the tables change" in pushed.text
    assert "polled every second while the push is away" in pushed.text
    settings.REDIS_URL = None
    polled = parse(floor.get(reverse("floor-dashboard")).content).by_id("dashboard-updated")
    assert "refreshes every second" in polled.text and "pushed" not in polled.text
