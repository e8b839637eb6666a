"""The floor's settings read as a form with labels, not field names and JSON; paytables are
shown as tables and typed as ``size:odds``."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import DomainError
from tables import selectors as table_selectors
from tables.models import Table
from tables.services.configuration import table_create
from tables.services.setting_changes import setting_change_propose
from tables.staff_models import SettingChange

from .support import field_errors, form_values, parse, paytable_cells, paytable_read

pytestmark = pytest.mark.django_db


def _page(client, table):
    return parse(client.get(reverse("floor-table", args=[table.pk])).content)


def test_the_settings_in_force_are_labelled_in_words(floor, world):
    page = _page(floor, world.dp_table)
    settings = {
        row.find("th").text: row.find("td").text for row in page.by_id("settings").find_all("tr")
    }
    assert settings["Minimum ante ($)"] == "$5.00"
    assert settings["Bonuses pay"] == "against the DP's hand"
    assert settings["Collection fee from"] == "every spot and the DP"
    assert settings["Collection fee per hand ($)"] == "$1.00"
    assert not any("_" in label for label in settings)  # no field names
    assert "{" not in page.by_id("settings").text  # no JSON


def test_a_paytable_is_shown_as_a_table(floor, world):
    table = _page(floor, world.dp_table).by_id("paytable-flush_paytable")
    assert table.find("caption").text == "Flush Bonus paytable"
    assert paytable_cells(table) == [
        ["Flush of", "Pays"],
        ["4 cards", "2 to 1"],
        ["5 cards", "10 to 1"],
        ["6 cards", "50 to 1"],
        ["7 cards", "200 to 1"],
    ]
    assert paytable_read(table) == "4:2, 5:10, 6:50, 7:200"  # a header, then data rows


def test_the_change_form_has_labels_selects_and_paytables_as_text(floor, world):
    form = _page(floor, world.dp_table).find(
        "form", action=reverse("floor-table-action", args=[world.dp_table.pk, "propose"])
    )
    labels = {label.attrs["for"]: label.text for label in form.find_all("label")}
    assert labels["id_ante_min"] == "Minimum ante ($):"
    assert labels["id_flush_paytable"] == "Flush Bonus paytable:"
    assert (
        form.find("select", name="rake_mode").find("option", value="dp_only").text == "the DP only"
    )
    assert form_values(form)["flush_paytable"] == "4:2, 5:10, 6:50, 7:200"


def test_a_paytable_typed_as_size_odds_is_proposed(floor, world):
    action = reverse("floor-table-action", args=[world.dp_table.pk, "propose"])
    form = _page(floor, world.dp_table).find("form", action=action)
    data = form_values(form) | {"reason": "Promo", "flush_paytable": "4:1, 5:10, 6:100, 7:300"}

    response = floor.post(action, data)

    assert response.status_code == 302
    change = SettingChange.objects.get()
    assert change.new_values == {"flush_paytable": {"4": 1, "5": 10, "6": 100, "7": 300}}


def test_a_paytable_typed_wrong_is_refused_next_to_its_field(floor, world):
    action = reverse("floor-table-action", args=[world.dp_table.pk, "propose"])
    form = _page(floor, world.dp_table).find("form", action=action)
    data = form_values(form) | {"reason": "Promo", "flush_paytable": "4=2"}
    response = floor.post(action, data)
    assert response.status_code == 422
    assert "is not size:odds" in response.text
    assert not SettingChange.objects.exists()


def test_the_change_history_names_settings_in_words(floor, world, supervisor):
    setting_change_propose(
        table=world.dp_table,
        values={"ante_min": "10", "rake_mode": "dp_only"},
        reason="Weekend",
        by=supervisor,
    )
    cell = _page(floor, world.dp_table).find("td", class_="setting-change").text
    assert "Minimum ante ($): 5.00 → 10.00" in cell
    assert "Collection fee from: all players → dp only" in cell
    assert table_selectors.current_settings(world.dp_table).version == 1


def test_a_paytable_change_in_the_history_shows_both_paytables_as_tables(floor, world, supervisor):
    setting_change_propose(
        table=world.dp_table,
        values={"flush_paytable": {"4": 1, "5": 10, "6": 100, "7": 300}},
        reason="Promo",
        by=supervisor,
    )
    cell = _page(floor, world.dp_table).find("td", class_="setting-change")
    old, new = cell.find_all("table", class_="paytable")
    assert (paytable_read(old), paytable_read(new)) == (
        "4:2, 5:10, 6:50, 7:200",
        "4:1, 5:10, 6:100, 7:300",
    )
    assert cell.text.startswith("Flush Bonus paytable: Flush of")
    assert "4:2" not in cell.text  # not as text


# --- table creation --------------------------------------------------------------------------


def test_a_refused_table_creation_keeps_the_table_list(floor, world):
    response = floor.post(
        reverse("floor-table-create"), {"name": "", "banking": "house", "seat_count": "6"}
    )
    assert response.status_code == 422
    rows = parse(response.content).by_id("tables").find_all("tr")[1:]
    assert [row.find_all("a")[0].text for row in rows] == ["Table 1", "Table 2"]


@pytest.mark.parametrize(
    ("fee", "field"),
    [({"rake_amount": "2"}, "rake_amount"), ({"rake_mode": "dp_only"}, "rake_mode")],
)
def test_r12_a_house_banked_table_is_not_given_a_fee_on_the_form(floor, world, fee, field):
    data = {"name": "Table 9", "banking": "house", "seat_count": "6"} | fee
    response = floor.post(reverse("floor-table-create"), data)
    assert response.status_code == 422
    form = parse(response.content).find("form", action=reverse("floor-table-create"))
    assert field_errors(form, field) == ["A house-banked table takes no collection fee (R12)."]
    assert not Table.objects.filter(name="Table 9").exists()


def test_r12_the_service_refuses_a_fee_for_a_house_banked_table_naming_the_field(world, supervisor):
    with pytest.raises(DomainError) as refused:
        table_create(
            cardroom=world.cardroom,
            name="Table 9",
            banking="house",
            settings={"rake_amount": "2"},
            by=supervisor,
        )
    assert refused.value.field == "rake_amount"
    assert "no collection fee" in refused.value.message
    assert not Table.objects.filter(name="Table 9").exists()
