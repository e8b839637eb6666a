"""REST API for hands, what it reads: the bodies of a hand's steps, checked before any service
runs."""

from __future__ import annotations

from rest_framework import serializers

from cardroom.api.fields import (
    BoundedDictField,
    CardsField,
    IdField,
    MoneyField,
    SeatField,
)
from cardroom.api.inputs import StrictSerializer
from engine.table import MAX_SEATS, MAX_SPOTS

# --- input ----------------------------------------------------------------------------------


class HandStartIn(StrictSerializer):
    dp_bank = MoneyField(required=False, allow_null=True, default=None)
    refusals = serializers.ListField(
        child=SeatField(), required=False, default=list, max_length=MAX_SEATS
    )
    draw_cards = BoundedDictField(
        child=serializers.CharField(max_length=4),
        required=False,
        allow_null=True,
        default=None,
        max_length=MAX_SEATS,
    )


class WagerIn(StrictSerializer):
    seating = IdField()
    seat = SeatField(required=False, allow_null=True, default=None)
    ante = MoneyField()
    flush_bonus = MoneyField(required=False, default="0")
    straight_flush_bonus = MoneyField(required=False, default="0")


class CardsIn(StrictSerializer):
    dealer_cards = CardsField()
    spot_cards = BoundedDictField(
        child=CardsField(), help_text="seat number -> cards", max_length=MAX_SEATS
    )


class DecisionIn(StrictSerializer):
    seat = SeatField()
    decision = serializers.ChoiceField(choices=["raise", "fold", "walked_away"])
    raise_amount = MoneyField(required=False, allow_null=True, default=None)


class WagersIn(StrictSerializer):
    """Every spot's wager of a hand in one request; a refusal names ``spots[i].<field>`` and
    places nothing."""

    spots = serializers.ListField(child=WagerIn(), min_length=1, max_length=MAX_SPOTS)


class DecisionsIn(StrictSerializer):
    """Every spot's decision of a hand in one request; a refusal names ``spots[i].<field>``
    and records nothing."""

    spots = serializers.ListField(child=DecisionIn(), min_length=1, max_length=MAX_SPOTS)


class SpotSeatIn(StrictSerializer):
    seat = SeatField()


class MisdealIn(StrictSerializer):
    reason = serializers.ChoiceField(choices=["dealer_card_count", "shuffler_fault"])


class DecisionFix(StrictSerializer):
    decision = serializers.ChoiceField(choices=["raise", "fold", "walked_away"])
    raise_amount = MoneyField(required=False, allow_null=True, default=None)


class CorrectionIn(StrictSerializer):
    reason = serializers.CharField(max_length=2000)
    # The id of the settlement entry corrected: the hand's latest. One made meanwhile by someone
    # else makes it stale: 409, field ``corrects``.
    corrects = serializers.IntegerField(
        min_value=1, help_text="The id of the settlement entry corrected: the hand's latest."
    )
    dealer_cards = CardsField(required=False, allow_null=True, default=None)
    spot_cards = BoundedDictField(
        child=CardsField(), required=False, default=dict, max_length=MAX_SEATS
    )
    # A seat's corrected decision: {"3": {"decision": "raise", "raise_amount": "20"}}.
    decisions = BoundedDictField(
        child=DecisionFix(), required=False, default=dict, max_length=MAX_SEATS
    )
