"""The cage through the API: the cashier opens the cage (a witness signing in the request),
hands it to the next cashier (both signing), records its transactions and players' cash,
issues chips, and reads the chips in circulation (JSON and CSV); refusals answer in the one
error shape, naming the field, and write nothing."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from cage.models import CageCount, CageEntry
from tests.conftest import PASSWORD

from ..api.conftest import token_client

pytestmark = pytest.mark.django_db

V = "/api/v1"


def test_a_cashiers_shift_runs_through_the_api(
    cardroom, clock, cashier, second_cashier, supervisor, make_player, identify
):
    cage, url = token_client(cashier), f"{V}/cardrooms/{cardroom.pk}/cage"
    opened = cage.post(
        f"{url}/counts/",
        {
            "kind": "opening",
            "chips": {"25": 40, "100": 10},
            "cash": {"100": 50},
            "signature": {"secret": PASSWORD},
            "other": {"username": supervisor.username, "secret": PASSWORD},
        },
        format="json",
    )
    assert opened.status_code == 201, opened.json()
    assert (opened.json()["outgoing_name"], opened.json()["incoming_name"]) == (
        "Fran Ortiz",
        "Cy Moss",
    )
    player = make_player("Api Buyer")
    sold = cage.post(
        f"{url}/player-cash/",
        {"player": player.pk, "direction": "in", "chips": {"100": 3}},
        format="json",
    )
    assert sold.status_code == 201 and sold.json()["cash"] == "300.00"
    assert sold.json()["player"] == player.pk
    vault = cage.post(
        f"{url}/entries/",
        {"kind": "cash_to_vault", "cash": "1000", "reference": "Vault bag 12"},
        format="json",
    )
    assert vault.status_code == 201 and vault.json()["cash"] == "-1000.00"
    state = cage.get(f"{url}/").json()
    assert (state["open"], state["cashier_name"], state["cash"]) == (True, "Cy Moss", "4300.00")
    handed = cage.post(
        f"{url}/counts/",
        {
            "kind": "handover",
            "chips": {"25": 40, "100": 7},
            "cash": {"100": 43},
            "signature": {"secret": PASSWORD},
            "other": {"username": second_cashier.username, "secret": PASSWORD},
        },
        format="json",
    )
    assert handed.status_code == 201 and handed.json()["variance"] == "0.00"
    # No chips were issued: chips counted into the cage from nowhere show as a negative
    # outstanding, never hidden.
    statement = token_client(supervisor).get(f"{url}/circulation/").json()
    assert (statement["cage"], statement["outstanding"]) == ("1700.00", "-1700.00")
    csv = token_client(supervisor).get(f"{url}/circulation/csv/")
    assert csv["Content-Type"] == "text/csv" and b"outstanding,,,-1700.00" in csv.content


def test_a_refusal_names_its_field_and_writes_nothing(
    cardroom, cashier, second_cashier, supervisor
):
    url = f"{V}/cardrooms/{cardroom.pk}/cage"
    token_client(cashier).post(
        f"{url}/counts/",
        {
            "kind": "opening",
            "chips": {"100": 10},
            "cash": {},
            "signature": {"secret": PASSWORD},
            "other": {"username": supervisor.username, "secret": PASSWORD},
        },
        format="json",
    )
    before = (CageEntry.objects.count(), CageCount.objects.count(), AuditEvent.objects.count())
    other = token_client(second_cashier).post(
        f"{url}/entries/", {"kind": "fill_sent", "chips": {"100": 1}}, format="json"
    )
    assert other.status_code == 422 and other.json()["error"]["field"] == "cashier"
    short = token_client(cashier).post(
        f"{url}/entries/", {"kind": "fill_sent", "chips": {"100": 11}}, format="json"
    )
    assert short.status_code == 409 and short.json()["error"]["field"] == "chips.100.00"
    floor = token_client(supervisor).post(
        f"{url}/entries/", {"kind": "fill_sent", "chips": {"100": 1}}, format="json"
    )
    assert floor.status_code == 403
    after = (CageEntry.objects.count(), CageCount.objects.count())
    assert after == before[:2]
    # Only the refused permission is on the audit log.
    new = AuditEvent.objects.order_by("-seq")[: AuditEvent.objects.count() - before[2]]
    assert {e.action for e in new} <= {"permission.refused"}
