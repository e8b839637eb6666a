from django.apps import AppConfig


class AuditConfig(AppConfig):
    """The append-only, hash-chained audit log."""

    name = "audit"
