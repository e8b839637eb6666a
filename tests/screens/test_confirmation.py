"""Every close asks first and says what it will do, without JavaScript too: the first post
answers a confirmation page (the sentence, the form sealed, Confirm); nothing changes until
Confirm posts it again. The seal hides what was typed (a password is in it), works only for
the person and the URL it was made for, and a tampered one changes nothing. A refusal shows
its reason at the top of the page."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cage import selectors as cage_selectors
from cage import services as cage_services
from cage.models import DropCount, InventoryCount, Slip
from tables import selectors as table_selectors
from tables.services.configuration import table_create
from tables.services.sessions import table_open
from tables.services.setting_changes import setting_change_propose
from tests.conftest import PASSWORD

from .support import last_seq, parse

pytestmark = pytest.mark.django_db

COUNT = {
    "kind": "opening",
    "counted_by": "dealer",
    "counted_by_secret": PASSWORD,
    "secret": PASSWORD,
    "chips_25.00": 40,
    "chips_100.00": 12,
}


@pytest.fixture
def uncounted(world, supervisor, dealer):
    """A house-banked table just opened, its rack not yet counted."""
    table = table_create(cardroom=world.cardroom, name="Table 3", banking="house", by=supervisor)
    table_open(table=table, dealer=dealer, by=supervisor)
    return table


def _confirmation(response) -> tuple[str, dict[str, str]]:
    """The sentence of a confirmation page, and what its Confirm button posts."""
    assert response.status_code == 200
    page = parse(response.content)
    form = page.by_id("confirm-form")
    fields = {
        i.attrs["name"]: i.attrs.get("value", "")
        for i in form.find_all("input")
        if i.attrs.get("name") != "csrfmiddlewaretoken"
    }
    return page.by_id("confirm-sentence").text, fields


def test_a_table_close_asks_first_and_says_who_is_cashed_out(floor, world):
    close = reverse("floor-table-action", args=[world.dp_table.pk, "close"])
    before = last_seq()

    sentence, fields = _confirmation(floor.post(close))

    # 500 + 300 + 400 at the designated-player table.
    assert sentence == "Closes Table 1 and cashes out 3 seated players, $1,200.00 in all."
    assert table_selectors.open_session(world.dp_table) is not None
    assert last_seq() == before  # asked, nothing done
    assert fields["confirmed"] == "1"
    assert floor.post(close, fields).status_code == 302
    assert table_selectors.open_session(world.dp_table) is None


def test_the_table_page_says_the_same_in_its_dialog(floor, world):
    page = parse(floor.get(reverse("floor-table", args=[world.dp_table.pk])).content)
    form = page.find(
        "form", action=reverse("floor-table-action", args=[world.dp_table.pk, "close"])
    )
    assert form.attrs["data-confirm"].startswith(
        "Closes Table 1 and cashes out 3 seated players, $1,200.00 in all."
    )


def test_a_rack_count_shows_its_total_and_seals_the_passwords(floor, uncounted):
    count = reverse("cage-table-action", args=[uncounted.pk, "count"])

    response = floor.post(count, COUNT)
    sentence, fields = _confirmation(response)

    assert sentence == (
        "Records the opening count of Table 3's rack: $2,200.00 in chips (40×$25.00, "
        "12×$100.00), counted by dealer and verified by you."
    )
    assert PASSWORD not in response.text  # what was typed is sealed, not readable
    assert not InventoryCount.objects.filter(table=uncounted).exists()
    assert floor.post(count, fields).status_code == 302
    assert InventoryCount.objects.get(table=uncounted).total == 2200


def test_a_closing_count_says_it_closes_the_table_and_cashes_out(floor, world, clock):
    count = reverse("cage-table-action", args=[world.house_table.pk, "count"])
    sentence, _ = _confirmation(floor.post(count, {**COUNT, "kind": "closing"}))
    assert sentence.endswith("closes Table 2 and cashes out 2 seated players, $400.00 in all.")


def test_a_seal_works_only_untouched_for_its_person_and_url(client, uncounted, supervisor):
    count = reverse("cage-table-action", args=[uncounted.pk, "count"])
    void = reverse("cage-table-action", args=[uncounted.pk, "void"])
    client.force_login(supervisor)
    _, fields = _confirmation(client.post(count, COUNT))
    tampered = {**fields, "sealed": fields["sealed"][:-4] + "AAAA"}
    before = last_seq()

    refused = client.post(count, tampered)
    elsewhere = client.post(void, fields)

    assert [refused.status_code, elsewhere.status_code] == [400, 400]
    assert "Nothing was done" in refused.text
    assert not InventoryCount.objects.filter(table=uncounted).exists()
    assert not Slip.objects.exists()
    assert last_seq() == before


def test_a_seal_is_of_no_use_to_another_person(client, uncounted, supervisor, second_supervisor):
    count = reverse("cage-table-action", args=[uncounted.pk, "count"])
    client.force_login(supervisor)
    _, fields = _confirmation(client.post(count, COUNT))
    client.force_login(second_supervisor)
    before = last_seq()

    assert client.post(count, fields).status_code == 400
    assert not InventoryCount.objects.filter(table=uncounted).exists()
    assert last_seq() == before


def test_a_form_that_is_not_valid_is_refused_without_asking(floor, world):
    count = reverse("cage-table-action", args=[world.house_table.pk, "count"])
    response = floor.post(count, {**COUNT, "chips_25.00": -1})
    assert response.status_code == 422
    assert "confirm-form" not in response.text


def test_a_void_and_a_signature_say_what_they_do(floor, world, supervisor):
    slip = cage_services.slip_request(
        table=world.house_table, kind="fill", chips={"100": 5, "25": 4}, by=supervisor
    )
    action = lambda name: reverse("cage-table-action", args=[world.house_table.pk, name])  # noqa: E731
    void, _ = _confirmation(
        floor.post(
            action("void"),
            {"slip": slip.pk, "reason": "Typo", "witness": "dealer", "witness_secret": PASSWORD},
        )
    )
    sign, _ = _confirmation(floor.post(action("sign"), {"slip": slip.pk, "secret": PASSWORD}))
    assert void == (
        "Voids fill F-000001 ($600.00) at Table 2, witnessed by dealer: no chips move, and "
        "its number is never used again."
    )
    assert sign == "Signs fill F-000001 as you: $600.00 in chips go into the rack of Table 2."
    assert not Slip.objects.filter(delivery__isnull=False).exists()
    assert not Slip.objects.filter(void__isnull=False).exists()


def test_a_refused_day_close_shows_its_reason_at_the_top(compliance, world):
    day, _ = cage_selectors.last_shift_over(world.cardroom)  # its shifts are not closed
    response = compliance.post(
        reverse("cage-overview-action", args=["close-day"]),
        {"gaming_day": day.isoformat(), "secret": PASSWORD, "confirmed": "1"},
    )
    assert response.status_code == 422
    alert = parse(response.content).by_id("refusal")
    assert alert.attrs["role"] == "alert"
    assert alert.text.startswith("Refused:") and len(alert.text) > len("Refused: ")


def test_an_approval_says_what_it_signs(floor, world, second_supervisor):
    change = setting_change_propose(
        table=world.dp_table, values={"ante_min": "10"}, reason="Weekend", by=second_supervisor
    )
    approve = reverse("floor-table-action", args=[world.dp_table.pk, "approve"])
    sentence, fields = _confirmation(floor.post(approve, {"change": change.pk, "secret": PASSWORD}))
    assert sentence.startswith(f"Approves and signs change #{change.pk} to Table 1 (minimum ante")
    assert table_selectors.current_settings(world.dp_table).ante_min != 10
    assert floor.post(approve, fields).status_code == 302
    assert table_selectors.current_settings(world.dp_table).ante_min == 10


def test_a_drop_count_says_its_total_before_it_is_recorded(client, world, counter, second_counter):
    client.force_login(counter)
    box = {"table": world.house_table.pk, "cash_100.00": 3, "cash_1.00": 1, "chips_25.00": 2}
    box |= {"second_counter": "counter2", "second_counter_secret": PASSWORD}

    sentence, _ = _confirmation(client.post(reverse("count-record"), box))

    assert sentence == (
        "Records the count of Table 2's drop box: $351.00 (cash $301.00, chips $50.00), counted "
        "by you and counter2."
    )
    assert not DropCount.objects.exists()
