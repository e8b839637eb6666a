from django.apps import AppConfig


class AuditConfig(AppConfig):
    """The append-only, hash-chained audit log."""

    name = "audit"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the login receivers
