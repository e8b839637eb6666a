from django.apps import AppConfig


class ApiConfig(AppConfig):
    """Shared API machinery; its one model remembers idempotency keys."""

    name = "cardroom.api"
    label = "api"

    def ready(self) -> None:
        from . import signals  # noqa: F401 - connects the receivers
