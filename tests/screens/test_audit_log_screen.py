"""The audit log fits the screen (payload and hash folded in <details>), names objects as
people read them, and finds an actor by name."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse
from django.utils import timezone

from audit.chain import model_of
from audit.models import AuditEvent
from cage import services as cage_services
from cage.models import DayClose, DropBox, DropCount, InventoryCount, ShiftClose, Variance
from cardroom.screens.audit_names import OBJECT_NAMES, RELATED, fallback_name, named
from compliance import services as compliance_services
from core.errors import Conflict
from patrons import cash, reviews
from patrons.identity import identity_record
from patrons.models import Exclusion, Player, StructuringFlag
from tables import catalogue
from tables.models import GameStop, RotationRecord, Table
from tables.services.setting_changes import setting_change_propose
from tables.staff_models import SelfApprovalChange
from tests.api.conftest import IDENTITY
from tests.conftest import a_cashier
from wagers import services as hand_services
from wagers.services import incidents as incidents_at_tables

from .support import parse

pytestmark = pytest.mark.django_db


def _rows(client, **query):
    page = parse(client.get(reverse("compliance-audit"), query).content)
    return page, page.by_id("events").find_all("tr")[1:]


def test_payload_and_hash_are_folded_and_expandable(compliance, settled):
    page, rows = _rows(compliance)
    event = AuditEvent.objects.order_by("-seq").first()
    details = rows[0].find("td", class_="details")
    payload = details.find("details", class_="payload")
    assert "open" not in payload.attrs  # folded
    assert payload.find("pre").text == event.payload.strip()
    assert len(payload.find("summary").text) <= 48
    digest = details.find("details", class_="hash")
    assert digest.find("code").text == event.hash
    assert digest.find("summary").text == f"hash {event.hash[:8]}…"


def test_objects_are_named_as_people_read_them(compliance, settled):
    _, rows = _rows(compliance, action="hand.settled")
    assert rows[0].find("td", class_="object").text == "Table 1, hand 1"
    _, rows = _rows(compliance, action="hand.wager")
    assert {row.find("td", class_="object").text for row in rows} == {"Table 1, hand 1"}
    _, rows = _rows(compliance, action="table.created")
    assert {row.find("td", class_="object").text for row in rows} == {"Table 1", "Table 2"}


@pytest.mark.parametrize("typed", ["Dee Lee", "dee", "LEE", "dealer"])
def test_an_actor_is_found_by_name(compliance, settled, typed):
    _, rows = _rows(compliance, actor=typed, action="hand.wager")
    # The actor by full name, the username the chain recorded beside it.
    actors = [row.find("td", class_="actor") for row in rows]
    assert [
        (actor.children[0].strip(), actor.find("small", class_="username").text) for actor in actors
    ] == [("Dee Lee", "dealer")] * 2


def test_a_name_matches_no_one_else(compliance, settled):
    _, rows = _rows(compliance, actor="Dee Ortiz")
    assert rows[0].text == "No events match."


# --- every kind of object an event names, in words -------------------------------------------


def _names(client, action: str) -> list[str]:
    _, rows = _rows(client, action=action)
    return [row.find("td", class_="object").text for row in rows]


def test_rotation_records_are_named_by_the_hand_they_started(compliance, settled, world, dealer):
    """R16: the first hand's high-card draw and the next hand's rotation, not "rotationrecord 2"."""
    hand_services.hand_start(table=world.dp_table, by=dealer)

    assert _names(compliance, "rotation.offered") == [
        "Table 1, rotation for hand 2",
        "Table 1, high-card draw for hand 1",
    ]


def test_a_rotation_nobody_took_is_named_by_its_table_and_time(compliance, world, dealer):
    with pytest.raises(Conflict):
        hand_services.hand_start(table=world.dp_table, by=dealer, refusals=[1, 3, 5])
    record = RotationRecord.objects.get()
    at = record.created_at.astimezone(ZoneInfo(world.cardroom.time_zone))
    assert _names(compliance, "rotation.offered") == [
        f"Table 1, high-card draw at {at:%H:%M} {at.tzname()}: no designated player"
    ]


def test_no_object_on_the_log_is_left_as_its_model_and_id(
    compliance, settled, world, dealer, supervisor, auditor
):
    """Every kind of object the services below name on the log has a name in words (the
    fallback, "<model> <id>", is for an object that is gone)."""
    hand_services.hand_start(table=world.dp_table, by=dealer)  # a rotation
    proposed = catalogue.paytable_change_propose(
        cardroom=world.cardroom,
        kind="flush_paytable",
        lines={"4": 2, "5": 10, "6": 20, "7": 100},
        reason="Promo",
        by=supervisor,
    )
    setting_change_propose(
        table=world.house_table, values={"ante_min": "10"}, reason="Weekend", by=supervisor
    )
    slip = cage_services.slip_request(
        table=world.house_table, kind="fill", chips={"100": 1}, by=supervisor
    )
    player = world.seats[1].player
    identity_record(player=player, identity=IDENTITY, by=supervisor)
    cash.cage_cash(player=player, direction="in", amount=Decimal("10000.01"), by=a_cashier())
    review = reviews.review_open(player=player, note="Cash", by=auditor)
    incident = incidents_at_tables.incident_report(
        cardroom=world.cardroom,
        kind="dispute",
        summary="A payout",
        table=world.dp_table,
        by=supervisor,
    )
    now = timezone.now()
    export = compliance_services.export_request(
        kind="audit_log", start=now - timedelta(days=1), end=now, by=auditor
    )
    cash.cash_policy_set(
        cardroom=world.cardroom,
        log_threshold="3000",
        structuring_count=3,
        structuring_band="0.9",
        by=auditor,
    )

    events = named(list(AuditEvent.objects.exclude(object_type="")))
    left = sorted({e.object_type for e in events if e.object_name == fallback_name(e)})
    assert left == []
    by_action = {(e.action, e.object_name) for e in events}
    assert {
        ("rotation.offered", "Table 1, rotation for hand 2"),
        (
            "paytables.change_proposed",
            f"paytable change #{proposed.pk}: add a Flush Bonus paytable",
        ),
        ("cage.slip_requested", f"Table 2, fill slip {slip.number}"),
        ("player.identity_recorded", "player Avery"),
        ("review.opened", f"player Avery, review #{review.pk}"),
        ("incident.reported", f"Table 1, incident #{incident.pk} (dispute)"),
        ("export.requested", f"export #{export.pk} (audit log)"),
        ("cash.policy_set", "Screens Cardroom, cash-reporting policy"),
    } <= by_action
    actions = dict(by_action)
    assert actions["cash.cage_transaction"] == "player Avery, cash in $10,000.01"
    assert actions["cash.ctr_created"].startswith("player Avery, CTR of ")


LA = ZoneInfo("America/Los_Angeles")


def _table(name: str = "Table 1") -> Table:
    return Table(name=name)


@pytest.mark.parametrize(
    ("label", "instance", "expected"),
    [
        (
            "tables.gamestop",
            GameStop(table=_table(), stopped_at=datetime(2026, 3, 7, 22, 5, tzinfo=UTC)),
            "Table 1, game stopped 2026-03-07 14:05 PST",
        ),
        (
            "tables.selfapprovalchange",
            SelfApprovalChange(pk=4, values={"allowed": True}),
            "{cardroom}, self-approval change #4: allow self-approval",
        ),
        (
            "cage.inventorycount",
            InventoryCount(
                table=_table("Table 2"), kind="shift_change", gaming_day=date(2026, 3, 7),
                shift="swing",
            ),
            "Table 2, shift change chip count, Sat 2026-03-07 swing shift",
        ),
        (
            "cage.dropcount",
            DropCount(table=_table("Table 2"), gaming_day=date(2026, 3, 7), shift="day"),
            "Table 2, drop count, Sat 2026-03-07 day shift",
        ),
        (
            "cage.dropbox",
            DropBox(table=_table("Table 2"), identifier="Table2-20260307-day"),
            "Table 2, drop box Table2-20260307-day",
        ),
        (
            "cage.variance",
            Variance(table=_table("Table 2"), source="rack_count", amount=Decimal("-5.00")),
            "Table 2, rack count variance -$5.00",
        ),
        (
            "cage.shiftclose",
            ShiftClose(gaming_day=date(2026, 3, 7), shift="day"),
            "close of the day shift, Sat 2026-03-07",
        ),
        (
            "cage.dayclose",
            DayClose(gaming_day=date(2026, 3, 7)),
            "close of gaming day Sat 2026-03-07",
        ),
        ("patrons.exclusion", Exclusion(pk=9, kind="self_excluded", name="Private Person"),
         "exclusion #9 (self excluded)"),
        (
            "patrons.structuringflag",
            StructuringFlag(player=Player(name="Avery"), gaming_day=date(2026, 3, 7)),
            "player Avery, structuring flag of Sat 2026-03-07",
        ),
    ],
)  # fmt: skip
def test_the_objects_no_screen_test_makes_are_named_in_words(world, label, instance, expected):
    """Objects the log names that take a long way to make (a rotation window that stops the
    game, the count and the close of a shift, an exclusion, a structuring flag): their names,
    in the cardroom's time zone. An excluded person's name stays off the log."""
    if label == "tables.selfapprovalchange":
        instance.cardroom = world.cardroom
    with timezone.override(LA):
        name = OBJECT_NAMES[label](instance)
    assert name == expected.format(cardroom=world.cardroom)
    assert "Private Person" not in name


def test_every_named_kind_is_a_model_with_the_relations_it_fetches():
    for label in OBJECT_NAMES:
        model = model_of(label)  # the label audit events give it (a moved model keeps its)
        for relation in RELATED.get(label, []):
            related = model
            for step in relation.split("__"):  # a link's far side: through the link
                field = related._meta.get_field(step)
                assert field.is_relation, (label, relation)
                related = field.related_model
    assert set(RELATED) <= set(OBJECT_NAMES)
