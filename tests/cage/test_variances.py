"""Variances escalate (N.J.A.C. 13:69D-1.21; Nevada MICS): every rack and drop variance is on
the discrepancy report, however small; over the cardroom's incident threshold ($25 unless set)
it raises a chip-discrepancy incident at its table by itself; over the regulator's ($100) it is
on the regulator's list. The thresholds and the count team's size are the cage's controls."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from cage import services
from cage.models import Variance
from compliance.discrepancies import discrepancies, discrepancies_csv
from core.errors import DomainError, PermissionDenied
from patrons.models import Incident
from tables.models import IncidentTable
from tests.conftest import PASSWORD, signed

from ..api.conftest import token_client
from .conftest import RACK
from .support import DAY

pytestmark = pytest.mark.django_db


def rack_short_five(house, dealer, supervisor):
    """14:05: the shift-change count is $5 short of the books."""
    return services.inventory_count_record(
        table=house,
        kind="shift_change",
        chips={**RACK, "5": RACK["5"] - 1},
        counted_by=signed(dealer),
        signature=signed(supervisor),
        note="A $5 chip missing",
        by=supervisor,
    )


def count_box(table, counter, second_counter, chips=None, cash=None):
    return services.drop_count_record(
        table=table,
        gaming_day=DAY,
        shift="day",
        cash=cash or {},
        chips=chips or {},
        second_counter=signed(second_counter),
        by=counter,
    )


def test_small_variances_raise_no_incident_but_every_one_reaches_the_report(
    floor, clock, supervisor, dealer, counter, second_counter
):
    clock.at("14:05")
    rack = rack_short_five(floor["house"], dealer, supervisor)
    assert Variance.objects.get(record_id=rack.pk, source="rack_count").amount == Decimal("-5.00")
    # The DP box is expected empty: a dollar over (a $1 shortage elsewhere is the same size).
    count_box(floor["dp"], counter, second_counter, chips={"1": 1})
    assert Incident.objects.count() == 0
    rows = discrepancies(floor["house"].cardroom, DAY, DAY)
    # The day shift's box, then the rack's count at the start of the swing shift.
    assert [(r.variance.source, r.variance.shift, r.variance.amount) for r in rows] == [
        ("drop_count", "day", Decimal("1.00")),
        ("rack_count", "swing", Decimal("-5.00")),
    ]
    assert [r.variance.regulator for r in rows] == [False, False]
    assert [r.signed_off for r in rows] == [False, True]  # the rack's verifier signed its note
    csv = discrepancies_csv(rows)
    assert csv.splitlines()[2].startswith("2024-03-01,swing,House,rack_count,")
    assert ",-5.00," in csv and ",1.00," in csv


def test_over_the_threshold_an_incident_is_raised_and_over_the_regulators_it_is_listed(
    floor, clock, counter, second_counter
):
    clock.at("14:05")
    count_box(floor["house"], counter, second_counter, chips={"25": 1, "5": 1})  # $30 over
    count_box(floor["dp"], counter, second_counter, cash={"100": 1, "50": 1})  # $150 over
    over, far_over = Variance.objects.order_by("id")
    assert (over.amount, over.regulator, far_over.regulator) == (
        Decimal("30.00"),
        False,
        True,
    )
    incident = over.incident
    assert (incident.kind, incident.reported_by) == ("chip_discrepancy", counter)
    assert "House, drop count of the day shift of 2024-03-01: $30.00 over" in incident.summary
    assert IncidentTable.objects.get(incident=incident).table == floor["house"]
    assert far_over.incident is not None
    listed = discrepancies(floor["house"].cardroom, DAY, DAY, regulator_only=True)
    assert [r.variance for r in listed] == [far_over]


def test_a_variance_exactly_at_the_threshold_raises_nothing(
    floor, clock, counter, second_counter, supervisor
):
    services.cage_controls_set(
        cardroom=floor["house"].cardroom, variance_incident_threshold="5", by=supervisor
    )
    clock.at("14:05")
    count_box(floor["house"], counter, second_counter, chips={"5": 1})
    count_box(floor["dp"], counter, second_counter, chips={"5": 1, "1": 1})
    at, above = Variance.objects.order_by("id")
    assert (at.incident, above.incident is not None) == (None, True)


def test_the_cage_controls_are_a_supervisors_and_refused_by_name(
    floor, supervisor, dealer, refusal
):
    cardroom = floor["house"].cardroom
    with refusal(DomainError, field="count_team_size", says="2 to 6"):
        services.cage_controls_set(cardroom=cardroom, count_team_size=1, by=supervisor)
    with refusal(DomainError, field="variance_incident_threshold", says="at most the regulator"):
        services.cage_controls_set(
            cardroom=cardroom, variance_incident_threshold="101", by=supervisor
        )
    with refusal(DomainError, field="variance_regulator_threshold", says="is not an amount"):
        services.cage_controls_set(
            cardroom=cardroom, variance_regulator_threshold="-1", by=supervisor
        )
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor"):
        services.cage_controls_set(cardroom=cardroom, count_team_size=3, by=dealer)
    changed = services.cage_controls_set(
        cardroom=cardroom, count_team_size=3, variance_regulator_threshold="200", by=supervisor
    )
    assert (changed.count_team_size, changed.variance_regulator_threshold) == (3, Decimal("200"))


def test_the_discrepancy_screen_and_its_csv(client, floor, clock, auditor, counter, second_counter):
    clock.at("14:05")
    count_box(floor["dp"], counter, second_counter, chips={"1": 1})
    client.force_login(auditor)
    url = reverse("compliance-discrepancies")
    page = client.get(url, {"start": "2024-03-01", "end": "2024-03-01"})
    assert page.status_code == 200
    assert b"Drop Count" in page.content and b"not signed off" in page.content
    csv = client.get(url, {"start": "2024-03-01", "end": "2024-03-01", "csv": "1"})
    assert csv["Content-Type"] == "text/csv"
    assert b"2024-03-01,day,DP,drop_count,cage.dropcount:" in csv.content
    refused = client.get(url, {"start": "2024-03-02", "end": "2024-03-01"})
    assert b"ends on or after" in refused.content
    client.force_login(counter)
    assert client.get(url).status_code == 403


def test_the_count_sheet_correction_and_controls_through_the_api(
    floor, clock, supervisor, counter, second_counter
):
    cardroom = floor["house"].cardroom
    clock.at("14:05")
    count = count_box(floor["house"], counter, second_counter, chips={"1": 1})
    counting = token_client(counter)
    corrected = counting.post(
        f"/api/v1/drop-counts/{count.pk}/corrections/",
        {
            "chips": {"1": 2},
            "reason": "Typed 1 for 2",
            "initials": "cd",
            "signature": {"secret": PASSWORD},
        },
        format="json",
        HTTP_IDEMPOTENCY_KEY="fix-1",
    )
    assert corrected.status_code == 201, corrected.json()
    body = corrected.json()
    assert (body["total"], body["total_now"], body["variance_now"], body["corrected"]) == (
        "1.00",
        "2.00",
        "2.00",
        True,
    )
    sheet = counting.get(f"/api/v1/cardrooms/{cardroom.pk}/count-sheet/?day=2024-03-01&shift=day")
    assert sheet.status_code == 200
    assert (sheet.json()["number_of_boxes"], sheet.json()["total"]) == (1, "2.00")
    assert sheet.json()["boxes"][0]["corrections"][0]["initials"] == "CD"
    floor_api = token_client(supervisor)
    refused = floor_api.post(
        f"/api/v1/cardrooms/{cardroom.pk}/cage-controls/",
        {"count_team_size": 9},
        format="json",
    )
    assert refused.status_code == 422 and "count_team_size" in str(refused.json())
    ok = floor_api.post(
        f"/api/v1/cardrooms/{cardroom.pk}/cage-controls/",
        {"variance_incident_threshold": "10.00"},
        format="json",
    )
    assert ok.status_code == 200 and ok.json()["variance_incident_threshold"] == "10.00"


def test_a_corrected_count_escalates_its_new_variance_and_the_old_one_stands_superseded(
    floor, clock, counter, second_counter, refusal
):
    clock.at("14:05")
    count = count_box(floor["dp"], counter, second_counter, chips={"1": 2})  # typed: $2 over
    services.drop_count_correct(
        count=count,
        cash={},
        chips={"25": 2},
        reason="The $1 column was the $25 one",
        initials="CD",
        signature=signed(counter),
        by=counter,
    )
    typed, corrected = discrepancies(floor["dp"].cardroom, DAY, DAY)
    assert (typed.variance.amount, typed.current, typed.now) == (
        Decimal("2.00"),
        False,
        Decimal("50.00"),
    )
    assert (corrected.variance.source, corrected.current, corrected.signed_off) == (
        "drop_correction",
        True,
        False,
    )
    assert typed.variance.incident is None and corrected.variance.incident is not None
    with refusal(DomainError, field="amount", says="other than $0.00"):
        services.variance_escalate(
            cardroom=floor["dp"].cardroom,
            source="drop_count",
            record=count,
            amount=Decimal("0.00"),
            by=counter,
        )
