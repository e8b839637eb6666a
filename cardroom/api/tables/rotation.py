"""R16: the designated-player rotation's log, an offer of the position, and its compliance."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import (
    BoundedDictField,
    SeatField,
    seat_keys,
)
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.tables.common import require_sees_stacks
from core.errors import DomainError
from core.roles import TABLE_STAFF
from engine.table import MAX_SEATS
from tables import selectors
from tables.models import (
    RotationRecord,
    Table,
)
from tables.rotation import designated_player_rotate


class RotationOut(serializers.ModelSerializer):
    class Meta:
        model = RotationRecord
        fields = [
            "id",
            "table",
            "session",
            "created_at",
            "method",
            "offers",
            "draw",
            "designated_player",
            "player",
            "proposition_player",
            "consecutive",
        ]


class RotationIn(StrictSerializer):
    refusals = serializers.ListField(
        child=SeatField(), required=False, default=list, max_length=MAX_SEATS
    )
    draw_cards = BoundedDictField(
        child=serializers.CharField(max_length=4),
        required=False,
        allow_null=True,
        default=None,
        max_length=MAX_SEATS,
    )


PERIOD = [
    OpenApiParameter("from", datetime, description="start of the period (ISO 8601)"),
    OpenApiParameter("to", datetime, description="end of the period (ISO 8601)"),
]


class RotationLog(generics.ListAPIView, ServiceView):
    """R16: every offer of the designated-player position at the table in a period. POST
    offers it now (without starting a hand) — e.g. to run the first hand's draw."""

    serializer_class = RotationOut
    write_roles = TABLE_STAFF
    input_serializer = RotationIn

    def get_queryset(self) -> QuerySet[RotationRecord]:
        if getattr(self, "swagger_fake_view", False):
            return RotationRecord.objects.none()
        table = get_object_or_404(Table, pk=self.kwargs["pk"])
        require_sees_stacks(self.request, table.pk)
        start, end = period(self.request)
        return selectors.rotation_log(table, start, end)

    @extend_schema(parameters=PERIOD)
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    @extend_schema(request=RotationIn, responses={201: RotationOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        record = designated_player_rotate(
            table=get_object_or_404(Table, pk=pk),
            by=actor(request),
            refusals=data["refusals"],
            draw_cards=seat_keys(data["draw_cards"], field="draw_cards") or None,
        )
        return Response(RotationOut(record).data, status=201)


class RotationFlagOut(serializers.Serializer):
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    holders = serializers.ListField(child=serializers.CharField())
    hands = serializers.IntegerField()


class RotationCompliance(ServiceView):
    """R16's check: windows of play in which fewer than two players held the position."""

    @extend_schema(parameters=PERIOD, responses=RotationFlagOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        require_sees_stacks(request, table.pk)
        start, end = period(request)
        flags = selectors.rotation_compliance_flags(table, start, end)
        return Response(RotationFlagOut(flags, many=True).data)


def period(request: Request) -> tuple[datetime, datetime]:
    """``from``/``to`` query parameters (ISO 8601); the last 24 hours by default."""
    end = _moment(request, "to") or timezone.now()
    try:
        start = _moment(request, "from") or end - timedelta(days=1)
    except OverflowError:
        raise DomainError("The period starts before the year 1.", field="to") from None
    if start >= end:
        raise DomainError("The period must end after it starts.", field="to")
    return start, end


def _moment(request: Request, name: str) -> datetime | None:
    text = request.query_params.get(name)
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
        moment = moment if timezone.is_aware(moment) else timezone.make_aware(moment)
        # The database is asked in UTC (PostgreSQL takes no offset beyond ±15:59), and
        # 0001-01-01T00:00+14:00 has no UTC equivalent.
        return moment.astimezone(UTC)
    except (ValueError, OverflowError):
        raise DomainError(f"'{text}' is not an ISO 8601 date and time.", field=name) from None
