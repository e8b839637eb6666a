"""The admin's view of tables: everything is read-only (core.admin.ReadOnlyAdmin); tables
are configured, opened and played through the services so that every change is checked and
audited (R17). Settings versions, stack entries and rotation records are append-only."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin, ReadOnlyTabularInline
from patrons.models import Cardroom, Player

from .models import (
    DealerAssignment,
    DealerShift,
    DeviceToken,
    GameStop,
    HouseBankEntry,
    IncidentTable,
    Rack,
    RotationRecord,
    Seating,
    ShiftDefinition,
    ShufflerDevice,
    Signature,
    StackEntry,
    StaffLineage,
    StaffProfile,
    Table,
    TableCash,
    TableSession,
    TableSettings,
    TwoPersonChange,
    TwoPersonDecision,
    Waitlist,
    WaitlistEntry,
)
from .staff_models import ExclusionEndChange, PaytableChange, SelfApprovalChange, SettingChange


@admin.register(Cardroom)
class CardroomAdmin(ReadOnlyAdmin):
    list_display = ["name", "time_zone", "gaming_day_starts_at", "self_approval_allowed"]
    search_fields = ["name"]


@admin.register(SelfApprovalChange)
class SelfApprovalChangeAdmin(ReadOnlyAdmin):
    """R17's self-approval switch: a kind of two-person change."""

    list_display = ["cardroom", "allowed", "status", "proposed_by", "proposed_at"]
    list_select_related = ["cardroom", "proposed_by", "decision"]
    search_fields = ["cardroom__name", "reason"]


@admin.register(ExclusionEndChange)
class ExclusionEndChangeAdmin(ReadOnlyAdmin):
    """A house bar's end: a kind of two-person change."""

    list_display = ["id", "cardroom", "reason", "proposed_by", "proposed_at"]
    list_select_related = ["cardroom", "proposed_by"]
    search_fields = ["reason", "proposed_by__username"]


class TableSettingsInline(ReadOnlyTabularInline):
    model = TableSettings
    fields = [
        "version",
        "created_at",
        "ante_min",
        "ante_max",
        "bonus_min",
        "bonus_max",
        "chip_unit",
        "bonus_mode",
        "rake_mode",
        "rake_amount",
    ]


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["name", "cardroom", "banking", "seat_count", "created_at"]
    list_filter = ["banking", "cardroom"]
    list_select_related = ["cardroom"]
    search_fields = ["name", "cardroom__name"]
    inlines = [TableSettingsInline]


@admin.register(TableSettings)
class TableSettingsAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "version",
        "created_at",
        "ante_min",
        "ante_max",
        "bonus_min",
        "bonus_max",
        "chip_unit",
        "bonus_mode",
        "rake_mode",
        "rake_amount",
    ]
    list_filter = ["bonus_mode", "rake_mode", "table"]
    list_select_related = ["table"]
    search_fields = ["table__name"]


@admin.register(SettingChange)
class SettingChangeAdmin(ReadOnlyAdmin):
    """R17: changes to a table's settings, a kind of two-person change."""

    list_display = [
        "id",
        "table",
        "status",
        "proposed_by",
        "proposed_at",
        "decided_by",
        "decided_at",
        "self_approved",
        "version",
    ]
    list_filter = ["table"]
    list_select_related = ["table", "proposed_by", "decision__decided_by"]
    search_fields = ["table__name", "reason", "proposed_by__username"]
    date_hierarchy = "proposed_at"


@admin.register(PaytableChange)
class PaytableChangeAdmin(ReadOnlyAdmin):
    """R17: proposals to add a paytable to a cardroom's catalogue or retire one."""

    list_display = [
        "id",
        "cardroom",
        "paytable",
        "lines",
        "action",
        "origin",
        "status",
        "proposed_by",
        "proposed_at",
    ]
    list_filter = ["cardroom"]
    list_select_related = ["cardroom", "proposed_by", "decision"]
    search_fields = ["cardroom__name", "reason", "proposed_by__username"]
    date_hierarchy = "proposed_at"


