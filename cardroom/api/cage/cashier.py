"""The cage as a department: its state and books, its counts (open, hand over, close), its
transactions, players' cash at the cage, chips issued or withdrawn, and the chips in
circulation (JSON and CSV).

Who: the cashier holding the cage records (the services refuse any other cashier); floor
supervisors and compliance read, and sign as witnesses where a count or a chip issue asks
for one — with their own username and password or PIN in the cashier's request.
"""

from __future__ import annotations

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

from cage import cashier_books, services
from cage.circulation import circulation_statement
from cage.models import CageCount, CageEntry, ChipIssue
from cage.services.cage_ledger import OWN_SERVICE
from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import IdField, MoneyField, PersonNameField, SignedMoneyField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.signing import SecondSignatureIn, SignatureIn, signature_input
from core.errors import DomainError
from core.roles import CASHIER, COMPLIANCE_AUDITOR, FLOOR_SUPERVISOR
from patrons.models import Cardroom, Player
from tables import selectors as table_selectors

from .common import gaming_day_of, pieces

#: Who records at the cage: the cashier (holding it, the services add).
CASHIERS = (CASHIER,)
#: Who reads the cage's books and the chips in circulation.
CAGE_READERS = (CASHIER, FLOOR_SUPERVISOR, COMPLIANCE_AUDITOR)


def _cardroom(pk: int) -> Cardroom:
    return get_object_or_404(Cardroom, pk=pk)


class CageState(ServiceView):
    """The cage now: who holds it (none: closed) and what it holds by the books."""

    read_roles = CAGE_READERS

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        books = cashier_books.cage_books(_cardroom(pk))
        shift = books.shift
        return Response(
            {
                "open": shift is not None,
                "cashier": shift.cashier_id if shift else None,
                "cashier_name": PersonNameField().to_representation(shift.cashier)
                if shift
                else None,
                "opened_at": shift.opened_at if shift else None,
                "counted": books.counted,
                "chips": books.chips,
                "chips_total": MoneyField().to_representation(books.chips_total),
                "cash": MoneyField().to_representation(books.cash),
            }
        )


class CageCountOut(serializers.ModelSerializer):
    chips_total = MoneyField()
    cash_total = MoneyField()
    expected_cash = MoneyField(allow_null=True)
    variance = SignedMoneyField()
    outgoing_name = PersonNameField(source="outgoing")
    incoming_name = PersonNameField(source="incoming")

    class Meta:
        model = CageCount
        fields = [
            "id",
            "kind",
            "ends",
            "gaming_day",
            "chips",
            "chips_total",
            "cash",
            "cash_total",
            "expected_chips",
            "expected_cash",
            "variance",
            "outgoing",
            "outgoing_name",
            "incoming",
            "incoming_name",
            "note",
            "created_at",
        ]


class CageCountIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=CageCount.Kind.choices)
    chips = pieces()
    cash = pieces(help_text='Bills by denomination: {"20.00": 100}.')
    note = serializers.CharField(max_length=2000, required=False, default="", allow_blank=True)
    signature = SignatureIn(help_text="The cashier's own password or PIN.")
    other = SecondSignatureIn(
        help_text="The second person: the incoming cashier at a handover; the witness at "
        "opening or closing (a cashier, floor supervisor or compliance)."
    )


