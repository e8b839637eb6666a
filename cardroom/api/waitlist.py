"""The waitlist: its lists and who waits on them, its clocks, joining, the floor's order, seat
calls, taking a called seat and seat changes. Floor supervisors write; dealers and compliance
read."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, StepView, actor
from cardroom.api.cardroom_minutes import CardroomMinutes, documented, minutes_field
from cardroom.api.fields import MoneyField, RowField, SeatField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from cardroom.api.tables.common import SUPERVISOR
from cardroom.api.tables.seating import SeatingOut, TenderField
from core.roles import PLAY_READERS
from patrons.models import Cardroom, Player
from tables import waitlist_selectors
from tables.models import BANKING_CHOICES, Seating, Table, Waitlist, WaitlistEntry
from tables.services.seat_calls import waitlist_call, waitlist_call_pass, waitlist_seat
from tables.services.seat_changes import seating_move
from tables.services.waitlist import (
    waitlist_arrive,
    waitlist_join,
    waitlist_move,
    waitlist_open,
    waitlist_remove,
)
from tables.services.waitlist_timing import cardroom_waitlist_timing_set


class EntryOut(serializers.ModelSerializer):
    class Meta:
        model = WaitlistEntry
        fields = [
            "id",
            "waitlist",
            "player",
            "name",
            "channel",
            "hold_until",
            "arrived_at",
            "position",
            "status",
            "joined_at",
            "called_table",
            "called_seat",
            "called_at",
            "call_expires_at",
            "seating",
            "ended_at",
        ]


class WaitlistOut(serializers.ModelSerializer):
    ante_min = MoneyField()
    ante_max = MoneyField()
    entries = serializers.SerializerMethodField()

    class Meta:
        model = Waitlist
        fields = ["id", "cardroom", "banking", "ante_min", "ante_max", "opened_at", "entries"]

    @extend_schema_field(EntryOut(many=True))
    def get_entries(self, waitlist: Waitlist) -> list[dict[str, Any]]:
        """The entries still on the list (waiting or called), in order."""
        on_list = getattr(waitlist, "on_list", None)
        if on_list is None:
            on_list = list(waitlist_selectors.entries_on_list(waitlist))
        return [dict(EntryOut(entry).data) for entry in on_list]


class WaitlistTimingOut(serializers.Serializer):
    cardroom = serializers.IntegerField(source="pk")
    seat_call_minutes = serializers.IntegerField()
    phone_hold_minutes = serializers.IntegerField()


class WaitlistTimingIn(StrictSerializer):
    seat_call_minutes = minutes_field()
    phone_hold_minutes = minutes_field()


class WaitlistIn(StrictSerializer):
    cardroom = RowField(Cardroom.objects.all())
    banking = serializers.ChoiceField(choices=BANKING_CHOICES)
    ante_min = MoneyField()
    ante_max = MoneyField()


class JoinIn(StrictSerializer):
    player = RowField(Player.objects.all(), required=False, allow_null=True, default=None)
    name = serializers.CharField(max_length=100, required=False, default="")
    phone = serializers.BooleanField(required=False, default=False)


class CallIn(StrictSerializer):
    seat = SeatField()
    entry = RowField(WaitlistEntry.objects.all(), required=False, allow_null=True, default=None)


class TakeSeatIn(StrictSerializer):
    buy_in = MoneyField(required=False, default="0")
    tender = TenderField()


class MoveIn(StrictSerializer):
    place = serializers.IntegerField(min_value=1, max_value=100_000)


class SeatChangeIn(StrictSerializer):
    table = RowField(Table.objects.all())
    seat = SeatField()


class WaitlistList(generics.ListAPIView, ServiceView):
    """Every list with the players on it in order; a floor supervisor opens one for a game
    a table offers (its banking and ante limits)."""

    serializer_class = WaitlistOut
    read_roles = PLAY_READERS
    write_roles = SUPERVISOR
    input_serializer = WaitlistIn
    pagination_class = None

    def get_queryset(self) -> QuerySet[Waitlist]:
        if getattr(self, "swagger_fake_view", False):
            return Waitlist.objects.none()
        return waitlist_selectors.all_waitlists()

    @extend_schema(request=WaitlistIn, responses={201: WaitlistOut})
    @idempotent
    def post(self, request: Request) -> Response:
        waitlist = waitlist_open(**self.parse(request), by=actor(request))
        return Response(WaitlistOut(waitlist).data, status=201)


@documented
class WaitlistTiming(CardroomMinutes):
    """The cardroom's waitlist clocks: the minutes a called player has to take the seat and
    the minutes a phone entry is held; PUT sets either (1 to 120; audited). A call or hold
    already running keeps its deadline."""

    read_roles = PLAY_READERS
    write_roles = SUPERVISOR
    input_serializer = WaitlistTimingIn
    output = WaitlistTimingOut
    setter = cardroom_waitlist_timing_set


class WaitlistJoin(ServiceView):
    """A player joins the list: a registered ``player`` or a ``name``, in person or by phone."""

    read_roles = PLAY_READERS
    write_roles = SUPERVISOR
    input_serializer = JoinIn

    @extend_schema(request=JoinIn, responses={201: EntryOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        entry = waitlist_join(
            waitlist=get_object_or_404(Waitlist, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(EntryOut(entry).data, status=201)


class SeatCall(ServiceView):
    """Call a player to an empty seat of the table: ``entry``, or the first waiting on the
    list of the table's game. The player has the cardroom's call minutes to take it."""

    read_roles = PLAY_READERS
    write_roles = SUPERVISOR
    input_serializer = CallIn

    @extend_schema(request=CallIn, responses={201: EntryOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        entry = waitlist_call(
            table=get_object_or_404(Table, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(EntryOut(entry).data, status=201)


class EntryStep(StepView[WaitlistEntry]):
    """One change to an entry; answers with the entry."""

    model = WaitlistEntry
    write_roles = SUPERVISOR

    def answer(self, entry: WaitlistEntry) -> Any:
        entry.refresh_from_db()
        return EntryOut(entry).data


@extend_schema(request=None, responses=EntryOut)
class EntryRemove(EntryStep):
    """The player leaves the list (or the floor takes them off it)."""

    def run(self, entry: WaitlistEntry, data: dict[str, Any], by: User) -> None:
        waitlist_remove(entry=entry, by=by)


@extend_schema(request=None, responses=EntryOut)
class EntryArrive(EntryStep):
    """A player who joined by phone is here, within the hold."""

    def run(self, entry: WaitlistEntry, data: dict[str, Any], by: User) -> None:
        waitlist_arrive(entry=entry, by=by)


@extend_schema(request=MoveIn, responses=EntryOut)
class EntryMove(EntryStep):
    """The floor moves a player to a place on the list (1: first)."""

    input_serializer = MoveIn

    def run(self, entry: WaitlistEntry, data: dict[str, Any], by: User) -> None:
        waitlist_move(entry=entry, place=data["place"], by=by)


@extend_schema(request=None, responses=EntryOut)
class EntryPass(EntryStep):
    """The called player did not take the seat: the call passes to the next on the list."""

    def run(self, entry: WaitlistEntry, data: dict[str, Any], by: User) -> None:
        waitlist_call_pass(entry=entry, by=by)


class EntrySeat(ServiceView):
    """The called player takes the seat within the call's minutes, buying in (or, seated at
    another table, moving there with the stack)."""

    moves_money = True
    read_roles = PLAY_READERS
    write_roles = SUPERVISOR
    input_serializer = TakeSeatIn

    @extend_schema(request=TakeSeatIn, responses={201: SeatingOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        seating = waitlist_seat(
            entry=get_object_or_404(WaitlistEntry, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(SeatingOut(seating).data, status=201)


class SeatingMove(ServiceView):
    """A seat change, at this table or another: the stack moves with the player."""

    moves_money = True
    read_roles = PLAY_READERS
    write_roles = SUPERVISOR
    input_serializer = SeatChangeIn

    @extend_schema(request=SeatChangeIn, responses={201: SeatingOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        seating = seating_move(
            seating=get_object_or_404(Seating, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(SeatingOut(seating).data, status=201)
