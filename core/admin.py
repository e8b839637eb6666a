"""What the apps' admin classes share: the admin site shows records, it never writes them.

Every write goes through a service, which checks the rules and the actor's role and appends
the audit event in the same transaction (design.md). An admin form would bypass all three,
so every model is read-only in the admin: no add, no change, no delete — only view.
Records the rules say are never edited are also append-only in the database (core.db).
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model admin that shows, and never adds, changes or deletes."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class ReadOnlyTabularInline(admin.TabularInline):
    """Related rows listed on a record's page, read-only like the record."""

    extra = 0
    can_delete = False
    show_change_link = True

    def get_readonly_fields(self, request: HttpRequest, obj: Model | None = None) -> list[str]:
        return [name for name in self.fields or [] if isinstance(name, str)]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
