"""The admin's view of the cage's records: append-only, read-only."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin

from .models import (
    CageCount,
    CageEntry,
    CageShift,
    ChipIssue,
    CurrencyExchange,
    DayClose,
    DropBox,
    DropBoxStep,
    DropCount,
    DropCountCorrection,
    DropCountCounter,
    DropSlipOriginal,
    InventoryCount,
    Marker,
    MarkerPayment,
    PlayerAccountEntry,
    SerialCounter,
    ShiftClose,
    Slip,
    SlipDelivery,
    SlipOriginal,
    SlipPrint,
    SlipStep,
    SlipVoid,
    Variance,
    VarianceSignOff,
)


@admin.register(InventoryCount)
class InventoryCountAdmin(ReadOnlyAdmin):
    list_display = ["table", "kind", "gaming_day", "shift", "total", "book_total", "created_at"]
    list_filter = ["kind", "table"]
    list_select_related = ["table"]


@admin.register(Slip)
class SlipAdmin(ReadOnlyAdmin):
    list_display = ["number", "kind", "table", "total", "gaming_day", "shift", "requested_at"]
    list_filter = ["kind", "table"]
    list_select_related = ["table"]


@admin.register(DropCount)
class DropCountAdmin(ReadOnlyAdmin):
    list_display = ["table", "gaming_day", "shift", "total", "expected_total", "variance"]
    list_filter = ["table"]
    list_select_related = ["table"]


@admin.register(ShiftClose)
class ShiftCloseAdmin(ReadOnlyAdmin):
    list_display = ["cardroom", "gaming_day", "shift", "closed_by", "closed_at"]


@admin.register(DayClose)
class DayCloseAdmin(ReadOnlyAdmin):
    list_display = ["cardroom", "gaming_day", "closed_by", "closed_at"]


@admin.register(SlipStep)
class SlipStepAdmin(ReadOnlyAdmin):
    list_display = ["slip", "step", "person", "at"]
    list_filter = ["step"]
    list_select_related = ["slip", "person"]


@admin.register(DropBox)
class DropBoxAdmin(ReadOnlyAdmin):
    list_display = ["identifier", "table", "kind", "gaming_day", "shift", "issued_at"]
    list_select_related = ["table"]


@admin.register(Variance)
class VarianceAdmin(ReadOnlyAdmin):
    list_display = ["gaming_day", "shift", "table", "source", "amount", "regulator", "incident"]
    list_filter = ["source", "regulator"]
    list_select_related = ["table"]


for model in (
    SerialCounter,
    SlipDelivery,
    SlipVoid,
    SlipPrint,
    SlipOriginal,
    VarianceSignOff,
    DropBoxStep,
    DropCountCounter,
    DropSlipOriginal,
    DropCountCorrection,
):
    admin.site.register(model, ReadOnlyAdmin)


@admin.register(CageEntry)
class CageEntryAdmin(ReadOnlyAdmin):
    list_display = ["cardroom", "kind", "gaming_day", "chips_total", "cash", "by", "created_at"]
    list_filter = ["kind"]


admin.site.register([CageCount, CageShift, ChipIssue], ReadOnlyAdmin)


@admin.register(PlayerAccountEntry)
class PlayerAccountEntryAdmin(ReadOnlyAdmin):
    list_display = ["player", "account", "amount", "balance", "by", "created_at"]
    list_filter = ["account"]
    list_select_related = ["player", "by"]


@admin.register(Marker)
class MarkerAdmin(ReadOnlyAdmin):
    list_display = ["id", "player", "amount", "issued_as", "by", "created_at"]
    list_select_related = ["player", "by"]


@admin.register(MarkerPayment)
class MarkerPaymentAdmin(ReadOnlyAdmin):
    list_display = ["marker", "amount", "outstanding", "by", "created_at"]
    list_select_related = ["marker", "by"]


@admin.register(CurrencyExchange)
class CurrencyExchangeAdmin(ReadOnlyAdmin):
    list_display = ["player", "amount", "currency", "foreign_amount", "by", "created_at"]
    list_select_related = ["player", "by"]
