"""The cage screens a chip redemption like a buy-in: the cashier is told, neutrally, to call
the floor, and an alert is raised; the floor records what the cardroom then did. The
cardroom's exclusion actions for the state are one CSV, parsed here row by row."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest

from compliance.exclusion_actions import COLUMNS
from patrons.exclusions import ExclusionInput, exclusion_add
from patrons.identity import identity_record
from patrons.models import CashTransaction, Incident

from .conftest import IDENTITY

pytestmark = pytest.mark.django_db

V = "/api/v1"
REDEEM_REFUSED = "This player's chips cannot be redeemed here; call a floor supervisor."


def test_a_redemption_at_the_cage_is_refused_with_call_floor_and_its_outcome_recorded(api, world):
    player = world.new_player
    identity_record(player=player, identity=IDENTITY, by=world.dealer)
    entry = ExclusionInput(kind="self_excluded", name="", starts_on=date(2024, 1, 1),
                           reason="Asked to be excluded")  # fmt: skip
    exclusion = exclusion_add(cardroom=world.cardroom, entry=entry, player=player,
                              by=world.supervisor)  # fmt: skip
    assert world.open_cage
    body = {"player": player.pk, "direction": "out", "chips": {"25": 4}}
    url = f"{V}/cardrooms/{world.cardroom.pk}/cage/player-cash/"

    told = api(world.cashier).post(url, body, format="json")

    assert told.status_code == 409, told.content[:300]
    assert told.json()["error"] == {
        "code": "call_floor", "message": REDEEM_REFUSED, "field": "player"
    }  # fmt: skip
    assert not CashTransaction.objects.filter(player=player).exists()
    [incident] = Incident.objects.filter(kind="exclusion_match", exclusion=exclusion)
    outcome = {"outcome": "chips_held", "text": "Chips held; the player was walked out."}
    recorded = api(world.supervisor).post(
        f"{V}/incidents/{incident.pk}/outcome/", outcome, format="json"
    )
    assert recorded.status_code == 201 and recorded.json()["outcome"] == "chips_held"

    export = api(world.auditor).get(
        f"{V}/cardrooms/{world.cardroom.pk}/exclusion-actions.csv",
        {"start": "2000-01-01", "end": "2100-12-31"},
    )
    assert export.status_code == 200 and export["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(export.content.decode())))
    assert tuple(rows[0].keys()) == COLUMNS
    mine = [row for row in rows if row["exclusion"] == str(exclusion.pk)]
    assert [row["action"] for row in mine] == ["recorded", "matched_refused", "outcome"]
    recorded_row, matched, done = mine
    assert (recorded_row["kind"], recorded_row["list"], recorded_row["term"]) == (
        "self_excluded", "cardroom", "lifetime"
    )  # fmt: skip
    assert recorded_row["by"] == world.supervisor.username
    assert matched["incident"] == str(incident.pk) and matched["by"] == world.cashier.username
    assert (done["outcome"], done["by"]) == ("chips_held", world.supervisor.username)
    assert done["detail"] == "Chips held; the player was walked out."


def test_the_export_is_compliances_and_its_days_run_forward(api, world):
    url = f"{V}/cardrooms/{world.cardroom.pk}/exclusion-actions.csv"
    assert api(world.supervisor).get(url).status_code == 403
    backwards = api(world.auditor).get(url, {"start": "2024-03-02", "end": "2024-03-01"})
    assert backwards.status_code == 422 and backwards.json()["error"]["field"] == "end"
