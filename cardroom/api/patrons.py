"""REST API for players under the law: identity (masked; compliance's audited "show"), the
cash log (players' cash at the cage is the cashier's: ``cardroom.api.cage.cashier``), MTL and
CTRs (JSON and CSV), structuring flags and the cash policy (reviews, incidents and stopped
games: ``cardroom.api.patron_reviews``; the exclusion lists: ``cardroom.api.exclusions``).

One masking rule (``patrons.masking.masked_id``) serves every answer: no body here carries a
whole ID number or TIN but the reveal's, which writes its audit event first.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.ctrs import CtrFile as CtrFile
from cardroom.api.ctrs import CtrList as CtrList
from cardroom.api.ctrs import CtrOut as CtrOut
from cardroom.api.ctrs import FileIn as FileIn
from cardroom.api.ctrs import query_day as _day
from cardroom.api.fields import MoneyField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from compliance import cash_reports
from core.errors import DomainError
from core.roles import (
    COMPLIANCE_AUDITOR,
    FLOOR_SUPERVISOR,
    TABLE_STAFF,
)
from patrons import cash, selectors
from patrons.ctr_person import PERSON_PARTS, CtrPerson, masked_last4
from patrons.identity import RECORDERS, SHOWN, IdentityInput, identity_record, identity_reveal
from patrons.masking import masked_id
from patrons.models import (
    Cardroom,
    CashTransaction,
    Player,
    PlayerIdentity,
    StructuringFlag,
)
from tables.models import Table

COMPLIANCE = (COMPLIANCE_AUDITOR,)
#: The floor and compliance: alerts, incidents, exclusion lists, stopped games.
FLOOR_AND_COMPLIANCE = (FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


# --- serializers -----------------------------------------------------------------------------


class IdentityIn(StrictSerializer):
    date_of_birth = serializers.DateField()
    id_type = serializers.CharField(max_length=20)
    id_number = serializers.CharField(max_length=60)
    id_issuer = serializers.CharField(max_length=60)
    id_expires = serializers.DateField()
    photo = serializers.FileField(required=False, allow_null=True, default=None)
    # The person as a CTR names them (``patrons.ctr_person``): optional, checked there.
    last_name = serializers.CharField(max_length=60, required=False, allow_blank=True)
    first_name = serializers.CharField(max_length=60, required=False, allow_blank=True)
    middle_name = serializers.CharField(max_length=60, required=False, allow_blank=True)
    street = serializers.CharField(max_length=100, required=False, allow_blank=True)
    city = serializers.CharField(max_length=60, required=False, allow_blank=True)
    state = serializers.CharField(max_length=2, required=False, allow_blank=True)
    zip_code = serializers.CharField(max_length=10, required=False, allow_blank=True)
    country = serializers.CharField(max_length=2, required=False, allow_blank=True)
    tin = serializers.CharField(max_length=11, required=False, allow_blank=True)
    tin_type = serializers.CharField(max_length=10, required=False, allow_blank=True)
    occupation = serializers.CharField(max_length=60, required=False, allow_blank=True)


_PERSON = set(PERSON_PARTS)


def identity_input(data: dict[str, Any]) -> IdentityInput:
    person = CtrPerson(**{key: value for key, value in data.items() if key in _PERSON})
    given = {key: value for key, value in data.items() if key not in _PERSON | {"photo"}}
    return IdentityInput(**given, person=person)


class IdentityOut(serializers.ModelSerializer):
    """An identity as everyone sees it: the ID number and the TIN masked."""

    id_number = serializers.SerializerMethodField()
    tin = serializers.SerializerMethodField()
    photo_on_file = serializers.SerializerMethodField()

    class Meta:
        model = PlayerIdentity
        fields = [
            "player",
            "date_of_birth",
            "id_type",
            "id_number",
            "id_issuer",
            "id_expires",
            *PERSON_PARTS,
            "photo_on_file",
            "recorded_at",
        ]

    def get_id_number(self, row: PlayerIdentity) -> str:
        return masked_id(row.id_number)

    def get_tin(self, row: PlayerIdentity) -> str:
        return masked_last4(row.tin_last4)

    def get_photo_on_file(self, row: PlayerIdentity) -> bool:
        return bool(row.photo)


class IdentityStatusOut(serializers.Serializer):
    """What a dealer needs to act: whether an identity is on file, and the last digits."""

    player = serializers.IntegerField()
    on_file = serializers.BooleanField()
    id_number = serializers.CharField()


class RevealIn(StrictSerializer):
    reason = serializers.CharField(max_length=500, required=False, default="")
    show = serializers.ChoiceField(choices=SHOWN, required=False, default="id_number")


class RevealOut(serializers.Serializer):
    """The one thing shown whole: ``id_number`` or (``show=tin``) ``tin``."""

    player = serializers.IntegerField()
    id_number = serializers.CharField(required=False)
    tin = serializers.CharField(required=False)


class CashTransactionOut(serializers.ModelSerializer):
    amount = MoneyField()
    day_total = MoneyField()
    player_name = serializers.CharField(source="player.name")
    # Linked from the table (``tables.TableCash``): none at the cage.
    table: serializers.PrimaryKeyRelatedField[Table] = serializers.PrimaryKeyRelatedField(
        source="at_table.table", read_only=True, allow_null=True
    )

    class Meta:
        model = CashTransaction
        fields = [
            "id",
            "player",
            "player_name",
            "direction",
            "kind",
            "amount",
            "day_total",
            "place",
            "table",
            "gaming_day",
            "logged",
            "created_at",
        ]


class FlagOut(serializers.ModelSerializer):
    class Meta:
        model = StructuringFlag
        fields = ["id", "player", "gaming_day", "transactions", "detail", "created_at"]


class PolicyIn(StrictSerializer):
    log_threshold = MoneyField()
    structuring_count = serializers.IntegerField()
    structuring_band = serializers.DecimalField(max_digits=3, decimal_places=2)


class PolicyOut(serializers.Serializer):
    log_threshold = MoneyField()
    structuring_count = serializers.IntegerField()
    structuring_band = serializers.DecimalField(max_digits=3, decimal_places=2)


# --- views -----------------------------------------------------------------------------------


class PlayerIdentityView(ServiceView):
    """GET: the identity on file, masked (compliance and the floor: all of it; a dealer: only
    whether one is on file and the last digits). POST records (or replaces) it."""

    read_roles = (*TABLE_STAFF, COMPLIANCE_AUDITOR)
    write_roles = RECORDERS
    input_serializer = IdentityIn

    @extend_schema(responses=IdentityOut)
    def get(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        row = selectors.identity_of(player)
        if request.user.groups.filter(name__in=FLOOR_AND_COMPLIANCE).exists():
            if row is None:
                raise DomainError(f"{player} has no identity on file.", field="player")
            return Response(IdentityOut(row).data)
        status = {
            "player": player.pk,
            "on_file": row is not None,
            "id_number": masked_id(row.id_number) if row else "",
        }
        return Response(IdentityStatusOut(status).data)

    @extend_schema(request=IdentityIn, responses={201: IdentityOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        data = self.parse(request)
        row = identity_record(
            player=player, identity=identity_input(data), photo=data["photo"], by=actor(request)
        )
        return Response(IdentityOut(row).data, status=201)


class PlayerIdentityReveal(ServiceView):
    """Compliance's explicit "show": the whole ID number; the look is an audit event."""

    read_roles = ()
    write_roles = COMPLIANCE
    input_serializer = RevealIn

    @extend_schema(request=RevealIn, responses=RevealOut)
    def post(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        data = self.parse(request)
        value = identity_reveal(player=player, by=actor(request), **data)
        return Response(RevealOut({"player": player.pk, data["show"]: value}).data)


class CashLog(generics.ListAPIView):
    """Every cash transaction of a gaming day (``?day=``; all days without), ``?logged=true``
    for the multiple transaction log alone."""

    serializer_class = CashTransactionOut
    read_roles = COMPLIANCE

    def get_queryset(self) -> QuerySet[CashTransaction]:
        if getattr(self, "swagger_fake_view", False):
            return CashTransaction.objects.none()
        cardroom = get_object_or_404(Cardroom, pk=self.kwargs["pk"])
        rows = selectors.cash_log(cardroom.pk, _day(self.request, "day"))
        rows = rows.select_related("at_table")  # the table, linked from tables
        if self.request.query_params.get("logged") in ("true", "1"):
            rows = rows.filter(logged=True)
        return rows


class CashCsv(ServiceView):
    """``?from=&to=`` (gaming days, inclusive; today's by default): the MTL or the CTRs as CSV
    (the CTR file is an audited look at the ID numbers it carries)."""

    read_roles = COMPLIANCE
    kind = "mtl"

    @extend_schema(responses={(200, "text/csv"): str})
    def get(self, request: Request, pk: int) -> HttpResponse:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        today = date.today()
        start = _day(request, "from", today) or today
        end = _day(request, "to", start) or start
        build = cash_reports.ctr_csv if self.kind == "ctr" else cash_reports.mtl_csv
        text = build(cardroom=cardroom, start=start, end=end, by=actor(request))
        response = HttpResponse(text, content_type="text/csv")
        response["Content-Disposition"] = f'attachment; filename="{self.kind}-{start}-{end}.csv"'
        return response


class StructuringFlags(generics.ListAPIView):
    serializer_class = FlagOut
    read_roles = COMPLIANCE

    def get_queryset(self) -> QuerySet[StructuringFlag]:
        if getattr(self, "swagger_fake_view", False):
            return StructuringFlag.objects.none()
        return selectors.structuring_flags(get_object_or_404(Cardroom, pk=self.kwargs["pk"]).pk)


class CashPolicyView(ServiceView):
    read_roles = COMPLIANCE
    write_roles = COMPLIANCE
    input_serializer = PolicyIn

    @extend_schema(responses=PolicyOut)
    def get(self, request: Request, pk: int) -> Response:
        policy = selectors.cash_policy(get_object_or_404(Cardroom, pk=pk).pk)
        return Response(PolicyOut(policy).data)

    @extend_schema(request=PolicyIn, responses=PolicyOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        cardroom = get_object_or_404(Cardroom, pk=pk)
        cash.cash_policy_set(cardroom=cardroom, **self.parse(request), by=actor(request))
        return Response(PolicyOut(selectors.cash_policy(cardroom.pk)).data)
