"""Who works in which cardroom, in the read-only admin (registered by ``tables.admin``)."""

from django.contrib import admin

from core.admin import ReadOnlyAdmin

from .models import CardroomMembership


@admin.register(CardroomMembership)
class CardroomMembershipAdmin(ReadOnlyAdmin):
    list_display = ["user", "cardroom", "granted_by", "granted_at"]
    list_filter = ["cardroom"]
    list_select_related = ["user", "cardroom", "granted_by"]
    search_fields = ["user__username", "cardroom__name"]
