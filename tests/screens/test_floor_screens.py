"""The floor supervisor's screens: every table's live status; create a table; propose and
approve setting changes (R17, dual control); open and close tables; correct a settled hand."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from audit.models import AuditEvent
from core.roles import DEALER
from tables import selectors as table_selectors
from tables.models import Table
from tables.services.configuration import table_create
from tables.services.setting_changes import setting_change_propose
from tables.staff_models import SettingChange
from tests.conftest import PASSWORD
from wagers import selectors
from wagers.models import Hand, Settlement

from .support import DEALER_CARDS, STRONG, field_errors, form_values, last_seq, parse

pytestmark = pytest.mark.django_db


def _table_page(client, table):
    response = client.get(reverse("floor-table", args=[table.pk]))
    assert response.status_code == 200
    return parse(response.content)


def _action(table, action: str) -> str:
    return reverse("floor-table-action", args=[table.pk, action])


def _propose(client, table, reason: str = "Busy night", **changes):
    """Post the change form as a browser would: every setting prefilled, ``changes`` typed."""
    form = _table_page(client, table).find("form", action=_action(table, "propose"))
    data = form_values(form) | {"reason": reason} | changes
    return client.post(_action(table, "propose"), data)


def _non_field_errors(page) -> list[str]:
    return [
        li.text
        for ul in page.find("main").find_all("ul", class_="errorlist", role="alert")
        for li in ul.find_all("li")
    ]


# --- all tables ------------------------------------------------------------------------------


def test_the_table_list_shows_each_tables_live_status(floor, world, started, supervisor):
    setting_change_propose(
        table=world.dp_table, values={"ante_min": "10"}, reason="Weekend", by=supervisor
    )
    table_create(cardroom=world.cardroom, name="Table 3", banking="house", by=supervisor)

    page = parse(floor.get(reverse("floor-tables")).content)

    rows = {
        cells[0]: cells[1:]
        for cells in (
            [td.text for td in row.find_all("td")]
            for row in page.by_id("tables").find_all("tr")[1:]
        )
    }
    limits = "ante $5.00–$100.00 bonus $1.00–$25.00"
    assert rows == {
        "Table 1 designated player": [
            "open",
            "Dee Lee",
            "#1 open",
            "3",
            limits,
            "$1.00 every spot and the DP",
            "0",
            "1",
            "Seats and play",
        ],
        "Table 2 house": [
            "open",
            "Dee Lee",
            "",
            "2",
            limits,
            "no fee",
            "0",
            "",
            "Seats and play",
        ],
        "Table 3 house": [
            "closed",
            "",
            "",
            "0",
            limits,
            "no fee",
            "0",
            "",
            "Seats and play",
        ],
    }


def test_the_dashboard_counts_the_hands_settled_in_the_last_hour(floor, world, settled):
    page = parse(floor.get(reverse("floor-dashboard")).content)
    row = page.by_id(f"table-{world.dp_table.pk}")
    assert row.find("td", class_="hands-per-hour").text == "1"
    assert row.find("td", class_="hand").text == ""  # settled: no hand in play


def test_a_supervisor_creates_a_table_and_lands_on_it(floor, world):
    response = floor.post(
        reverse("floor-table-create"),
        {
            "name": "Table 9",
            "banking": "house",
            "seat_count": "6",
            "ante_min": "10",
            "ante_max": "50",
        },
    )

    table = Table.objects.get(name="Table 9")
    assert response.status_code == 302
    assert response["Location"] == reverse("floor-table", args=[table.pk])
    settings = table_selectors.current_settings(table)
    assert (table.banking, table.seat_count, settings.ante_min, settings.ante_max) == (
        "house",
        6,
        10,
        50,
    )


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            {"ante_min": "2"},
            "ante_min",
            "The posted ante limit $2.00 is outside the regulatory bounds $3.00–$100.00 (R5).",
        ),
        (
            {"ante_min": "50", "ante_max": "20"},
            "ante_max",
            "The ante maximum $20.00 is below the minimum $50.00 (R5).",
        ),
        ({"name": "Table 1"}, "name", "Screens Cardroom has a table named 'Table 1' already."),
        ({"seat_count": "8"}, "seat_count", "Ensure this value is less than or equal to 7."),
    ],
)
def test_a_table_the_rules_refuse_is_not_created_and_the_message_is_next_to_the_field(
    floor, world, data, field, message
):
    base = {"name": "Table 9", "banking": "designated_player", "seat_count": "7"}
    base |= {"ante_min": "5", "ante_max": "100"}

    response = floor.post(reverse("floor-table-create"), base | data)

    assert response.status_code == 422
    form = parse(response.content).find("form", action=reverse("floor-table-create"))
    assert field_errors(form, field) == [message]
    assert not Table.objects.filter(name="Table 9").exists()


# --- setting changes (R17) -------------------------------------------------------------------


def test_a_proposal_from_the_prefilled_form_changes_only_what_was_typed(floor, world):
    response = _propose(floor, world.dp_table, ante_min="10.00")

    assert response.status_code == 302
    change = SettingChange.objects.get()
    assert change.new_values == {"ante_min": "10.00"}
    assert change.old_values == {"ante_min": "5.00"}
    assert change.status == "pending"
    page = _table_page(floor, world.dp_table)
    row = page.by_id("changes").find_all("tr")[1]
    assert "pending" in row.text and "Busy night" in row.text
    assert [b.text for b in row.find_all("button")] == ["Approve and sign", "Reject", "Withdraw"]


def test_a_change_that_breaks_R5_is_refused_next_to_that_setting(floor, world):
    response = _propose(floor, world.dp_table, ante_max="500")

    assert response.status_code == 422
    form = parse(response.content).find("form", action=_action(world.dp_table, "propose"))
    assert field_errors(form, "ante_max") == [
        "The posted ante limit $500.00 is outside the regulatory bounds $3.00–$100.00 (R5)."
    ]
    assert field_errors(form, "ante_min") == []
    assert form.find("input", name="ante_max").attrs["value"] == "500"
    assert not SettingChange.objects.exists()


def test_a_bonus_minimum_above_its_maximum_is_refused_next_to_the_maximum(floor, world):
    response = _propose(floor, world.dp_table, bonus_min="20", bonus_max="10")
    form = parse(response.content).find("form", action=_action(world.dp_table, "propose"))
    assert field_errors(form, "bonus_max") == [
        "The bonus maximum $10.00 is below the minimum $20.00 (R5)."
    ]


def test_a_proposal_that_changes_nothing_is_refused_next_to_the_reason(floor, world):
    response = _propose(floor, world.dp_table)
    assert response.status_code == 422
    form = parse(response.content).find("form", action=_action(world.dp_table, "propose"))
    assert field_errors(form, "reason") == ["The proposed values are the table's current values."]


def test_a_proposal_needs_a_reason(floor, world):
    response = _propose(floor, world.dp_table, reason="", ante_min="10")
    form = parse(response.content).find("form", action=_action(world.dp_table, "propose"))
    assert field_errors(form, "reason") == ["This field is required."]


def test_another_supervisor_approves_a_proposed_change(
    client, world, supervisor, second_supervisor
):
    change = setting_change_propose(
        table=world.dp_table, values={"ante_min": "10"}, reason="Weekend", by=supervisor
    )
    client.force_login(second_supervisor)

    response = client.post(
        _action(world.dp_table, "approve"),
        {"change": change.pk, "secret": PASSWORD, "confirmed": "1"},
    )

    assert response.status_code == 302
    change.refresh_from_db()
    assert change.status == "approved" and change.decided_by == second_supervisor
    assert not change.self_approved
    page = _table_page(client, world.dp_table)
    assert page.find_all("h2")[0].text == "Settings · version 2"
    settings = {
        row.find("th").text: row.find("td").text for row in page.by_id("settings").find_all("tr")
    }
    assert settings["Minimum ante ($)"] == "$10.00"
    status = page.by_id("changes").find_all("tr")[1].find_all("td")[4].text
    assert status.startswith("approved by Gus Park") and status.endswith("→ v2")


def test_approving_your_own_change_is_refused_with_the_message(floor, world, supervisor):
    change = setting_change_propose(
        table=world.dp_table, values={"ante_min": "10"}, reason="Weekend", by=supervisor
    )
    before = last_seq()

    response = floor.post(
        _action(world.dp_table, "approve"),
        {"change": change.pk, "secret": PASSWORD, "confirmed": "1"},
    )

    assert response.status_code == 422
    message = "A change needs approval by a different floor supervisor (R17 dual control)."
    assert _non_field_errors(parse(response.content)) == [message]
    change.refresh_from_db()
    assert change.status == "pending"
    assert table_selectors.current_settings(world.dp_table).version == 1
    [event] = AuditEvent.objects.filter(seq__gt=before)
    assert event.action == "permission.refused" and event.actor_id == supervisor.pk
    assert json.loads(event.payload)["message"] == message


def test_a_change_is_rejected_or_withdrawn_from_the_screen(
    client, world, supervisor, second_supervisor
):
    first = setting_change_propose(
        table=world.dp_table, values={"ante_min": "10"}, reason="One", by=supervisor
    )
    second = setting_change_propose(
        table=world.dp_table, values={"ante_max": "50"}, reason="Two", by=supervisor
    )
    client.force_login(second_supervisor)
    assert client.post(_action(world.dp_table, "reject"), {"change": first.pk}).status_code == 302
    # Only the proposer may withdraw: another supervisor is refused, and told why.
    response = client.post(_action(world.dp_table, "withdraw"), {"change": second.pk})
    assert response.status_code == 422
    assert _non_field_errors(parse(response.content)) == [
        "Only the supervisor who proposed a change may withdraw it."
    ]
    client.force_login(supervisor)
    assert (
        client.post(_action(world.dp_table, "withdraw"), {"change": second.pk}).status_code == 302
    )
    statuses = {change.pk: change.status for change in SettingChange.objects.all()}
    assert statuses == {first.pk: "rejected", second.pk: "withdrawn"}
    # A decided change cannot be decided again.
    response = client.post(
        _action(world.dp_table, "approve"),
        {"change": first.pk, "secret": PASSWORD, "confirmed": "1"},
    )
    assert _non_field_errors(parse(response.content)) == ["This change was rejected already."]


# --- open, close, dealer ---------------------------------------------------------------------


def test_a_table_with_a_hand_in_progress_is_not_closed(floor, world, started):
    response = floor.post(_action(world.dp_table, "close"), {"confirmed": "1"})
    assert response.status_code == 422
    assert _non_field_errors(parse(response.content)) == [
        "Table 1 has a hand in progress: settle it or declare it dead first."
    ]
    assert table_selectors.open_session(world.dp_table) is not None


def test_a_table_is_closed_and_opened_again_with_a_dealer(floor, world, dealer):
    assert floor.post(_action(world.dp_table, "close"), {"confirmed": "1"}).status_code == 302
    assert table_selectors.open_session(world.dp_table) is None
    page = _table_page(floor, world.dp_table)
    form = page.find("form", action=_action(world.dp_table, "open"))
    options = {o.text: o.attrs["value"] for o in form.find("select").find_all("option")}
    assert options == {"---------": "", "Dee Lee (dealer)": str(dealer.pk)}

    response = floor.post(_action(world.dp_table, "open"), {"dealer": ""})
    assert response.status_code == 422
    form = parse(response.content).find("form", action=_action(world.dp_table, "open"))
    assert field_errors(form, "dealer") == ["This field is required."]

    assert floor.post(_action(world.dp_table, "open"), {"dealer": dealer.pk}).status_code == 302
    assert table_selectors.open_session(world.dp_table).dealer == dealer


def test_the_dealer_on_duty_is_changed(floor, world, make_user):
    relief = make_user("relief", role=DEALER)
    response = floor.post(_action(world.dp_table, "dealer"), {"dealer": relief.pk})
    assert response.status_code == 302
    assert table_selectors.open_session(world.dp_table).dealer == relief
    assert "dealer on duty relief" in _table_page(floor, world.dp_table).find("main").text


# --- a settled hand and its correction -------------------------------------------------------


def test_a_settled_hand_shows_its_settlement(floor, settled):
    page = parse(floor.get(reverse("floor-hand", args=[settled.pk])).content)
    [entry] = page.find_all("div", class_="panel")[:1]
    assert "Entry 1 · original" in entry.text
    assert "House fee +3.00 · dealer net -21.00" in entry.text
    rows = [[td.text for td in tr.find_all("td")] for tr in entry.find("table").find_all("tr")]
    assert rows[1:] == [
        ["Seat 1", "Avery", "played", "1.00", "+29.00"],
        ["Seat 5", "Casey", "folded", "1.00", "-11.00"],
    ]


def test_a_correction_with_a_card_dealt_twice_is_refused_next_to_that_seat(floor, settled):
    cards = "Qh 8h 3d 4c Td 6s Ks"  # Ks is the dealer's
    response = floor.post(
        reverse("floor-hand", args=[settled.pk]),
        {"reason": "Misread", "corrects": settled.settlements.get().pk, "cards_5": cards},
    )

    assert response.status_code == 422
    form = parse(response.content).find("main").find("form", method="post")
    assert field_errors(form, "cards_5") == [
        "Ks is already in the dealer's cards: a card is dealt once (R1)."
    ]
    assert field_errors(form, "cards_1") == []
    assert settled.settlements.count() == 1


def test_a_correction_needs_a_reason_and_a_change(floor, settled):
    url = reverse("floor-hand", args=[settled.pk])
    corrects = settled.settlements.get().pk
    response = floor.post(url, {"reason": "", "corrects": corrects, "cards_5": ""})
    form = parse(response.content).find("main").find("form", method="post")
    assert field_errors(form, "reason") == ["This field is required."]

    response = floor.post(
        url, {"reason": "Recount", "corrects": corrects, "dealer_cards": DEALER_CARDS}
    )
    assert response.status_code == 422
    assert _non_field_errors(parse(response.content)) == ["The correction changes no result."]


def test_a_correction_adds_a_reversal_and_a_new_settlement(floor, settled, world):
    # The dealer's hand was misread: 8-7-4 of spades does not qualify (R4), so seat 1's raise
    # pushes (R9) where it had won.
    dealer_cards = "8s 7s 4s 2c 7h 8c 3c"
    response = floor.post(
        reverse("floor-hand", args=[settled.pk]),
        {
            "reason": "Dealer's hand misread",
            "corrects": settled.settlements.get().pk,
            "dealer_cards": dealer_cards,
            "cards_1": STRONG,
        },
    )

    assert response.status_code == 302
    kinds = list(settled.settlements.order_by("entry").values_list("kind", flat=True))
    assert kinds == [Settlement.Kind.ORIGINAL, Settlement.Kind.REVERSAL, Settlement.Kind.CORRECTION]
    in_force = selectors.settlement_in_force(Hand.objects.get(pk=settled.pk))
    assert {s["seat"]: s["net"] for s in in_force.result["spots"]} == {1: "19.00", 5: "-11.00"}
    page = parse(floor.get(reverse("floor-hand", args=[settled.pk])).content)
    text = page.find("main").text
    assert "Entry 2 · reversal" in text and "Entry 3 · correction" in text
    assert "Dealer's hand misread" in text


def test_a_new_table_takes_its_limits_bonus_mode_and_fee_from_the_form(client, supervisor, world):
    client.force_login(supervisor)
    response = client.post(
        reverse("floor-table-create"),
        {
            "name": "Table 9",
            "banking": "designated_player",
            "seat_count": "6",
            "ante_min": "10",
            "ante_max": "50",
            "chip_unit": "5",
            "bonus_min": "5",
            "bonus_max": "25",
            "bonus_mode": "paytable",
            "rake_mode": "dp_only",
            "rake_amount": "5",
        },
    )
    table = Table.objects.get(name="Table 9")
    assert response.status_code == 302
    settings = table.settings_versions.get()
    assert (settings.ante_min, settings.ante_max, settings.chip_unit) == (10, 50, 5)
    assert (settings.bonus_mode, settings.rake_mode, settings.rake_amount) == (
        "paytable",
        "dp_only",
        5,
    )


def test_a_new_house_table_with_a_fee_is_refused_next_to_the_fee_mode(client, supervisor, world):
    client.force_login(supervisor)
    response = client.post(
        reverse("floor-table-create"),
        {"name": "Table 9", "banking": "house", "seat_count": "7", "rake_mode": "all_players"},
    )
    assert response.status_code == 422
    assert "A house-banked table takes no collection fee" in response.text
    assert not Table.objects.filter(name="Table 9").exists()
