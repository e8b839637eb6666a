"""Shift and gaming-day close, each signed by the person closing; the table-games statistics
of a shift, a day or a month (JSON and CSV)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cage import reports, selectors, services
from cage.models import DayClose, ShiftClose
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import PersonNameField, SignedMoneyField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import SignatureIn, signature_input
from core.errors import DomainError
from core.inputs import month_of
from core.roles import AUDITORS, COMPLIANCE_AUDITOR
from patrons.models import Cardroom
from tables import selectors as table_selectors

from .common import SUPERVISOR, gaming_day_of


class ShiftCloseOut(serializers.ModelSerializer):
    closed_by_name = PersonNameField(source="closed_by")

    class Meta:
        model = ShiftClose
        fields = [
            "id",
            "gaming_day",
            "shift",
            "closed_by",
            "closed_by_name",
            "closed_at",
            "figures",
        ]


class ShiftCloseIn(StrictSerializer):
    gaming_day = serializers.DateField()
    shift = serializers.CharField(max_length=20)
    signature = SignatureIn(help_text="The floor supervisor's own password or PIN.")


class ShiftCloses(generics.ListAPIView, ServiceView):
    """The closed shifts, newest first; POST closes one (a floor supervisor, who signs)."""

    serializer_class = ShiftCloseOut
    read_roles = AUDITORS
    write_roles = SUPERVISOR
    input_serializer = ShiftCloseIn

    def get_queryset(self) -> QuerySet[ShiftClose]:
        if getattr(self, "swagger_fake_view", False):
            return ShiftClose.objects.none()
        return ShiftClose.objects.filter(cardroom_id=self.kwargs["pk"]).select_related("closed_by")

    @extend_schema(request=ShiftCloseIn, responses={201: ShiftCloseOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        closed = services.shift_close(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            gaming_day=data["gaming_day"],
            shift=data["shift"],
            signature=signature_input(request, data["signature"]),
            by=actor(request),
        )
        return Response(ShiftCloseOut(closed).data, status=201)


class DayCloseOut(serializers.ModelSerializer):
    closed_by_name = PersonNameField(source="closed_by")

    class Meta:
        model = DayClose
        fields = [
            "id",
            "gaming_day",
            "closed_by",
            "closed_by_name",
            "closed_at",
            "figures",
            "checkpoint",
        ]


class DayCloseIn(StrictSerializer):
    gaming_day = serializers.DateField()
    signature = SignatureIn(help_text="The compliance auditor's own password or PIN.")


class DayCloses(generics.ListAPIView, ServiceView):
    """The closed gaming days, newest first; POST closes one (compliance, who signs)."""

    serializer_class = DayCloseOut
    read_roles = AUDITORS
    write_roles = (COMPLIANCE_AUDITOR,)
    input_serializer = DayCloseIn

    def get_queryset(self) -> QuerySet[DayClose]:
        if getattr(self, "swagger_fake_view", False):
            return DayClose.objects.none()
        return DayClose.objects.filter(cardroom_id=self.kwargs["pk"]).select_related("closed_by")

    @extend_schema(request=DayCloseIn, responses={201: DayCloseOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        closed = services.gaming_day_close(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            gaming_day=data["gaming_day"],
            signature=signature_input(request, data["signature"]),
            by=actor(request),
        )
        return Response(DayCloseOut(closed).data, status=201)


STATISTICS_PARAMS = [
    OpenApiParameter("day", date, description="a gaming day (YYYY-MM-DD); default: today's"),
    OpenApiParameter("shift", str, description="with day: one shift of it"),
    OpenApiParameter("month", str, description="instead of day: a month (YYYY-MM)"),
]


def statistics(request: Request, cardroom: Cardroom) -> tuple[dict[str, Any], str, str]:
    """The statistics the query names (a shift, a day or a month): JSON, CSV, a file name."""
    params = request.query_params
    month = params.get("month")
    if month:
        return _month(cardroom, month)
    today = table_selectors.gaming_day(cardroom, timezone.now())
    day = gaming_day_of(params.get("day")) if "day" in params else today
    shift = params.get("shift")
    if shift:
        table_selectors.shift_bounds(cardroom, day, shift)
        stats = selectors.shift_statistics(cardroom, day, shift)
        body: dict[str, Any] = {**stats.as_json(), "closed": stats.closed is not None}
        return body, reports.shift_csv(stats), f"table-games-{day}-{shift}.csv"
    return _gaming_day(cardroom, day)


def _month(cardroom: Cardroom, month: str) -> tuple[dict[str, Any], str, str]:
    try:
        year, number = month_of(month)
    except ValueError:
        raise DomainError(f"'{month}' is not a month (YYYY-MM).", field="month") from None
    stats = selectors.month_statistics(cardroom, year, number)
    name = f"{year:04d}-{number:02d}"
    body: dict[str, Any] = {
        "month": name,
        "days": [
            {"day": d.isoformat(), "closed": closed, "totals": t.as_json()}
            for d, t, closed in stats.days
        ],
        "totals": stats.totals.as_json(),
    }
    return body, reports.month_csv(stats), f"table-games-{name}.csv"


def _gaming_day(cardroom: Cardroom, day: date) -> tuple[dict[str, Any], str, str]:
    stats = selectors.day_statistics(cardroom, day)
    body: dict[str, Any] = {
        **stats.as_json(),
        "closed": stats.closed is not None,
        "adjustments": [
            {
                "hand": note.hand,
                "hand_number": note.hand_number,
                "table": note.table_name,
                "booked_day": note.booked_day.isoformat(),
                "booked_shift": note.booked_shift,
                "adjusts_shift": note.adjusts_shift,
                "house": SignedMoneyField().to_representation(note.house),
                "reason": note.reason,
            }
            for note in stats.adjustments
        ],
    }
    return body, reports.day_csv(stats), f"table-games-{day}.csv"


class Statistics(ServiceView):
    """The table-games statistics of a shift, a gaming day or a month: per table drop, win,
    hold %, fills, credits, fees, variances; a closed day's adjustments as notes."""

    read_roles = AUDITORS

    @extend_schema(parameters=STATISTICS_PARAMS, responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        body, _, _ = statistics(request, get_object_or_404(Cardroom, pk=pk))
        return Response(body)


class StatisticsCsv(ServiceView):
    read_roles = AUDITORS

    @extend_schema(parameters=STATISTICS_PARAMS, responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, pk: int) -> HttpResponse:
        _, text, name = statistics(request, get_object_or_404(Cardroom, pk=pk))
        response = HttpResponse(text, content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
