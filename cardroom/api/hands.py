"""REST API for hands: start, wagers, cards, decisions, dead hands, settle, corrections, and
the settle preview. Settlements answer with the same breakdown as ``settle_round``."""

from __future__ import annotations

from typing import Any

import django_filters
from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, StepView, actor
from cardroom.api.errors import error_response
from cardroom.api.fields import (
    seat_keys,
)
from cardroom.api.filters import UtcDateTimeFilter
from cardroom.api.idempotency import idempotent
from core.inputs import AsciiDigitsForm
from core.roles import FLOOR_SUPERVISOR, PLAY_READERS, READERS, TABLE_STAFF
from engine import settle_json
from tables.models import Seating, Table
from wagers import services
from wagers.models import Hand

from .hand_inputs import (
    CardsIn,
    CorrectionIn,
    DecisionIn,
    DecisionsIn,
    HandStartIn,
    MisdealIn,
    SpotSeatIn,
    WagerIn,
    WagersIn,
)
from .hand_outputs import (
    HandDetailOut,
    HandOut,
    SettlementOut,
    bound,
    hand_answer,
    new_hand_answer,
    with_viewer,
)

# --- views ----------------------------------------------------------------------------------


class HandFilter(django_filters.FilterSet):
    started_after = UtcDateTimeFilter(field_name="started_at", lookup_expr="gte")
    started_before = UtcDateTimeFilter(field_name="started_at", lookup_expr="lt")

    class Meta:
        form = AsciiDigitsForm  # a number or a date in ASCII digits
        model = Hand
        fields = ["table", "status", "started_after", "started_before"]


class HandList(generics.ListAPIView):
    """Hands by table, status and time, newest first."""

    read_roles = PLAY_READERS

    queryset = Hand.objects.select_related("settings", "dp_seating").order_by("-started_at", "-id")
    serializer_class = HandOut
    filterset_class = HandFilter

    def get_serializer_context(self) -> dict[str, Any]:
        return with_viewer(super().get_serializer_context(), self.request)


