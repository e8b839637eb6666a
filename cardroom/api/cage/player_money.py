"""A player's money at the cage: front money and safekeeping (deposits and withdrawals),
markers (issued as cash or chips, and their payments), currency exchanges, and a player's
balances. The cashier holding the cage records (each POST with an Idempotency-Key); floor
supervisors and compliance read."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cage import player_accounts, services
from cage.models import CurrencyExchange, Marker, PlayerAccountEntry
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import IdField, MoneyField, PersonNameField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from core.errors import DomainError
from patrons.models import Cardroom, Player

from .cashier import CAGE_READERS, CASHIERS
from .common import pieces


def _cardroom(pk: int) -> Cardroom:
    return get_object_or_404(Cardroom, pk=pk)


def _player(cardroom: int, pk: int) -> Player:
    return get_object_or_404(Player.objects.select_related("cardroom"), pk=pk, cardroom_id=cardroom)


class AccountEntryOut(serializers.ModelSerializer):
    amount = serializers.SerializerMethodField()
    balance = MoneyField()
    player_name = serializers.CharField(source="player.name")
    cash_transaction = serializers.IntegerField(source="cage_entry.cash_transaction_id")
    by_name = PersonNameField(source="by")

    class Meta:
        model = PlayerAccountEntry
        fields = [
            "id",
            "player",
            "player_name",
            "account",
            "amount",
            "balance",
            "cage_entry",
            "cash_transaction",
            "by",
            "by_name",
            "created_at",
        ]

    def get_amount(self, row: PlayerAccountEntry) -> str:
        return f"{row.amount:.2f}"  # signed: a withdrawal is below zero


class AccountMoveIn(StrictSerializer):
    player = IdField()
    direction = serializers.ChoiceField(
        choices=[("deposit", "cash in"), ("withdrawal", "cash out")]
    )
    amount = MoneyField()


class _AccountMoves(ServiceView):
    moves_money = True
    read_roles = ()
    write_roles = CASHIERS
    input_serializer = AccountMoveIn
    account: ClassVar[str]

    @extend_schema(request=AccountMoveIn, responses={201: AccountEntryOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        row = services.player_account_move(
            player=_player(pk, data["player"]),
            account=self.account,
            direction=data["direction"],
            amount=data["amount"],
            by=actor(request),
        )
        return Response(AccountEntryOut(row).data, status=201)


class FrontMoney(_AccountMoves):
    """A player's front money: a deposit (cash in) or a withdrawal (cash out, up to the
    balance), on the cash log."""

    account = PlayerAccountEntry.Account.FRONT_MONEY


class Safekeeping(_AccountMoves):
    """A player's safekeeping: a deposit (cash in) or a withdrawal (cash out, up to the
    balance), on the cash log."""

    account = PlayerAccountEntry.Account.SAFEKEEPING


def _marker_json(state: player_accounts.MarkerState) -> dict[str, Any]:
    marker = state.marker
    return {
        "id": marker.pk,
        "player": marker.player_id,
        "player_name": marker.player.name,
        "amount": MoneyField().to_representation(marker.amount),
        "issued_as": marker.issued_as,
        "paid": MoneyField().to_representation(state.paid),
        "outstanding": MoneyField().to_representation(state.outstanding),
        "status": "paid" if state.closed else "open",
        "cage_entry": marker.cage_entry_id,
        "by": marker.by_id,
        "by_name": PersonNameField().to_representation(marker.by),
        "created_at": serializers.DateTimeField().to_representation(marker.created_at),
    }


class MarkerOut(serializers.Serializer):
    """A marker as the answers give it (``_marker_json``): for the schema."""

    id = serializers.IntegerField()
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    amount = serializers.CharField()
    issued_as = serializers.ChoiceField(choices=Marker.IssuedAs.choices)
    paid = serializers.CharField()
    outstanding = serializers.CharField()
    status = serializers.ChoiceField(choices=[("open", "open"), ("paid", "paid")])
    cage_entry = serializers.IntegerField()
    by = serializers.IntegerField()
    by_name = serializers.CharField()
    created_at = serializers.DateTimeField()


class BalancesOut(serializers.Serializer):
    player = serializers.IntegerField()
    player_name = serializers.CharField()
    front_money = serializers.CharField()
    safekeeping = serializers.CharField()
    markers_outstanding = serializers.CharField()
    markers = MarkerOut(many=True)


class MarkerIn(StrictSerializer):
    player = IdField()
    issued_as = serializers.ChoiceField(choices=Marker.IssuedAs.choices)
    amount = MoneyField(required=False, default=None)
    chips = pieces(required=False, default=dict)


PLAYER_PARAM = [OpenApiParameter("player", int, description="one player's (their id)")]


def _player_param(request: Request, *, required: bool) -> int | None:
    text = request.query_params.get("player")
    if not text and not required:
        return None
    if not text or not text.isascii() or not text.isdigit() or len(text) > 18:
        raise DomainError("Name the player by their id (?player=12).", field="player")
    return int(text)


class Markers(ServiceView):
    """The cardroom's markers, newest first (``?player=`` one player's), each with what is
    paid and outstanding; POST issues one (as cash: ``amount``; as chips: ``chips``)."""

    moves_money = True
    read_roles = CAGE_READERS
    write_roles = CASHIERS
    input_serializer = MarkerIn

    @extend_schema(parameters=PLAYER_PARAM, responses=MarkerOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        player_id = _player_param(request, required=False)
        player = _player(pk, player_id) if player_id is not None else None
        rows = player_accounts.markers(_cardroom(pk), player=player)[:200]
        return Response([_marker_json(player_accounts.marker_state(m)) for m in rows])

    @extend_schema(request=MarkerIn, responses={201: MarkerOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        marker = services.marker_issue(
            player=_player(pk, data["player"]),
            issued_as=data["issued_as"],
            amount=data["amount"],
            chips=data["chips"],
            by=actor(request),
        )
        return Response(_marker_json(player_accounts.marker_state(marker)), status=201)


class MarkerPaymentIn(StrictSerializer):
    amount = MoneyField()


class MarkerPayments(ServiceView):
    """A payment in cash on a marker (up to what is outstanding); the marker as it is now."""

    moves_money = True
    read_roles = ()
    write_roles = CASHIERS
    input_serializer = MarkerPaymentIn

    @extend_schema(request=MarkerPaymentIn, responses={201: MarkerOut})
    @idempotent
    def post(self, request: Request, pk: int, marker: int) -> Response:
        data = self.parse(request)
        row = get_object_or_404(Marker.objects.select_related("player"), pk=marker, cardroom_id=pk)
        services.marker_pay(marker=row, amount=data["amount"], by=actor(request))
        return Response(_marker_json(player_accounts.marker_state(row)), status=201)


class ExchangeOut(serializers.ModelSerializer):
    amount = MoneyField()
    foreign_amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    player_name = serializers.CharField(source="player.name")
    by_name = PersonNameField(source="by")

    class Meta:
        model = CurrencyExchange
        fields = [
            "id",
            "player",
            "player_name",
            "amount",
            "currency",
            "foreign_amount",
            "received_entry",
            "paid_entry",
            "by",
            "by_name",
            "created_at",
        ]


class ExchangeIn(StrictSerializer):
    player = IdField()
    amount = MoneyField(help_text="The US dollars paid for it.")
    currency = serializers.CharField(max_length=3, help_text="ISO 4217: EUR, MXN; USD for bills.")
    foreign_amount = serializers.CharField(max_length=20, help_text="What was handed over.")


class CurrencyExchanges(generics.ListAPIView, ServiceView):
    """The cardroom's currency exchanges, newest first; POST records one: the currency taken
    in and the same dollars paid out, both on the cash log."""

    moves_money = True
    serializer_class = ExchangeOut
    read_roles = CAGE_READERS
    write_roles = CASHIERS
    input_serializer = ExchangeIn

    def get_queryset(self) -> QuerySet[CurrencyExchange]:
        if getattr(self, "swagger_fake_view", False):
            return CurrencyExchange.objects.none()
        return player_accounts.exchanges(_cardroom(self.kwargs["pk"]))

    @extend_schema(request=ExchangeIn, responses={201: ExchangeOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        exchange = services.currency_exchange(
            player=_player(pk, data["player"]),
            amount=data["amount"],
            currency=data["currency"],
            foreign_amount=data["foreign_amount"],
            by=actor(request),
        )
        return Response(ExchangeOut(exchange).data, status=201)


class PlayerBalances(ServiceView):
    """What the cage holds for players (front money, safekeeping) and what they owe it (their
    markers, each with what is outstanding): every player with an account or a marker, or
    one (``?player=``)."""

    read_roles = CAGE_READERS

    @extend_schema(parameters=PLAYER_PARAM, responses=BalancesOut(many=True))
    def get(self, request: Request, pk: int) -> Response:
        player_id = _player_param(request, required=False)
        if player_id is not None:
            players = [_player(pk, player_id)]
        else:
            players = list(player_accounts.players_with_money(_cardroom(pk))[:200])
        return Response([_balances_json(p) for p in players])


def _balances_json(player: Player) -> dict[str, Any]:
    balances = player_accounts.player_balances(player)
    money = MoneyField().to_representation
    return {
        "player": player.pk,
        "player_name": player.name,
        "front_money": money(balances.front_money),
        "safekeeping": money(balances.safekeeping),
        "markers_outstanding": money(balances.markers_outstanding),
        "markers": [_marker_json(state) for state in balances.markers],
    }