class CageCounts(generics.ListAPIView, ServiceView):
    """The cage's counts, newest first; POST opens the cage (``opening``), hands it to the
    next cashier (``handover``: ``other`` is the incoming cashier) or closes it."""

    moves_money = True
    serializer_class = CageCountOut
    read_roles = CAGE_READERS
    write_roles = CASHIERS
    input_serializer = CageCountIn

    def get_queryset(self) -> QuerySet[CageCount]:
        if getattr(self, "swagger_fake_view", False):
            return CageCount.objects.none()
        return cashier_books.cage_counts(_cardroom(self.kwargs["pk"]))

    @extend_schema(request=CageCountIn, responses={201: CageCountOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        cardroom = _cardroom(pk)
        count = services.CountGiven(chips=data["chips"], cash=data["cash"], note=data["note"])
        own = signature_input(request, data["signature"])
        other = signature_input(request, data["other"])
        by = actor(request)
        kind = data["kind"]
        if kind == CageCount.Kind.CLOSING:
            record = services.cage_close(
                cardroom=cardroom, count=count, signature=own, witness=other, by=by
            )
        elif kind == CageCount.Kind.HANDOVER:
            shift = services.cage_handover(
                cardroom=cardroom, count=count, signature=own, incoming=other, by=by
            )
            record = shift.opening_count
        else:
            shift = services.cage_open(
                cardroom=cardroom, count=count, signature=own, witness=other, by=by
            )
            record = shift.opening_count
        return Response(CageCountOut(record).data, status=201)


class CageEntryOut(serializers.ModelSerializer):
    chips_total = SignedMoneyField()
    cash = SignedMoneyField()
    by_name = PersonNameField(source="by")
    player = serializers.SerializerMethodField()

    class Meta:
        model = CageEntry
        fields = [
            "id",
            "shift",
            "kind",
            "gaming_day",
            "chips",
            "chips_total",
            "cash",
            "reference",
            "player",
            "cash_transaction",
            "by",
            "by_name",
            "created_at",
        ]

    def get_player(self, entry: CageEntry) -> int | None:
        row = entry.cash_transaction
        return row.player_id if row is not None else None


#: The kinds the plain entry takes (the others have their own endpoints).
ENTRY_KINDS = [k for k in CageEntry.Kind.choices if k[0] not in OWN_SERVICE]
PLAYER_CASH_DIRECTIONS = [("in", "chips sold for cash"), ("out", "chips redeemed for cash")]


class CageEntryIn(StrictSerializer):
    kind = serializers.ChoiceField(choices=ENTRY_KINDS)
    chips = pieces(required=False, default=dict)
    cash = MoneyField(required=False, default="0")
    reference = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)


class CageEntries(generics.ListAPIView, ServiceView):
    """The cage's transactions, newest first; POST records one (fill sent, credit received,
    cash to or from the vault, drop deposited) — the cashier holding the cage. The chips and
    cash are the amounts moved; the kind says which way."""

    moves_money = True
    serializer_class = CageEntryOut
    read_roles = CAGE_READERS
    write_roles = CASHIERS
    input_serializer = CageEntryIn

    def get_queryset(self) -> QuerySet[CageEntry]:
        if getattr(self, "swagger_fake_view", False):
            return CageEntry.objects.none()
        entries = cashier_books.cage_entries(_cardroom(self.kwargs["pk"]))
        return entries.select_related("cash_transaction")

    @extend_schema(request=CageEntryIn, responses={201: CageEntryOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        entry = services.cage_entry_add(
            cardroom=_cardroom(pk), **self.parse(request), by=actor(request)
        )
        return Response(CageEntryOut(entry).data, status=201)


class PlayerCashIn(StrictSerializer):
    player = IdField()
    direction = serializers.ChoiceField(choices=PLAYER_CASH_DIRECTIONS)
    chips = pieces()


class CagePlayerCash(ServiceView):
    """A player's cash at the cage, recorded by the cashier holding it: chips sold for cash
    (``in``) or redeemed for cash (``out``), on the player's cash log (MTL, CTR)."""

    moves_money = True
    read_roles = ()
    write_roles = CASHIERS
    input_serializer = PlayerCashIn

    @extend_schema(request=PlayerCashIn, responses={201: CageEntryOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        player = get_object_or_404(Player, pk=data["player"], cardroom_id=pk)
        record = (
            services.cage_chips_sell if data["direction"] == "in" else services.cage_chips_redeem
        )
        entry = record(player=player, chips=data["chips"], by=actor(request))
        return Response(CageEntryOut(entry).data, status=201)


class ChipIssueOut(serializers.ModelSerializer):
    total = MoneyField()
    by_name = PersonNameField(source="by")
    witness_name = PersonNameField(source="witness")

    class Meta:
        model = ChipIssue
        fields = [
            "id",
            "direction",
            "gaming_day",
            "chips",
            "total",
            "reason",
            "by",
            "by_name",
            "witness",
            "witness_name",
            "created_at",
        ]


class ChipIssueIn(StrictSerializer):
    direction = serializers.ChoiceField(choices=ChipIssue.Direction.choices)
    chips = pieces()
    reason = serializers.CharField(max_length=2000)
    witness = SecondSignatureIn(help_text="A floor supervisor or compliance signs.")


class ChipIssues(generics.ListAPIView, ServiceView):
    """Chips brought into or taken out of circulation, newest first; POST records one (the
    cashier holding the cage, a witness signing)."""

    moves_money = True
    serializer_class = ChipIssueOut
    read_roles = CAGE_READERS
    write_roles = CASHIERS
    input_serializer = ChipIssueIn

    def get_queryset(self) -> QuerySet[ChipIssue]:
        if getattr(self, "swagger_fake_view", False):
            return ChipIssue.objects.none()
        rows = ChipIssue.objects.filter(cardroom_id=self.kwargs["pk"])
        return rows.select_related("by", "witness").order_by("-id")

    @extend_schema(request=ChipIssueIn, responses={201: ChipIssueOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        data = self.parse(request)
        issue = services.chip_issue_record(
            cardroom=_cardroom(pk),
            direction=data["direction"],
            chips=data["chips"],
            reason=data["reason"],
            witness=signature_input(request, data["witness"]),
            by=actor(request),
        )
        return Response(ChipIssueOut(issue).data, status=201)


DAY_PARAM = [OpenApiParameter("day", str, description="a gaming day (YYYY-MM-DD); default today")]


def _statement_of(request: Request, pk: int) -> Any:
    cardroom = _cardroom(pk)
    text = request.query_params.get("day")
    day = (
        gaming_day_of(text)
        if text is not None
        else table_selectors.gaming_day(cardroom, timezone.now())
    )
    if day > table_selectors.gaming_day(cardroom, timezone.now()):
        raise DomainError(f"The gaming day {day} has not begun.", field="day")
    return circulation_statement(cardroom, day)


class Circulation(ServiceView):
    """Chips in circulation on a gaming day: issued = cage + racks + outstanding (with the
    players), each term, and the day's cage movements."""

    read_roles = CAGE_READERS

    @extend_schema(parameters=DAY_PARAM, responses=OpenApiTypes.OBJECT)
    def get(self, request: Request, pk: int) -> Response:
        return Response(_statement_of(request, pk).as_json())


class CirculationCsv(ServiceView):
    read_roles = CAGE_READERS

    @extend_schema(parameters=DAY_PARAM, responses={(200, "text/csv"): OpenApiTypes.STR})
    def get(self, request: Request, pk: int) -> HttpResponse:
        statement = _statement_of(request, pk)
        response = HttpResponse(statement.as_csv(), content_type="text/csv")
        name = f"chips-in-circulation-{statement.day}.csv"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response
