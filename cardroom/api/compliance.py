"""REST API for the audit log, its verification, compliance reports and exports."""

from __future__ import annotations

from datetime import UTC, date
from fractions import Fraction
from typing import Any

import django_filters
from django.http import FileResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from audit.models import AuditEvent, Checkpoint
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, PersonNameField, SignedMoneyField
from cardroom.api.filters import IdFilter, UtcDateTimeFilter
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.tables.rotation import PERIOD, RotationFlagOut, RotationOut, period
from cardroom.api.tables.setting_changes import SettingChangeOut
from compliance import hold, reports, services
from compliance.models import Export, VerificationRun
from core.errors import DomainError
from core.inputs import AsciiDigitsForm
from core.roles import AUDITORS
from tables import selectors as table_selectors
from tables.models import Player, Table
from tables.selectors import gaming_day, gaming_day_bounds
from wagers import selectors as wagers_selectors


class EventOut(serializers.ModelSerializer):
    """``actor_name`` is the username the chain recorded; ``actor_full_name`` the person's
    name, as people read it."""

    actor_full_name = PersonNameField(source="actor", allow_null=True)

    class Meta:
        model = AuditEvent
        fields = [
            "seq",
            "occurred_at",
            "actor",
            "actor_name",
            "actor_full_name",
            "action",
            "object_type",
            "object_id",
            "payload",
            "prev_hash",
            "hash",
        ]


class EventFilter(django_filters.FilterSet):
    actor = IdFilter(field_name="actor_id")
    action = django_filters.CharFilter(lookup_expr="startswith")
    occurred_after = UtcDateTimeFilter(field_name="occurred_at", lookup_expr="gte")
    occurred_before = UtcDateTimeFilter(field_name="occurred_at", lookup_expr="lt")

    class Meta:
        form = AsciiDigitsForm  # a number or a date in ASCII digits
        model = AuditEvent
        fields = ["actor", "action", "object_type", "occurred_after", "occurred_before"]


class EventList(generics.ListAPIView):
    """The audit log, newest first, by actor, action (prefix), object type and period. The
    cards of a hand still in play are hidden from compliance until it settles."""

    queryset = AuditEvent.objects.select_related("actor").order_by("-seq")
    serializer_class = EventOut
    filterset_class = EventFilter
    read_roles = AUDITORS

    def paginate_queryset(self, queryset: Any) -> Any:
        page = super().paginate_queryset(queryset)
        viewer = table_selectors.viewer(self.request.user)
        return None if page is None else wagers_selectors.hide_live_cards(page, viewer)


class VerificationOut(serializers.ModelSerializer):
    """A verification run (items 2, 17): poll it until ``status`` is done (or failed), then
    ``ok`` says whether it holds and ``result`` is the report. An audit chain run's report
    has the fields verification answered before: ok, events, head_seq, head_hash, broken_seq
    and problem; a books run's: ok, row (the first offending row), problem and the counts."""

    requested_by_name = PersonNameField(source="requested_by", allow_null=True)

    class Meta:
        model = VerificationRun
        fields = [
            "id",
            "kind",
            "requested_by",
            "requested_by_name",
            "requested_at",
            "status",
            "progress",
            "progress_at",
            "finished_at",
            "ok",
            "result",
            "error",
        ]


class _VerificationRequest(ServiceView):
    kind: str = ""
    write_roles = AUDITORS

    @extend_schema(request=None, responses={202: VerificationOut})
    @idempotent
    def post(self, request: Request) -> Response:
        run = services.verification_request(kind=self.kind, by=actor(request))
        run.refresh_from_db()  # run inline on the embedded default: done already
        return Response(VerificationOut(run).data, status=202)


class Verify(_VerificationRequest):
    """Recompute the whole chain, against the recorded checkpoints too, in a Celery task:
    answers 202 with the run; GET ``audit/verify/{id}/`` for its progress and report."""

    kind = VerificationRun.Kind.AUDIT_CHAIN


class BooksVerify(_VerificationRequest):
    """Verify the books in a Celery task: every stack against its entries, every
    settlement against the engine, the fee ledger, R15 per hand and per day. 202 with the
    run; GET ``books/verify/{id}/`` for its progress and the first offending row."""

    kind = VerificationRun.Kind.BOOKS


class StateVerify(_VerificationRequest):
    """Verify the compliance state against the audit log in a Celery task: self-approval,
    role groups, exclusions, CTRs and settled hands' cards. 202 with the run; GET
    ``state/verify/{id}/`` for its progress and the first offending row."""

    kind = VerificationRun.Kind.STATE


class VerifyDetail(generics.RetrieveAPIView):
    queryset = VerificationRun.objects.filter(kind=VerificationRun.Kind.AUDIT_CHAIN).select_related(
        "requested_by"
    )
    serializer_class = VerificationOut
    read_roles = AUDITORS


class BooksVerifyDetail(generics.RetrieveAPIView):
    queryset = VerificationRun.objects.filter(kind=VerificationRun.Kind.BOOKS).select_related(
        "requested_by"
    )
    serializer_class = VerificationOut
    read_roles = AUDITORS


class StateVerifyDetail(generics.RetrieveAPIView):
    queryset = VerificationRun.objects.filter(kind=VerificationRun.Kind.STATE)
    serializer_class = VerificationOut
    read_roles = AUDITORS


class CheckpointOut(serializers.ModelSerializer):
    class Meta:
        model = Checkpoint
        fields = ["seq", "hash", "verified_at", "events"]


