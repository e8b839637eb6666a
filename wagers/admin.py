"""The admin's view of hands: read-only. Hands move through their states only by the services
(each action audited, R17); settlements are append-only and corrected by new entries."""

from django.contrib import admin

from cardroom.kernel.admin import ReadOnlyAdmin, ReadOnlyTabularInline

from .models import Hand, Settlement, Spot, SpotSettlement, WagerSettlement


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
