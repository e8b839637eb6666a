"""Players, seats and stacks."""

from __future__ import annotations

from typing import Any

import django_filters
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, StepView, actor
from cardroom.api.fields import (
    MoneyField,
    RowField,
    SeatField,
    SignedMoneyField,
)
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.tables.common import SUPERVISOR, require_sees_stacks
from core.inputs import AsciiDigitsForm
from core.roles import PLAY_READERS, TABLE_STAFF
from patrons.identity import IdentityInput
from patrons.models import Cardroom, Player
from tables import selectors
from tables.models import Seating, StackEntry, Table, Tender
from tables.services.seating import (
    player_create,
    seat_player,
    seating_come_back,
    seating_flag_proposition,
    seating_leave,
    seating_sit_out,
    seating_waive_dp,
)
from tables.services.stacks import stack_add, stack_cash_out


class SeatingOut(serializers.ModelSerializer):
    stack = MoneyField()
    player_name = serializers.CharField(source="player.name", read_only=True)
    call_floor = serializers.SerializerMethodField(
        help_text="the seat is held: no wagers, and only a floor supervisor moves its chips"
    )

    class Meta:
        model = Seating
        fields = [
            "id",
            "table",
            "seat",
            "player",
            "player_name",
            "stack",
            "sat_at",
            "left_at",
            "sitting_out",
            "dp_waiver",
            "proposition_player",
            "call_floor",
        ]

    def get_call_floor(self, seating: Seating) -> bool:
        return seating.exclusion_hold_id is not None


class PlayerOut(serializers.ModelSerializer):
    """A player record, with its person and the person's other records (linked by
    compliance: one person however many records)."""

    linked_records = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = ["id", "cardroom", "name", "created_at", "person", "linked_records"]

    def get_linked_records(self, player: Player) -> list[dict[str, Any]]:
        """The person's other records: ``id``, ``name``, ``cardroom``."""
        return [
            {"id": other.pk, "name": other.name, "cardroom": other.cardroom_id}
            for other in player.person.records.all()
            if other.pk != player.pk
        ]


class StackEntryOut(serializers.ModelSerializer):
    amount = SignedMoneyField()

    class Meta:
        model = StackEntry
        fields = [
            "id",
            "seating",
            "amount",
            "reason",
            "tender",
            "gaming_day",
            "shift",
            "actor",
            "created_at",
        ]


class PlayerIdentityIn(StrictSerializer):
    """A player's identity, given at registration (``patrons``): checked against the
    exclusion lists with the name."""

    date_of_birth = serializers.DateField()
    id_type = serializers.CharField(max_length=20)
    id_number = serializers.CharField(max_length=60)
    id_issuer = serializers.CharField(max_length=60)
    id_expires = serializers.DateField()


class PlayerIn(StrictSerializer):
    cardroom = RowField(Cardroom.objects.all())
    name = serializers.CharField(max_length=100)
    identity = PlayerIdentityIn(required=False, allow_null=True, default=None)


TENDER_HELP = (
    "cash (chips sold at the table, cash into the drop box) or chips (brought from the cage); "
    "default: cash at a house-banked table, chips at a designated-player table"
)


def TenderField() -> serializers.ChoiceField:  # noqa: N802 - reads like a field class
    return serializers.ChoiceField(
        choices=Tender.choices, required=False, allow_null=True, default=None, help_text=TENDER_HELP
    )


class SeatIn(StrictSerializer):
    player = RowField(Player.objects.all())
    seat = SeatField()
    buy_in = MoneyField(required=False, default="0")
    tender = TenderField()


class AmountIn(StrictSerializer):
    amount = MoneyField()
    tender = TenderField()


class CashOutIn(StrictSerializer):
    amount = MoneyField(required=False, allow_null=True, default=None)


class FlagIn(StrictSerializer):
    value = serializers.BooleanField()


class PlayerFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        form = AsciiDigitsForm  # a number or a date in ASCII digits
        model = Player
        fields = ["cardroom", "name"]


