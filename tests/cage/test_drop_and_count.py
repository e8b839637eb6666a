"""Drop and count (4 CCR §12384–12385): a box per table and shift with its identifier and its
custody step by step, in order; the count by the cardroom's count team, each member signing as
themselves; the slips' originals found in the box; a mistyped count corrected by an initialled
entry that keeps the original; the count sheet. Every refusal names its field and writes
nothing."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.urls import reverse

from cage import services
from cage.count_sheets import count_sheet, counters_of, drop_count_now, drop_signed_off
from cage.models import DropBox, DropCount, DropCountCounter, DropSlipOriginal, VarianceSignOff
from cage.shift_figures import table_shift_figures
from core.errors import Conflict, DomainError, PermissionDenied
from core.roles import COUNT_TEAM
from tests.conftest import PASSWORD, signed

from ..audit.support import raw
from ..runtime_role import assert_append_only
from ..screens.support import parse
from .support import DAY

pytestmark = pytest.mark.django_db


def count_box(table, by, second, *, chips=None, further=(), originals=()):
    return services.drop_count_record(
        table=table,
        gaming_day=DAY,
        shift="day",
        cash={},
        chips=chips or {},
        second_counter=signed(second),
        further_counters=[signed(user) for user in further],
        slip_originals=list(originals),
        by=by,
    )


@pytest.fixture
def third_counter(make_user):
    return make_user("counter3", role=COUNT_TEAM, first_name="Kit", last_name="Roy")


def test_a_box_has_an_identifier_and_moves_through_its_custody_in_order(
    floor, clock, supervisor, counter, second_counter, dealer, refusal
):
    house = floor["house"]
    box = services.drop_box_issue(table=house, gaming_day=DAY, shift="day", by=supervisor)
    pool = services.drop_box_issue(
        table=house, gaming_day=DAY, shift="day", kind="pool", by=supervisor
    )
    assert (box.identifier, pool.identifier) == ("House-20240301-day", "House-20240301-day-pool")
    with refusal(Conflict, field="table", says="has its table drop box"):
        services.drop_box_issue(table=house, gaming_day=DAY, shift="day", by=supervisor)
    with refusal(DomainError, field="kind", says="table's or a pool's"):
        services.drop_box_issue(table=house, gaming_day=DAY, shift="swing", kind="x", by=supervisor)
    with refusal(Conflict, field="step", says="its next step is removed"):
        services.drop_box_step(box=box, step="stored", by=supervisor)
    with refusal(PermissionDenied, field=None, says="Only a floor supervisor or count team"):
        services.drop_box_step(box=box, step="removed", by=dealer)
    clock.at("14:05")
    services.drop_box_step(box=box, step="removed", by=supervisor)
    services.drop_box_step(box=box, step="transported", by=counter)
    with refusal(Conflict, field="step", says="is transported: its next step is stored"):
        services.drop_box_step(box=box, step="opened", by=counter)
    with refusal(Conflict, field="box", says="not opened in the count room"):
        count_box(house, counter, second_counter)
    for step in ("stored", "delivered", "opened"):
        services.drop_box_step(box=box, step=step, by=counter)
    with refusal(Conflict, field="step", says="custody is complete"):
        services.drop_box_step(box=box, step="opened", by=counter)
    steps = list(DropBox.objects.get(pk=box.pk).steps.values_list("step", "by__username"))
    assert steps == [
        ("removed", "supervisor"),
        ("transported", "counter"),
        ("stored", "counter"),
        ("delivered", "counter"),
        ("opened", "counter"),
    ]
    assert count_box(house, counter, second_counter).total == Decimal("0.00")


def test_a_count_team_of_three_each_sign_as_themselves(
    floor, clock, supervisor, counter, second_counter, third_counter, dealer, refusal
):
    services.cage_controls_set(cardroom=floor["house"].cardroom, count_team_size=3, by=supervisor)
    clock.at("14:05")
    dp = floor["dp"]
    with refusal(DomainError, field="further_counters", says="counts with 3 members"):
        count_box(dp, counter, second_counter)
    with refusal(DomainError, field="further_counters.0", says="on this record already"):
        count_box(dp, counter, second_counter, further=[second_counter])
    with refusal(DomainError, field="further_counters.0", says="not a count team"):
        count_box(dp, counter, second_counter, further=[dealer])
    count = count_box(dp, counter, second_counter, further=[third_counter])
    assert [u.username for u in counters_of(count)] == ["counter", "counter2", "counter3"]
    assert DropCountCounter.objects.get(count=count).counter == third_counter


def test_the_slip_originals_found_in_a_box_are_kept_on_its_count(
    floor, clock, counter, second_counter, refusal
):
    clock.at("14:05")
    with refusal(DomainError, field="slip_originals.1", says="listed twice"):
        count_box(floor["dp"], counter, second_counter, originals=["F-000001", "F-000001"])
    with refusal(DomainError, field="slip_originals.0", says="serial"):
        count_box(floor["dp"], counter, second_counter, originals=[" "])
    count = count_box(floor["dp"], counter, second_counter, originals=["F-000001", "C-000002"])
    assert list(DropSlipOriginal.objects.filter(count=count).values_list("serial", flat=True)) == [
        "F-000001",
        "C-000002",
    ]


def test_a_mistyped_count_is_corrected_by_an_initialled_entry_that_keeps_the_original(
    floor, clock, supervisor, counter, second_counter, dealer, refusal
):
    clock.at("14:05")
    house = floor["house"]
    count = count_box(house, counter, second_counter, chips={"1": 1})  # a dollar over
    services.drop_variance_sign_off(
        count=count, reason="A tip dropped", signature=signed(supervisor), by=supervisor
    )
    assert drop_signed_off(count)

    def correct(by=counter, initials="CD", chips=None, reason="Typed 1 for 3"):
        return services.drop_count_correct(
            count=count,
            cash={},
            chips=chips or {"1": 3},
            reason=reason,
            initials=initials,
            signature=signed(by),
            by=by,
        )

    with refusal(DomainError, field="initials", says="Initial"):
        correct(initials="")
    with refusal(DomainError, field="reason", says="mistyped"):
        correct(reason=" ")
    with refusal(Conflict, field="cash", says="nothing to correct"):
        correct(chips={"1": 1})
    with refusal(PermissionDenied, field=None, says="Only a count team"):
        correct(by=dealer)
    correction = correct()
    count.refresh_from_db()
    assert (count.total, count.variance) == (Decimal("1.00"), Decimal("1.00"))  # the original
    now = drop_count_now(count)
    assert (now.total, now.variance, now.correction) == (
        Decimal("3.00"),
        Decimal("3.00"),
        correction,
    )
    # The sign-off signed $1.00: it does not sign $3.00.
    assert not drop_signed_off(count)
    figures = table_shift_figures(house, DAY, "day")
    assert (figures.drop, figures.drop_variance, figures.variance_signed_off) == (
        Decimal("3.00"),
        Decimal("3.00"),
        False,
    )
    services.drop_variance_sign_off(
        count=count, reason="Three dollar chips tipped", signature=signed(supervisor), by=supervisor
    )
    assert list(VarianceSignOff.objects.values_list("amount", flat=True)) == [
        Decimal("1.00"),
        Decimal("3.00"),
    ]
    assert table_shift_figures(house, DAY, "day").variance_signed_off is True


def test_the_count_sheet_has_its_time_boxes_counters_and_totals(
    floor, clock, counter, second_counter
):
    clock.at("14:05")
    count_box(floor["dp"], counter, second_counter, chips={"5": 2})
    clock.at("14:20")
    count_box(floor["house"], counter, second_counter, chips={"1": 1}, originals=["F-000001"])
    sheet = count_sheet(floor["house"].cardroom, DAY, "day")
    assert sheet.number_of_boxes == 2
    assert sheet.counters == ["Cam Diaz", "Jo Fox"]
    assert (sheet.total, sheet.variance) == (Decimal("11.00"), Decimal("11.00"))
    assert sheet.finished_at > sheet.started_at
    assert [box["table"] for box in sheet.boxes] == ["DP", "House"]
    assert sheet.boxes[1]["slip_originals"] == ["F-000001"]
    assert DropCount.objects.count() == 2


def test_the_printable_count_sheet_and_the_controls_screen(
    client, floor, clock, supervisor, counter, second_counter
):
    clock.at("14:05")
    count_box(floor["dp"], counter, second_counter, chips={"5": 2})
    client.force_login(counter)
    page = client.get(reverse("cage-count-sheet"), {"day": "2024-03-01", "shift": "day"})
    assert page.status_code == 200
    summary = parse(page.content).find(id="sheet-summary").text
    assert "1 box" in summary and "Cam Diaz, Jo Fox" in summary
    assert client.get(reverse("cage-controls")).status_code == 403
    client.force_login(supervisor)
    form = {
        "count_team_size": "3",
        "variance_incident_threshold": "30.00",
        "variance_regulator_threshold": "20.00",
    }
    refused = client.post(reverse("cage-controls"), form)
    assert refused.status_code == 422 and b"at most the regulator" in refused.content
    form["variance_regulator_threshold"] = "150.00"
    assert client.post(reverse("cage-controls"), form).status_code == 302
    floor["dp"].cardroom.refresh_from_db()
    assert floor["dp"].cardroom.count_team_size == 3


DROP_TABLES = (
    "cage_dropbox",
    "cage_dropboxstep",
    "cage_dropcountcounter",
    "cage_dropsliporiginal",
    "cage_dropcountcorrection",
    "cage_variance",
    "cage_variancesignoff",  # rebuilt by the migration that gave it its amount
)


def test_every_drop_record_is_append_only_in_the_database(
    floor, clock, supervisor, counter, second_counter, third_counter
):
    """Raw SQL through the application's own connection cannot rewrite or delete a box, a
    custody step, a counter, a slip original, a correction, a variance or a sign-off."""
    house = floor["house"]
    box = services.drop_box_issue(table=house, gaming_day=DAY, shift="day", by=supervisor)
    clock.at("14:05")
    for step in ("removed", "transported", "stored", "delivered", "opened"):
        services.drop_box_step(box=box, step=step, by=counter)
    count = count_box(
        house, counter, second_counter, chips={"1": 1}, further=[third_counter], originals=["F-1"]
    )
    services.drop_variance_sign_off(
        count=count, reason="A tip dropped", signature=signed(supervisor), by=supervisor
    )
    services.drop_count_correct(
        count=count,
        cash={},
        chips={"1": 2},
        reason="Typed 1 for 2",
        initials="CD",
        signature=signed(counter),
        by=counter,
    )
    for table in DROP_TABLES:
        assert raw(f'SELECT COUNT(*) FROM "{table}"')[0][0] > 0, table
        for sql in (f'UPDATE "{table}" SET id = id', f'DELETE FROM "{table}"'):
            assert_append_only(lambda sql=sql: raw(sql))


def test_the_count_screen_asks_each_member_of_a_team_of_three_to_sign(
    client, floor, clock, supervisor, counter, second_counter, third_counter
):
    services.cage_controls_set(cardroom=floor["dp"].cardroom, count_team_size=3, by=supervisor)
    clock.at("14:05")
    client.force_login(counter)
    query = "?day=2024-03-01&shift=day"
    page = parse(client.get(reverse("count-home") + query).content)
    box = page.find(id=f"box-{floor['dp'].pk}")
    assert box.find("input", name="counter_3").attrs["type"] == "text"
    assert box.find(id=f"id_box{floor['dp'].pk}_counter_3") is not None  # ids unique per box
    form = {
        "table": floor["dp"].pk,
        "second_counter": "counter2",
        "second_counter_secret": PASSWORD,
        "slip_originals": "F-000001, C-000002",
        "chips_5.00": 1,
        "confirmed": "1",
    }
    refused = client.post(reverse("count-record") + query, form)
    assert refused.status_code == 422 and not DropCount.objects.exists()
    form |= {"counter_3": "counter3", "counter_3_secret": PASSWORD}
    assert client.post(reverse("count-record") + query, form).status_code == 302
    count = DropCount.objects.get()
    assert [u.username for u in counters_of(count)] == ["counter", "counter2", "counter3"]
    assert list(count.slip_originals.values_list("serial", flat=True)) == ["F-000001", "C-000002"]


def test_the_count_screen_corrects_a_mistyped_count_initialled_and_signed(
    client, floor, clock, counter, second_counter
):
    clock.at("14:05")
    count = count_box(floor["dp"], counter, second_counter, chips={"5": 1})
    client.force_login(counter)
    query = "?day=2024-03-01&shift=day"
    url = reverse("count-correct", args=[count.pk]) + query
    page = parse(client.get(reverse("count-home") + query).content)
    assert page.find(id=f"id_fix{count.pk}_initials") is not None
    form = {"chips_5.00": 2, "reason": "Typed 1 for 2", "initials": "", "secret": PASSWORD}
    refused = client.post(url, form)
    assert refused.status_code == 422 and not count.corrections.exists()
    form["initials"] = "cd"
    assert client.post(url, form).status_code == 302
    assert (drop_count_now(count).total, count.corrections.get().initials) == (
        Decimal("10.00"),
        "CD",
    )
    page = client.get(reverse("count-home") + query).content.decode()
    assert "corrected (CD) from $5.00" in page
