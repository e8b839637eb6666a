"""The cashier's screen (/cashier/), as a cashier uses it: open the cage with a witness who
signs on this device, issue the chips into it, sell chips to a player, see the refusal of a
sale the cage cannot cover at the top of its form, read the chips in circulation (and its
CSV). Each form's fields have ids of their own. Floor supervisors and compliance read it; only
the cashier records."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

import pytest
from django.urls import reverse

from cage import cashier_books
from cage.models import CageEntry
from tests.conftest import PASSWORD

from ..screens.support import parse

pytestmark = pytest.mark.django_db


def pieces(kind: str, **given: int) -> dict[str, int]:
    """``pieces("chips", d100=5)`` → the form fields ``{"chips_100.00": 5}``."""
    return {f"{kind}_{int(k[1:])}.00": n for k, n in given.items()}


OPEN = {
    "kind": "opening",
    "other": "supervisor",
    "other_secret": PASSWORD,
    "secret": PASSWORD,
    **pieces("cash", d100=50),
}
#: The person has read what the action does and confirmed it.
CONFIRMED = {"confirmed": "1"}
#: The cardroom's chips, issued into the cage, the floor supervisor witnessing.
ISSUE = {
    "direction": "issue",
    "reason": "The chip inventory",
    "witness": "supervisor",
    "witness_secret": PASSWORD,
    **pieces("chips", d25=40, d100=10),
}


def test_a_cashier_opens_the_cage_and_sells_chips_from_the_screen(
    client, cardroom, cashier, supervisor, make_player
):
    client.force_login(cashier)
    home = reverse("cashier-home")
    page = parse(client.get(home).content)
    ids = Counter(tag.attrs["id"] for tag in page.find_all(attrs={"id": True}))
    assert [i for i, n in ids.items() if n > 1] == []  # every field id is unique on the page
    assert page.find("input", name="other").attrs["type"] == "text"  # typed, never picked
    asked = client.post(reverse("cashier-action", args=["count"]), OPEN)
    assert asked.status_code == 200 and cashier_books.open_cage_shift(cardroom) is None
    assert parse(asked.content).by_id("confirm-sentence").text == (
        "Opens the cage with its count: $0.00 in chips and $5,000.00 in cash, signed by you "
        "and supervisor."
    )
    opened = client.post(reverse("cashier-action", args=["count"]), OPEN | CONFIRMED)
    assert opened.status_code == 302
    assert cashier_books.open_cage_shift(cardroom).cashier == cashier
    issued = client.post(reverse("cashier-action", args=["issue"]), ISSUE | CONFIRMED)
    assert issued.status_code == 302
    player = make_player("Screen Buyer")
    sale = {"player": player.pk, "direction": "in", **pieces("chips", d100=11), **CONFIRMED}
    refused = client.post(reverse("cashier-action", args=["player-cash"]), sale)
    assert refused.status_code == 422
    assert "The cage holds 10 × $100.00" in refused.text
    assert not CageEntry.objects.filter(kind="chips_sold_for_cash").exists()
    sale.update(pieces("chips", d100=4))
    assert client.post(reverse("cashier-action", args=["player-cash"]), sale).status_code == 302
    assert cashier_books.cage_books(cardroom).cash == Decimal("5400.00")
    shown = parse(client.get(home).content)
    assert "$400.00" in shown.find(id="statement").text  # outstanding: the player's chips
    csv = client.get(reverse("cashier-circulation-csv"))
    assert csv.status_code == 200 and "outstanding,,,400.00" in csv.content.decode()


def test_a_floor_supervisor_reads_the_cage_but_records_nothing(client, supervisor, cardroom):
    client.force_login(supervisor)
    assert client.get(reverse("cashier-home")).status_code == 200
    refused = client.post(reverse("cashier-action", args=["count"]), OPEN | CONFIRMED)
    assert refused.status_code == 403
    assert cashier_books.open_cage_shift(cardroom) is None


def test_a_dealer_does_not_see_the_cage(client, dealer, cardroom):
    client.force_login(dealer)
    assert client.get(reverse("cashier-home")).status_code == 403


def test_the_cashier_lands_on_the_cage(client, cashier, cardroom):
    client.force_login(cashier)
    assert client.get(reverse("home")).url == reverse("cashier-home")


def test_a_redemption_for_an_excluded_player_tells_the_cashier_to_call_the_floor(
    client, cardroom, cashier, supervisor, make_player
):
    from datetime import date

    from patrons.exclusions import ExclusionInput, exclusion_add
    from patrons.models import Incident

    client.force_login(cashier)
    client.post(reverse("cashier-action", args=["count"]), OPEN | CONFIRMED)
    client.post(reverse("cashier-action", args=["issue"]), ISSUE | CONFIRMED)
    player = make_player("Excluded Seller")
    entry = ExclusionInput(kind="self_excluded", name="", starts_on=date(2024, 1, 1),
                           reason="Asked", date_of_birth=date(1980, 1, 1))  # fmt: skip
    exclusion_add(cardroom=cardroom, entry=entry, player=player, by=supervisor)
    redeem = {"player": player.pk, "direction": "out", **pieces("chips", d25=4), **CONFIRMED}
    refused = client.post(reverse("cashier-action", args=["player-cash"]), redeem)
    assert refused.status_code == 422
    assert "chips cannot be redeemed here; call a floor supervisor" in refused.text
    assert "self-excluded" not in refused.text  # the cashier is not told the list
    assert not CageEntry.objects.filter(kind="chips_redeemed").exists()
    assert Incident.objects.filter(kind="exclusion_match", players=player).count() == 1
