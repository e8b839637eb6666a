"""REST API for the cage: shifts and chip denominations, table inventory counts, fills and
credits, drop boxes and their counts, shift and gaming-day close, the table-games statistics
(JSON and CSV). Views only parse, call one service and answer.

Who: floor supervisors verify counts, request and void slips, sign off variances and close
shifts; the dealer on duty (or another supervisor) signs a slip's delivery; the count team
enters drop counts and reads the drop boxes it counts (blind: no expected figure), nothing
else; compliance reads everything and closes the gaming day.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth.models import User
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
from cage.models import DayClose, DropCount, InventoryCount, ShiftClose, Slip
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import (
    AsciiIntegerField,
    BoundedDictField,
    IdField,
    MoneyField,
    SignedMoneyField,
    WallClockField,
)
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.kernel.errors import DomainError, PermissionDenied
from cardroom.kernel.inputs import month_of
from cardroom.kernel.roles import (
    AUDITORS,
    COMPLIANCE_AUDITOR,
    COUNT_TEAM,
    FLOOR_SUPERVISOR,
    PLAY_READERS,
    TABLE_STAFF,
)
from tables import selectors as table_selectors
from tables import services as table_services
from tables.models import Cardroom, Table

SUPERVISOR = (FLOOR_SUPERVISOR,)
#: Who reads the drop boxes: the count team that counts them, supervisors and compliance.
COUNTERS = (COUNT_TEAM, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


#: The most chip denominations (or bills) a cardroom counts in.
MAX_DENOMINATIONS = 50


def pieces(**kwargs: Any) -> BoundedDictField:
    """Pieces by denomination: ``{"25.00": 20}``, each a whole number (bounded so that a
    database can hold the total)."""
    return BoundedDictField(
        child=AsciiIntegerField(min_value=0, max_value=10**7),
        max_length=MAX_DENOMINATIONS,
        **kwargs,
    )


def require_sees_cage_records(request: Request, table_id: int) -> None:
    """A table's rack counts and slips: the dealer on duty there, floor supervisors and
    compliance (``tables.selectors.Viewer``); not another table's dealer, nor administrators."""
    if not table_selectors.viewer(request.user).sees_cage_records(table_id):
        raise PermissionDenied(
            "Only the table's dealer on duty, floor supervisors and compliance see its rack "
            "counts and slips."
        )


def _user(pk: int, field: str) -> User:
    user = User.objects.filter(pk=pk).first()
    if user is None:
        raise DomainError(f"There is no user {pk}.", field=field)
    return user


def _day(text: str | None, field: str = "day") -> date:
    if not text:
        raise DomainError("Name the gaming day (YYYY-MM-DD).", field=field)
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise DomainError(f"'{text}' is not a date (YYYY-MM-DD).", field=field) from None


# --- shifts and denominations -----------------------------------------------------------------


class ShiftOut(serializers.Serializer):
    name = serializers.CharField()
    starts_at = WallClockField()


class ShiftIn(StrictSerializer):
    name = serializers.CharField(max_length=20)
    starts_at = WallClockField()


class ShiftsIn(StrictSerializer):
    shifts = ShiftIn(many=True, max_length=24)  # type: ignore[call-arg]  # one an hour at most


