"""Dealers' shifts (``tables.services.dealer_shifts``, ``dealer_push``): floor supervisors
clock dealers in and out, put them on tables, send them on break and push; the floor and
compliance read who is where, who is due, the push a tap would make, and each dealer's hours
and hands per gaming day."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.cardroom_minutes import CardroomMinutes, documented, minutes_field
from cardroom.api.fields import IdField, PersonNameField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from core.errors import DomainError
from core.roles import COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons.models import Cardroom
from tables import dealer_selectors, selectors
from tables.dealer_selectors import PushPlan
from tables.models import Table
from tables.services import dealer_push, dealer_shifts

FLOOR = (FLOOR_SUPERVISOR,)
READERS = (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


class DealerRowOut(serializers.Serializer):
    dealer = serializers.IntegerField(source="shift.dealer_id")
    name = serializers.CharField()
    shift = serializers.IntegerField(source="shift.pk")
    clocked_in_at = serializers.DateTimeField(source="shift.clocked_in_at")
    where = serializers.ChoiceField(choices=["table", "break", "waiting"])
    table = serializers.IntegerField(source="table.pk", allow_null=True, default=None)
    since = serializers.DateTimeField()
    minutes_here = serializers.IntegerField()
    minutes_on = serializers.IntegerField()
    push_due = serializers.BooleanField()
    break_due = serializers.BooleanField()
    back_due = serializers.BooleanField()


class DealerShiftOut(serializers.Serializer):
    id = serializers.IntegerField()
    dealer = serializers.IntegerField(source="dealer_id")
    cardroom = serializers.IntegerField(source="cardroom_id")
    clocked_in_at = serializers.DateTimeField()
    clocked_out_at = serializers.DateTimeField(allow_null=True)


class DealerAssignmentOut(serializers.Serializer):
    id = serializers.IntegerField()
    dealer = serializers.IntegerField(source="dealer_id")
    kind = serializers.ChoiceField(choices=["table", "break"])  # DealerAssignment.Kind
    table = serializers.IntegerField(source="table_id", allow_null=True)
    started_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)


class DealerMoveOut(serializers.Serializer):
    dealer = serializers.IntegerField(source="dealer.pk")
    name = PersonNameField(source="dealer")
    where = serializers.ChoiceField(source="to", choices=["table", "break", "waiting"])
    table = serializers.IntegerField(source="table.pk", allow_null=True, default=None)


class DealerPushOut(serializers.Serializer):
    table = serializers.IntegerField(source="table.pk", allow_null=True)  # None: none due
    moves = DealerMoveOut(many=True)
    sentence = serializers.CharField()


class DealerDayOut(serializers.Serializer):
    dealer = serializers.IntegerField(source="dealer.pk")
    name = serializers.CharField()
    day = serializers.DateField()
    minutes_clocked = serializers.IntegerField()
    minutes_at_tables = serializers.IntegerField()
    minutes_on_break = serializers.IntegerField()
    hands_dealt = serializers.IntegerField()


class DealerRotationOut(serializers.Serializer):
    cardroom = serializers.IntegerField(source="pk")
    push_minutes = serializers.IntegerField()
    break_after_minutes = serializers.IntegerField()
    break_minutes = serializers.IntegerField()


class ClockInIn(StrictSerializer):
    dealer = IdField()


class DealerTableIn(StrictSerializer):
    table = IdField()


class PushIn(StrictSerializer):
    table = IdField(required=False)


class DealerRotationIn(StrictSerializer):
    push_minutes = minutes_field()
    break_after_minutes = minutes_field()
    break_minutes = minutes_field()


def _dealer(pk: int) -> User:
    user = User.objects.filter(pk=pk).first()
    if user is None:
        raise DomainError(f"There is no user {pk}.", field="dealer")
    return user


def _table(cardroom: Cardroom, pk: int) -> Table:
    table = Table.objects.filter(pk=pk, cardroom=cardroom).first()
    if table is None:
        raise DomainError(f"There is no table {pk} in {cardroom}.", field="table")
    return table


class DealerBoard(ServiceView):
    """Every dealer clocked in at the cardroom: where (a table, break, waiting), since when,
    minutes there and minutes on, and whether a push, a break or the end of one is due.
    POST clocks a dealer in."""

    read_roles = READERS
    write_roles = FLOOR
    input_serializer = ClockInIn

    @extend_schema(responses=DealerRowOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        rows = dealer_selectors.dealer_board(cardroom, timezone.now())
        return Response(DealerRowOut(rows, many=True).data)

    @extend_schema(request=ClockInIn, responses={201: DealerShiftOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        dealer = _dealer(self.parse(request)["dealer"])
        shift = dealer_shifts.dealer_clock_in(cardroom=cardroom, dealer=dealer, by=actor(request))
        return Response(DealerShiftOut(shift).data, status=201)


class DealerClockOut(ServiceView):
    """The dealer's shift ends (refused while they deal at a table)."""

    write_roles = FLOOR

    @extend_schema(request=None, responses=DealerShiftOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        shift = dealer_shifts.dealer_clock_out(dealer=_dealer(pk), by=actor(request))
        return Response(DealerShiftOut(shift).data)


class DealerBreak(ServiceView):
    """A waiting dealer goes on break (``start``), or is back from it (``end``)."""

    write_roles = FLOOR
    step: str = "start"

    @extend_schema(request=None, responses=DealerAssignmentOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        service = (
            dealer_shifts.dealer_break_start
            if self.step == "start"
            else dealer_shifts.dealer_break_end
        )
        assignment = service(dealer=_dealer(pk), by=actor(request))
        return Response(DealerAssignmentOut(assignment).data)


class DealerAssign(ServiceView):
    """A waiting dealer takes a table: a closed one opens with them; an open one changes its
    dealer on duty between hands."""

    write_roles = FLOOR
    input_serializer = DealerTableIn

    @extend_schema(request=DealerTableIn, responses=DealerAssignmentOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = Table.objects.filter(pk=self.parse(request)["table"]).first()
        if table is None:
            raise DomainError("There is no such table.", field="table")
        assignment = dealer_shifts.dealer_assign(table=table, dealer=_dealer(pk), by=actor(request))
        return Response(DealerAssignmentOut(assignment).data)


class DealerPush(ServiceView):
    """The push rotation: GET shows what a push would do (``?table=``, by default the table
    longest due); POST makes it, in one transaction, between hands only."""

    read_roles = READERS
    write_roles = FLOOR
    input_serializer = PushIn

    @extend_schema(
        parameters=[OpenApiParameter("table", OpenApiTypes.INT, required=False)],
        responses=DealerPushOut,
    )
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        table = _query_table(cardroom, request.query_params.get("table"))
        plan = dealer_selectors.push_plan(cardroom, timezone.now(), table)
        if plan is None:
            return Response({"table": None, "moves": [], "sentence": "No table is due."})
        return Response(_push(plan))

    @extend_schema(request=PushIn, responses=DealerPushOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        named = self.parse(request).get("table")
        table = _table(cardroom, named) if named is not None else None
        plan = dealer_push.dealer_push(cardroom=cardroom, table=table, by=actor(request))
        return Response(_push(plan))


def _push(plan: PushPlan) -> dict[str, Any]:
    return dict(
        DealerPushOut({"table": plan.table, "moves": plan.moves, "sentence": plan.sentence()}).data
    )


def _query_table(cardroom: Cardroom, value: str | None) -> Table | None:
    if value in (None, ""):
        return None
    if not str(value).isascii() or not str(value).isdigit() or len(str(value)) > 12:
        raise DomainError("Give the table by its id.", field="table")
    return _table(cardroom, int(str(value)))


class DealerDays(ServiceView):
    """Each dealer's gaming day (``?day=YYYY-MM-DD``, by default today's): minutes on the
    clock, at tables and on break, and the hands started while they dealt."""

    read_roles = READERS

    @extend_schema(
        parameters=[OpenApiParameter("day", OpenApiTypes.DATE, required=False)],
        responses=DealerDayOut(many=True),
    )
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        now = timezone.now()
        day = _query_day(request.query_params.get("day")) or selectors.gaming_day(cardroom, now)
        rows = dealer_selectors.dealer_days(cardroom, day, now)
        return Response(DealerDayOut(rows, many=True).data)


def _query_day(value: str | None) -> date | None:
    if not value:
        return None
    try:
        if len(value) == 10 and value.isascii():
            return date.fromisoformat(value)
    except ValueError:
        pass
    raise DomainError("Give the day as YYYY-MM-DD.", field="day")


@documented
class DealerRotation(CardroomMinutes):
    """The cardroom's push interval and break rule, in minutes; PUT sets any of them (1 to a
    day; audited)."""

    read_roles = READERS
    write_roles = FLOOR
    input_serializer = DealerRotationIn
    output = DealerRotationOut
    setter = dealer_shifts.cardroom_dealer_rotation_set
