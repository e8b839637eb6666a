"""Drop boxes and their custody, a count's correction, the count sheet (4 CCR §12384–12385),
the discrepancy report and the cage's control settings."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cage import selectors, services
from cage.count_sheets import count_sheet
from cage.models import DropBox, DropCount, Variance
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, PersonNameField, SignedMoneyField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import SignatureIn, signature_input
from compliance.discrepancies import discrepancies
from core.money import money_text
from core.roles import AUDITORS, COUNT_TEAM
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import Table

from .common import COUNTERS, SUPERVISOR, gaming_day_of, pieces
from .drop import SHIFT_PARAMS, DropCountOut

#: Who carries a box from the table to the count room.
CUSTODIANS = (*SUPERVISOR, COUNT_TEAM)


class DropBoxStepOut(serializers.Serializer):
    step = serializers.CharField()
    by = serializers.IntegerField(source="by_id")
    by_name = PersonNameField(source="by")
    at = serializers.DateTimeField()
    note = serializers.CharField()


class IssuedDropBoxOut(serializers.ModelSerializer):
    issued_by_name = PersonNameField(source="issued_by")
    steps = DropBoxStepOut(many=True)

    class Meta:
        model = DropBox
        fields = [
            "id",
            "identifier",
            "table",
            "gaming_day",
            "shift",
            "kind",
            "issued_by",
            "issued_by_name",
            "issued_at",
            "steps",
        ]


class DropBoxIn(StrictSerializer):
    gaming_day = serializers.DateField()
    shift = serializers.CharField(max_length=20)
    kind = serializers.CharField(max_length=10, required=False, default=DropBox.Kind.TABLE)


class TableDropBoxes(ServiceView):
    """A table's drop boxes; POST issues one for a shift (a floor supervisor)."""

    read_roles = COUNTERS
    write_roles = SUPERVISOR
    input_serializer = DropBoxIn

    @extend_schema(responses=IssuedDropBoxOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        boxes = DropBox.objects.filter(table=table).prefetch_related("steps__by")
        return Response(IssuedDropBoxOut(boxes.select_related("issued_by"), many=True).data)

    @extend_schema(request=DropBoxIn, responses={201: IssuedDropBoxOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        box = services.drop_box_issue(
            table=get_object_or_404(Table, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(IssuedDropBoxOut(box).data, status=201)


class DropBoxStepIn(StrictSerializer):
    step = serializers.CharField(max_length=12)
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class DropBoxSteps(ServiceView):
    """The next step of a box's custody, by the person signed in."""

    read_roles = COUNTERS
    write_roles = CUSTODIANS
    input_serializer = DropBoxStepIn

    @extend_schema(request=DropBoxStepIn, responses={201: IssuedDropBoxOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        box = get_object_or_404(DropBox, pk=pk)
        services.drop_box_step(box=box, **self.parse(request), by=actor(request))
        return Response(IssuedDropBoxOut(DropBox.objects.get(pk=pk)).data, status=201)


class DropCountCorrectionIn(StrictSerializer):
    cash = pieces(required=False, default=dict)
    chips = pieces(required=False, default=dict)
    reason = serializers.CharField(max_length=2000)
    initials = serializers.CharField(max_length=5)
    signature = SignatureIn(help_text="The correcting count team member's password or PIN.")


class DropCountCorrections(ServiceView):
    """A mistyped drop count corrected by a new, initialled entry (the original stays)."""

    moves_money = True
    read_roles = COUNTERS
    write_roles = (COUNT_TEAM,)
    input_serializer = DropCountCorrectionIn

    @extend_schema(request=DropCountCorrectionIn, responses={201: DropCountOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        services.drop_count_correct(
            count=get_object_or_404(DropCount, pk=pk),
            cash=data["cash"],
            chips=data["chips"],
            reason=data["reason"],
            initials=data["initials"],
            signature=signature_input(request, data["signature"]),
            by=actor(request),
        )
        count = DropCount.objects.select_related("counted_by", "second_counter").get(pk=pk)
        return Response(DropCountOut(count).data, status=201)


class CountSheetCorrectionOut(serializers.Serializer):
    total = MoneyField()
    initials = serializers.CharField()
    reason = serializers.CharField()
    at = serializers.DateTimeField()


class CountSheetBoxOut(serializers.Serializer):
    """One box of the sheet: its count's figures as they stand (corrected, if corrected)."""

    count = serializers.IntegerField(help_text="the drop count's id")
    table = serializers.CharField(help_text="the table's name")
    box = serializers.CharField(help_text="the drop box's identifier; empty if none was issued")
    counted_at = serializers.DateTimeField()
    counters = serializers.ListField(child=serializers.CharField())
    cash = serializers.DictField(child=serializers.IntegerField())
    chips = serializers.DictField(child=serializers.IntegerField())
    cash_total = MoneyField()
    chips_total = MoneyField()
    total = MoneyField()
    expected_total = MoneyField()
    variance = SignedMoneyField()
    signed_off = serializers.BooleanField()
    as_entered = MoneyField(help_text="the total as first entered, before any correction")
    corrections = CountSheetCorrectionOut(many=True)
    slip_originals = serializers.ListField(child=serializers.CharField())


class CountSheetOut(serializers.Serializer):
    """Schema only: the answer is built by ``_sheet_json``."""

    cardroom = serializers.CharField(help_text="the cardroom's name")
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    number_of_boxes = serializers.IntegerField()
    counters = serializers.ListField(child=serializers.CharField())
    cash_total = MoneyField()
    chips_total = MoneyField()
    total = MoneyField()
    expected_total = MoneyField()
    variance = SignedMoneyField()
    boxes = CountSheetBoxOut(many=True)


def _sheet_json(sheet: Any) -> dict[str, Any]:
    return {
        "cardroom": sheet.cardroom,
        "gaming_day": sheet.gaming_day,
        "shift": sheet.shift,
        "started_at": sheet.started_at,
        "finished_at": sheet.finished_at,
        "number_of_boxes": sheet.number_of_boxes,
        "counters": sheet.counters,
        "cash_total": money_text(sheet.cash_total),
        "chips_total": money_text(sheet.chips_total),
        "total": money_text(sheet.total),
        "expected_total": money_text(sheet.expected_total),
        "variance": money_text(sheet.variance),
        "boxes": sheet.boxes,
    }


class CountSheet(ServiceView):
    """The count sheet of a shift's drop: time, number of boxes, counters, totals."""

    read_roles = COUNTERS

    @extend_schema(parameters=SHIFT_PARAMS, responses=CountSheetOut)
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        day, shift = selectors.last_shift_over(cardroom)
        if request.query_params.get("day") or request.query_params.get("shift"):
            day = gaming_day_of(request.query_params.get("day"))
            shift = request.query_params.get("shift") or ""
            table_selectors.shift_bounds(cardroom, day, shift)  # a shift the cardroom has
        return Response(_sheet_json(count_sheet(cardroom, day, shift)))


class DiscrepancyOut(serializers.Serializer):
    """Schema only: one variance as found and as it stands (the answer is built in the view)."""

    id = serializers.IntegerField()
    gaming_day = serializers.DateField()
    shift = serializers.CharField()
    table = serializers.IntegerField(allow_null=True)
    source = serializers.ChoiceField(choices=Variance.Source.choices)  # type: ignore[assignment]  # a field named like Field.source
    record = serializers.CharField(help_text="the record it was found on: type:id")
    amount = SignedMoneyField(help_text="the variance as found")
    now = SignedMoneyField(help_text="its record's variance today (a correction may change it)")
    current = serializers.BooleanField(help_text="it still stands")
    incident = serializers.IntegerField(allow_null=True)
    regulator = serializers.BooleanField(help_text="over the regulator's threshold")
    signed_off = serializers.BooleanField()
    explanation = serializers.CharField()


DISCREPANCY_PARAMS = [
    OpenApiParameter("start", date, description="the first gaming day (default: today's)"),
    OpenApiParameter("end", date, description="the last gaming day (default: start)"),
    OpenApiParameter("regulator", str, description="1: the regulator's list only"),
]


class Discrepancies(ServiceView):
    """Every variance of gaming days ``start``–``end`` (default: the gaming day now, and
    ``start``); ``regulator=1``: the regulator's list."""

    read_roles = AUDITORS

    @extend_schema(parameters=DISCREPANCY_PARAMS, responses=DiscrepancyOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        params = request.query_params
        today = table_selectors.gaming_day(cardroom, timezone.now())
        start = gaming_day_of(params["start"], "start") if params.get("start") else today
        end = gaming_day_of(params["end"], "end") if params.get("end") else start
        rows = discrepancies(
            cardroom, start, end, regulator_only=request.query_params.get("regulator") == "1"
        )
        return Response(
            [
                {
                    "id": row.variance.pk,
                    "gaming_day": row.variance.gaming_day,
                    "shift": row.variance.shift,
                    "table": row.variance.table_id,
                    "source": row.variance.source,
                    "record": f"{row.variance.record_type}:{row.variance.record_id}",
                    "amount": money_text(row.variance.amount),
                    "now": money_text(row.now),
                    "current": row.current,
                    "incident": row.variance.incident_id,
                    "regulator": row.variance.regulator,
                    "signed_off": row.signed_off,
                    "explanation": row.variance.explanation,
                }
                for row in rows
            ]
        )


class CageControlsSerializer(StrictSerializer):
    runner_required = serializers.BooleanField(required=False)
    count_team_size = serializers.IntegerField(required=False)
    variance_incident_threshold = MoneyField(required=False)
    variance_regulator_threshold = MoneyField(required=False)


def _controls(cardroom: Cardroom) -> dict[str, Any]:
    return {
        "runner_required": cardroom.runner_required,
        "count_team_size": cardroom.count_team_size,
        "variance_incident_threshold": money_text(cardroom.variance_incident_threshold),
        "variance_regulator_threshold": money_text(cardroom.variance_regulator_threshold),
    }


class CageControls(ServiceView):
    """The cage's controls: runner, count team size, variance thresholds (a floor supervisor
    changes them)."""

    read_roles = (*SUPERVISOR, *AUDITORS)
    write_roles = SUPERVISOR
    input_serializer = CageControlsSerializer

    @extend_schema(responses=CageControlsSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(_controls(get_object_or_404(Cardroom, pk=pk)))

    @extend_schema(request=CageControlsSerializer, responses=CageControlsSerializer)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = services.cage_controls_set(
            cardroom=get_object_or_404(Cardroom, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(_controls(cardroom))


__all__ = [
    "CageControls",
    "CountSheet",
    "Discrepancies",
    "DropBoxSteps",
    "DropCountCorrections",
    "TableDropBoxes",
]
