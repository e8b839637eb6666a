"""The floor's exclusion page shows each entry's term and end date and offers "Propose
ending" for a house bar only (asking first); the incident log records an exclusion match's
outcome; compliance's Law page links the exclusion actions export."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.urls import reverse

from patrons.exclusions import ExclusionInput, exclusion_add
from patrons.incidents import incident_report
from patrons.models import Exclusion, IncidentEntry
from tables.services.exclusion_ends import exclusion_end_propose
from tables.staff_models import ExclusionEndChange
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def add(cardroom, by, **kwargs):
    values = {"kind": "barred", "name": "Robin Vale", "starts_on": date(2024, 1, 1),
              "reason": "Cheating", "date_of_birth": date(1980, 5, 17)} | kwargs  # fmt: skip
    return exclusion_add(cardroom=cardroom, entry=ExclusionInput(**values), by=by)


def test_the_floor_sees_terms_and_may_propose_ending_a_house_bar_only(client, world, supervisor):
    bar = add(world.cardroom, supervisor)
    add(world.cardroom, supervisor, kind="self_restricted", name="Sam Hale",
        term="one_year", date_of_birth=date(1970, 1, 2))  # fmt: skip
    client.force_login(supervisor)
    page = client.get(reverse("law-exclusions")).content.decode()
    assert "one year" in page and "2024-12-31" in page and "never (lifetime)" in page
    assert page.count("Propose ending") == 1
    url = reverse("law-exclusion-end-proposal", kwargs={"pk": bar.pk})
    body = {"ends_on": "2026-01-01", "reason": "Lifted on appeal"}
    asked = client.post(url, body)
    assert asked.status_code == 200 and b"A second floor supervisor approves it" in asked.content
    assert not ExclusionEndChange.objects.exists()
    done = client.post(url, body | {"confirmed": "1"})
    assert done.status_code == 302
    [change] = ExclusionEndChange.objects.all()
    assert change.exclusion_id == bar.pk and change.decided is None


def test_the_incident_log_records_an_exclusion_matchs_outcome(client, world, supervisor, dealer):
    bar = add(world.cardroom, supervisor)
    incident = incident_report(cardroom=world.cardroom, kind="exclusion_match",
                               summary="Matched at the cage", by=dealer, exclusion=bar)  # fmt: skip
    client.force_login(supervisor)
    assert b"Record the outcome" in client.get(reverse("law-incidents")).content
    response = client.post(
        reverse("law-incident-outcome", kwargs={"pk": incident.pk}),
        {"outcome": "released", "text": "ID checked: not the listed person"},
    )
    assert response.status_code == 302
    entry = IncidentEntry.objects.get(incident=incident, kind="outcome")
    assert entry.outcome == "released"


def test_compliance_exports_the_exclusion_actions_from_the_law_page(client, world, auditor,
                                                                   supervisor):  # fmt: skip
    bar = add(world.cardroom, supervisor)
    client.force_login(auditor)
    assert reverse("law-exclusion-actions-csv").encode() in client.get(reverse("law-home")).content
    export = client.get(reverse("law-exclusion-actions-csv"), {"start": "2000-01-01"})
    rows = list(csv.DictReader(io.StringIO(export.content.decode())))
    assert [(row["action"], row["exclusion"]) for row in rows] == [("recorded", str(bar.pk))]
    assert b'name="start"' in client.get(reverse("law-home")).content  # a period to choose
    bad = client.get(reverse("law-exclusion-actions-csv"), {"start": "1 March"})
    assert bad.status_code == 400 and bad.content.startswith(b"start: ")


def test_a_second_floor_supervisor_approves_a_house_bars_end_signing_on_the_screen(
    client, world, supervisor, second_supervisor
):
    bar = add(world.cardroom, supervisor)
    change = exclusion_end_propose(
        exclusion=bar, ends_on=date(2026, 1, 1), reason="Lifted on appeal", by=supervisor
    )
    client.force_login(supervisor)
    own = client.get(reverse("law-exclusions")).content.decode()
    assert "Withdraw" in own and "Approve" not in own  # the proposer cannot approve
    client.force_login(second_supervisor)
    page = client.get(reverse("law-exclusions")).content.decode()
    assert "Approve" in page and "Lifted on appeal" in page
    url = reverse("law-exclusion-end-decision", kwargs={"pk": change.pk, "action": "approve"})
    asked = client.post(url, {"secret": PASSWORD})
    assert b"You sign it, and the bar ends then." in asked.content
    assert Exclusion.objects.get(pk=bar.pk).ends_on != date(2026, 1, 1)
    wrong = client.post(url, {"secret": "not-the-password", "confirmed": "1"})
    assert wrong.status_code == 422
    assert Exclusion.objects.get(pk=bar.pk).ends_on != date(2026, 1, 1)
    done = client.post(url, {"secret": PASSWORD, "confirmed": "1"})
    assert done.status_code == 302
    assert Exclusion.objects.get(pk=bar.pk).ends_on == date(2026, 1, 1)
    assert ExclusionEndChange.objects.get(pk=change.pk).decided is not None