class CardroomShifts(ServiceView):
    """The shifts of the cardroom's gaming day; POST replaces them (a floor supervisor)."""

    write_roles = SUPERVISOR
    input_serializer = ShiftsIn

    @extend_schema(responses=ShiftOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        starts = table_selectors.shift_starts(cardroom)
        return Response(ShiftOut([{"name": n, "starts_at": s} for n, s in starts], many=True).data)

    @extend_schema(request=ShiftsIn, responses=ShiftOut(many=True))
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        shifts = [(s["name"], s["starts_at"]) for s in self.parse(request)["shifts"]]
        made = table_services.cardroom_shifts_set(
            cardroom=cardroom, shifts=shifts, by=actor(request)
        )
        return Response(ShiftOut(made, many=True).data)


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
        cardroom = table_services.cardroom_denominations_set(
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
        cardroom = table_services.cardroom_cage_limit_set(
            cardroom=get_object_or_404(Cardroom, pk=pk),
            largest=self.parse(request)["largest_cage_amount"],
            by=actor(request),
        )
        return Response(CageLimitOut(cardroom).data)


# --- table inventory ------------------------------------------------------------------------------


class InventoryCountOut(serializers.ModelSerializer):
    total = MoneyField()
    book_total = MoneyField(allow_null=True)
    variance = serializers.SerializerMethodField()

    class Meta:
        model = InventoryCount
        fields = [
            "id",
            "table",
            "session",
            "kind",
            "gaming_day",
            "shift",
            "chips",
            "total",
            "book_total",
            "variance",
            "counted_by",
            "verified_by",
            "note",
            "created_at",
        ]

    def get_variance(self, count: InventoryCount) -> str | None:
        if count.book_total is None:
            return None
        return SignedMoneyField().to_representation(count.total - count.book_total)


class InventoryCountIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=InventoryCount.Kind.choices)
    chips = pieces()
    counted_by = IdField()
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class TableInventory(generics.ListAPIView, ServiceView):
    """A house-banked table's rack counts, newest first; POST records one (the dealer counts,
    the floor supervisor verifies: ``counted_by`` names the dealer). A closing count closes
    the table."""

    moves_money = True
    serializer_class = InventoryCountOut
    write_roles = SUPERVISOR
    input_serializer = InventoryCountIn

    def get_queryset(self) -> QuerySet[InventoryCount]:
        if getattr(self, "swagger_fake_view", False):
            return InventoryCount.objects.none()
        table = get_object_or_404(Table, pk=self.kwargs["pk"])
        require_sees_cage_records(self.request, table.pk)
        return selectors.inventory_counts(table)

    @extend_schema(request=InventoryCountIn, responses={201: InventoryCountOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        count = services.inventory_count_record(
            table=get_object_or_404(Table, pk=pk),
            kind=data["kind"],
            chips=data["chips"],
            counted_by=_user(data["counted_by"], "counted_by"),
            note=data["note"],
            by=actor(request),
        )
        return Response(InventoryCountOut(count).data, status=201)


# --- fills and credits ----------------------------------------------------------------------------


class SlipOut(serializers.ModelSerializer):
    total = MoneyField()
    number = serializers.CharField(read_only=True)
    status = serializers.SerializerMethodField()
    delivered_by = serializers.SerializerMethodField()
    voided_by = serializers.SerializerMethodField()
    void_reason = serializers.SerializerMethodField()

    class Meta:
        model = Slip
        fields = [
            "id",
            "number",
            "kind",
            "serial",
            "table",
            "gaming_day",
            "shift",
            "chips",
            "total",
            "requested_by",
            "requested_at",
            "status",
            "delivered_by",
            "voided_by",
            "void_reason",
        ]

    def get_status(self, slip: Slip) -> str:
        return slip_status(slip)

    def get_delivered_by(self, slip: Slip) -> int | None:
        delivery = getattr(slip, "delivery", None)
        return delivery.delivered_by_id if delivery else None

    def get_voided_by(self, slip: Slip) -> int | None:
        void = getattr(slip, "void", None)
        return void.voided_by_id if void else None

    def get_void_reason(self, slip: Slip) -> str | None:
        void = getattr(slip, "void", None)
        return void.reason if void else None


def slip_status(slip: Slip) -> str:
    if hasattr(slip, "void"):
        return "void"
    return "delivered" if hasattr(slip, "delivery") else "requested"


class SlipIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=Slip.Kind.choices)
    chips = pieces()


class TableSlips(generics.ListAPIView, ServiceView):
    """A house-banked table's fill and credit slips, newest first; POST requests one."""

    moves_money = True
    serializer_class = SlipOut
    write_roles = SUPERVISOR
    input_serializer = SlipIn

    def get_queryset(self) -> QuerySet[Slip]:
        if getattr(self, "swagger_fake_view", False):
            return Slip.objects.none()
        table = get_object_or_404(Table, pk=self.kwargs["pk"])
        require_sees_cage_records(self.request, table.pk)
        return selectors.slips(table)

    @extend_schema(request=SlipIn, responses={201: SlipOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        slip = services.slip_request(
            table=get_object_or_404(Table, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(SlipOut(slip).data, status=201)


class SlipDetail(generics.RetrieveAPIView):
    queryset = selectors.slips()
    serializer_class = SlipOut
    read_roles = PLAY_READERS

    def get_object(self) -> Slip:
        slip: Slip = super().get_object()
        require_sees_cage_records(self.request, slip.table_id)
        return slip


class SlipDeliver(ServiceView):
    """The second signature: the chips reached the table (fill) or the cage (credit)."""

    moves_money = True
    write_roles = TABLE_STAFF

    @extend_schema(request=None, responses=SlipOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        slip = get_object_or_404(Slip, pk=pk)
        services.slip_deliver(slip=slip, by=actor(request))
        return Response(SlipOut(selectors.slips().get(pk=pk)).data)


class VoidIn(StrictSerializer):
    reason = serializers.CharField(max_length=2000)
    witness = IdField()


class SlipVoid(ServiceView):
    """A slip never delivered is voided by a floor supervisor and a witness, with a reason."""

    moves_money = True
    write_roles = SUPERVISOR
    input_serializer = VoidIn

    @extend_schema(request=VoidIn, responses=SlipOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        services.slip_void(
            slip=get_object_or_404(Slip, pk=pk),
            reason=data["reason"],
            witness=_user(data["witness"], "witness"),
            by=actor(request),
        )
        return Response(SlipOut(selectors.slips().get(pk=pk)).data)


# --- drop and count -------------------------------------------------------------------------------


class DropCountOut(serializers.ModelSerializer):
    cash_total = MoneyField()
    chips_total = MoneyField()
    total = MoneyField()
    expected_cash = MoneyField()
    expected_chips = MoneyField()
    expected_total = MoneyField()
    variance = SignedMoneyField()
    signed_off_by = serializers.SerializerMethodField()
    sign_off_reason = serializers.SerializerMethodField()

    class Meta:
        model = DropCount
        fields = [
            "id",
            "table",
            "gaming_day",
            "shift",
            "cash",
            "chips",
            "cash_total",
            "chips_total",
            "total",
            "expected_cash",
            "expected_chips",
            "expected_total",
            "variance",
            "counted_by",
            "second_counter",
            "note",
            "created_at",
            "signed_off_by",
            "sign_off_reason",
        ]

    def get_signed_off_by(self, count: DropCount) -> int | None:
        sign_off = getattr(count, "sign_off", None)
        return sign_off.signed_by_id if sign_off else None

    def get_sign_off_reason(self, count: DropCount) -> str | None:
        sign_off = getattr(count, "sign_off", None)
        return sign_off.reason if sign_off else None


class DropBoxOut(serializers.Serializer):
    table = serializers.IntegerField()
    table_name = serializers.CharField()
    counted = serializers.BooleanField()
    count = DropCountOut(allow_null=True)


SHIFT_PARAMS = [
    OpenApiParameter("day", date, description="the gaming day (YYYY-MM-DD); with shift"),
    OpenApiParameter("shift", str, description="the shift's name; default: the last shift over"),
]


class DropBoxes(ServiceView):
    """The drop boxes of one shift and their counts. The count team's count is blind: before a
    box is counted, no one's answer shows what the books expect in it."""

    read_roles = COUNTERS

    @extend_schema(parameters=SHIFT_PARAMS, responses=DropBoxOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        params = request.query_params
        day, shift = selectors.last_shift_over(cardroom)
        if params.get("day") or params.get("shift"):
            day, shift = _day(params.get("day")), params.get("shift") or ""
            table_selectors.shift_bounds(cardroom, day, shift)  # a shift the cardroom has
        boxes = [
            {"table": t.pk, "table_name": t.name, "counted": c is not None, "count": c}
            for t, c in selectors.drop_boxes(cardroom, day, shift)
        ]
        return Response(DropBoxOut(boxes, many=True).data)


class DropCountIn(StrictSerializer):
    gaming_day = serializers.DateField()
    shift = serializers.CharField(max_length=20)
    cash = pieces(required=False, default=dict)
    chips = pieces(required=False, default=dict)
    second_counter = IdField()
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class TableDropCount(ServiceView):
    """Two members of the count team enter what one drop box held (the second is named)."""

    moves_money = True
    write_roles = (COUNT_TEAM,)
    input_serializer = DropCountIn

    @extend_schema(request=DropCountIn, responses={201: DropCountOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        count = services.drop_count_record(
            table=get_object_or_404(Table, pk=pk),
            gaming_day=data["gaming_day"],
            shift=data["shift"],
            cash=data["cash"],
            chips=data["chips"],
            second_counter=_user(data["second_counter"], "second_counter"),
            note=data["note"],
            by=actor(request),
        )
        return Response(DropCountOut(count).data, status=201)


class VarianceReasonIn(StrictSerializer):
    reason = serializers.CharField(max_length=2000)


class DropCountSignOff(ServiceView):
    """A floor supervisor explains a drop count's variance and signs it off."""

    moves_money = True
    write_roles = SUPERVISOR
    input_serializer = VarianceReasonIn

    @extend_schema(request=VarianceReasonIn, responses=DropCountOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        count = get_object_or_404(DropCount, pk=pk)
        services.drop_variance_sign_off(
            count=count, reason=self.parse(request)["reason"], by=actor(request)
        )
        return Response(DropCountOut(DropCount.objects.get(pk=pk)).data)


# --- shift and day close, statistics -------------------------------------------------------------


class ShiftCloseOut(serializers.ModelSerializer):
    class Meta:
        model = ShiftClose
        fields = ["id", "gaming_day", "shift", "closed_by", "closed_at", "figures"]


class ShiftCloseIn(StrictSerializer):
    gaming_day = serializers.DateField()
    shift = serializers.CharField(max_length=20)


class ShiftCloses(generics.ListAPIView, ServiceView):
    """The closed shifts, newest first; POST closes one (a floor supervisor)."""

    serializer_class = ShiftCloseOut
    read_roles = AUDITORS
    write_roles = SUPERVISOR
    input_serializer = ShiftCloseIn

    def get_queryset(self) -> QuerySet[ShiftClose]:
        if getattr(self, "swagger_fake_view", False):
            return ShiftClose.objects.none()
        return ShiftClose.objects.filter(cardroom_id=self.kwargs["pk"])

    @extend_schema(request=ShiftCloseIn, responses={201: ShiftCloseOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        closed = services.shift_close(
            cardroom=get_object_or_404(Cardroom, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(ShiftCloseOut(closed).data, status=201)


class DayCloseOut(serializers.ModelSerializer):
    class Meta:
        model = DayClose
        fields = ["id", "gaming_day", "closed_by", "closed_at", "figures", "checkpoint"]


class DayCloseIn(StrictSerializer):
    gaming_day = serializers.DateField()


class DayCloses(generics.ListAPIView, ServiceView):
    """The closed gaming days, newest first; POST closes one (compliance)."""

    serializer_class = DayCloseOut
    read_roles = AUDITORS
    write_roles = (COMPLIANCE_AUDITOR,)
    input_serializer = DayCloseIn

    def get_queryset(self) -> QuerySet[DayClose]:
        if getattr(self, "swagger_fake_view", False):
            return DayClose.objects.none()
        return DayClose.objects.filter(cardroom_id=self.kwargs["pk"])

    @extend_schema(request=DayCloseIn, responses={201: DayCloseOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        closed = services.gaming_day_close(
            cardroom=get_object_or_404(Cardroom, pk=pk), **self.parse(request), by=actor(request)
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
    day = _day(params.get("day")) if "day" in params else today
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
