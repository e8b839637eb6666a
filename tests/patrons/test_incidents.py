"""The incident log under the runtime role: an incident is append-only, so its follow-ups are
not serialised by locking its row (the runtime role may not) but by a lock of their own; two
closures at once close it once."""

from __future__ import annotations

import pytest
from django.db import connection

from core.errors import Conflict
from patrons.incidents import incident_follow_up, incident_report
from patrons.models import IncidentEntry
from tests.tables.test_concurrency import at_once

pytestmark = pytest.mark.django_db


@pytest.fixture
def incident(cardroom, dealer):
    return incident_report(
        cardroom=cardroom, kind="dispute", summary="A player disputes a payout", by=dealer
    )


def test_follow_ups_are_new_entries_and_a_closed_incident_takes_no_more(
    incident, supervisor, auditor
):
    incident_follow_up(incident=incident, kind="note", text="Spoke to both", by=supervisor)
    incident_follow_up(incident=incident, kind="closed", text="Paid as settled", by=auditor)
    with pytest.raises(Conflict, match="is closed"):
        incident_follow_up(incident=incident, kind="note", text="Too late", by=supervisor)
    kinds = list(IncidentEntry.objects.filter(incident=incident).values_list("kind", flat=True))
    assert sorted(kinds) == ["closed", "note"]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="real concurrent connections")
@pytest.mark.django_db(transaction=True)
def test_two_closures_at_once_close_the_incident_once(cardroom, dealer, supervisor, auditor):
    for attempt in range(3):
        incident = incident_report(
            cardroom=cardroom, kind="dispute", summary=f"Dispute {attempt}", by=dealer
        )
        answers = at_once(
            *(
                lambda who=who, incident=incident: incident_follow_up(
                    incident=incident, kind="closed", text="Resolved", by=who
                )
                for who in (supervisor, auditor)
            )
        )
        closed = [a for a in answers if isinstance(a, IncidentEntry)]
        refused = [a for a in answers if isinstance(a, Conflict)]
        assert (len(closed), len(refused)) == (1, 1), answers
        assert IncidentEntry.objects.filter(incident=incident, kind="closed").count() == 1
