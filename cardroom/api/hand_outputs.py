"""REST API for hands, what it answers: a hand with its spots and settlements, as read or as a
step's service left it."""

from __future__ import annotations

import threading
from typing import Any

from rest_framework import serializers
from rest_framework.request import Request

from cardroom.api.fields import (
    MoneyField,
    SignedMoneyField,
)
from tables import selectors as table_selectors
from wagers import selectors as wagers_selectors
from wagers.models import Hand, Settlement, Spot

# --- output ---------------------------------------------------------------------------------


class SpotOut(serializers.ModelSerializer):
    cards = serializers.CharField(read_only=True, allow_null=True)  # null: not yours to see
    ante = MoneyField()
    flush_bonus = MoneyField()
    straight_flush_bonus = MoneyField()
    raise_amount = MoneyField()

    class Meta:
        model = Spot
        fields = [
            "id",
            "seat",
            "seating",
            "player",
            "ante",
            "flush_bonus",
            "straight_flush_bonus",
            "cards",
            "decision",
            "raise_amount",
            "dead_reason",
        ]


class SettlementOut(serializers.ModelSerializer):
    """One settlement entry; ``result`` is exactly what ``settle_round`` answers for
    ``round``."""

    house_rake = SignedMoneyField()  # negative on a reversal
    dealer_net = SignedMoneyField()

    class Meta:
        model = Settlement
        fields = [
            "id",
            "hand",
            "entry",
            "kind",
            "reverses",
            "reason",
            "created_by",
            "created_at",
            "house_rake",
            "dealer_net",
            "round",
            "result",
        ]


class HandOut(serializers.ModelSerializer):
    """A hand; the hole cards of a hand not yet settled are null for anybody but its table's
    dealer on duty and floor supervisors (``tables.selectors.Viewer``)."""

    dealer_cards = serializers.CharField(read_only=True, allow_null=True)
    dp_bank = MoneyField(allow_null=True)
    settings_version = serializers.IntegerField(source="settings.version", read_only=True)
    dp_seat = serializers.IntegerField(
        source="dp_seating.seat", default=None, allow_null=True, read_only=True
    )

    class Meta:
        model = Hand
        fields = [
            "id",
            "table",
            "session",
            "number",
            "status",
            "settings_version",
            "dp_seating",
            "dp_seat",
            "dp_bank",
            "card_source",
            "dealer_cards",
            "misdeal",
            "started_by",
            "started_at",
            "settled_at",
        ]

    def to_representation(self, hand: Hand) -> dict[str, Any]:
        data = super().to_representation(hand)
        viewer = self.context.get("viewer")
        hidden = hand.status not in (Hand.Status.SETTLED, Hand.Status.DEAD)
        if hidden and viewer is not None and not viewer.sees_live_cards(hand.table_id):
            data["dealer_cards"] = None
            for spot in data.get("spots", ()):
                spot["cards"] = None
        return data


class HandDetailOut(HandOut):
    spots = SpotOut(many=True, read_only=True)
    settlements = SettlementOut(many=True, read_only=True)

    class Meta(HandOut.Meta):
        fields = [*HandOut.Meta.fields, "spots", "settlements"]


def with_viewer(context: dict[str, Any], request: Request) -> dict[str, Any]:
    """Reads of hands carry who reads them, for the redaction of live cards."""
    return {**context, "viewer": table_selectors.viewer(request.user)}


def hand_answer(hand: Hand, *, spots: list[Spot] | None = None) -> dict:
    """What a step answers: the hand as its service left it (the service's own instance, read
    and locked with its settings and DP seating, then saved), with its spots as the service
    kept them (``wagers.selectors.spots_now``: a batch of wagers or decisions, the cards), else
    read once after the step (or ``spots``, known), and its settlements — none while it is in
    progress. The same as reading the hand again (``HandDetailOut``), at no query or one
    instead of three."""
    if spots is None:
        spots = wagers_selectors.spots_now(hand)
    data = bound(HandOut).to_representation(hand)
    data["spots"] = [bound(SpotOut).to_representation(spot) for spot in spots]
    settlements = [] if hand.status in Hand.IN_PROGRESS else Settlement.objects.filter(hand=hand)
    data["settlements"] = [bound(SettlementOut).to_representation(s) for s in settlements]
    return data


def new_hand_answer(hand: Hand) -> dict:
    """A hand just started, as ``hand_start`` returns it: no spot yet, nothing to read."""
    return hand_answer(hand, spots=[])


_serializers = threading.local()


def bound(serializer: type[serializers.Serializer]) -> serializers.Serializer:
    """One instance of an output serializer per thread, its fields built once: DRF builds a
    ModelSerializer's fields from the model on every new instance, which cost a hand's answer
    about 1 ms of its 1.3 (representing an instance changes nothing in the serializer)."""
    found = getattr(_serializers, serializer.__name__, None)
    if found is None:
        found = serializer(context={})
        setattr(_serializers, serializer.__name__, found)
    return found
