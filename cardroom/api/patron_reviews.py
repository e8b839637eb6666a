"""REST API for what the floor and compliance follow up on a player: suspicious-activity
reviews, incidents, and R16's stopped games."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response

from cardroom.api.base import ServiceView, actor
from cardroom.api.fields import PersonNameField, RowField
from cardroom.api.idempotency import idempotent
from cardroom.api.inputs import StrictSerializer
from core.people import person_name
from core.roles import (
    FLOOR_SUPERVISOR,
    PLAY_READERS,
)
from patrons import incidents, reviews, selectors
from patrons.models import (
    Cardroom,
    Incident,
    Player,
    SuspiciousActivityReview,
)
from tables.models import GameStop, Table
from tables.rotation import game_restart
from wagers.models import Hand
from wagers.services import incidents as incidents_at_tables

from .patrons import COMPLIANCE, FLOOR_AND_COMPLIANCE


class ReviewIn(StrictSerializer):
    note = serializers.CharField(max_length=5000)


class ReviewNoteIn(StrictSerializer):
    status = serializers.ChoiceField(choices=SuspiciousActivityReview.Status.choices)
    note = serializers.CharField(max_length=5000)


class ReviewOut(serializers.ModelSerializer):
    notes = serializers.SerializerMethodField()
    opened_by_name = PersonNameField(source="opened_by")

    class Meta:
        model = SuspiciousActivityReview
        fields = ["id", "player", "status", "opened_by", "opened_by_name", "opened_at", "notes"]

    def get_notes(self, review: SuspiciousActivityReview) -> list[dict[str, Any]]:
        """Each note: ``by`` its author's username, ``by_name`` their name."""
        return [
            {
                "status": n.status,
                "note": n.note,
                "by": n.by.get_username(),
                "by_name": person_name(n.by),
                "at": n.at,
            }
            for n in review.notes.all()
        ]


class IncidentIn(StrictSerializer):
    cardroom = RowField(Cardroom.objects.all())
    kind = serializers.ChoiceField(choices=Incident.Kind.choices)
    summary = serializers.CharField(max_length=5000)
    occurred_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    table = RowField(Table.objects.all(), required=False, allow_null=True, default=None)
    hand = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1)
    players = serializers.ListField(
        child=RowField(Player.objects.all()), required=False, default=list, max_length=50
    )


class IncidentEntryIn(StrictSerializer):
    kind = serializers.ChoiceField(
        choices=["note", "surveillance_requested", "surveillance_findings", "closed"]
    )
    text = serializers.CharField(max_length=5000)


class IncidentOut(serializers.ModelSerializer):
    # Linked from the table and the hand (``tables.IncidentTable``, ``wagers.IncidentHand``).
    table: serializers.PrimaryKeyRelatedField[Table] = serializers.PrimaryKeyRelatedField(
        source="at_table.table", read_only=True, allow_null=True
    )
    hand: serializers.PrimaryKeyRelatedField[Hand] = serializers.PrimaryKeyRelatedField(
        source="at_hand.hand", read_only=True, allow_null=True
    )
    status = serializers.SerializerMethodField()
    entries = serializers.SerializerMethodField()
    reported_by_name = PersonNameField(source="reported_by")

    class Meta:
        model = Incident
        fields = [
            "id",
            "cardroom",
            "kind",
            "occurred_at",
            "table",
            "hand",
            "players",
            "summary",
            "exclusion",
            "reported_by",
            "reported_by_name",
            "created_at",
            "status",
            "entries",
        ]

    def get_status(self, row: Incident) -> str:
        return selectors.incident_status(row)

    def get_entries(self, row: Incident) -> list[dict[str, Any]]:
        return [
            {
                "kind": e.kind,
                "text": e.text,
                "by": e.by.get_username(),
                "by_name": person_name(e.by),
                "at": e.at,
            }
            for e in row.entries.all()
        ]


