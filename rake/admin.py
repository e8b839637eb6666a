"""The admin's view of the fee ledger (R12): append-only, read-only."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin

from .models import FeeEntry


@admin.register(FeeEntry)
class FeeEntryAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "gaming_day",
        "payer",
        "seat",
        "amount",
        "rake_mode",
        "created_at",
    ]
    list_filter = ["payer", "rake_mode", "table"]
    list_select_related = ["table"]
    search_fields = ["table__name"]
    date_hierarchy = "gaming_day"
