"""Drop and count: the shift's drop boxes (counted blind), a box's count by two members of the
count team — the second signs — and a floor supervisor's signed sign-off of its variance."""

from __future__ import annotations

from datetime import date

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cage import selectors, services
from cage.count_sheets import counters_of, drop_count_now, drop_sign_off_now
from cage.models import DropCount, VarianceSignOff
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import MoneyField, PersonNameField, SignedMoneyField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import SecondSignatureIn, SignatureIn, signature_input
from core.money import money_text
from core.people import person_name
from core.roles import COUNT_TEAM
from patrons.models import Cardroom
from tables import selectors as table_selectors
from tables.models import Table

from .common import COUNTERS, SUPERVISOR, gaming_day_of, pieces


class DropCountOut(serializers.ModelSerializer):
    cash_total = MoneyField()
    chips_total = MoneyField()
    total = MoneyField()
    expected_cash = MoneyField()
    expected_chips = MoneyField()
    expected_total = MoneyField()
    variance = SignedMoneyField()
    counted_by_name = PersonNameField(source="counted_by")
    second_counter_name = PersonNameField(source="second_counter")
    # The count as it stands: the latest initialled correction's figures, if any; its
    # variance's sign-off only if it signed that very amount.
    total_now = serializers.SerializerMethodField()
    variance_now = serializers.SerializerMethodField()
    corrected = serializers.SerializerMethodField()
    counters = serializers.SerializerMethodField()
    slip_originals = serializers.SerializerMethodField()
    signed_off_by = serializers.SerializerMethodField()
    signed_off_by_name = serializers.SerializerMethodField()
    signed_off_amount = serializers.SerializerMethodField()
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
            "counted_by_name",
            "second_counter",
            "second_counter_name",
            "note",
            "created_at",
            "signed_off_by",
            "signed_off_by_name",
            "sign_off_reason",
            "total_now",
            "variance_now",
            "corrected",
            "counters",
            "slip_originals",
            "signed_off_amount",
        ]

    def _sign_off(self, count: DropCount) -> VarianceSignOff | None:
        return drop_sign_off_now(count)

    def get_total_now(self, count: DropCount) -> str:
        return money_text(drop_count_now(count).total)

    def get_variance_now(self, count: DropCount) -> str:
        return money_text(drop_count_now(count).variance)

    def get_corrected(self, count: DropCount) -> bool:
        return drop_count_now(count).correction is not None

    def get_counters(self, count: DropCount) -> list[int]:
        return [user.pk for user in counters_of(count)]

    def get_slip_originals(self, count: DropCount) -> list[str]:
        return list(count.slip_originals.values_list("serial", flat=True))

    def get_signed_off_by(self, count: DropCount) -> int | None:
        sign_off = self._sign_off(count)
        return sign_off.signed_by_id if sign_off else None

    def get_signed_off_by_name(self, count: DropCount) -> str | None:
        sign_off = self._sign_off(count)
        return person_name(sign_off.signed_by) if sign_off else None

    def get_signed_off_amount(self, count: DropCount) -> str | None:
        sign_off = self._sign_off(count)
        return money_text(sign_off.amount) if sign_off else None

    def get_sign_off_reason(self, count: DropCount) -> str | None:
        sign_off = self._sign_off(count)
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
            day, shift = gaming_day_of(params.get("day")), params.get("shift") or ""
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
    second_counter = SecondSignatureIn(
        help_text="The second member of the count team signs: their username and password or PIN."
    )
    further_counters = SecondSignatureIn(  # type: ignore[call-arg]  # a count room's team
        many=True,
        required=False,
        default=list,
        max_length=4,
        help_text="Where the count team is larger than two: each further member signs.",
    )
    slip_originals = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        default=list,
        max_length=200,
        help_text="The serials of the fill and credit slip originals found in the box.",
    )
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)


class TableDropCount(ServiceView):
    """Two members of the count team enter what one drop box held: the one signed in, and
    the second, who signs in the request."""

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
            second_counter=signature_input(request, data["second_counter"]),
            further_counters=[
                entry
                for entry in (signature_input(request, e) for e in data["further_counters"])
                if entry is not None
            ],
            slip_originals=data["slip_originals"],
            note=data["note"],
            by=actor(request),
        )
        return Response(DropCountOut(count).data, status=201)


class VarianceSignOffIn(StrictSerializer):
    reason = serializers.CharField(max_length=2000)
    signature = SignatureIn(help_text="The floor supervisor's own password or PIN.")


class DropCountSignOff(ServiceView):
    """A floor supervisor explains a drop count's variance and signs it off."""

    moves_money = True
    write_roles = SUPERVISOR
    input_serializer = VarianceSignOffIn

    @extend_schema(request=VarianceSignOffIn, responses=DropCountOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        services.drop_variance_sign_off(
            count=get_object_or_404(DropCount, pk=pk),
            reason=data["reason"],
            signature=signature_input(request, data["signature"]),
            by=actor(request),
        )
        count = DropCount.objects.select_related("counted_by", "second_counter").get(pk=pk)
        return Response(DropCountOut(count).data)
