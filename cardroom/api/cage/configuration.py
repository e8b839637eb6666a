"""The cardroom's shifts and chip denominations: what every count and slip is made in."""

from __future__ import annotations

from datetime import time
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cage.services import cardroom_denominations_change
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, WallClockField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables import shift_selectors
from tables.models import ShiftDefinition
from tables.services.cardrooms import (
    cardroom_cage_limit_set,
    cardroom_shifts_set,
)
from tables.shift_selectors import WHOLE_DAY

from .common import MAX_DENOMINATIONS, SUPERVISOR


class ShiftOut(serializers.Serializer):
    name = serializers.CharField()
    starts_at = WallClockField()


class ShiftIn(StrictSerializer):
    name = serializers.CharField(max_length=20)
    starts_at = WallClockField()


class ShiftsIn(StrictSerializer):
    shifts = ShiftIn(many=True, max_length=24)  # type: ignore[call-arg]  # one an hour at most
    # The gaming day the shifts apply from; by default today if nothing is booked today yet,
    # else tomorrow.
    effective_from = serializers.DateField(required=False)


class ShiftDefinitionOut(serializers.Serializer):
    effective_from = serializers.DateField(allow_null=True)
    shifts = ShiftOut(many=True)


class ShiftScheduleOut(serializers.Serializer):
    current = ShiftDefinitionOut()
    scheduled = ShiftDefinitionOut(many=True)


def _definition_out(cardroom: Cardroom, definition: ShiftDefinition | None) -> dict[str, Any]:
    """A definition as the API shows it; none in force: the whole gaming day as one shift."""
    if definition is None:
        starts = [(WHOLE_DAY, cardroom.gaming_day_starts_at)]
        return {"effective_from": None, "shifts": [{"name": n, "starts_at": s} for n, s in starts]}
    shifts = [{"name": n, "starts_at": time.fromisoformat(s)} for n, s in definition.shifts]
    return {"effective_from": definition.effective_from, "shifts": shifts}


class CardroomShifts(ServiceView):
    """The shifts of the cardroom's gaming day: GET shows the ones in force today and those
    scheduled; POST defines new ones from a gaming day on (a floor supervisor)."""

    write_roles = SUPERVISOR
    input_serializer = ShiftsIn

    @extend_schema(responses=ShiftScheduleOut)
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        today = table_selectors.gaming_day(cardroom, timezone.now())
        schedule = shift_selectors.shift_schedule(cardroom, today)
        out = {
            "current": _definition_out(cardroom, schedule.current),
            "scheduled": [_definition_out(cardroom, d) for d in schedule.scheduled],
        }
        return Response(ShiftScheduleOut(out).data)

    @extend_schema(request=ShiftsIn, responses=ShiftDefinitionOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        given = self.parse(request)
        made = cardroom_shifts_set(
            cardroom=cardroom,
            shifts=[(s["name"], s["starts_at"]) for s in given["shifts"]],
            effective_from=given.get("effective_from"),
            by=actor(request),
        )
        return Response(ShiftDefinitionOut(_definition_out(cardroom, made)).data)


class DenominationsIn(StrictSerializer):
    denominations = serializers.ListField(child=MoneyField(), max_length=MAX_DENOMINATIONS)


class DenominationsOut(serializers.Serializer):
    denominations = serializers.ListField(child=serializers.CharField())


class CardroomDenominations(ServiceView):
    """The chip denominations racks, fills and credits are counted in."""

    write_roles = SUPERVISOR
    input_serializer = DenominationsIn

    @extend_schema(responses=DenominationsOut)
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        return Response({"denominations": cardroom.chip_denominations})

    @extend_schema(request=DenominationsIn, responses=DenominationsOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = cardroom_denominations_change(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            **self.parse(request),
            by=actor(request),
        )
        return Response({"denominations": cardroom.chip_denominations})


class CageLimitIn(StrictSerializer):
    largest_cage_amount = MoneyField()


class CageLimitOut(serializers.Serializer):
    largest_cage_amount = MoneyField()


class CardroomCageLimit(ServiceView):
    """The most a fill or credit slip, a rack count or a drop count may total in the cardroom
    (a larger one is refused naming its field); POST changes it (a floor supervisor)."""

    write_roles = SUPERVISOR
    input_serializer = CageLimitIn

    @extend_schema(responses=CageLimitOut)
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        return Response(CageLimitOut(cardroom).data)

    @extend_schema(request=CageLimitIn, responses=CageLimitOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = cardroom_cage_limit_set(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            largest=self.parse(request)["largest_cage_amount"],
            by=actor(request),
        )
        return Response(CageLimitOut(cardroom).data)
