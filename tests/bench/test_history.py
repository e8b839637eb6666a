"""``bench.history_build`` keeps up with the schema: a tiny history (200 hands) made around a
real settled hand, and the hold report over it adds up to the rows generated."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Sum

from audit.models import AuditEvent
from bench.history_build import Shape, build
from compliance.hold import hold_report, range_period
from compliance.ratings import player_ratings
from tables.models import Table
from tables.selectors import gaming_day_bounds
from tests import runtime_role
from wagers.models import Hand, WagerSettlement

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql", reason="the history is made in PostgreSQL's SQL"
    ),
]


def test_a_tiny_history_adds_up_in_the_hold_report(world):
    template = world.hand_settled
    cardroom = template.table.cardroom
    events_before = AuditEvent.objects.count()
    shape = Shape(hands=200, tables=cardroom.tables.count() + 2, days=10, rate=2, spots=3)

    with runtime_role.as_owner():  # setval on the sequences is the owner's
        built = build(template, shape, fast=False)

    table = Table.objects.select_related("cardroom").get(pk=built.table_ids[0])
    start, _ = gaming_day_bounds(cardroom, built.first_day)
    _, end = gaming_day_bounds(cardroom, built.last_day)
    report = hold_report(table, range_period(start, end))
    made = Hand.objects.filter(table=table, settled_at__gte=start, settled_at__lt=end)
    wagers = WagerSettlement.objects.filter(spot_settlement__settlement__hand__in=made)
    sums = wagers.aggregate(stake=Sum("stake"), net=Sum("net"))
    assert made.count() == shape.rate * shape.days  # the measured table: rate a day
    assert report.total.hands == made.count()
    assert report.total.handle == sums["stake"] > Decimal(0)
    assert report.total.win == -sums["net"]
    assert AuditEvent.objects.count() > events_before + shape.hands
    assert Hand.objects.filter(settled_at__gte=start, settled_at__lt=end).count() == 200
    ratings = player_ratings(
        table.cardroom.players.get(pk=built.player_id), built.first_day, built.last_day
    )
    assert ratings.total.hands == made.count()  # seat 1 of the measured table, every day
    assert built.last_day == template.settlements.get().gaming_day - timedelta(days=1)
