"""The figures of a table's settings in the API (game-math.md) and a cardroom's catalogue of
approved paytables (R17): ``/tables/{id}/math/``, the setting changes' ``figures``, and
``/cardrooms/{id}/paytables/`` with its changes."""

from __future__ import annotations

import pytest

from audit.models import AuditEvent
from tables.staff_models import PaytableChange, SettingChange
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

V = "/api/v1"
HOUSE_FLUSH = {"4": 1, "5": 10, "6": 100, "7": 300}
OLD_FLUSH = {"4": 2, "5": 10, "6": 50, "7": 200}
ALT_FLUSH = {"4": 2, "5": 10, "6": 20, "7": 100}
POSTED_STRAIGHT_FLUSH = {"3": 9, "4": 50, "5": 100, "6": 200, "7": 500}


def test_a_house_tables_math_gives_the_exact_figures_of_its_settings_in_force(api, world):
    table = world.table("House math", banking="house", seats=())
    body = api(world.dealer).get(f"{V}/tables/{table.pk}/math/").json()
    assert (body["table"], body["banking"], body["version"]) == (table.pk, "house", 1)
    assert (body["bonus_mode"], body["flush_paytable"]) == ("paytable", HOUSE_FLUSH)
    assert body["figures"]["flush_bonus"] == {
        "mode": "paytable",
        "return": "0.921928",
        "house_edge": "0.078072",
        "hit_frequency": "0.225936",
        "variance": "28.441748",
        "method": "exact",
    }
    straight = body["figures"]["straight_flush_bonus"]
    assert (straight["return"], straight["hit_frequency"]) == ("0.926115", "0.069969")
    ante = body["figures"]["ante_raise"]
    assert (ante["house_edge"], ante["variance"]) == ("0.026645", "2.659736")
    assert "optimal" in ante["strategy"] and "exact enumeration" in ante["method"]


def test_a_versus_dp_table_s_figures_state_the_strategy_they_assume(api, world):
    body = api(world.auditor).get(f"{V}/tables/{world['dp_table']}/math/").json()
    flush = body["figures"]["flush_bonus"]
    assert (flush["mode"], flush["return"]) == ("versus_dp", "0.927577")
    assert "raises whenever its hand reaches a paid line" in flush["strategy"]


def test_a_pending_change_shows_the_figures_it_would_make_next_to_those_in_force(api, world):
    client = api(world.supervisor)
    response = client.post(
        f"{V}/tables/{world['dp_table']}/setting-changes/",
        {"values": {"bonus_mode": "paytable"}, "reason": "Simpler bonuses"},
        format="json",
    )
    assert response.status_code == 201, response.content
    figures = response.json()["figures"]
    assert figures["in_force"]["flush_bonus"]["return"] == "0.927577"  # versus_dp
    assert figures["proposed"]["flush_bonus"]["return"] == "1.012121"  # judged alone: DP pays
    listed = client.get(f"{V}/tables/{world['dp_table']}/setting-changes/").json()["results"]
    assert listed[0]["figures"] == figures


def test_an_approved_change_keeps_the_figures_of_the_version_it_made_and_the_one_before(api, world):
    table = world.table("House change", banking="house", seats=())
    client = api(world.supervisor)
    change = client.post(
        f"{V}/tables/{table.pk}/setting-changes/",
        {"values": {"straight_flush_paytable": POSTED_STRAIGHT_FLUSH}, "reason": "Posted"},
        format="json",
    )
    assert change.status_code == 422  # not in the catalogue yet
    assert change.json()["error"]["field"] == "straight_flush_paytable"
    proposal = (
        api(world.second_supervisor)
        .post(
            f"{V}/cardrooms/{world['cardroom']}/paytable-changes/",
            {
                "kind": "straight_flush_paytable",
                "lines": POSTED_STRAIGHT_FLUSH,
                "reason": "Posted layout",
            },
            format="json",
        )
        .json()
    )
    approve = client.post(
        f"{V}/paytable-changes/{proposal['id']}/approve/",
        {"signature": {"secret": PASSWORD}},
        format="json",
    )
    assert approve.status_code == 200
    change = client.post(
        f"{V}/tables/{table.pk}/setting-changes/",
        {"values": {"straight_flush_paytable": POSTED_STRAIGHT_FLUSH}, "reason": "Posted"},
        format="json",
    ).json()
    decided = api(world.second_supervisor).post(
        f"{V}/setting-changes/{change['id']}/approve/",
        {"signature": {"secret": PASSWORD}},
        format="json",
    )
    figures = decided.json()["figures"]
    assert (decided.json()["status"], decided.json()["version"]) == ("approved", 2)
    assert figures["proposed"]["straight_flush_bonus"]["return"] == "0.936485"
    assert figures["in_force"]["straight_flush_bonus"]["return"] == "0.926115"


