"""REST API for one person however many player records (compliance's): linking a record to
another's person, and the possible matches to resolve (``patrons.persons``)."""

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
from core.errors import DomainError
from patrons import persons, selectors
from patrons.models import Cardroom, PersonMatch, Player

from .patrons import COMPLIANCE


class LinkIn(StrictSerializer):
    to_player = RowField(Player.objects.all())
    reason = serializers.CharField(max_length=1000)


class RecordOut(serializers.ModelSerializer):
    """A player record as named in a person's list: its name and cardroom."""

    cardroom_name = serializers.CharField(source="cardroom.name")

    class Meta:
        model = Player
        fields = ["id", "name", "cardroom", "cardroom_name"]


class PersonRecordsOut(serializers.Serializer):
    player = serializers.IntegerField()
    person = serializers.IntegerField()
    records = RecordOut(many=True)


def person_records(player: Player) -> dict[str, Any]:
    return {"player": player.pk, "person": player.person_id, "records": persons.records_of(player)}


class PlayerLink(ServiceView):
    """Compliance links the player's records to ``to_player``'s person: one person from now
    on (an ID on one record may then be recorded on the other; cash is totalled together)."""

    read_roles = ()
    write_roles = COMPLIANCE
    input_serializer = LinkIn

    @extend_schema(request=LinkIn, responses=PersonRecordsOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        player = get_object_or_404(Player, pk=pk)
        player = persons.player_link(player=player, **self.parse(request), by=actor(request))
        return Response(PersonRecordsOut(person_records(player)).data)


class MatchOut(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name")
    other_name = serializers.CharField(source="other.name")
    other_cardroom_name = serializers.CharField(source="other.cardroom.name")
    resolved_by_name = PersonNameField(source="resolved_by", allow_null=True)

    class Meta:
        model = PersonMatch
        fields = [
            "id",
            "cardroom",
            "player",
            "player_name",
            "other",
            "other_name",
            "other_cardroom_name",
            "kind",
            "status",
            "created_at",
            "resolved_by",
            "resolved_by_name",
            "resolved_at",
            "reason",
        ]


class MatchList(generics.ListAPIView):
    """The cardroom's possible matches (``?status=open|linked|distinct``; all without), newest
    first: the records of the licensee that may be one person."""

    serializer_class = MatchOut
    read_roles = COMPLIANCE

    def get_queryset(self) -> QuerySet[PersonMatch]:
        if getattr(self, "swagger_fake_view", False):
            return PersonMatch.objects.none()
        cardroom = get_object_or_404(Cardroom, pk=self.kwargs["pk"])
        status = self.request.query_params.get("status")
        if status and status not in PersonMatch.Status.values:
            raise DomainError("The status is open, linked or distinct.", field="status")
        return selectors.person_matches(cardroom.pk, status=status or None)


class ResolveIn(StrictSerializer):
    decision = serializers.CharField(max_length=10)
    reason = serializers.CharField(max_length=1000)


class MatchResolve(ServiceView):
    """Compliance's decision on a possible match: ``linked`` or ``distinct``, with a reason."""

    read_roles = ()
    write_roles = COMPLIANCE
    input_serializer = ResolveIn

    @extend_schema(request=ResolveIn, responses=MatchOut)
    @idempotent
    def post(self, request: Request, pk: int) -> Response:
        match = get_object_or_404(PersonMatch, pk=pk)
        match = persons.person_match_resolve(match=match, **self.parse(request), by=actor(request))
        return Response(MatchOut(selectors.person_matches(match.cardroom_id).get(pk=match.pk)).data)
