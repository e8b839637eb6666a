"""One person however many records, through the API: the ID refused on a second record
naming the record that holds it, compliance's link, the possible matches and their
resolution, and the player answers naming the person and the linked records."""

from __future__ import annotations

from decimal import Decimal

import pytest

from patrons.cash import cage_cash
from patrons.models import CurrencyTransactionReport
from tables.services.seating import player_create

pytestmark = pytest.mark.django_db

V = "/api/v1"
ID = {
    "date_of_birth": "1980-05-17",
    "id_type": "driver_licence",
    "id_number": "D1234567",
    "id_issuer": "California",
    "id_expires": "2031-05-17",
}


def test_the_id_on_a_second_record_is_refused_then_accepted_once_linked(api, world):
    known, second = world.identified_player, world.new_player
    floor = api(world.supervisor)
    refused = floor.post(f"{V}/players/{second.pk}/identity/", ID, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["field"] == "id_number"
    assert "Ida Known" in refused.json()["error"]["message"]
    linked = api(world.auditor).post(
        f"{V}/players/{second.pk}/link/",
        {"to_player": known.pk, "reason": "One person, two cards"},
        format="json",
    )
    assert linked.status_code == 200
    assert [r["name"] for r in linked.json()["records"]] == ["Ida Known", "Walk-in"]
    assert floor.post(f"{V}/players/{second.pk}/identity/", ID, format="json").status_code == 201


def test_linked_records_cash_makes_one_ctr_for_12000(api, world):
    known, second = world.identified_player, world.new_player
    api(world.auditor).post(
        f"{V}/players/{second.pk}/link/",
        {"to_player": known.pk, "reason": "One person"},
        format="json",
    )
    cage_cash(player=known, direction="in", amount="6000.00", by=world.cashier)
    cage_cash(player=second, direction="in", amount="6000.00", by=world.cashier)
    [ctr] = api(world.auditor).get(f"{V}/cardrooms/{world.cardroom.pk}/ctrs/").json()["results"]
    assert ctr["cash_in"] == "12000.00"
    assert CurrencyTransactionReport.objects.get().cash_in == Decimal("12000.00")


def test_the_player_answer_names_the_person_and_the_linked_records(api, world):
    known, second = world.identified_player, world.new_player
    api(world.auditor).post(
        f"{V}/players/{second.pk}/link/", {"to_player": known.pk, "reason": "One"}, format="json"
    )
    players = api(world.supervisor).get(f"{V}/players/?name=Walk-in").json()["results"]
    [walk_in] = players
    assert walk_in["person"] == known.person_id
    assert walk_in["linked_records"] == [
        {"id": known.pk, "name": "Ida Known", "cardroom": world.cardroom.pk}
    ]


def test_possible_matches_are_listed_open_and_resolved(api, world):
    cardroom = world.cardroom
    first = player_create(cardroom=cardroom, name="Lee Twice", by=world.dealer)
    player_create(cardroom=cardroom, name="LEE  twice", by=world.dealer)
    auditor = api(world.auditor)
    [match] = auditor.get(f"{V}/cardrooms/{cardroom.pk}/person-matches/?status=open").json()[
        "results"
    ]
    assert (match["other"], match["other_name"], match["kind"]) == (
        first.pk,
        "Lee Twice",
        "same_name_no_birth_date",
    )
    bad = auditor.post(
        f"{V}/person-matches/{match['id']}/resolve/",
        {"decision": "perhaps", "reason": "x"},
        format="json",
    )
    assert (bad.status_code, bad.json()["error"]["field"]) == (422, "decision")
    done = auditor.post(
        f"{V}/person-matches/{match['id']}/resolve/",
        {"decision": "linked", "reason": "Same face"},
        format="json",
    )
    assert (done.status_code, done.json()["status"]) == (200, "linked")
    assert done.json()["resolved_by_name"] == "Ari Kim"
    listed = auditor.get(f"{V}/cardrooms/{cardroom.pk}/person-matches/?status=open").json()
    assert listed["results"] == []
    wrong = auditor.get(f"{V}/cardrooms/{cardroom.pk}/person-matches/?status=maybe")
    assert (wrong.status_code, wrong.json()["error"]["field"]) == (422, "status")


def test_a_cardroom_is_created_for_a_licensee_and_totals_cash_with_its_sister(api, world):
    admin = api(world.administrator)
    made = admin.post(
        f"{V}/cardrooms/",
        {"name": "API Annex", "licensee": world.cardroom.licensee_id},
        format="json",
    )
    assert made.status_code == 201
    assert made.json()["licensee"] == world.cardroom.licensee_id
    alone = admin.post(f"{V}/cardrooms/", {"name": "API Elsewhere"}, format="json").json()
    assert alone["licensee"] != world.cardroom.licensee_id
    unknown = admin.post(
        f"{V}/cardrooms/", {"name": "API Nowhere", "licensee": 99999}, format="json"
    )
    assert (unknown.status_code, unknown.json()["error"]["field"]) == (400, "licensee")