@admin.register(TableSession)
class TableSessionAdmin(ReadOnlyAdmin):
    list_display = ["table", "dealer", "opened_by", "opened_at", "closed_by", "closed_at"]
    list_filter = ["table", ("closed_at", admin.EmptyFieldListFilter)]
    list_select_related = ["table", "dealer", "opened_by", "closed_by"]
    search_fields = ["table__name", "dealer__username"]
    date_hierarchy = "opened_at"


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ["name", "cardroom", "created_at"]
    list_filter = ["cardroom"]
    list_select_related = ["cardroom"]
    search_fields = ["name"]


class StackEntryInline(ReadOnlyTabularInline):
    model = StackEntry
    fields = ["created_at", "amount", "reason", "actor"]


@admin.register(Seating)
class SeatingAdmin(ReadOnlyAdmin):
    list_display = [
        "player",
        "table",
        "seat",
        "stack",
        "sat_at",
        "left_at",
        "sitting_out",
        "dp_waiver",
        "proposition_player",
    ]
    list_filter = [
        ("left_at", admin.EmptyFieldListFilter),
        "sitting_out",
        "dp_waiver",
        "proposition_player",
        "table",
    ]
    list_select_related = ["player", "table"]
    search_fields = ["player__name", "table__name"]
    inlines = [StackEntryInline]


@admin.register(StackEntry)
class StackEntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "seating", "amount", "reason", "actor", "created_at"]
    list_filter = ["reason", "seating__table"]
    list_select_related = ["seating__player", "seating__table", "actor"]
    search_fields = ["seating__player__name", "seating__table__name"]
    date_hierarchy = "created_at"


@admin.register(HouseBankEntry)
class HouseBankEntryAdmin(ReadOnlyAdmin):
    list_display = ["id", "table", "amount", "reason", "reference", "gaming_day", "shift"]
    list_filter = ["reason", "table"]
    list_select_related = ["table"]
    date_hierarchy = "created_at"


@admin.register(TableCash)
class TableCashAdmin(ReadOnlyAdmin):
    list_display = ["cash_transaction", "table", "stack_entry"]
    list_select_related = ["cash_transaction__player", "table", "stack_entry__seating__table"]
    search_fields = ["table__name"]


@admin.register(Rack)
class RackAdmin(ReadOnlyAdmin):
    """A house-banked table's rack by the books: the one row per table that the counts, fills,
    credits, chip sales and payouts move (through the services, never here)."""

    list_display = ["table", "cents", "pieces"]
    list_select_related = ["table"]
    search_fields = ["table__name"]


@admin.register(IncidentTable)
class IncidentTableAdmin(ReadOnlyAdmin):
    list_display = ["incident", "table"]
    list_select_related = ["incident", "table"]
    search_fields = ["table__name"]


@admin.register(ShiftDefinition)
class ShiftDefinitionAdmin(ReadOnlyAdmin):
    list_display = ["cardroom", "effective_from", "shifts", "defined_by", "defined_at"]
    list_select_related = ["cardroom", "defined_by"]


@admin.register(RotationRecord)
class RotationRecordAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "created_at",
        "method",
        "designated_player",
        "player",
        "proposition_player",
        "consecutive",
    ]
    list_filter = ["method", "proposition_player", "table"]
    list_select_related = [
        "table",
        "player",
        "designated_player__player",
        "designated_player__table",
    ]
    search_fields = ["table__name", "player__name"]
    date_hierarchy = "created_at"


@admin.register(GameStop)
class GameStopAdmin(ReadOnlyAdmin):
    list_display = [
        "table",
        "stopped_at",
        "window_minutes",
        "hands",
        "restarted_by",
        "restarted_at",
    ]
    list_filter = ["table"]
    list_select_related = ["table", "restarted_by"]
    search_fields = ["table__name", "note"]
    date_hierarchy = "stopped_at"


# --- staff accounts, signatures and two-person changes -------------------------------------


@admin.register(StaffProfile)
class StaffProfileAdmin(ReadOnlyAdmin):
    # The PIN's hash is not shown: it is nobody's business but its person's.
    fields = ["user", "set_up_at", "password_change_due", "pin_set_at", "signing_failures",
              "signing_locked_until"]  # fmt: skip
    list_display = ["user", "set_up_at", "password_change_due", "pin_set_at", "signing_failures"]
    list_select_related = ["user"]
    search_fields = ["user__username", "user__first_name", "user__last_name"]


