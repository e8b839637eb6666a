"""The compliance screens: the audit log with search, chain verification, the table report with
its fee chart, a player's report, and CSV exports with their progress and download."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.chain import heads_hash
from audit.models import AuditEvent, ChainHead, ChainSweep
from audit.sweep import sweep_step
from compliance import services as compliance_services
from compliance.models import Export, VerificationRun
from rake.models import FeeEntry
from tables.models import Seating
from tables.selectors import gaming_day
from tables.services.setting_changes import setting_change_propose
from tests.audit.support import past_append_only, raw

from .support import field_errors, form_values, last_seq, parse, paytable_cells, paytable_read

pytestmark = pytest.mark.django_db


def _day_window() -> dict[str, str]:
    now = timezone.now()
    fmt = "%Y-%m-%dT%H:%M"
    return {
        "start": (now - timedelta(hours=1)).strftime(fmt),
        "end": (now + timedelta(hours=1)).strftime(fmt),
    }


# --- the audit log ---------------------------------------------------------------------------


def test_the_audit_log_lists_the_newest_events_first(compliance, settled):
    page = parse(compliance.get(reverse("compliance-audit")).content)
    rows = page.by_id("events").find_all("tr")[1:]
    seqs = [int(row.find_all("td")[0].text) for row in rows]
    assert seqs[0] == last_seq()
    assert seqs == sorted(seqs, reverse=True)
    # Event numbers are unique, not gapless (a PostgreSQL sequence): count the events.
    events = AuditEvent.objects.count()
    assert len(rows) == min(50, events)  # 50 a page
    assert f"page 1 of {(events + 49) // 50}" in page.find("main").text


def test_the_audit_log_is_searched_by_actor_and_action(compliance, settled):
    response = compliance.get(
        reverse("compliance-audit"), {"actor": "dealer", "action": "hand.wager"}
    )
    page = parse(response.content)
    rows = [[td.text for td in tr.find_all("td")] for tr in page.by_id("events").find_all("tr")[1:]]
    # The actor by name, the username the chain recorded beside it.
    assert [(row[2], row[3]) for row in rows] == [("Dee Lee dealer", "hand.wager_placed")] * 2
    assert form_values(page.find("main").find("form", method="get")) == {
        "actor": "dealer",
        "action": "hand.wager",
        "start": "",
        "end": "",
    }


def test_a_search_that_matches_nothing_says_so(compliance, world):
    page = parse(compliance.get(reverse("compliance-audit"), {"action": "nothing."}).content)
    assert page.by_id("events").find_all("tr")[1].text == "No events match."


def test_a_malformed_date_in_the_search_is_shown_next_to_it(compliance, world):
    response = compliance.get(reverse("compliance-audit"), {"start": "yesterday"})
    assert response.status_code == 200
    form = parse(response.content).find("main").find("form", method="get")
    assert field_errors(form, "start") == ["Enter a valid date/time."]


def test_verifying_the_chain_says_it_holds_with_its_head(
    compliance, settled, django_capture_on_commit_callbacks
):
    page = parse(compliance.get(reverse("compliance-audit")).content)
    verify = page.by_id("verify")
    assert verify.text == "Verify the chain"
    assert verify.closest("form").attrs["action"] == reverse("compliance-verify")
    head = AuditEvent.objects.order_by("-seq").first()

    with django_capture_on_commit_callbacks(execute=True):
        response = compliance.post(reverse("compliance-verify"))

    # Run as a task once the request commits: the run's page shows its report.
    run = VerificationRun.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("compliance-verification", args=[run.pk])
    response = compliance.get(response["Location"])
    panel = parse(response.content).by_id("verification")
    assert panel.attrs["data-ok"] == "true"
    assert panel.find("p", class_="notice").text == "The chain holds."
    heads = [list(h) for h in ChainHead.objects.values_list("chain", "seq", "hash")]
    assert (
        f"{AuditEvent.objects.count()} events verified in {len(heads)} chains. "
        f"Newest event: #{head.seq}; hash over the chains' heads: {heads_hash(heads)}"
    ) in panel.text
    assert last_seq() == head.seq  # verifying writes nothing


def test_verifying_is_a_post(compliance, world):
    assert compliance.get(reverse("compliance-verify")).status_code == 405
    assert compliance.get(reverse("compliance-verify-books")).status_code == 405


def verify_books(compliance, on_commit):
    with on_commit(execute=True):
        response = compliance.post(reverse("compliance-verify-books"))
    assert response.status_code == 302
    return parse(compliance.get(response["Location"]).content)


def test_verifying_the_books_shows_they_agree_then_the_row_that_does_not(
    compliance, settled, django_capture_on_commit_callbacks
):
    page = parse(compliance.get(reverse("compliance-audit")).content)
    assert page.by_id("verify-books").closest("form").attrs["action"] == reverse(
        "compliance-verify-books"
    )
    panel = verify_books(compliance, django_capture_on_commit_callbacks)
    assert panel.by_id("verification").attrs["data-ok"] == "true"
    assert "The books agree." in panel.by_id("verification").text

    seating = Seating.objects.order_by("pk").first()
    raw("UPDATE tables_seating SET stack = stack + 1000 WHERE id = %s", [seating.pk])
    panel = verify_books(compliance, django_capture_on_commit_callbacks)
    verification = panel.by_id("verification")
    assert verification.attrs["data-ok"] == "false"
    assert f"The books do not agree at tables_seating #{seating.pk}." in verification.text


def test_a_running_verification_polls_its_progress(compliance, auditor):
    run = VerificationRun.objects.create(
        kind="books", requested_by=auditor, requested_at=timezone.now(), status="running",
        progress=40,
    )  # fmt: skip
    panel = parse(compliance.get(reverse("compliance-verification", args=[run.pk])).content)
    verification = panel.by_id("verification")
    assert verification.attrs["data-status"] == "running"
    assert verification.attrs["hx-get"] == reverse("compliance-verification", args=[run.pk])
    assert "40% running" in verification.text


# --- reports ---------------------------------------------------------------------------------


def test_the_table_report_draws_fees_per_hour_as_24_bars(compliance, settled, world):
    day = gaming_day(world.cardroom, settled.settled_at)
    page = parse(
        compliance.get(
            reverse("compliance-reports"), {"table": world.dp_table.pk, "day": day.isoformat()}
        ).content
    )

    chart = page.find("svg", id="fee-chart")
    bars = chart.find_all("rect")
    assert len(bars) == 24
    hours = [t.text for t in chart.find_all("text", class_="hour")]
    assert hours == [f"{(6 + h) % 24:02d}" for h in range(24)]
    tall = [bar for bar in bars if int(bar.attrs["height"]) > 0]
    assert len(tall) == 1  # one hand, its fees in one hour
    assert tall[0].find("title").text.endswith(" 3.00")
    # Readable without hover: the value above its bar, and the axis from $0 to the top.
    assert [t.text for t in chart.find_all("text", class_="value")] == ["3"]
    assert [t.text for t in chart.find_all("text", class_="axis")] == ["$0", "$3"]
    assert page.by_id("fees-total").text == "3.00"
    total = sum(FeeEntry.objects.filter(table=world.dp_table).values_list("amount", flat=True))
    assert f"{total:.2f}" == "3.00"


def test_the_report_page_asks_for_a_table_and_a_day(compliance, world):
    response = compliance.get(reverse("compliance-reports"))
    assert response.status_code == 200
    page = parse(response.content)
    assert page.find_all("svg") == []
    options = page.find("select", name="table").find_all("option")
    assert [o.text for o in options] == ["---------", "Table 1", "Table 2"]

    response = compliance.get(reverse("compliance-reports"), {"table": "999", "day": "soon"})
    form = parse(response.content).find("main").find("form", method="get")
    assert field_errors(form, "table") == [
        "Select a valid choice. That choice is not one of the available choices."
    ]
    assert field_errors(form, "day") == ["Enter a valid date."]


def test_a_players_report_shows_sessions_and_stack_movements(compliance, settled, world):
    player = world.seats[1].player
    page = parse(compliance.get(reverse("compliance-player", args=[player.pk])).content)
    assert page.find("h1").text.startswith("Avery")
    tables = page.find("main").find_all("table")
    sessions = [[td.text for td in tr.find_all("td")] for tr in tables[0].find_all("tr")[1:]]
    assert [(row[0], row[1], row[4]) for row in sessions] == [
        ("Table 1", "1", "529.00")
    ]  # 500 + a net of 29
    reasons = [tr.find_all("td")[2].text for tr in tables[1].find_all("tr")[1:]]
    assert reasons == ["buy_in", "wager", "wager", "payout"]


@pytest.mark.parametrize("days", ["abc", "-3", "99999999"])
def test_a_players_report_survives_an_odd_period(compliance, world, days):
    player = world.seats[1].player
    response = compliance.get(reverse("compliance-player", args=[player.pk]), {"days": days})
    assert response.status_code == 200


# --- exports ---------------------------------------------------------------------------------


def test_an_export_is_built_shows_its_progress_and_then_a_download_link(
    compliance, auditor, settled, media, django_capture_on_commit_callbacks
):
    data = {"kind": "settlements"} | _day_window()

    # Requested: the task is enqueued on commit; before it runs, the row shows its progress
    # bar and polls for news.
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = compliance.post(reverse("compliance-exports"), data)
    assert response.status_code == 302
    assert response["Location"] == reverse("compliance-exports")
    export = Export.objects.get()
    assert export.requested_by == auditor
    page = parse(compliance.get(reverse("compliance-exports")).content)
    row = page.by_id(f"export-{export.pk}")
    assert row.attrs["hx-get"] == reverse("compliance-export", args=[export.pk])
    assert row.attrs["hx-trigger"] == "every 1s"
    bar = row.find("span", role="progressbar")
    assert bar.attrs["aria-valuenow"] == "0"
    assert "0% pending" in row.text
    assert row.find_all("a") == []

    # The task runs (Celery is eager in tests): the polled row now links the file.
    for callback in callbacks:
        callback()
    response = compliance.get(reverse("compliance-export", args=[export.pk]))
    assert response.status_code == 200
    assert "<html" not in response.text
    row = parse(response.content).by_id(f"export-{export.pk}")
    assert "hx-get" not in row.attrs  # done: no more polling
    assert row.find("span", role="progressbar").attrs["aria-valuenow"] == "100"
    link = row.find("a")
    assert link.text == "Download (1 rows)"
    assert link.attrs["href"] == reverse("compliance-export-download", args=[export.pk])

    download = compliance.get(link.attrs["href"])
    assert download.status_code == 200
    assert download["Content-Type"] == "text/csv"
    assert "attachment" in download["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(b"".join(download.streaming_content).decode())))
    assert rows[0][:4] == ["settlement", "hand", "table", "hand_number"]
    assert [(r[2], r[3], r[9], r[10]) for r in rows[1:]] == [("Table 1", "1", "-21.00", "3.00")]


def test_an_export_requested_and_built_at_once_shows_the_link(
    compliance, settled, media, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = compliance.post(
            reverse("compliance-exports"), {"kind": "audit_log"} | _day_window()
        )
    page = parse(compliance.get(response["Location"]).content)
    export = Export.objects.get()
    assert export.status == "done"
    link = page.by_id(f"export-{export.pk}").find("a")
    body = b"".join(compliance.get(link.attrs["href"]).streaming_content).decode()
    assert (
        body.splitlines()[0]
        == "seq,chain,chain_seq,occurred_at,actor,actor_username,action,object_type,object_id,"
        "payload,prev_hash,hash"
    )
    assert len(body.splitlines()) == 1 + export.rows


def test_an_export_whose_period_ends_before_it_starts_is_refused_next_to_the_end(
    compliance, world, media
):
    window = _day_window()
    response = compliance.post(
        reverse("compliance-exports"),
        {"kind": "settlements", "start": window["end"], "end": window["start"]},
    )
    assert response.status_code == 422
    form = parse(response.content).find("main").find("form", method="post")
    assert field_errors(form, "end") == ["The period must end after it starts."]
    assert not Export.objects.exists()


def test_an_export_needs_its_kind_and_period(compliance, world):
    response = compliance.post(reverse("compliance-exports"), {"kind": "everything"})
    assert response.status_code == 422
    form = parse(response.content).find("main").find("form", method="post")
    assert field_errors(form, "kind") == [
        "Select a valid choice. everything is not one of the available choices."
    ]
    assert field_errors(form, "start") == ["This field is required."]


def test_an_unfinished_export_has_nothing_to_download(
    compliance, auditor, world, django_capture_on_commit_callbacks
):
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=False):
        export = compliance_services.export_request(
            kind="settlements", start=now - timedelta(hours=1), end=now, by=auditor
        )
    response = compliance.get(reverse("compliance-export-download", args=[export.pk]))
    assert response.status_code == 404


# --- hold against theoretical (game-math.md) --------------------------------------------------


def _report(client, table, day):
    response = client.get(reverse("compliance-reports"), {"table": table.pk, "day": day})
    assert response.status_code == 200
    return parse(response.content)


def test_the_table_report_shows_hold_against_theoretical_for_the_day_and_the_month(
    compliance, settled, world
):
    """Seat 1 raised with four hearts against the DP's three spades and won its ante, raise
    and Flush Bonus (4:2 versus the DP); seat 5 folded: the DP held -$10, -$10 and +$0."""
    day = gaming_day(world.cardroom, settled.settled_at)
    page = _report(compliance, world.dp_table, day.isoformat())
    section = page.by_id("hold-day")
    assert section.find("h2").text.startswith(
        f"Hold against theoretical · gaming day {day.isoformat()} ({day.isoformat()} 06:00 UTC – "
    )
    assert "No flags" in section.text
    chart = section.find("svg")
    assert chart.attrs["aria-label"].startswith("Actual win against theoretical")
    # Every value is written on the chart: nothing needs a hover to be read.
    texts = [t.text for t in chart.find_all("text")]
    assert texts[0] == "Ante and raise"
    assert texts[1].startswith("actual -10.00 · theoretical +0.53 · band ")
    assert len(chart.find_all("circle")) == 3
    lines = [[td.text for td in tr.find_all("td")] for tr in section.find("table").find_all("tr")]
    assert lines[1][:6] == [
        "every designated player (1 hand)",
        "Ante and raise (ante 20.00, raise 10.00)",
        "2",
        "30.00",
        "-10.00",
        "-33.33%",
    ]
    assert page.by_id("hold-month").find("h2").text.startswith("Hold against theoretical · ")


def test_a_win_outside_its_band_is_flagged_on_the_report_with_its_figures(
    compliance, settled, world, settings
):
    settings.HOLD_BAND_Z = 0  # no room for chance: any win off theoretical is outside
    day = gaming_day(world.cardroom, settled.settled_at)
    section = _report(compliance, world.dp_table, day.isoformat()).by_id("hold-day")
    flags = [p.text for p in section.find_all("p", class_="flag")]
    assert flags[0].startswith(
        "Flag: Table 1, every designated player: Ante and raise won -$10.00 on $30.00 handle"
    )
    assert any(c.attrs["fill"] == "#a61b1b" for c in section.find("svg").find_all("circle"))
    assert section.find_all("tr", class_="flagged")


def test_a_running_export_row_shows_where_the_build_is_and_keeps_polling(
    compliance, auditor, settled, media, django_capture_on_commit_callbacks
):
    """With a worker (Celery on Redis) the build commits its progress as it writes; each poll
    of the row shows it, so the bar moves (docs/production.md, "Workers and exports")."""
    with django_capture_on_commit_callbacks(execute=False):
        compliance.post(reverse("compliance-exports"), {"kind": "settlements"} | _day_window())
    export = Export.objects.get()
    shown = []
    for progress in (5, 35, 70):
        Export.objects.filter(pk=export.pk).update(status=Export.Status.RUNNING, progress=progress)
        row = parse(compliance.get(reverse("compliance-export", args=[export.pk])).content).by_id(
            f"export-{export.pk}"
        )
        assert row.attrs["hx-trigger"] == "every 1s"
        shown.append(row.find("span", role="progressbar").attrs["aria-valuenow"])
    assert shown == ["5", "35", "70"]


def test_a_paytable_change_on_the_report_shows_both_paytables_as_tables(
    compliance, world, supervisor
):
    setting_change_propose(
        table=world.dp_table,
        values={"flush_paytable": {"4": 1, "5": 10, "6": 100, "7": 300}},
        reason="Promo",
        by=supervisor,
    )
    day = gaming_day(world.cardroom, timezone.now())
    changes = _report(compliance, world.dp_table, day.isoformat()).by_id("setting-changes")
    cell = changes.find("td", class_="setting-change")
    old, new = cell.find_all("table", class_="paytable")
    assert paytable_cells(old)[:2] == [["Flush of", "Pays"], ["4 cards", "2 to 1"]]
    assert (paytable_read(old), paytable_read(new)) == (
        "4:2, 5:10, 6:50, 7:200",
        "4:1, 5:10, 6:100, 7:300",
    )
    assert "4:2" not in cell.text


def test_the_audit_log_says_where_beats_rolling_rehash_stands(compliance, settled):
    page = parse(compliance.get(reverse("compliance-audit")).content)
    assert "no whole pass yet." in page.by_id("sweep").text
    assert sweep_step().passed
    page = parse(compliance.get(reverse("compliance-audit")).content)
    assert "the last whole pass ended " in page.by_id("sweep").text
    old = AuditEvent.objects.order_by("seq")[2]
    with past_append_only():
        AuditEvent.objects.filter(pk=old.pk).update(actor_name="someone")
    assert not sweep_step().ok and ChainSweep.objects.get().broken
    text = " ".join(
        parse(compliance.get(reverse("compliance-audit")).content).by_id("sweep").text.split()
    )
    assert (
        f"broken chain {old.chain}: its content does not match its hash (place {old.chain_seq})"
        in text
    )
    assert "no checkpoint is signed until the chain is whole" in text


def test_verifying_the_compliance_state_shows_the_first_row_that_does_not_agree(
    compliance, settled, django_capture_on_commit_callbacks
):
    page = parse(compliance.get(reverse("compliance-audit")).content)
    button = page.by_id("verify-state")
    assert button.closest("form").attrs["action"] == reverse("compliance-verify-state")
    assert compliance.get(reverse("compliance-verify-state")).status_code == 405
    with django_capture_on_commit_callbacks(execute=True):
        response = compliance.post(reverse("compliance-verify-state"))
    page = parse(compliance.get(response["Location"]).content)
    assert page.find("h1").text == "Compliance state verification"
    verification = page.by_id("verification")
    # The screens' personas are put in their groups by fixtures, with no audited role.
    assert verification.attrs["data-ok"] == "false"
    assert "The compliance state does not agree with the audit log at auth_user #" in (
        verification.text
    )
    assert "no audit event gave the account a role" in verification.text
