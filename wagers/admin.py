"""The admin's view of hands: read-only. Hands move through their states only by the services
(each action audited, R17); settlements are append-only and corrected by new entries."""

from collections.abc import Sequence
from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from core.admin import ReadOnlyAdmin, ReadOnlyTabularInline
from tables.selectors import viewer

from .models import (
    BankBooking,
    DecisionCost,
    FeeBooking,
    Hand,
    IncidentHand,
    Settlement,
    ShufflerReport,
    Spot,
    SpotSettlement,
    WagerSettlement,
)


def cards_hidden(request: HttpRequest, hand: Hand | None) -> bool:
    """A hand in play shows its cards only to its table's dealer on duty and floor
    supervisors, here as in the API and the screens."""
    if hand is None or hand.status not in Hand.IN_PROGRESS:
        return False
    return not viewer(request.user).sees_live_cards(hand.table_id)


def _without(fields: Sequence[Any], name: str) -> list[Any]:
    return [field for field in fields if field != name]


class SpotInline(ReadOnlyTabularInline):
    model = Spot
    fields = [
        "seat",
        "player",
        "ante",
        "flush_bonus",
        "straight_flush_bonus",
        "cards",
        "decision",
        "raise_amount",
        "dead_reason",
    ]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_fields(request, obj)
        return _without(fields, "cards") if cards_hidden(request, obj) else fields

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = super().get_readonly_fields(request, obj)
        return _without(fields, "cards") if cards_hidden(request, obj) else fields


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "number",
        "status",
        "dp_seating",
        "dp_bank",
        "card_source",
        "misdeal",
        "started_by",
        "started_at",
        "settled_at",
    ]
    list_filter = ["status", "card_source", "misdeal", "table"]
    list_select_related = ["table", "dp_seating__player", "dp_seating__table", "started_by"]
    search_fields = ["table__name", "=number"]
    date_hierarchy = "started_at"
    inlines = [SpotInline]

    def get_exclude(self, request: HttpRequest, obj: Hand | None = None) -> list[str]:
        excluded = list(super().get_exclude(request, obj) or [])
        return [*excluded, "dealer_cards"] if cards_hidden(request, obj) else excluded


@admin.register(Spot)
class SpotAdmin(ReadOnlyAdmin):
    list_display = [
        "hand",
        "seat",
        "player",
        "ante",
        "flush_bonus",
        "straight_flush_bonus",
        "decision",
        "raise_amount",
        "dead_reason",
    ]
    list_filter = ["decision", "dead_reason", "hand__table"]
    list_select_related = ["hand__table", "player"]
    search_fields = ["player__name", "hand__table__name"]

    def get_exclude(self, request: HttpRequest, obj: Spot | None = None) -> list[str]:
        excluded = list(super().get_exclude(request, obj) or [])
        hidden = obj is not None and cards_hidden(request, obj.hand)
        return [*excluded, "cards"] if hidden else excluded


class SpotSettlementInline(ReadOnlyTabularInline):
    model = SpotSettlement
    fields = ["seat", "status", "dead_reason", "rake", "net", "paid_back"]


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyAdmin):
    list_display = [
        "hand",
        "entry",
        "kind",
        "house_rake",
        "dealer_net",
        "created_by",
        "created_at",
    ]
    list_filter = ["kind", "hand__table"]
    list_select_related = ["hand__table", "created_by"]
    search_fields = ["hand__table__name", "reason"]
    date_hierarchy = "created_at"
    inlines = [SpotSettlementInline]


class WagerSettlementInline(ReadOnlyTabularInline):
    model = WagerSettlement
    fields = ["wager", "stake", "outcome", "net"]


@admin.register(SpotSettlement)
class SpotSettlementAdmin(ReadOnlyAdmin):
    list_display = ["settlement", "seat", "status", "dead_reason", "rake", "net", "paid_back"]
    list_filter = ["status", "dead_reason"]
    list_select_related = ["settlement__hand__table"]
    search_fields = ["settlement__hand__table__name"]
    inlines = [WagerSettlementInline]


@admin.register(WagerSettlement)
class WagerSettlementAdmin(ReadOnlyAdmin):
    list_display = ["spot_settlement", "wager", "stake", "outcome", "net"]
    list_filter = ["wager", "outcome"]
    list_select_related = ["spot_settlement__settlement__hand__table"]


@admin.register(FeeBooking)
class FeeBookingAdmin(ReadOnlyAdmin):
    list_display = ["fee", "hand", "settlement"]
    list_select_related = ["fee__table", "hand__table", "settlement__hand__table"]
    search_fields = ["hand__table__name"]


@admin.register(IncidentHand)
class IncidentHandAdmin(ReadOnlyAdmin):
    list_display = ["incident", "hand"]
    list_select_related = ["incident", "hand__table"]
    search_fields = ["hand__table__name"]


@admin.register(BankBooking)
class BankBookingAdmin(ReadOnlyAdmin):
    list_display = ["bank_entry", "settlement"]
    list_select_related = ["bank_entry__table", "settlement__hand__table"]
    search_fields = ["settlement__hand__table__name"]


@admin.register(ShufflerReport)
class ShufflerReportAdmin(ReadOnlyAdmin):
    """Each message of a table's shuffler, once: dealt or refused, and why."""

    list_display = ["device", "sequence", "outcome", "field", "hand", "received_at"]
    list_filter = ["outcome"]
    list_select_related = ["device__table", "hand__table"]
    search_fields = ["device__serial", "=sequence"]

    def get_exclude(self, request: HttpRequest, obj: ShufflerReport | None = None) -> list[str]:
        # The answer holds the hand's cards: hidden while it is in play, as on the hand.
        excluded = list(super().get_exclude(request, obj) or [])
        hidden = obj is not None and cards_hidden(request, obj.hand)
        return [*excluded, "answer"] if hidden else excluded


@admin.register(DecisionCost)
class DecisionCostAdmin(ReadOnlyAdmin):
    """Each raise-or-fold decision valued against the best play for its cards (R8)."""

    list_display = ["settlement", "seat", "decision", "best_play", "cost", "computed_at"]
    list_filter = ["decision", "best_play"]
    list_select_related = ["settlement__hand__table"]
    search_fields = ["settlement__hand__table__name"]