class CheckpointList(generics.ListAPIView):
    """Verified chain heads; keep a copy outside the system to detect a cut-off tail."""

    queryset = Checkpoint.objects.order_by("-seq", "-id")
    serializer_class = CheckpointOut
    read_roles = AUDITORS


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


# --- hold against theoretical (game-math.md) ---------------------------------------------------


@extend_schema_field(
    {"type": "string", "nullable": True, "pattern": r"^-?\d+\.\d{6}$", "example": "0.078072"}
)
class FigureField(serializers.Field):
    """A ratio as a fraction of 1 with 6 places ("0.078072" = 7.8072%); null without handle."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("read_only", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Fraction | None) -> str | None:
        return hold.figure(value)


class HoldPeriodOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["day", "month", "range"])
    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()


class HoldLineOut(serializers.Serializer):
    """One wager type: the ante and raise together (their edge is per ante), or a bonus."""

    wager = serializers.ChoiceField(choices=list(hold.LINES))
    wagers = serializers.IntegerField(help_text="n: wagers in action (antes for ante_raise)")
    handle = MoneyField(help_text="amounts wagered in action, pushes included")
    handle_by_wager = serializers.DictField(
        child=MoneyField(), help_text="ante and raise apart; one entry for a bonus"
    )
    win = SignedMoneyField(help_text="what the bank won on these wagers, fees apart")
    hold = FigureField(help_text="win ÷ handle")
    theoretical_win = SignedMoneyField(help_text="Σ handle × house edge, per settings version")
    theoretical_hold = FigureField()
    band_low = SignedMoneyField(help_text="theoretical − z·σ·√n·(average wager)")
    band_high = SignedMoneyField(help_text="theoretical + z·σ·√n·(average wager)")
    flagged = serializers.BooleanField(help_text="the win is outside its band")
    flag = serializers.CharField(help_text="the figures that raised the flag; empty if none")


class HoldBankOut(serializers.Serializer):
    bank = serializers.ChoiceField(
        choices=[
            hold.HOUSE,
            hold.DESIGNATED_PLAYERS,
            hold.DESIGNATED_PLAYER,
            hold.PROPOSITION_PLAYER,
        ]
    )
    player = serializers.IntegerField(source="player.pk", default=None, allow_null=True)
    name = serializers.CharField()
    hands = serializers.IntegerField()
    handle = MoneyField()
    win = SignedMoneyField()
    theoretical_win = SignedMoneyField()
    hold = FigureField()
    lines = HoldLineOut(many=True)


class HoldReportOut(serializers.Serializer):
    table = serializers.IntegerField(source="table.pk")
    banking = serializers.CharField(source="table.banking")
    period = HoldPeriodOut()
    z = serializers.DecimalField(max_digits=6, decimal_places=2, coerce_to_string=True)
    total = HoldBankOut(help_text="the table's bank: the house, or every DP together")
    players = HoldBankOut(many=True, help_text="each designated player, on a DP table")
    flags = serializers.ListField(child=serializers.CharField())


HOLD_PARAMETERS = [
    OpenApiParameter(
        "period",
        str,
        enum=["day", "shift", "month", "range"],
        description="day: a gaming day; shift: one `shift` of the gaming `day`; month: month "
        "to date, up to the end of `day`; range: `from`–`to`. Default: day.",
    ),
    OpenApiParameter("day", date, description="the gaming day (default: today's)"),
    OpenApiParameter("shift", str, description="shift: the shift's name (e.g. swing)"),
    OpenApiParameter("from", str, description="range: start (ISO 8601)"),
    OpenApiParameter("to", str, description="range: end (ISO 8601)"),
]


class HoldReport(ServiceView):
    """Hold against theoretical at a table (game-math.md): per wager type, handle, win, hold
    %, theoretical win and the band; per designated player on a DP table; flags with the
    figures that raised them. A flag changes nothing."""

    read_roles = AUDITORS

    @extend_schema(parameters=HOLD_PARAMETERS, responses=HoldReportOut)
    def get(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table.objects.select_related("cardroom"), pk=pk)
        report = hold.hold_report(table, hold_period(request, table))
        return Response(HoldReportOut(report).data)


def hold_period(request: Request, table: Table) -> hold.Period:
    """The report's period from the query: a gaming day, a month to date, or a range."""
    kind = request.query_params.get("period") or "day"
    if kind == "range":
        start, end = period(request)
        return hold.range_period(start, end)
    if kind not in ("day", "shift", "month"):
        raise DomainError("The period is day, shift, month or range.", field="period")
    text = request.query_params.get("day")
    cardroom = table.cardroom
    try:
        day = date.fromisoformat(text) if text else gaming_day(cardroom, timezone.now())
    except ValueError:
        raise DomainError(f"'{text}' is not a date (YYYY-MM-DD).", field="day") from None
    try:  # the period's bounds, in UTC as the database keeps them, must exist
        if kind == "shift":
            found = hold.shift_period(cardroom, day, request.query_params.get("shift") or "")
        elif kind == "day":
            found = hold.day_period(cardroom, day)
        else:
            found = hold.month_to_date_period(cardroom, day)
        found.start.astimezone(UTC), found.end.astimezone(UTC)
    except OverflowError:
        raise DomainError(f"{day} is outside the calendar kept.", field="day") from None
    return found


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
        ]


class ExportIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=Export.Kind.choices)
    start = serializers.DateTimeField()
    end = serializers.DateTimeField()


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
