"""An incident reported with a table and a hand: the log links them from the layers above
(``tables.IncidentTable``, ``wagers.IncidentHand``), and the API answers with their ids as
before."""

from __future__ import annotations

import pytest

from patrons.models import Incident
from tables.models import IncidentTable
from wagers.models import IncidentHand

pytestmark = pytest.mark.django_db

V = "/api/v1"


def _report(api, world, **where):
    return api(world.supervisor).post(
        f"{V}/incidents/",
        {"cardroom": world.cardroom.pk, "kind": "dispute", "summary": "A payout", **where},
        format="json",
    )


def test_a_hand_names_its_table_and_both_are_linked_and_answered(api, world):
    hand = world.hand_settled
    response = _report(api, world, hand=hand.pk)
    assert response.status_code == 201, response.json()
    answer = response.json()
    assert (answer["table"], answer["hand"]) == (hand.table_id, hand.pk)
    incident = Incident.objects.get(pk=answer["id"])
    assert (incident.at_table.table, incident.at_hand.hand) == (hand.table, hand)
    listed = api(world.supervisor).get(f"{V}/incidents/{incident.pk}/").json()
    assert (listed["table"], listed["hand"]) == (hand.table_id, hand.pk)


def test_an_incident_without_a_table_answers_none_for_both(api, world):
    answer = _report(api, world).json()
    assert (answer["table"], answer["hand"]) == (None, None)
    assert not IncidentTable.objects.exists() and not IncidentHand.objects.exists()


def test_a_hand_of_another_table_is_refused_and_nothing_is_logged(api, world):
    hand = world.hand_settled
    response = _report(api, world, table=world.dp_table.pk, hand=hand.pk)
    assert response.status_code == 422
    assert not Incident.objects.exists() and not IncidentTable.objects.exists()
