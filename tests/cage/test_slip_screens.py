"""The cage's fills and credits screen: the cashier prepares each fill the floor requested and
signs as themselves, hands the chips to a runner who signs on the cage's device (where the
cardroom sets one), and receives each credit, counting and signing. A refusal shows next to the
slip and writes nothing; other roles do not see the screen."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cage import services
from cage.models import SlipStep
from tests.cage_books import cage_opened
from tests.conftest import PASSWORD, signed

from ..screens.support import parse
from .test_signatures import runner_required

pytestmark = pytest.mark.django_db

CONFIRMED = {"confirmed": "1"}


def action(name: str) -> str:
    return reverse("cage-slip-action", args=[name])


def test_the_cashier_prepares_a_fill_hands_it_to_the_runner_and_receives_a_credit(
    client, floor, people
):
    house, supervisor, dealer = floor["house"], people["supervisor"], people["dealer"]
    runner_required(house.cardroom)
    fill = services.slip_request(table=house, kind="fill", chips={"100": 2}, by=supervisor)
    cage_opened(house.cardroom, people["cashier"])
    client.force_login(people["cashier"])
    page = parse(client.get(reverse("cage-slips")).content)
    waiting = page.by_id(f"prepare-{fill.pk}")
    assert "Fill F-000001 · House · $200.00" in waiting.text
    assert "Requested by Fran Ortiz" in waiting.text
    assert not page.find_all("option")  # nobody is picked from a list
    wrong = client.post(action("prepare"), {"slip": fill.pk, "secret": "not it", **CONFIRMED})
    assert wrong.status_code == 422 and "password or PIN is wrong" in wrong.text
    assert not SlipStep.objects.exists()
    asked = client.post(action("prepare"), {"slip": fill.pk, "secret": PASSWORD})
    assert "Prepares fill F-000001 for House as you: $200.00 in chips leave" in asked.text
    assert not SlipStep.objects.exists()
    prepared = client.post(action("prepare"), {"slip": fill.pk, "secret": PASSWORD, **CONFIRMED})
    assert prepared.status_code == 302
    printed = client.post(reverse("cage-slip-print", args=[fill.pk]))
    assert printed.status_code == 200 and "REPRINT" not in printed.text
    assert "Prepared by the cashier" in printed.text and "Cy Moss (cashier)" in printed.text
    assert "Original: into House's drop box. Duplicate: kept at the cage." in printed.text
    page = parse(client.get(reverse("cage-slips")).content)
    assert page.by_id(f"carry-{fill.pk}")  # now waiting for the runner
    mine = client.post(
        action("carry"), {"slip": fill.pk, "runner": "cashier", "runner_secret": PASSWORD}
    )
    assert mine.status_code == 422 and "on this record already: another person signs" in mine.text
    carried = client.post(
        action("carry"), {"slip": fill.pk, "runner": "cashier2", "runner_secret": PASSWORD}
    )
    assert carried.status_code == 302
    assert [s.step for s in SlipStep.objects.filter(slip=fill)] == ["prepared", "carried"]
    # A credit: the dealer and the floor sign at the table, the runner carries, the cage
    # receives.
    credit = services.slip_request(table=house, kind="credit", chips={"25": 4}, by=supervisor)
    services.slip_dealer_sign(slip=credit, signature=signed(dealer), by=dealer)
    services.slip_supervisor_sign(slip=credit, signature=signed(supervisor), by=supervisor)
    services.slip_carry(slip=credit, signature=signed(people["second_cashier"]), by=supervisor)
    page = parse(client.get(reverse("cage-slips")).content)
    assert "Credit C-000001 · House · $100.00" in page.by_id(f"receive-{credit.pk}").text
    received = client.post(action("receive"), {"slip": credit.pk, "secret": PASSWORD, **CONFIRMED})
    assert received.status_code == 302
    credit.refresh_from_db()
    assert credit.delivery.bank_entry.amount == -100


def test_a_step_out_of_turn_is_refused_on_the_page(client, floor, people):
    credit = services.slip_request(
        table=floor["house"], kind="credit", chips={"25": 4}, by=people["supervisor"]
    )
    client.force_login(people["cashier"])
    response = client.post(action("receive"), {"slip": credit.pk, "secret": PASSWORD, **CONFIRMED})
    assert response.status_code == 422
    assert "Credit C-000001 is not counted and signed by the dealer yet" in response.text
    assert not SlipStep.objects.exists()


def test_only_the_cage_and_the_floor_see_the_cage_slips(client, floor, people):
    for name in ("dealer", "counter", "auditor"):
        client.force_login(people[name])
        assert client.get(reverse("cage-slips")).status_code == 403
    client.force_login(people["supervisor"])
    assert client.get(reverse("cage-slips")).status_code == 200