class PlayerList(generics.ListAPIView, ServiceView):
    queryset = Player.objects.select_related("person").prefetch_related("person__records")
    queryset = queryset.order_by("name", "id")
    serializer_class = PlayerOut
    filterset_class = PlayerFilter
    read_roles = PLAY_READERS
    write_roles = TABLE_STAFF
    input_serializer = PlayerIn

    @extend_schema(request=PlayerIn, responses={201: PlayerOut})
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        shown = data.pop("identity")
        identity = IdentityInput(**shown) if shown else None
        player = player_create(**data, identity=identity, by=actor(request))
        return Response(PlayerOut(player).data, status=201)


class SeatingList(generics.ListAPIView, ServiceView):
    """The players seated at the table now; POST seats one and takes the buy-in."""

    moves_money = True
    serializer_class = SeatingOut
    write_roles = TABLE_STAFF
    input_serializer = SeatIn

    def get_queryset(self) -> QuerySet[Seating]:
        if getattr(self, "swagger_fake_view", False):
            return Seating.objects.none()
        table = get_object_or_404(Table, pk=self.kwargs["pk"])
        require_sees_stacks(self.request, table.pk)
        return selectors.seated(table).order_by("seat")

    @extend_schema(request=SeatIn, responses={201: SeatingOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        seating = seat_player(
            table=get_object_or_404(Table, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(SeatingOut(seating).data, status=201)


class SeatingDetail(generics.RetrieveAPIView):
    queryset = Seating.objects.select_related("player")
    serializer_class = SeatingOut

    def get_object(self) -> Seating:
        seating: Seating = super().get_object()
        require_sees_stacks(self.request, seating.table_id)
        return seating


class StackHistory(generics.ListAPIView):
    """Every movement of a seating's stack, oldest first: the stack is their sum."""

    serializer_class = StackEntryOut

    def get_queryset(self) -> QuerySet[StackEntry]:
        if getattr(self, "swagger_fake_view", False):
            return StackEntry.objects.none()
        seating = get_object_or_404(Seating, pk=self.kwargs["pk"])
        require_sees_stacks(self.request, seating.table_id)
        return selectors.stack_history(seating)


class SeatingStep(StepView[Seating]):
    """One change to a seating; answers with the seating."""

    model = Seating

    def answer(self, seating: Seating) -> Any:
        seating.refresh_from_db()
        return SeatingOut(seating).data


@extend_schema(request=AmountIn, responses=SeatingOut)
class SeatingAddChips(SeatingStep):
    moves_money = True
    input_serializer = AmountIn

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        stack_add(seating=seating, amount=data["amount"], tender=data["tender"], by=by)


@extend_schema(request=CashOutIn, responses=SeatingOut)
class SeatingCashOut(SeatingStep):
    """Colour up: chips off the stack, all of them without an amount."""

    moves_money = True
    input_serializer = CashOutIn

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        stack_cash_out(seating=seating, amount=data["amount"], by=by)


@extend_schema(request=None, responses=SeatingOut)
class SeatingSitOut(SeatingStep):
    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_sit_out(seating=seating, by=by)


@extend_schema(request=None, responses=SeatingOut)
class SeatingComeBack(SeatingStep):
    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_come_back(seating=seating, by=by)


@extend_schema(request=None, responses=SeatingOut)
class SeatingLeave(SeatingStep):
    moves_money = True

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_leave(seating=seating, by=by)


@extend_schema(request=FlagIn, responses=SeatingOut)
class SeatingDpWaiver(SeatingStep):
    """R16: a standing waiver of the designated-player position (value true), or its end."""

    input_serializer = FlagIn

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_waive_dp(seating=seating, waived=data["value"], by=by)


@extend_schema(request=FlagIn, responses=SeatingOut)
class SeatingProposition(SeatingStep):
    """Flag (or unflag) the table's third-party proposition player."""

    write_roles = SUPERVISOR
    input_serializer = FlagIn

    def run(self, seating: Seating, data: dict[str, Any], by: User) -> None:
        seating_flag_proposition(seating=seating, flagged=data["value"], by=by)
