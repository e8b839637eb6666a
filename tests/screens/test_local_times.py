"""Every time on the floor and compliance screens is the cardroom's local time, labelled with
its zone; the reports open on the cardroom's current gaming day, and periods are stated in
local time."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone

from patrons.models import Cardroom

from .support import parse

pytestmark = pytest.mark.django_db

LA = "America/Los_Angeles"


def render(text: str, **context) -> str:
    return Template("{% load cardroom %}" + text).render(Context(context))


@pytest.fixture
def in_la(world) -> Cardroom:
    """The screens' cardroom runs on Pacific time (its day starts at 06:00)."""
    Cardroom.objects.filter(pk=world.cardroom.pk).update(time_zone=LA)
    world.cardroom.refresh_from_db()
    return world.cardroom


def test_the_local_filter_shows_a_moment_in_the_active_zone_with_its_label():
    moment = datetime(2026, 1, 15, 22, 5, tzinfo=UTC)
    with timezone.override(LA):
        assert render("{{ t|local }}", t=moment) == "2026-01-15 14:05 PST"
        assert render('{{ t|local:"H:i" }}', t=moment) == "14:05 PST"
        assert render("{{ t|local }}", t=datetime(2026, 7, 1, 19, 0, tzinfo=UTC)).endswith(
            "12:00 PDT"
        )
    with timezone.override("UTC"):
        assert render("{{ t|local }}", t=moment) == "2026-01-15 22:05 UTC"


def test_the_local_filter_shows_nothing_for_no_moment():
    assert render("[{{ t|local }}]", t=None) == "[]"


def test_the_floor_shows_when_a_table_opened_in_the_cardroom_zone(client, supervisor, in_la, world):
    client.force_login(supervisor)
    page = client.get(reverse("floor-table", args=[world.dp_table.pk])).text
    opened = timezone.localtime(world.dp_table.sessions.get().opened_at, timezone=ZoneInfo(LA))
    label = opened.tzname()
    assert f"Open since {opened:%Y-%m-%d %H:%M} {label}" in page
    assert LA in parse(page.encode()).find("header").text


def test_the_audit_log_times_are_local_and_labelled(client, auditor, in_la, world):
    client.force_login(auditor)
    page = client.get(reverse("compliance-audit")).text
    stamps = re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (\w+)", page)
    assert stamps
    assert set(stamps) <= {"PST", "PDT"}


def test_the_audit_search_reads_its_period_in_local_time(client, auditor, in_la, world):
    """A period typed as 00:00–23:59 local is 08:00 UTC on (PST): an event at 07:00 UTC the
    same date falls outside it."""
    client.force_login(auditor)
    response = client.get(
        reverse("compliance-audit"),
        {"start": "2020-01-15T00:00", "end": "2020-01-15T23:59"},
    )
    form = response.context["form"]
    assert form.cleaned_data["start"] == datetime(2020, 1, 15, 8, 0, tzinfo=UTC)


def test_the_report_opens_on_the_cardrooms_current_gaming_day(
    client, auditor, in_la, world, monkeypatch
):
    """At 12:30 UTC on 4 March it is 04:30 in Los Angeles: still gaming day 3 March (the day
    starts at 06:00), though the date in UTC and in LA is the 4th."""
    now = datetime(2026, 3, 4, 12, 30, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: now)
    client.force_login(auditor)
    page = parse(client.get(reverse("compliance-reports")).content)
    assert page.find("input", name="day").attrs["value"] == "2026-03-03"


def test_the_report_states_its_period_in_local_time(client, auditor, in_la, world):
    client.force_login(auditor)
    response = client.get(
        reverse("compliance-reports"), {"table": world.dp_table.pk, "day": "2026-01-15"}
    )
    page = parse(response.content)
    assert page.find(id="report-period").text == "(2026-01-15 06:00 PST – 2026-01-16 06:00 PST)"
    day = page.find("section", id="hold-day").find("h2").text
    assert day.endswith("gaming day 2026-01-15 (2026-01-15 06:00 PST – 2026-01-16 06:00 PST)")


def test_cash_reporting_opens_on_the_gaming_day(client, auditor, in_la, world, monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 3, 4, 12, 30, tzinfo=UTC))
    client.force_login(auditor)
    response = client.get(reverse("law-home"))
    assert response.context["day"] == date(2026, 3, 3)