@admin.register(StaffLineage)
class StaffLineageAdmin(ReadOnlyAdmin):
    list_display = ["account", "how", "maker", "role", "at"]
    list_select_related = ["account", "maker"]
    search_fields = ["account__username", "maker__username", "role"]


@admin.register(Signature)
class SignatureAdmin(ReadOnlyAdmin):
    list_display = ["record_type", "record_id", "capacity", "signer", "method", "signed_at"]
    list_select_related = ["signer"]
    list_filter = ["record_type", "capacity", "method"]
    search_fields = ["signer__username", "record_type", "session", "device"]


@admin.register(TwoPersonChange)
class TwoPersonChangeAdmin(ReadOnlyAdmin):
    list_display = ["id", "kind", "cardroom", "table", "subject", "proposed_by", "proposed_at"]
    list_select_related = ["cardroom", "table", "subject", "proposed_by"]
    list_filter = ["kind"]
    search_fields = ["reason", "proposed_by__username", "subject__username"]


@admin.register(TwoPersonDecision)
class TwoPersonDecisionAdmin(ReadOnlyAdmin):
    list_display = ["change", "outcome", "decided_by", "decided_at", "self_approved", "result"]
    list_select_related = ["change", "decided_by", "result"]
    list_filter = ["outcome"]
    search_fields = ["reason", "decided_by__username"]


class DeviceTokenInline(ReadOnlyTabularInline):
    model = DeviceToken
    fields = ["prefix", "created_by", "created_at", "revoked_at"]


@admin.register(ShufflerDevice)
class ShufflerDeviceAdmin(ReadOnlyAdmin):
    """A table's card-reading shuffler or shoe: registered, rotated and revoked through
    ``tables.services.devices`` (audited)."""

    list_display = ["table", "kind", "make", "model", "serial", "registered_at", "revoked_at"]
    list_filter = ["kind", "table"]
    list_select_related = ["table"]
    search_fields = ["serial", "make", "model", "table__name"]
    inlines = [DeviceTokenInline]


@admin.register(DeviceToken)
class DeviceTokenAdmin(ReadOnlyAdmin):
    """A device's credential, by its prefix: the digest stays out of sight."""

    list_display = ["prefix", "device", "created_by", "created_at", "revoked_at"]
    list_select_related = ["device__table", "created_by"]
    search_fields = ["prefix", "device__serial"]
    exclude = ["digest"]


class WaitlistEntryInline(ReadOnlyTabularInline):
    model = WaitlistEntry
    fields = ["position", "name", "channel", "status", "joined_at", "called_table", "called_seat"]


@admin.register(Waitlist)
class WaitlistAdmin(ReadOnlyAdmin):
    """A list per game and limits: changed through ``tables.services.waitlist`` (audited)."""

    list_display = ["cardroom", "banking", "ante_min", "ante_max", "opened_at"]
    list_filter = ["banking", "cardroom"]
    list_select_related = ["cardroom"]
    inlines = [WaitlistEntryInline]


@admin.register(WaitlistEntry)
class WaitlistEntryAdmin(ReadOnlyAdmin):
    list_display = ["name", "waitlist", "position", "channel", "status", "joined_at", "called_at"]
    list_filter = ["status", "channel"]
    list_select_related = ["waitlist__cardroom"]
    search_fields = ["name", "player__name"]
    date_hierarchy = "joined_at"


@admin.register(DealerShift)
class DealerShiftAdmin(ReadOnlyAdmin):
    """A dealer's clock-in to clock-out: made through ``tables.services.dealer_shifts``."""

    list_display = ["dealer", "cardroom", "clocked_in_at", "clocked_out_at"]
    list_filter = ["cardroom"]
    list_select_related = ["dealer", "cardroom"]
    search_fields = ["dealer__username", "dealer__first_name", "dealer__last_name"]


@admin.register(DealerAssignment)
class DealerAssignmentAdmin(ReadOnlyAdmin):
    """Where a clocked-in dealer was, from–to: at a table, or on break (pushes and breaks)."""

    list_display = ["dealer", "kind", "table", "started_at", "ended_at"]
    list_filter = ["kind", "table"]
    list_select_related = ["dealer", "table"]
    search_fields = ["dealer__username", "dealer__last_name", "table__name"]


from . import membership_admin  # noqa: E402, F401 - who works where, its own module