class GameStopOut(serializers.ModelSerializer):
    class Meta:
        model = GameStop
        fields = [
            "id",
            "table",
            "stopped_at",
            "window_start",
            "window_end",
            "window_minutes",
            "settings_version",
            "holders",
            "hands",
            "restarted_by",
            "restarted_at",
            "note",
        ]


class RestartIn(StrictSerializer):
    note = serializers.CharField(max_length=2000)


class ReviewList(generics.ListAPIView):
    serializer_class = ReviewOut
    read_roles = COMPLIANCE

    def get_queryset(self) -> QuerySet[SuspiciousActivityReview]:
        return selectors.reviews()


class PlayerReviewOpen(ServiceView):
    read_roles = ()
    write_roles = COMPLIANCE
    input_serializer = ReviewIn

    @extend_schema(request=ReviewIn, responses={201: ReviewOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        review = reviews.review_open(
            player=get_object_or_404(Player, pk=pk), **self.parse(request), by=actor(request)
        )
        return Response(ReviewOut(review).data, status=201)


class ReviewNoteView(ServiceView):
    read_roles = ()
    write_roles = COMPLIANCE
    input_serializer = ReviewNoteIn

    @extend_schema(request=ReviewNoteIn, responses={201: ReviewOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        review = get_object_or_404(SuspiciousActivityReview, pk=pk)
        reviews.review_note(review=review, **self.parse(request), by=actor(request))
        return Response(ReviewOut(review).data, status=201)


class IncidentList(generics.ListAPIView, ServiceView):
    """The incident log, newest first (exclusion matches among them); POST reports one."""

    serializer_class = IncidentOut
    read_roles = FLOOR_AND_COMPLIANCE
    write_roles = incidents.REPORTERS
    input_serializer = IncidentIn

    def get_queryset(self) -> QuerySet[Incident]:
        return _incidents()

    @extend_schema(request=IncidentIn, responses={201: IncidentOut})
    @idempotent
    def post(self, request: Request) -> Response:
        data = self.parse(request)
        hand = data.pop("hand")
        row = incidents_at_tables.incident_report(**data, hand=_hand(hand), by=actor(request))
        return Response(IncidentOut(row).data, status=201)


def _incidents() -> QuerySet[Incident]:
    return selectors.incidents().select_related("at_table", "at_hand")  # linked from above


def _hand(pk: int | None) -> Hand | None:
    if pk is None:
        return None
    return get_object_or_404(Hand.objects.select_related("table"), pk=pk)


class IncidentDetail(generics.RetrieveAPIView):
    serializer_class = IncidentOut
    read_roles = FLOOR_AND_COMPLIANCE

    def get_queryset(self) -> QuerySet[Incident]:
        return _incidents()


class IncidentEntryView(ServiceView):
    read_roles = ()
    write_roles = incidents.REVIEWERS
    input_serializer = IncidentEntryIn

    @extend_schema(request=IncidentEntryIn, responses={201: IncidentOut})
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        incident = get_object_or_404(Incident, pk=pk)
        incidents.incident_follow_up(incident=incident, **self.parse(request), by=actor(request))
        return Response(IncidentOut(_incidents().get(pk=pk)).data, status=201)


class GameStops(generics.ListAPIView, ServiceView):
    """R16 (2026): the table's stopped games; POST (a floor supervisor) acknowledges the open
    stop and restarts the game, saying what was done."""

    serializer_class = GameStopOut
    read_roles = PLAY_READERS
    write_roles = (FLOOR_SUPERVISOR,)
    input_serializer = RestartIn

    def get_queryset(self) -> QuerySet[GameStop]:
        if getattr(self, "swagger_fake_view", False):
            return GameStop.objects.none()
        return GameStop.objects.filter(table_id=self.kwargs["pk"]).order_by("-stopped_at")

    @extend_schema(request=RestartIn, responses=GameStopOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        table = get_object_or_404(Table, pk=pk)
        stop = game_restart(table=table, **self.parse(request), by=actor(request))
        return Response(GameStopOut(stop).data)