class HandStart(ServiceView):
    """Start the next hand at the table: the DP rotation runs first (R16)."""

    moves_money = True
    write_roles = TABLE_STAFF
    input_serializer = HandStartIn

    @extend_schema(request=HandStartIn, responses={201: HandDetailOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        hand = services.hand_start(
            table=Table(pk=pk),  # read and locked by the service (a missing one is a 404)
            by=actor(request),
            dp_bank=data["dp_bank"],
            refusals=tuple(data["refusals"]),
            draw_cards=seat_keys(data["draw_cards"], field="draw_cards") or None,
        )
        return Response(new_hand_answer(hand), status=201)


class HandDetail(generics.RetrieveAPIView):
    queryset = Hand.objects.select_related("settings", "dp_seating").prefetch_related(
        "spots", "settlements"
    )
    serializer_class = HandDetailOut
    read_roles = PLAY_READERS

    def get_serializer_context(self) -> dict[str, Any]:
        return with_viewer(super().get_serializer_context(), self.request)


class HandStep(StepView[Hand]):
    """One step of a hand; answers with the hand."""

    model = Hand
    service_reads_row = True  # every hand service starts with the hand's row lock

    def answer(self, hand: Hand) -> Any:
        return hand_answer(hand)


@extend_schema(request=WagerIn, responses=HandDetailOut)
class HandWager(HandStep):
    """A spot's ante and bonuses (R5–R7)."""

    moves_money = True
    input_serializer = WagerIn

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        seating = get_object_or_404(Seating, pk=data.pop("seating"))
        return services.wager_place(hand=hand, seating=seating, **data, by=by).hand


@extend_schema(request=WagerIn, responses=HandDetailOut)
class HandCurrencyWager(HandStep):
    """A spot's ante and bonuses put down in currency at a house-banked table ("money plays"):
    changed for chips from the rack and wagered at once (R5); a bet of currency on the
    player's cash log (31 CFR 1021.311)."""

    moves_money = True
    input_serializer = WagerIn

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        seating = get_object_or_404(Seating, pk=data.pop("seating"))
        return services.wager_place_in_currency(hand=hand, seating=seating, **data, by=by).hand


@extend_schema(request=WagersIn, responses=HandDetailOut)
class HandWagers(HandStep):
    """All the wagers of a hand at once (R5–R7): every spot or none."""

    moves_money = True
    input_serializer = WagersIn

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        spots = services.wagers_place_many(
            hand=hand, wagers=[dict(s) for s in data["spots"]], by=by
        )
        return spots[0].hand  # at least one spot, or the service refused


@extend_schema(request=None, responses=HandDetailOut)
class HandDeal(HandStep):
    """The system deals from its own shuffle (electronic and training tables)."""

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        return services.hand_deal(hand=hand, by=by)


@extend_schema(request=CardsIn, responses=HandDetailOut)
class HandCards(HandStep):
    """The cards of a physical deal, entered by the dealer (R1)."""

    input_serializer = CardsIn

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        spot_cards = seat_keys(data["spot_cards"], field="spot_cards")
        return services.hand_cards_enter(
            hand=hand, dealer_cards=data["dealer_cards"], spot_cards=spot_cards, by=by
        )


@extend_schema(request=DecisionIn, responses=HandDetailOut)
class HandDecision(HandStep):
    """Raise within the cap, fold, or walked away (R8)."""

    moves_money = True
    input_serializer = DecisionIn

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        return services.spot_decide(hand=hand, **data, by=by).hand


@extend_schema(request=DecisionsIn, responses=HandDetailOut)
class HandDecisions(HandStep):
    """All the decisions of a hand at once (R8): every spot or none."""

    moves_money = True
    input_serializer = DecisionsIn

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        items = [dict(s) for s in data["spots"]]
        decided = services.decisions_record_many(hand=hand, decisions=items, by=by)
        return decided[0].hand  # at least one decision, or the service refused


@extend_schema(request=SpotSeatIn, responses=HandDetailOut)
class HandDeadSpot(HandStep):
    """A spot dealt a wrong number of cards (R14)."""

    input_serializer = SpotSeatIn

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        return services.spot_declare_dead(hand=hand, seat=data["seat"], by=by).hand


@extend_schema(request=MisdealIn, responses=HandDetailOut)
class HandMisdeal(HandStep):
    """A misdeal (R14): every hand dead, settled at once."""

    moves_money = True
    input_serializer = MisdealIn

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        return services.hand_declare_misdeal(hand=hand, reason=data["reason"], by=by).hand


@extend_schema(request=None, responses=HandDetailOut)
class HandCancel(HandStep):
    """A hand nobody wagered on ends; the DP's bank goes back."""

    moves_money = True

    def run(self, hand: Hand, data: dict[str, Any], by: User) -> Hand:
        return services.hand_cancel(hand=hand, by=by)


class HandSettle(ServiceView):
    """Settle the hand (R9–R15). Idempotent: a settled hand answers with its settlement."""

    moves_money = True
    write_roles = TABLE_STAFF

    @extend_schema(request=None, responses=SettlementOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        # The service reads the hand itself, locked (a missing one is a 404).
        settlement = services.hand_settle(hand=Hand(pk=pk), by=actor(request))
        return Response(bound(SettlementOut).to_representation(settlement))


class HandCorrect(ServiceView):
    """A floor supervisor corrects a settled hand: a reversal and a new settlement entry."""

    moves_money = True
    write_roles = (FLOOR_SUPERVISOR,)
    input_serializer = CorrectionIn

    @extend_schema(request=CorrectionIn, responses={201: SettlementOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        settlement = services.hand_correct(
            hand=get_object_or_404(Hand, pk=pk),
            by=actor(request),
            reason=data["reason"],
            corrects=data["corrects"],
            dealer_cards=data["dealer_cards"],
            spot_cards=seat_keys(data["spot_cards"], field="spot_cards"),
            decisions=seat_keys(data["decisions"], field="decisions"),
        )
        return Response(SettlementOut(settlement).data, status=201)


class SettlePreview(ServiceView):
    """Run the engine on a round in the settle-json format, touching nothing (for disputes).
    Answers exactly what ``manage.py settle_round`` prints; a refusal is a 422 naming the
    field."""

    write_roles = READERS  # it changes nothing; the count team enters counts only
    body_is_free = True  # the round: the settle-json contract refuses unknown keys

    @extend_schema(request=OpenApiTypes.OBJECT, responses=OpenApiTypes.OBJECT)
    def post(self, request: Request) -> Response:
        result = settle_json(request.data)
        if "error" in result:
            return error_response(422, "invalid", **result["error"])
        return Response(result)