def test_r17_a_house_banked_change_returning_100_percent_is_refused_naming_field_and_figure(
    api, world
):
    table = world.table("House refusal", banking="house", seats=())
    response = api(world.supervisor).post(
        f"{V}/tables/{table.pk}/setting-changes/",
        {"values": {"flush_paytable": OLD_FLUSH}, "reason": "Old layout"},
        format="json",
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert (error["code"], error["field"]) == ("invalid", "flush_paytable")
    assert error["message"].startswith("Flush Bonus returns 101.2121% to players")
    assert not SettingChange.objects.filter(table=table).exists()


def test_the_catalogue_lists_each_approved_paytable_with_its_figures_in_both_modes(api, world):
    body = api(world.dealer).get(f"{V}/cardrooms/{world['cardroom']}/paytables/").json()
    assert [(entry["kind"], entry["text"]) for entry in body] == [
        ("flush_paytable", "4:1, 5:10, 6:100, 7:300"),
        ("flush_paytable", "4:2, 5:10, 6:50, 7:200"),
        ("straight_flush_paytable", "3:8, 4:60, 5:100, 6:500, 7:1000"),
    ]
    figures = body[1]["figures"]
    assert (figures["paytable"]["return"], figures["versus_dp"]["return"]) == (
        "1.012121",
        "0.927577",
    )
    assert body[0]["origin"] == "default"


def test_r17_a_catalogue_change_is_proposed_by_one_supervisor_and_approved_by_another(api, world):
    proposer, approver = api(world.supervisor), api(world.second_supervisor)
    url = f"{V}/cardrooms/{world['cardroom']}/paytable-changes/"
    proposed = proposer.post(
        url, {"kind": "flush_paytable", "lines": ALT_FLUSH, "reason": "Promo"}, format="json"
    )
    assert proposed.status_code == 201, proposed.content
    change = proposed.json()
    assert (change["status"], change["action"], change["decision"]) == ("pending", "add", None)
    assert change["figures"]["paytable"]["return"] == "0.946962"

    own = proposer.post(
        f"{V}/paytable-changes/{change['id']}/approve/",
        {"signature": {"secret": PASSWORD}},
        format="json",
    )
    assert own.status_code == 403
    assert "different floor supervisor" in own.json()["error"]["message"]

    approved = approver.post(
        f"{V}/paytable-changes/{change['id']}/approve/",
        {"signature": {"secret": PASSWORD}},
        format="json",
    ).json()
    assert approved["status"] == "approved"
    assert approved["decision"]["decided_by"] == world.second_supervisor.pk
    assert approved["decision"]["decided_by_name"] == "Gus Park"
    catalogue = proposer.get(f"{V}/cardrooms/{world['cardroom']}/paytables/").json()
    assert "4:2, 5:10, 6:20, 7:100" in [entry["text"] for entry in catalogue]
    history = proposer.get(url).json()["results"]
    assert history[0]["id"] == change["id"]
    assert AuditEvent.objects.filter(action="permission.refused").exists()


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({"kind": "flush_paytable", "lines": {"9": 5}, "reason": "r"}, 422, "lines"),
        ({"kind": "flush_paytable", "lines": HOUSE_FLUSH, "reason": "r"}, 409, "lines"),  # held
        ({"kind": "nothing", "lines": ALT_FLUSH, "reason": "r"}, 400, "kind"),
        (
            {"kind": "flush_paytable", "lines": ALT_FLUSH, "reason": "r", "action": "x"},
            400,
            "action",
        ),
    ],
)
def test_a_bad_catalogue_proposal_is_refused_naming_the_field(api, world, body, status, field):
    response = api(world.supervisor).post(
        f"{V}/cardrooms/{world['cardroom']}/paytable-changes/", body, format="json"
    )
    assert response.status_code == status
    assert response.json()["error"]["field"] == field
    assert not PaytableChange.objects.filter(values__origin="proposed").exists()
