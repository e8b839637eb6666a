"""What the floor supervisor sees of game math (R17, game-math.md): the figures of a table's
settings in force, a preview and each proposed change next to them, the house-banked
guardrail's refusal with its figure, and the catalogue of approved paytables with its dual
control."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from tables import catalogue
from tables.services.setting_changes import setting_change_propose
from tables.staff_models import PaytableChange, SettingChange
from tests.conftest import PASSWORD, signed

from .support import (
    cells,
    field_errors,
    form_values,
    last_seq,
    parse,
    paytable_cells,
    paytable_read,
    table_rows,
)

pytestmark = pytest.mark.django_db

OLD_FLUSH = {"4": 2, "5": 10, "6": 50, "7": 200}
ALT_FLUSH_TEXT = "4:2, 5:10, 6:20, 7:100"
SIZE_ODDS_TEXT = r"\d:\d+, \d+:"  # a paytable as text ("4:2, 5:10"), not a time ("19:21")


def table_page(client, table):
    response = client.get(reverse("floor-table", args=[table.pk]))
    assert response.status_code == 200
    return parse(response.content)


def rows(table_node) -> list[list[str]]:
    """Each row's data cells; a paytable in a cell is read back as ``4:2, 5:10``, the text
    before it kept (``add Flush Bonus 4:2, …``), its caption (the catalogue's "Flush Bonus")
    a cell of its own before it."""
    return [
        [text for td in cells(tr) if td.tag == "td" for text in _cell(td)]
        for tr in table_rows(table_node)[1:]
    ]


def _cell(td) -> list[str]:
    nested = td.find_all("table", class_="paytable")
    if not nested:
        return [td.text]
    [paytable] = nested
    before = " ".join(
        c.strip() if isinstance(c, str) else c.text
        for c in td.children[: td.children.index(paytable)]
    ).strip()
    caption = [c.text for c in paytable.find_all("caption")]
    return [*caption, f"{before} {paytable_read(paytable)}".strip()]


def post_change(client, table, *, preview: bool = False, **changes):
    """The change form as a browser posts it: every setting prefilled, ``changes`` typed."""
    action = reverse("floor-table-action", args=[table.pk, "propose"])
    form = table_page(client, table).find("form", action=action)
    data = form_values(form) | {"reason": "Floor decision"} | changes
    if preview:
        data |= {"preview": "1", "reason": ""}
    return client.post(action, data)


# --- the table screen --------------------------------------------------------------------------


def test_a_house_table_shows_what_its_settings_in_force_pay(floor, world):
    figures = rows(table_page(floor, world.house_table).by_id("figures"))
    assert figures == [
        ["Flush Bonus", "in force", "paytable", "92.1928%", "7.8072%", "22.5936%"],
        ["Straight Flush Bonus", "in force", "paytable", "92.6115%", "7.3885%", "6.9969%"],
        ["Ante and raise (per ante)", "in force", "optimal play", "–", "2.6645%", "–"],
    ]


def test_r17_a_preview_shows_the_proposed_figures_and_the_refusal_and_writes_nothing(floor, world):
    before = (last_seq(), SettingChange.objects.count())
    response = post_change(
        floor, world.house_table, preview=True, flush_paytable=json.dumps(OLD_FLUSH)
    )
    assert response.status_code == 200
    preview = parse(response.content).by_id("preview")
    assert preview.find(id="preview-refusal").text.startswith(
        "Would be refused (flush_paytable): Flush Bonus returns 101.2121% to players"
    )
    proposed = [row for row in rows(preview.find("table")) if row[1] == "proposed"]
    assert proposed[0][:4] == [
        "",
        "proposed",
        "paytable",
        "101.2121% 100% or more: refused on a house-banked table",
    ]
    assert (last_seq(), SettingChange.objects.count()) == before


def test_r17_proposing_a_house_paytable_at_101_percent_is_refused_next_to_the_field(floor, world):
    before = last_seq()
    response = post_change(floor, world.house_table, flush_paytable=json.dumps(OLD_FLUSH))
    assert response.status_code == 422
    form = parse(response.content).find(
        "form", action=reverse("floor-table-action", args=[world.house_table.pk, "propose"])
    )
    [message] = field_errors(form, "flush_paytable")
    assert message.startswith("Flush Bonus returns 101.2121% to players")
    assert not SettingChange.objects.filter(table=world.house_table).exists()
    assert last_seq() == before


def test_r17_a_pending_change_shows_its_figures_next_to_those_in_force(
    client, world, supervisor, second_supervisor
):
    setting_change_propose(
        table=world.dp_table, values={"bonus_mode": "paytable"}, reason="Simpler", by=supervisor
    )
    client.force_login(second_supervisor)  # the one who approves sees what it pays
    row, under = table_page(client, world.dp_table).by_id("changes").find_all("tr")[1:3]
    figures = rows(under.find("td", class_="change-figures").find("table"))
    assert figures[0] == ["Flush Bonus", "in force", "versus_dp", "92.7577%", "7.2423%", "19.9282%"]
    assert figures[1][:4] == ["", "proposed", "paytable", "101.2121%"]  # a DP table: shown
    assert [b.text for b in row.find_all("button")] == ["Approve and sign", "Reject"]


# --- the catalogue screen ----------------------------------------------------------------------


def catalogue_page(client):
    response = client.get(reverse("floor-paytables"))
    assert response.status_code == 200
    return parse(response.content)


def test_the_catalogue_screen_lists_each_approved_paytable_with_its_figures(floor, world):
    entries = rows(catalogue_page(floor).by_id("catalogue"))
    assert [row[:5] for row in entries] == [
        ["Flush Bonus", "4:1, 5:10, 6:100, 7:300", "92.1928%", "22.5936%", "86.3312%"],
        [
            "Flush Bonus",
            "4:2, 5:10, 6:50, 7:200",
            "101.2121% not for a house-banked table in paytable mode",
            "22.5936%",
            "92.7577%",
        ],
        ["Straight Flush Bonus", "3:8, 4:60, 5:100, 6:500, 7:1000", "92.6115%", "6.9969%",
         "90.0399%"],
    ]  # fmt: skip


def test_r17_a_paytable_proposed_on_the_screen_is_approved_by_another_supervisor(
    client, world, supervisor, second_supervisor
):
    client.force_login(supervisor)
    response = client.post(
        reverse("floor-paytable-action", args=["propose"]),
        {"kind": "flush_paytable", "lines": ALT_FLUSH_TEXT, "action": "add", "reason": "Promo"},
    )
    assert response.status_code == 302
    change = PaytableChange.objects.get(values__origin="proposed")
    assert change.lines == {"4": 2, "5": 10, "6": 20, "7": 100}
    pending = rows(catalogue_page(client).by_id("pending"))
    assert pending[0][1:4] == ["add Flush Bonus 4:2, 5:10, 6:20, 7:100", "94.6962%", "86.2517%"]

    own = client.post(
        reverse("floor-paytable-action", args=["approve"]),
        {"change": change.pk, "secret": PASSWORD},
    )
    assert own.status_code == 422
    assert "different floor supervisor" in parse(own.content).find("main").text

    client.force_login(second_supervisor)
    approved = client.post(
        reverse("floor-paytable-action", args=["approve"]),
        {"change": change.pk, "secret": PASSWORD},
    )
    assert approved.status_code == 302
    texts = [row[1] for row in rows(catalogue_page(client).by_id("catalogue"))]
    assert ALT_FLUSH_TEXT in texts


@pytest.mark.parametrize("lines", ["4-1", "4:1.5", "", "four:one"])
def test_a_malformed_paytable_on_the_screen_is_shown_next_to_the_field(floor, world, lines):
    response = floor.post(
        reverse("floor-paytable-action", args=["propose"]),
        {"kind": "flush_paytable", "lines": lines, "action": "add", "reason": "r"},
    )
    assert response.status_code == 422
    form = parse(response.content).by_id("propose-paytable")
    assert field_errors(form, "lines")
    assert not PaytableChange.objects.filter(values__origin="proposed").exists()


def test_r17_a_paytable_is_retired_from_the_screen_once_a_second_supervisor_approves(
    client, world, supervisor, second_supervisor
):
    client.force_login(supervisor)
    page = catalogue_page(client)
    retire = [
        form
        for form in page.by_id("catalogue").find_all("form")
        if form_values(form)["lines"] == "3:8, 4:60, 5:100, 6:500, 7:1000"
    ][0]
    data = form_values(retire) | {"reason": "Replaced by the 3:9 layout"}
    assert client.post(retire.attrs["action"], data).status_code == 302
    change = PaytableChange.objects.get(values__action="retire")
    catalogue.paytable_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    kinds = [row[0] for row in rows(catalogue_page(client).by_id("catalogue"))]
    assert kinds == ["Flush Bonus", "Flush Bonus"]


@pytest.mark.parametrize("persona", ["dealer", "auditor"])
def test_only_a_floor_supervisor_opens_the_catalogue_screen(client, world, request, persona):
    client.force_login(request.getfixturevalue(persona))
    assert client.get(reverse("floor-paytables")).status_code == 403
    response = client.post(
        reverse("floor-paytable-action", args=["propose"]),
        {"kind": "flush_paytable", "lines": ALT_FLUSH_TEXT, "action": "add", "reason": "r"},
    )
    assert response.status_code == 403
    assert not PaytableChange.objects.filter(values__origin="proposed").exists()


def test_each_paytable_in_the_catalogue_is_a_table_with_its_header(floor, world):
    """Paytables read as tables, not as ``4:1, 5:10`` text (R10: flush size, or
    straight-flush length, to what it pays)."""
    catalogue_table = catalogue_page(floor).by_id("catalogue")
    shown = [
        paytable_cells(row.find("table", class_="paytable"))
        for row in table_rows(catalogue_table)[1:]
    ]
    assert shown[0] == [
        ["Flush of", "Pays"],
        ["4 cards", "1 to 1"],
        ["5 cards", "10 to 1"],
        ["6 cards", "100 to 1"],
        ["7 cards", "300 to 1"],
    ]
    assert shown[2][0] == ["Straight flush of", "Pays"]
    assert shown[2][1:] == [
        ["3 cards", "8 to 1"],
        ["4 cards", "60 to 1"],
        ["5 cards", "100 to 1"],
        ["6 cards", "500 to 1"],
        ["7 cards", "1000 to 1"],
    ]
    assert not re.search(SIZE_ODDS_TEXT, catalogue_table.text)


def test_a_pending_and_a_decided_change_show_their_paytable_as_a_table(
    client, world, supervisor, second_supervisor
):
    client.force_login(supervisor)
    change = catalogue.paytable_change_propose(
        cardroom=world.cardroom,
        kind="flush_paytable",
        lines={"4": 2, "5": 10, "6": 20, "7": 100},
        reason="Promo",
        by=supervisor,
    )
    pending = catalogue_page(client).by_id("pending")
    [paytable] = pending.find_all("table", class_="paytable")
    assert paytable_cells(paytable)[:2] == [["Flush of", "Pays"], ["4 cards", "2 to 1"]]
    assert paytable_read(paytable) == ALT_FLUSH_TEXT
    assert not re.search(SIZE_ODDS_TEXT, pending.text)

    catalogue.paytable_change_approve(
        change=change, signature=signed(second_supervisor), by=second_supervisor
    )
    decided = catalogue_page(client).by_id("decided")
    [paytable] = decided.find_all("table", class_="paytable")
    assert paytable_read(paytable) == ALT_FLUSH_TEXT
    assert not re.search(SIZE_ODDS_TEXT, decided.text)
