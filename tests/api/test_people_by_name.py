"""People by name in the API's answers: where an answer names a person by id (or by
username), the person's full name stands beside it; the ids stay."""

from __future__ import annotations

import pytest

from patrons import incidents, reviews

pytestmark = pytest.mark.django_db

V = "/api/v1"


def test_an_incident_names_who_reported_it_and_who_followed_it_up(api, world):
    incidents.incident_follow_up(
        incident=world.incident, kind="note", text="Spoke to both", by=world.supervisor
    )
    answer = api(world.supervisor).get(f"{V}/incidents/{world.incident.pk}/").json()
    assert (answer["reported_by"], answer["reported_by_name"]) == (world.dealer.pk, "Dee Lee")
    [entry] = answer["entries"]
    assert (entry["by"], entry["by_name"]) == ("supervisor", "Fran Ortiz")


def test_a_review_names_who_opened_it_and_who_wrote_each_note(api, world):
    reviews.review_note(review=world.review, note="Explained", status="open", by=world.auditor)
    [answer] = api(world.auditor).get(f"{V}/reviews/").json()["results"]
    assert (answer["opened_by"], answer["opened_by_name"]) == (world.auditor.pk, "Ari Kim")
    last = answer["notes"][-1]  # opening the review wrote the first
    assert (last["note"], last["by"], last["by_name"]) == ("Explained", "auditor", "Ari Kim")


def test_the_audit_log_names_each_actor_beside_the_username_it_recorded(api, world):
    world.dp_table  # noqa: B018 - made by the supervisor: events with an actor
    events = api(world.auditor).get(f"{V}/audit/events/?actor={world.supervisor.pk}").json()
    first = events["results"][0]
    assert (first["actor"], first["actor_name"], first["actor_full_name"]) == (
        world.supervisor.pk,
        "supervisor",
        "Fran Ortiz",
    )


def test_a_setting_change_names_who_proposed_it(api, world):
    proposed = world["change"]
    answer = api(world.supervisor).get(f"{V}/tables/{world['dp_table']}/setting-changes/").json()
    change = next(c for c in answer["results"] if c["id"] == proposed)
    assert (change["proposed_by_name"], change["decided_by_name"]) == ("Gus Park", None)
