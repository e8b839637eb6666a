"""REST API for compliance reports and exports: a table's gaming day, a player's, and exports."""

from __future__ import annotations

from datetime import UTC, date

from django.http import FileResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, PersonNameField, RowField, SignedMoneyField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.read_source import ReadSourceOut
from cardroom.api.tables.rotation import PERIOD, RotationFlagOut, RotationOut, period
from cardroom.api.tables.setting_changes import SettingChangeOut
from compliance import reports, services
from compliance.models import Export
from core.errors import DomainError
from core.roles import AUDITORS
from patrons.models import Cardroom, Player
from tables.models import Table
from tables.selectors import gaming_day_bounds


class TableDayOut(serializers.Serializer):
    table = serializers.IntegerField(source="table.pk")
    day = serializers.DateField()
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    # A correction books its reversal's (negative) fees on the day it is made.
    fees_by_mode = serializers.DictField(child=SignedMoneyField())
    fees_total = SignedMoneyField()
    hands_played = serializers.IntegerField()
    dead_spots_by_reason = serializers.DictField(child=serializers.IntegerField())
    misdeals = serializers.DictField(child=serializers.IntegerField())
    rotation = RotationOut(many=True)
    rotation_flags = RotationFlagOut(many=True)
    setting_changes = SettingChangeOut(many=True)
    read_from = ReadSourceOut(
        source="source", help_text="where the report was read from (the replica's lag)"
    )


class TableDayReport(ServiceView):
    """One table's gaming day: fees by mode, hands, dead hands, misdeals, the rotation log and
    its R16 flags, setting changes."""

    read_roles = AUDITORS

    @extend_schema(responses=TableDayOut)
    def get(self, request: Request, pk: int, day: str) -> Response:
        try:
            gaming_day = date.fromisoformat(day)
        except ValueError:
            raise DomainError(f"'{day}' is not a date (YYYY-MM-DD).", field="day") from None
        table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
        try:  # the day's bounds, in UTC as the database keeps them, must exist (not 9999-12-31)
            for moment in gaming_day_bounds(table.cardroom, gaming_day):
                moment.astimezone(UTC)
        except OverflowError:
            raise DomainError(f"{day} is outside the calendar kept.", field="day") from None
        return Response(TableDayOut(reports.table_day_report(table, gaming_day)).data)


class MovementOut(serializers.Serializer):
    id = serializers.IntegerField()
    table = serializers.CharField(source="seating.table.name")
    seat = serializers.IntegerField(source="seating.seat")
    amount = SignedMoneyField()
    reason = serializers.CharField()
    actor = serializers.CharField(source="actor.username", default=None, allow_null=True)
    actor_name = PersonNameField(source="actor", allow_null=True)
    created_at = serializers.DateTimeField()


class SeatingSessionOut(serializers.Serializer):
    table = serializers.CharField(source="table.name")
    seat = serializers.IntegerField()
    sat_at = serializers.DateTimeField()
    left_at = serializers.DateTimeField(allow_null=True)
    stack = MoneyField()


class PlayerReportOut(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    seatings = SeatingSessionOut(many=True)
    movements = MovementOut(many=True)
    read_from = ReadSourceOut(
        source="source", help_text="where the report was read from (the replica's lag)"
    )


class PlayerReport(ServiceView):
    """A player's sessions and stack movements in a period."""

    read_roles = AUDITORS

    @extend_schema(parameters=PERIOD, responses=PlayerReportOut)
    def get(self, request: Request, pk: int) -> Response:
        start, end = period(request)
        report = reports.player_report(get_object_or_404(Player, pk=pk), start, end)
        return Response(PlayerReportOut(report).data)


class ExportOut(serializers.ModelSerializer):
    requested_by_name = PersonNameField(source="requested_by", allow_null=True)

    class Meta:
        model = Export
        fields = [
            "id",
            "kind",
            "start",
            "end",
            "requested_by",
            "requested_by_name",
            "requested_at",
            "status",
            "progress",
            "rows",
            "chain_seq",
            "chain_hash",
            "finished_at",
            "error",
            "attempts",
            "progress_at",
            "cardroom",
        ]


class ExportIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=Export.Kind.choices)
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()
    # Whose records: needed only by someone who works in several cardrooms.
    cardroom = RowField(Cardroom.objects.all(), required=False)


class ExportList(generics.ListAPIView, ServiceView):
    """Exports, newest first; POST asks for one (built by a Celery task, see its progress)."""

    queryset = Export.objects.select_related("requested_by").order_by("-requested_at", "-id")
    serializer_class = ExportOut
    read_roles = AUDITORS
    write_roles = AUDITORS
    input_serializer = ExportIn

    @extend_schema(request=ExportIn, responses={202: ExportOut})
    @idempotent
    def post(self, request: Request) -> Response:
        export = services.export_request(**self.parse(request), by=actor(request))
        export.refresh_from_db()
        return Response(ExportOut(export).data, status=202)


class ExportDetail(generics.RetrieveAPIView):
    queryset = Export.objects.select_related("requested_by")
    serializer_class = ExportOut
    read_roles = AUDITORS


class ExportRetry(ServiceView):
    """Build a failed export again (its status says "failed", its error why)."""

    write_roles = AUDITORS

    @extend_schema(request=None, responses={202: ExportOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        export = services.export_retry(export=get_object_or_404(Export, pk=pk), by=actor(request))
        export.refresh_from_db()
        return Response(ExportOut(export).data, status=202)


class ExportDownload(ServiceView):
    read_roles = AUDITORS

    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.BINARY})
    def get(self, request: Request, pk: int) -> FileResponse:
        export = get_object_or_404(Export, pk=pk)
        if export.status != Export.Status.DONE:
            raise DomainError(f"The export is {export.status}, not ready yet.", field="status")
        return FileResponse(
            export.file.open("rb"),
            as_attachment=True,
            filename=export.file.name.split("/")[-1],
            content_type="text/csv",
        )
